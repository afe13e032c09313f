/** The PostgreSQL engine, one database shared by several processes or hosts; its parts live here, one file per concern, named as their twins in ../sqlite/. */
import type pg from "pg";
import type { Store } from "../store.ts";
import { Connections, messageOf } from "./connections.ts";
import { postgresEventTypes } from "./event-types.ts";
import { postgresIdempotency } from "./idempotency.ts";
import { applyPostgresMigrations } from "./migrations.ts";
import { describeTarget, openPool, sessionSettings } from "./pools.ts";
import { PostgresRateLimiter } from "./rate-limiter.ts";
import { postgresReservations } from "./reservations.ts";
import { postgresOutbox } from "./outbox.ts";
import { postgresConsoleSessions } from "./console-sessions.ts";
import { postgresBusy } from "./busy.ts";
import { postgresHosts, postgresSchedules } from "./hosts.ts";
import { postgresTimeOff } from "./time-off.ts";
import { resealPostgres } from "./secrets.ts";
import { SecretBox } from "../../lib/secrets.ts";

export { PostgresRateLimiter } from "./rate-limiter.ts";

/** Options of `openPostgresStore`. */
export interface PostgresStoreOptions {
  /** Schema holding the tables, created when missing; the connection's default `search_path` otherwise. */
  schema?: string;
  /** Connections this instance keeps at most; 10 by default. */
  poolSize?: number;
  /** Limit of `store.rateLimiter`; 60 requests per 60 s by default, the server's default. */
  rateLimit?: { limit: number; windowSeconds: number };
  /** Told about errors of idle pooled connections (a restarted server, a killed backend); the pool replaces them either way. */
  onConnectionError?: (error: Error) => void;
  /**
   * Judge seat claims by the database's clock rather than the caller's, so several hosts share one
   * time (what `npm start` does). Off by default, for tests that move an injected clock.
   */
  databaseTime?: boolean;
  /**
   * Seals calendar passwords and webhook secrets in the database and opens them again; by default a
   * key made for this process, so what it seals is unreadable after the process ends (tests, throwaway stores).
   */
  secrets?: SecretBox;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens the PostgreSQL store at `url` (`postgres://user@host:5432/db`), for several server processes
 * or hosts sharing one database. Connects once (failing fast, naming host and database, never the
 * password), then applies pending migrations under an advisory lock so instances starting together
 * apply each once. With `schema`, the tables live there (created when missing) and every pooled
 * connection searches it.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const target = describeTarget(url);
  const schema = options.schema ?? null;
  if (schema !== null && !SCHEMA_NAME.test(schema)) throw new Error(`PostgreSQL schema "${schema}" must be a lowercase identifier (a-z, 0-9, _).`);
  const session = sessionSettings(url, schema);

  const poolSize = options.poolSize ?? 10;
  const pool = openPool(url, {
    max: poolSize,
    applicationName: schema === null ? "booking-calendar" : `booking-calendar/${schema}`,
    session,
    onConnectionError: options.onConnectionError,
  });

  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot connect to PostgreSQL at ${target}: ${messageOf(error)}`, { cause: error });
  }
  try {
    await applyPostgresMigrations(client, schema);
    client.release();
  } catch (error) {
    client.release(true);
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot migrate PostgreSQL at ${target}: ${messageOf(error)}`, { cause: error });
  }
  const secrets = options.secrets ?? SecretBox.forThisProcess();
  try {
    await resealPostgres(pool, secrets);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const rateLimit = options.rateLimit ?? { limit: 60, windowSeconds: 60 };
  // Counters are hit by every request; their commits need not wait for the disk (a crash forgets a
  // few counts of the current minute), so they get connections of their own that do not.
  const counterPool = openPool(url, {
    max: Math.max(2, Math.ceil(poolSize / 2)),
    applicationName: schema === null ? "booking-calendar/counters" : `booking-calendar/${schema}/counters`,
    session: [...session, "-c synchronous_commit=off"],
    onConnectionError: options.onConnectionError,
  });
  return new PostgresStore(
    new Connections(pool, target, poolSize),
    new PostgresRateLimiter(counterPool, rateLimit.limit, rateLimit.windowSeconds),
    options.databaseTime ?? false,
    secrets,
  );
}

/**
 * The store on PostgreSQL. Seat safety across instances rests on one rule: seats are taken only by
 * claims, and a claim holds transaction-level advisory locks on the time buckets it reads and
 * writes (exclusive where it writes, shared where it only reads) before it reads the seat holders.
 * Any two claims where one may write into the other's window meet on a bucket, so the later one
 * reads only after the earlier committed (READ COMMITTED takes a new snapshot per statement), which
 * keeps confirmed plus held within the seats; claims of slots that cannot overlap share no
 * exclusive lock and run in parallel. Locks are taken in one key order, and row locks after them
 * (the reservation's row, then a revision counter with COMMIT), so no two writers deadlock.
 */
class PostgresStore implements Store {
  readonly engine = "postgres";
  readonly hosts: Store["hosts"];
  readonly schedules: Store["schedules"];
  readonly timeOff: Store["timeOff"];
  readonly eventTypes: Store["eventTypes"];
  readonly reservations: Store["reservations"];
  readonly outbox: Store["outbox"];
  readonly webhooks: Store["webhooks"];
  readonly idempotency: Store["idempotency"];
  readonly busy: Store["busy"];
  readonly consoleSessions: Store["consoleSessions"];

  constructor(
    private readonly db: Connections,
    readonly rateLimiter: PostgresRateLimiter,
    databaseTime: boolean,
    secrets: SecretBox,
  ) {
    this.hosts = postgresHosts(db);
    this.schedules = postgresSchedules(db);
    this.timeOff = postgresTimeOff(db);
    this.eventTypes = postgresEventTypes(db, secrets);
    this.reservations = postgresReservations(db, rateLimiter, databaseTime);
    this.outbox = postgresOutbox(db);
    this.webhooks = this.outbox.channel("webhook");
    this.idempotency = postgresIdempotency(db);
    this.consoleSessions = postgresConsoleSessions(db);
    this.busy = postgresBusy(db, secrets);
  }

  attemptLimiter(name: string, limit: number, windowSeconds: number): PostgresRateLimiter {
    return this.rateLimiter.another(name, limit, windowSeconds);
  }

  async close(): Promise<void> {
    await Promise.all([this.db.pool.end(), this.rateLimiter.close()]);
  }
}
