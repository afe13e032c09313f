/** The SQLite engine, one file served by one connection per process; its parts live here, one file per concern, named as their twins in ../postgres/. */
import type { Store } from "../store.ts";
import { sqliteConsoleSessions } from "./console-sessions.ts";
import { sqliteBusy } from "./busy.ts";
import { openDatabase, SqliteConnection } from "./connection.ts";
import { sqliteEventTypes } from "./event-types.ts";
import { sqliteHosts, sqliteSchedules } from "./hosts.ts";
import { sqliteTimeOff } from "./time-off.ts";
import { sqliteIdempotency } from "./idempotency.ts";
import { applySqliteMigrations } from "./migrations.ts";
import { sqliteReservations } from "./reservations.ts";
import { resealSqlite } from "./secrets.ts";
import { sqliteOutbox } from "./outbox.ts";
import { SqliteAttemptLimits } from "./rate-limiter.ts";
import { SecretBox } from "../../lib/secrets.ts";

/** Options of `openSqliteStore`. */
export interface SqliteStoreOptions {
  /**
   * Seals calendar passwords and webhook secrets in the file and opens them again; by default a key
   * made for this process, so what it seals is unreadable after the process ends (tests, throwaway stores).
   */
  secrets?: SecretBox;
}

/**
 * Opens (creating when needed) the embedded SQLite store at `path` (`:memory:` allowed), in WAL mode,
 * and applies pending migrations inside one immediate transaction, so processes starting together
 * on one file apply each migration once.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const db = openDatabase(path);
  const secrets = options.secrets ?? SecretBox.forThisProcess();
  try {
    applySqliteMigrations(db);
    resealSqlite(db, secrets);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteStore(new SqliteConnection(db), secrets);
}

/**
 * The store on SQLite: one connection of one process, each of whose writes runs in an immediate
 * transaction, so the write lock of the file makes the writes of every process on it take turns.
 * Every statement is prepared once, when the store opens.
 */
class SqliteStore implements Store {
  readonly engine = "sqlite";
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
  private readonly attempts: SqliteAttemptLimits;

  constructor(
    private readonly connection: SqliteConnection,
    secrets: SecretBox,
  ) {
    this.hosts = sqliteHosts(connection);
    this.schedules = sqliteSchedules(connection);
    this.timeOff = sqliteTimeOff(connection);
    this.eventTypes = sqliteEventTypes(connection, secrets);
    this.attempts = new SqliteAttemptLimits(connection);
    this.reservations = sqliteReservations(connection, this.attempts);
    this.outbox = sqliteOutbox(connection);
    this.webhooks = this.outbox.channel("webhook");
    this.idempotency = sqliteIdempotency(connection);
    this.consoleSessions = sqliteConsoleSessions(connection);
    this.busy = sqliteBusy(connection, secrets);
  }

  attemptLimiter(name: string, limit: number, windowSeconds: number) {
    return this.attempts.limiter(name, limit, windowSeconds);
  }

  async close(): Promise<void> {
    this.connection.db.close();
  }
}
