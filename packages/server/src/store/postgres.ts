import pg from "pg";
import { EXPIRED_GRACE_MS } from "../domain/reservation.ts";
import type { RateDecision, RateLimiter } from "../http/rate-limit.ts";
import { applyPostgresMigrations } from "./postgres-migrations.ts";
import {
  StoreBusyError,
  type EventTypeChange,
  type EventTypeRecord,
  type IdempotencyState,
  type NewEventType,
  type OutboxEvent,
  type ReservationQuery,
  type ReservationRecord,
  type SeatClaim,
  type SeatDecision,
  type SeatHolder,
  type Store,
  type WebhookAttempt,
  type WebhookDelivery,
} from "./types.ts";

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
}

/** Waiting for a new connection (or a free one of the pool) beyond this is a failure, not a hang. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * Writes other than a seat claim wait this long for a row lock, then answer StoreBusyError. Longer
 * than SQLite's 100 ms: a waiting query here stalls nothing else in the process.
 */
const LOCK_WAIT_MS = 1_000;
/** A seat claim waits this long for its event type's lock, like SQLite's busy wait, then answers slot_locked. */
const CLAIM_LOCK_WAIT_MS = 100;
/** A transaction left open by a stalled process is ended by the server, so it cannot hold an event type's lock for good. */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** Serialization failures and deadlocks are retried this often, then reported as StoreBusyError. */
const RETRIES = 3;
/** Idempotency keys are kept for a day, like the hold grace. */
const IDEMPOTENCY_TTL_MS = EXPIRED_GRACE_MS;
/** A keyed request that registered and then vanished (a crash) frees its key after this long. */
const IDEMPOTENCY_LEASE_MS = 30_000;
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
  // Session settings go in the startup packet, so no connection ever runs a query without them.
  if (/[?&]options=/.test(url)) throw new Error("The PostgreSQL URL must not set `options`: the store sets the session's search_path and timeouts itself.");
  const session = [`-c lock_timeout=${LOCK_WAIT_MS}`, `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`];
  if (schema !== null) session.push(`-c search_path=${schema}`);

  const poolSize = options.poolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: schema === null ? "booking-calendar" : `booking-calendar/${schema}`,
    options: session.join(" "),
    types: NUMERIC_BIGINTS,
  });
  // An idle connection that dies (server restart, killed backend) is dropped by the pool and
  // replaced on the next checkout; without a listener the 'error' event would end the process.
  pool.on("error", (error) => options.onConnectionError?.(error));

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
  const rateLimit = options.rateLimit ?? { limit: 60, windowSeconds: 60 };
  // Counters are hit by every request; their commits need not wait for the disk (a crash forgets a
  // few counts of the current minute), so they get connections of their own that do not.
  const counterPool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil(poolSize / 2)),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: schema === null ? "booking-calendar/counters" : `booking-calendar/${schema}/counters`,
    options: [...session, "-c synchronous_commit=off"].join(" "),
    types: NUMERIC_BIGINTS,
  });
  counterPool.on("error", (error) => options.onConnectionError?.(error));
  return new PostgresStore(new Connections(pool, target, poolSize), new PostgresRateLimiter(counterPool, rateLimit.limit, rateLimit.windowSeconds));
}

/**
 * The `RateLimiter` of several instances: one counter row per key and fixed window aligned to the
 * epoch (the windows of MemoryRateLimiter), counted by a single upsert, so every instance on the
 * database sees the same count. Old windows are deleted by `forgetOldWindows` (the store's sweep).
 */
export class PostgresRateLimiter implements RateLimiter {
  constructor(
    private readonly pool: pg.Pool,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const { rows } = await this.pool.query<{ count: number }>(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
      [key, windowStart],
    );
    const count = rows[0]!.count;
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)),
    };
  }

  /** Deletes windows older than the previous one; the previous stays for an instance whose clock runs a little behind. */
  async forgetOldWindows(nowMs: number): Promise<void> {
    const windowMs = this.windowSeconds * 1000;
    await this.pool.query("DELETE FROM rate_limits WHERE window_start < $1", [(Math.floor(nowMs / windowMs) - 1) * windowMs]);
  }

  /** Ends the counters' own connections. */
  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** bigint columns (ids, epoch milliseconds, counts) as numbers: every value stays far below 2^53. */
const NUMERIC_BIGINTS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** `host:port/database` of a URL, for messages; never the user's password. */
function describeTarget(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error("The PostgreSQL URL must start with postgres:// or postgresql:// (e.g. postgres://user@host:5432/database).");
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get("host") || "localhost";
    return `${host}:${u.port || "5432"}/${decodeURIComponent(u.pathname.slice(1)) || "(default database)"}`;
  } catch {
    // Socket URLs (postgres://user@/db?host=/run/postgresql) are valid for pg, not for WHATWG URL.
    return "the server of the PostgreSQL URL";
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Connecting to a name with several addresses fails with an AggregateError without a message.
  if (error.message === "" && error instanceof AggregateError) return error.errors.map(messageOf).join("; ");
  return error.message || String((error as { code?: unknown }).code ?? error.name);
}

const sqlState = (error: unknown): string | undefined => (error instanceof pg.DatabaseError ? error.code : undefined);

/** Connection exceptions (08) and the server ending the session (57P01-03: terminated, shutting down). */
const LOST_SESSION = /^(08|57P0[123])/;

/** True when the connection itself failed, as opposed to a statement: the client must be discarded. */
function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof pg.DatabaseError) return LOST_SESSION.test(error.code ?? "");
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return true; // ECONNRESET, EPIPE, ETIMEDOUT: the socket failed
  return /^Connection terminated|not queryable|^Query read timeout/.test(error.message);
}

/** Checking out, transactions, retries and the naming of failures: how the engine uses its pool. */
class Connections {
  constructor(
    readonly pool: pg.Pool,
    private readonly target: string,
    /** Connections of the pool: after a server restart each idle one may be dead once, so a safe retry tries this many. */
    private readonly size: number,
  ) {}

  /** One statement in its own implicit transaction; `retryOnLoss` for statements that may safely run twice. */
  async run<R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], retryOnLoss = false): Promise<pg.QueryResult<R>> {
    for (let attempt = 0; ; attempt++) {
      const lease = await this.checkout();
      try {
        return await lease.client.query<R>(sql, params);
      } catch (error) {
        lease.broken(error);
        if (retryOnLoss && attempt < this.size && isConnectionLoss(error)) continue;
        throw this.failure(error);
      } finally {
        lease.release();
      }
    }
  }

  /**
   * Runs `work` between BEGIN and COMMIT on one connection (READ COMMITTED; the work takes the row
   * locks it needs). A serialization failure or deadlock rolls back and runs `work` again, up to
   * RETRIES times with jittered backoff; a connection found dead at BEGIN (nothing done yet) is replaced.
   * Whatever fails, the transaction is rolled back (or its connection discarded) and the client released.
   */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let pauseMs = 0;
    let deadConnections = 0;
    for (let attempt = 0; ; ) {
      if (pauseMs > 0) await Bun.sleep(pauseMs);
      pauseMs = 0;
      const lease = await this.checkout();
      let begun = false;
      try {
        await lease.client.query("BEGIN");
        begun = true;
        const result = await work(lease.client);
        await lease.client.query("COMMIT");
        return result;
      } catch (error) {
        if (begun && !isConnectionLoss(error)) await lease.client.query("ROLLBACK").catch((rollbackError) => lease.broken(rollbackError, true));
        else lease.broken(error, true);
        const state = sqlState(error);
        if ((state === "40001" || state === "40P01") && attempt < RETRIES) {
          pauseMs = (10 << attempt++) * (0.5 + Math.random());
          continue;
        }
        if (!begun && isConnectionLoss(error) && deadConnections++ < this.size) continue;
        throw this.failure(error);
      } finally {
        lease.release();
      }
    }
  }

  /** A pooled client whose connection errors are caught while it is checked out, and which is discarded once broken. */
  private async checkout() {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw new Error(`Cannot reach PostgreSQL at ${this.target}: ${messageOf(error)}`, { cause: error });
    }
    // Between queries a dying connection emits 'error' on the client; unheard, it would end the process.
    let lost: Error | boolean = false;
    const onError = (error: Error) => (lost = error);
    client.on("error", onError);
    return {
      client,
      broken(error: unknown, always = false) {
        if (always || isConnectionLoss(error)) lost = error instanceof Error ? error : true;
      },
      release() {
        client.off("error", onError);
        client.release(lost);
      },
    };
  }

  /** What a caller sees of a failed statement: StoreBusyError for lock waits and exhausted retries, a plain Error for a lost connection. */
  private failure(error: unknown): unknown {
    const state = sqlState(error);
    if (state === "55P03" || state === "40001" || state === "40P01") return new StoreBusyError();
    if (isConnectionLoss(error)) return new Error(`Lost the connection to PostgreSQL at ${this.target}: ${messageOf(error)}`, { cause: error });
    return error;
  }
}

interface EventTypeRow {
  id: number;
  revision: number;
  disabled: boolean;
  token_hash: string;
  override_token_hash: string;
  settings: string;
  webhook_secret: string;
  webhook_disabled_at_ms: number | null;
  created_at: string;
  updated_at: string;
}

interface ReservationRow {
  uuid: string;
  event_type_id: number;
  status: ReservationRecord["status"];
  start_ms: number;
  end_ms: number;
  held_until_ms: number | null;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  timezone: string | null;
  location: string | null;
  guests: string;
  custom_fields: string;
  meet_link: string | null;
  payment: string | null;
  confirmed_at_ms: number | null;
  cancelled_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

interface WebhookRow {
  id: number;
  event_type_id: number;
  reservation_uuid: string;
  kind: OutboxEvent["kind"];
  msg_id: string;
  url: string;
  payload: string;
  status: WebhookDelivery["status"];
  attempts: number;
  next_attempt_at_ms: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at_ms: number | null;
  created_at_ms: number;
}

const toEventType = (r: EventTypeRow): EventTypeRecord => ({
  id: r.id,
  revision: r.revision,
  disabled: r.disabled,
  tokenHash: r.token_hash,
  overrideTokenHash: r.override_token_hash,
  settings: JSON.parse(r.settings),
  webhookSecret: r.webhook_secret,
  webhookDisabledAtMs: r.webhook_disabled_at_ms,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toReservation = (r: ReservationRow): ReservationRecord => ({
  uuid: r.uuid,
  eventTypeId: r.event_type_id,
  status: r.status,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  phone: r.phone,
  timezone: r.timezone,
  location: r.location === null ? null : JSON.parse(r.location),
  guests: JSON.parse(r.guests),
  customFields: JSON.parse(r.custom_fields),
  meetLink: r.meet_link,
  payment: r.payment === null ? null : JSON.parse(r.payment),
  confirmedAtMs: r.confirmed_at_ms,
  cancelledAtMs: r.cancelled_at_ms,
  createdAtMs: r.created_at_ms,
  updatedAtMs: r.updated_at_ms,
});

const toDelivery = (r: WebhookRow): WebhookDelivery => ({
  id: r.id,
  eventTypeId: r.event_type_id,
  reservationUuid: r.reservation_uuid,
  kind: r.kind,
  msgId: r.msg_id,
  url: r.url,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAtMs: r.next_attempt_at_ms,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
  deliveredAtMs: r.delivered_at_ms,
  createdAtMs: r.created_at_ms,
});

/** A reservation's column values, $1 to $21 of INSERT_RESERVATION. */
function reservationValues(r: ReservationRecord): unknown[] {
  return [
    r.uuid, r.eventTypeId, r.status, r.startMs, r.endMs, r.heldUntilMs, r.email, r.firstname, r.lastname, r.phone, r.timezone,
    r.location === null ? null : JSON.stringify(r.location), JSON.stringify(r.guests), JSON.stringify(r.customFields), r.meetLink,
    r.payment === null ? null : JSON.stringify(r.payment), r.payment?.intentId ?? null, r.confirmedAtMs, r.cancelledAtMs,
    r.createdAtMs, r.updatedAtMs,
  ];
}

const INSERT_RESERVATION = `INSERT INTO reservations (uuid, event_type_id, status, start_ms, end_ms, held_until_ms, email, firstname,
  lastname, phone, timezone, location, guests, custom_fields, meet_link, payment, payment_intent_id, confirmed_at_ms,
  cancelled_at_ms, created_at_ms, updated_at_ms)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`;

/** Compare-and-set of a reservation: the values of `reservationValues`, with $20 (created_at_ms, never changed) the expected updated_at_ms. */
const UPDATE_RESERVATION = `UPDATE reservations SET status = $3, start_ms = $4, end_ms = $5, held_until_ms = $6, email = $7,
  firstname = $8, lastname = $9, phone = $10, timezone = $11, location = $12, guests = $13, custom_fields = $14, meet_link = $15,
  payment = $16, payment_intent_id = $17, confirmed_at_ms = $18, cancelled_at_ms = $19, updated_at_ms = $21
  WHERE uuid = $1 AND event_type_id = $2 AND updated_at_ms = $20`;

function updateValues(r: ReservationRecord, expectedUpdatedAtMs: number): unknown[] {
  const values = reservationValues(r);
  values[19] = expectedUpdatedAtMs;
  return values;
}

// The event type's longest reservation bounds how far back an overlapping one can start, which
// keeps the index range scanned short.
const SEAT_HOLDERS = `SELECT uuid, start_ms, end_ms, CASE WHEN status = 'held' THEN held_until_ms END AS held_until_ms FROM reservations
  WHERE event_type_id = $1 AND start_ms < $3 AND end_ms > $2
    AND start_ms >= $2 - (SELECT longest_reservation_ms FROM event_types WHERE id = $1)
    AND (status = 'confirmed' OR (status = 'held' AND held_until_ms > $4))
  ORDER BY start_ms, uuid`;

const toSeatHolder = (r: { uuid: string; start_ms: number; end_ms: number; held_until_ms: number | null }): SeatHolder => ({
  uuid: r.uuid,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
});

const INSERT_EVENT = `INSERT INTO webhook_events (event_type_id, reservation_uuid, kind, msg_id, url, payload, next_attempt_at_ms, created_at_ms)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`;

async function insertEvents(client: pg.PoolClient, events: OutboxEvent[]): Promise<void> {
  for (const e of events) await client.query(INSERT_EVENT, [e.eventTypeId, e.reservationUuid, e.kind, e.msgId, e.url, e.payload, e.createdAtMs]);
}

/** Due, not leased, and first in line for its reservation: an earlier event still pending holds later ones back. */
const DUE = `e.status = 'pending' AND e.next_attempt_at_ms <= $1 AND (e.locked_until_ms IS NULL OR e.locked_until_ms <= $1)`;

/**
 * The store on PostgreSQL. Seat safety across instances rests on one rule: every writer that
 * changes seats (claim, save, sweep, insertMany) first locks the event type's row, in id order when
 * it needs several. A claim therefore reads the seat holders only after every earlier writer of
 * that event type has committed (READ COMMITTED takes a new snapshot per statement) and no other
 * can write until it commits, which is what keeps confirmed plus held within the seats; the one lock
 * order also rules out deadlocks between them.
 */
class PostgresStore implements Store {
  readonly engine = "postgres";
  // Parsing the settings JSON dominates a token lookup; the parsed form is reused while the revision holds.
  private readonly parsed = new Map<number, EventTypeRecord>();
  private readonly settingsText = new Map<number, string>();

  constructor(
    private readonly db: Connections,
    readonly rateLimiter: PostgresRateLimiter,
  ) {}

  private cached(row: EventTypeRow | undefined): EventTypeRecord | null {
    if (!row) return null;
    const hit = this.parsed.get(row.id);
    if (hit && hit.revision === row.revision) return hit;
    // A booking bumps the revision but leaves the settings text alone: keep the parsed settings
    // object, which also keeps what is memoized on it.
    const sameSettings = hit !== undefined && this.settingsText.get(row.id) === row.settings;
    const record = sameSettings ? { ...toEventType({ ...row, settings: "null" }), settings: hit.settings } : toEventType(row);
    this.settingsText.set(row.id, row.settings);
    this.parsed.set(row.id, record);
    return record;
  }

  readonly eventTypes: Store["eventTypes"] = {
    create: async (input: NewEventType, nowIso: string) => {
      const { rows } = await this.db.run<EventTypeRow>(
        `INSERT INTO event_types (token_hash, override_token_hash, disabled, settings, webhook_secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
        [input.tokenHash, input.overrideTokenHash, input.disabled, JSON.stringify(input.settings), input.webhookSecret, nowIso],
      );
      return this.cached(rows[0])!;
    },
    byId: async (id: number) => this.cached((await this.db.run<EventTypeRow>("SELECT * FROM event_types WHERE id = $1", [id], true)).rows[0]),
    byTokenHash: async (tokenHash: string) => {
      // The common case reads two integers; the full row only when the cached revision is stale.
      const head = (await this.db.run<{ id: number; revision: number }>("SELECT id, revision FROM event_types WHERE token_hash = $1", [tokenHash], true)).rows[0];
      if (!head) return null;
      const hit = this.parsed.get(head.id);
      if (hit && hit.revision === head.revision) return hit;
      return this.cached((await this.db.run<EventTypeRow>("SELECT * FROM event_types WHERE token_hash = $1", [tokenHash], true)).rows[0]);
    },
    list: async () => (await this.db.run<EventTypeRow>("SELECT * FROM event_types ORDER BY id", [], true)).rows.map((r) => this.cached(r)!),
    count: async () => (await this.db.run<{ n: number }>("SELECT count(*) AS n FROM event_types", [], true)).rows[0]!.n,
    update: async (id: number, change: EventTypeChange, nowIso: string) => {
      const row = await this.db.transaction(async (c) => {
        const current = (await c.query<EventTypeRow>("SELECT * FROM event_types WHERE id = $1 FOR NO KEY UPDATE", [id])).rows[0];
        if (!current) return undefined;
        const next = { ...toEventType(current), ...change };
        const updated = await c.query<EventTypeRow>(
          `UPDATE event_types SET token_hash = $1, override_token_hash = $2, disabled = $3, settings = $4, webhook_secret = $5,
            webhook_disabled_at_ms = $6, updated_at = $7, revision = revision + 1 WHERE id = $8 RETURNING *`,
          [next.tokenHash, next.overrideTokenHash, next.disabled, JSON.stringify(next.settings), next.webhookSecret, next.webhookDisabledAtMs, nowIso, id],
        );
        return updated.rows[0];
      });
      return this.cached(row);
    },
    delete: async (id: number) => {
      this.parsed.delete(id);
      this.settingsText.delete(id);
      return ((await this.db.run("DELETE FROM event_types WHERE id = $1", [id])).rowCount ?? 0) > 0;
    },
  };

  readonly reservations: Store["reservations"] = {
    seatHolders: async (eventTypeId, fromMs, untilMs, nowMs) =>
      (await this.db.run<Parameters<typeof toSeatHolder>[0]>(SEAT_HOLDERS, [eventTypeId, fromMs, untilMs, nowMs], true)).rows.map(toSeatHolder),
    byUuid: async (eventTypeId, uuid) => {
      const row = (await this.db.run<ReservationRow>("SELECT * FROM reservations WHERE event_type_id = $1 AND uuid = $2", [eventTypeId, uuid], true)).rows[0];
      return row ? toReservation(row) : null;
    },
    byPaymentIntent: async (intentId) => {
      const row = (await this.db.run<ReservationRow>("SELECT * FROM reservations WHERE payment_intent_id = $1 LIMIT 1", [intentId], true)).rows[0];
      return row ? toReservation(row) : null;
    },
    list: async (eventTypeId: number, query: ReservationQuery) =>
      (
        await this.db.run<ReservationRow>(
          `SELECT * FROM reservations WHERE event_type_id = $1 AND start_ms < $2 AND end_ms > $3
           AND ($4::text[] IS NULL OR status = ANY($4::text[])) ORDER BY start_ms, uuid LIMIT $5`,
          [eventTypeId, query.untilMs, query.fromMs, query.statuses ?? null, query.limit],
          true,
        )
      ).rows.map(toReservation),
    claim: async (claim: SeatClaim, decide: (holders: SeatHolder[], current: ReservationRecord | null) => SeatDecision) =>
      this.db.transaction(async (c): Promise<{ record: ReservationRecord } | { refused: string }> => {
        // The event type's row is the slot lock of every instance. A claim waits for it as briefly as
        // SQLite's busy wait (claims take milliseconds, so a short queue clears), then answers
        // slot_locked. NO KEY UPDATE excludes every other claim and seat writer alike, yet lets
        // foreign-key checks (idempotency keys, webhook events of other requests) through.
        await c.query(`SET LOCAL lock_timeout = ${CLAIM_LOCK_WAIT_MS}`);
        const locked = await c.query("SELECT id FROM event_types WHERE id = $1 FOR NO KEY UPDATE", [claim.eventTypeId]);
        if (locked.rowCount === 0) throw new Error(`event type ${claim.eventTypeId} does not exist`);
        const currentRow = claim.uuid
          ? (await c.query<ReservationRow>("SELECT * FROM reservations WHERE event_type_id = $1 AND uuid = $2 FOR UPDATE", [claim.eventTypeId, claim.uuid])).rows[0]
          : undefined;
        const holders = (await c.query<Parameters<typeof toSeatHolder>[0]>(SEAT_HOLDERS, [claim.eventTypeId, claim.fromMs, claim.untilMs, claim.nowMs])).rows
          .map(toSeatHolder)
          .filter((h) => h.uuid !== claim.uuid);
        const decision = decide(holders, currentRow ? toReservation(currentRow) : null);
        if ("refuse" in decision) return { refused: decision.refuse };
        const record = decision.write;
        await insertEvents(c, decision.events ?? []);
        if (currentRow) {
          const changed = await c.query(UPDATE_RESERVATION, updateValues(record, currentRow.updated_at_ms));
          if (changed.rowCount !== 1) throw new Error("reservation changed inside its own transaction");
        } else {
          await c.query(INSERT_RESERVATION, reservationValues(record));
        }
        await c.query("UPDATE event_types SET longest_reservation_ms = greatest(longest_reservation_ms, $1), revision = revision + 1 WHERE id = $2", [
          record.endMs - record.startMs,
          claim.eventTypeId,
        ]);
        if (claim.idempotencyKey) {
          await c.query("UPDATE idempotency_keys SET reservation_uuid = $1 WHERE event_type_id = $2 AND key = $3", [record.uuid, claim.eventTypeId, claim.idempotencyKey]);
        }
        return { record };
      }),
    save: async (record: ReservationRecord, expectedUpdatedAtMs: number, events: OutboxEvent[] = []) =>
      this.db.transaction(async (c) => {
        // The event type first, like a claim: one lock order for every seat writer, so no deadlock.
        await c.query("SELECT id FROM event_types WHERE id = $1 FOR NO KEY UPDATE", [record.eventTypeId]);
        const before = (
          await c.query<Pick<ReservationRow, "status" | "start_ms" | "end_ms" | "held_until_ms">>(
            "SELECT status, start_ms, end_ms, held_until_ms FROM reservations WHERE event_type_id = $1 AND uuid = $2 FOR UPDATE",
            [record.eventTypeId, record.uuid],
          )
        ).rows[0];
        const changed = (await c.query(UPDATE_RESERVATION, updateValues(record, expectedUpdatedAtMs))).rowCount === 1;
        if (changed) await insertEvents(c, events);
        // Slot lists and configuration depend on seats only; a payment note leaves their caches alone.
        const seatsMoved =
          before !== undefined &&
          (before.status !== record.status || before.start_ms !== record.startMs || before.end_ms !== record.endMs || before.held_until_ms !== record.heldUntilMs);
        if (changed && seatsMoved) await c.query("UPDATE event_types SET revision = revision + 1 WHERE id = $1", [record.eventTypeId]);
        return changed;
      }),
    sweep: async (nowMs: number) => {
      const swept = await this.db.transaction(async (c) => {
        // Event types with something to write down, locked in id order; one a claim holds right now
        // is skipped (never waited for) and swept next time: expiry is derived from time anyway.
        const locked = await c.query<{ id: number }>(
          `SELECT id FROM event_types WHERE id IN (
             SELECT event_type_id FROM reservations
             WHERE (status = 'held' AND held_until_ms <= $1) OR (status = 'expired' AND (held_until_ms <= $2 OR start_ms <= $1)))
           ORDER BY id FOR NO KEY UPDATE SKIP LOCKED`,
          [nowMs, nowMs - EXPIRED_GRACE_MS],
        );
        const ids = locked.rows.map((r) => r.id);
        let expired: { event_type_id: number }[] = [];
        let cancelled: { event_type_id: number }[] = [];
        if (ids.length > 0) {
          // updated_at_ms only moves forward, so a compare-and-set read before the sweep fails after it.
          expired = (
            await c.query<{ event_type_id: number }>(
              `UPDATE reservations SET status = 'expired', updated_at_ms = greatest(updated_at_ms + 1, $1)
               WHERE status = 'held' AND held_until_ms <= $1 AND event_type_id = ANY($2::bigint[]) RETURNING event_type_id`,
              [nowMs, ids],
            )
          ).rows;
          cancelled = (
            await c.query<{ event_type_id: number }>(
              `UPDATE reservations SET status = 'cancelled', cancelled_at_ms = $1, updated_at_ms = greatest(updated_at_ms + 1, $1)
               WHERE status = 'expired' AND (held_until_ms <= $2 OR start_ms <= $1) AND event_type_id = ANY($3::bigint[]) RETURNING event_type_id`,
              [nowMs, nowMs - EXPIRED_GRACE_MS, ids],
            )
          ).rows;
          const touched = [...new Set([...expired, ...cancelled].map((r) => r.event_type_id))];
          if (touched.length > 0) await c.query("UPDATE event_types SET revision = revision + 1 WHERE id = ANY($1::bigint[])", [touched]);
        }
        await c.query("DELETE FROM idempotency_keys WHERE created_at_ms < $1", [nowMs - IDEMPOTENCY_TTL_MS]);
        return { expired: expired.length, cancelled: cancelled.length };
      });
      await this.rateLimiter.forgetOldWindows(nowMs);
      return swept;
    },
    insertMany: async (records: ReservationRecord[]) => {
      if (records.length === 0) return;
      const longest = new Map<number, number>();
      for (const r of records) longest.set(r.eventTypeId, Math.max(longest.get(r.eventTypeId) ?? 0, r.endMs - r.startMs));
      const ids = [...longest.keys()].sort((a, b) => a - b);
      await this.db.transaction(async (c) => {
        await c.query("SELECT id FROM event_types WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE", [ids]);
        for (const r of records) await c.query(INSERT_RESERVATION, reservationValues(r));
        for (const id of ids) {
          await c.query("UPDATE event_types SET longest_reservation_ms = greatest(longest_reservation_ms, $1), revision = revision + 1 WHERE id = $2", [longest.get(id), id]);
        }
      });
    },
  };

  readonly webhooks: Store["webhooks"] = {
    claimDue: async (nowMs, leaseMs, limit) => {
      // A plain read first: an idle outbox (the usual case, polled every second by every instance) takes no lock.
      const any = await this.db.run(`SELECT 1 FROM webhook_events e WHERE ${DUE} LIMIT 1`, [nowMs], true);
      if (any.rowCount === 0) return [];
      const leased = await this.db.transaction(async (c) => {
        // SKIP LOCKED: events another instance is leasing right now are left to it; a row it leased
        // and committed meanwhile is re-checked and no longer due.
        const due = await c.query<{ id: number }>(
          `SELECT e.id FROM webhook_events e
           WHERE ${DUE}
             AND NOT EXISTS (SELECT 1 FROM webhook_events p WHERE p.reservation_uuid = e.reservation_uuid AND p.id < e.id AND p.status = 'pending')
           ORDER BY e.next_attempt_at_ms, e.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [nowMs, limit],
        );
        if (due.rowCount === 0) return [];
        return (
          await c.query<WebhookRow>("UPDATE webhook_events SET locked_until_ms = $1, attempts = attempts + 1 WHERE id = ANY($2::bigint[]) RETURNING *", [
            nowMs + leaseMs,
            due.rows.map((r) => r.id),
          ])
        ).rows;
      });
      return leased.sort((a, b) => a.next_attempt_at_ms - b.next_attempt_at_ms || a.id - b.id).map(toDelivery);
    },
    recordAttempt: async (id, attempt, outcome) => {
      await this.db.transaction(async (c) => {
        await c.query("INSERT INTO webhook_attempts (event_id, attempt, at_ms, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)", [
          id,
          attempt.attempt,
          attempt.atMs,
          attempt.statusCode,
          attempt.error,
          attempt.durationMs,
        ]);
        await c.query(
          `UPDATE webhook_events SET status = $1, next_attempt_at_ms = $2, locked_until_ms = NULL,
            last_status_code = $3, last_error = $4, delivered_at_ms = $5 WHERE id = $6`,
          [
            outcome.status,
            outcome.status === "pending" ? outcome.nextAttemptAtMs : attempt.atMs,
            attempt.statusCode,
            attempt.error,
            outcome.status === "delivered" ? attempt.atMs + attempt.durationMs : null,
            id,
          ],
        );
      });
    },
    recent: async (eventTypeId, limit) => {
      const events = (await this.db.run<WebhookRow>("SELECT * FROM webhook_events WHERE event_type_id = $1 ORDER BY id DESC LIMIT $2", [eventTypeId, limit], true)).rows;
      if (events.length === 0) return [];
      const attempts = (
        await this.db.run<{ event_id: number; attempt: number; at_ms: number; status_code: number | null; error: string | null; duration_ms: number }>(
          "SELECT * FROM webhook_attempts WHERE event_id = ANY($1::bigint[]) ORDER BY event_id, attempt",
          [events.map((e) => e.id)],
          true,
        )
      ).rows;
      const byEvent = new Map<number, WebhookAttempt[]>();
      for (const a of attempts) {
        const log = byEvent.get(a.event_id) ?? [];
        log.push({ attempt: a.attempt, atMs: a.at_ms, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms });
        byEvent.set(a.event_id, log);
      }
      return events.map((row) => ({ ...toDelivery(row), attemptLog: byEvent.get(row.id) ?? [] }));
    },
  };

  readonly idempotency: Store["idempotency"] = {
    begin: async (eventTypeId: number, key: string, requestHash: string, nowMs: number) =>
      this.db.transaction(async (c): Promise<IdempotencyState> => {
        // A key released by its request between our insert and read is registered again; a few rounds at most.
        for (let round = 0; round < 3; round++) {
          const inserted = await c.query(
            "INSERT INTO idempotency_keys (event_type_id, key, request_hash, created_at_ms) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            [eventTypeId, key, requestHash, nowMs],
          );
          if (inserted.rowCount === 1) return { state: "new" };
          const row = (
            await c.query<{ request_hash: string; reservation_uuid: string | null; status: number | null; response: string | null; created_at_ms: number }>(
              "SELECT request_hash, reservation_uuid, status, response, created_at_ms FROM idempotency_keys WHERE event_type_id = $1 AND key = $2",
              [eventTypeId, key],
            )
          ).rows[0];
          if (!row) continue;
          if (row.request_hash !== requestHash) return { state: "mismatch" };
          if (row.status !== null && row.response !== null) return { state: "done", status: row.status, response: row.response };
          // Registered long ago and never linked to a booking: its request died; this one takes over.
          if (row.reservation_uuid === null && row.created_at_ms <= nowMs - IDEMPOTENCY_LEASE_MS) {
            const taken = await c.query(
              "UPDATE idempotency_keys SET created_at_ms = $1 WHERE event_type_id = $2 AND key = $3 AND status IS NULL AND reservation_uuid IS NULL AND created_at_ms = $4",
              [nowMs, eventTypeId, key, row.created_at_ms],
            );
            if (taken.rowCount === 1) return { state: "new" };
          }
          return { state: "pending", reservationUuid: row.reservation_uuid };
        }
        throw new StoreBusyError();
      }),
    finish: async (eventTypeId: number, key: string, status: number, response: string) => {
      await this.db.run("UPDATE idempotency_keys SET status = $1, response = $2 WHERE event_type_id = $3 AND key = $4", [status, response, eventTypeId, key], true);
    },
    release: async (eventTypeId: number, key: string) => {
      await this.db.run("DELETE FROM idempotency_keys WHERE event_type_id = $1 AND key = $2", [eventTypeId, key], true);
    },
  };

  async close(): Promise<void> {
    await Promise.all([this.db.pool.end(), this.rateLimiter.close()]);
  }
}
