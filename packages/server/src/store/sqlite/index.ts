import { Database, type Statement } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { EXPIRED_GRACE_MS } from "../../domain/reservation.ts";
import {
  SlugTakenError,
  StoreBusyError,
  type EventTypeChange,
  type EventTypeRecord,
  type IdempotencyState,
  type NewEventType,
  type ReservationQuery,
  type ReservationRecord,
  type SeatClaim,
  type SeatDecision,
  type SeatHolder,
  type Store,
  type OutboxEvent,
  type BusySourceRecord,
  type BusySyncWrite,
  type NewBusySource,
  type BusyObject,
  type OutboxChannel,
  type ChannelOutbox,
} from "../types.ts";
import type { BusyInterval } from "../../domain/slots.ts";
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  ParsedEventTypes,
  claimInstant,
  movesSeats,
  reservationColumns,
  toDelivery,
  toEventType,
  toReservation,
  type EventTypeRow,
  type ReservationRow,
  type WebhookRow,
  BUSY_SOURCE_COLUMNS,
  mergedIntervals,
  sameIntervals,
  toBusySource,
  type BusySourceRow,
  SEALED_COLUMNS,
  resealedRows,
} from "../rows.ts";
import { SQLITE_MIGRATIONS } from "./migrations.ts";
import { SecretBox } from "../../lib/secrets.ts";


/** Page cache of the store's connection, in KiB (SQLite's negative cache_size). */
const PAGE_CACHE_KIB = 64 * 1024;
/** WAL pages (4 KiB each) after which a commit checkpoints. */
const WAL_CHECKPOINT_PAGES = 4000;
/** Most claims committed in one transaction: enough to share a commit widely, few enough that one turn of the event loop stays short. */
const MOST_CLAIMS_PER_BATCH = 64;

/**
 * Opens (creating when needed) the embedded SQLite store at `path` (`:memory:` allowed), in WAL mode,
 * and applies pending migrations inside one immediate transaction, so processes starting together
 * on one file apply each migration once.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  // Processes starting together wait for each other's migrations...
  db.exec(`PRAGMA busy_timeout = ${STARTUP_WAIT_MS}`);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA synchronous = NORMAL");
  // The default 2 MB page cache holds a few thousand reservations' pages: beyond that every booking
  // reads its index pages back and its commit costs several times as much. Pages are allocated as
  // used, so a small calendar stays small. Checkpoints every 16 MB of WAL rather than 4 MB: each
  // costs a sync, and fewer, larger ones copy a page rewritten by many bookings once.
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  const secrets = options.secrets ?? SecretBox.forThisProcess();
  try {
    migrate(db);
    reseal(db, secrets);
  } catch (error) {
    db.close();
    throw error;
  }
  // ...but a request never does for long: bun:sqlite waits synchronously, stalling the whole process.
  db.exec(`PRAGMA busy_timeout = ${WRITE_WAIT_MS}`);
  return new SqliteStore(db, secrets);
}

/** Options of `openSqliteStore`. */
export interface SqliteStoreOptions {
  /**
   * Seals calendar passwords and webhook secrets in the file and opens them again; by default a key
   * made for this process, so what it seals is unreadable after the process ends (tests, throwaway stores).
   */
  secrets?: SecretBox;
}

/** Seals secrets stored plain (before encryption) or with an older key with the current key, in one transaction. */
function reseal(db: Database, secrets: SecretBox): void {
  db.transaction(() => {
    for (const column of SEALED_COLUMNS) {
      const rows = db.query<{ id: number; value: string }, []>(`SELECT id, ${column.column} AS value FROM ${column.table} WHERE ${column.column} IS NOT NULL`).all();
      const update = db.query(`UPDATE ${column.table} SET ${column.column} = ? WHERE id = ?`);
      for (const change of resealedRows(rows, column, secrets)) update.run(change.value, change.id);
    }
  }).immediate();
}

function migrate(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  db.transaction(() => {
    const applied = new Set(db.query<{ version: number }, []>("SELECT version FROM schema_migrations").all().map((r) => r.version));
    for (const m of SQLITE_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
    }
  }).immediate();
}


/** Every statement of the engine, prepared once per connection. */
function prepareQueries(db: Database) {
  return {
    begin: db.query("BEGIN IMMEDIATE"),
    savepoint: db.query("SAVEPOINT claim"),
    release: db.query("RELEASE claim"),
    rollbackTo: db.query("ROLLBACK TO claim"),
    commit: db.query("COMMIT"),
    rollback: db.query("ROLLBACK"),
    etById: db.query<EventTypeRow, [number]>("SELECT * FROM event_types WHERE id = ?"),
    etByToken: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE token_hash = ?"),
    etRevisionByToken: db.query<{ id: number; revision: number }, [string]>("SELECT id, revision FROM event_types WHERE token_hash = ?"),
    etByLinkToken: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE link_token = ?"),
    etRevisionByLinkToken: db.query<{ id: number; revision: number }, [string]>("SELECT id, revision FROM event_types WHERE link_token = ?"),
    etByFeedToken: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE feed_token = ?"),
    etRevisionByFeedToken: db.query<{ id: number; revision: number }, [string]>("SELECT id, revision FROM event_types WHERE feed_token = ?"),
    etBySlug: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE slug = ?"),
    etList: db.query<EventTypeRow, []>("SELECT * FROM event_types ORDER BY id"),
    etCount: db.query<{ n: number }, []>("SELECT count(*) AS n FROM event_types"),
    etInsert: db.query<EventTypeRow, [string, string, string | null, string, number, string, string, string, string, string | null]>(
      `INSERT INTO event_types (token_hash, override_token_hash, slug, link_token, disabled, settings, webhook_secret, created_at, updated_at, feed_token)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, 'bcf_' || lower(hex(randomblob(32))))) RETURNING *`,
    ),
    etUpdate: db.query<EventTypeRow, [string, string, string | null, string, number, string, string, number | null, string, string, number]>(
      `UPDATE event_types SET token_hash = ?, override_token_hash = ?, slug = ?, link_token = ?, disabled = ?, settings = ?, webhook_secret = ?,
        webhook_disabled_at_ms = ?, updated_at = ?, feed_token = ?, revision = revision + 1 WHERE id = ? RETURNING *`,
    ),
    etBump: db.query<unknown, [number]>("UPDATE event_types SET revision = revision + 1 WHERE id = ?"),
    etLongest: db.query<unknown, [number, number]>("UPDATE event_types SET longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id = ?"),
    // A claim's write to its event type in one statement: the revision bumped, the longest reservation kept.
    etClaimed: db.query<unknown, [number, number]>("UPDATE event_types SET revision = revision + 1, longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id = ?"),
    etDelete: db.query<unknown, [number]>("DELETE FROM event_types WHERE id = ?"),
    seatHolders: db.query<SeatHolder, [{ eventTypeId: number; untilMs: number; fromMs: number; nowMs: number }]>(
      // The event type's longest reservation bounds how far back an overlapping one can start,
      // which keeps the index range scanned short.
      `SELECT uuid, start_ms AS startMs, end_ms AS endMs, CASE WHEN status = 'held' AND NOT (coalesce(json_extract(payment, '$.status'), '') = 'succeeded' OR (coalesce(json_extract(payment, '$.status'), '') = 'processing' AND start_ms > $nowMs)) THEN held_until_ms END AS heldUntilMs FROM reservations
       WHERE event_type_id = $eventTypeId AND start_ms < $untilMs AND end_ms > $fromMs
         AND start_ms >= $fromMs - (SELECT longest_reservation_ms FROM event_types WHERE id = $eventTypeId)
         AND (status = 'confirmed' OR (status = 'held' AND (held_until_ms > $nowMs OR (coalesce(json_extract(payment, '$.status'), '') = 'succeeded' OR (coalesce(json_extract(payment, '$.status'), '') = 'processing' AND start_ms > $nowMs)))))`,
    ),
    rByUuid: db.query<ReservationRow, [number, string]>("SELECT * FROM reservations WHERE event_type_id = ? AND uuid = ?"),
    rList: db.query<ReservationRow, [number, number, number, string | null, string | null, number]>(
      `SELECT * FROM reservations WHERE event_type_id = ? AND start_ms < ? AND end_ms > ?
       AND (? IS NULL OR status IN (SELECT value FROM json_each(?))) ORDER BY start_ms, uuid LIMIT ?`,
    ),
    rPaidHoldsDue: db.query<ReservationRow, [number, number]>(
      "SELECT * FROM reservations WHERE status = 'held' AND held_until_ms <= ? AND json_extract(payment, '$.status') = 'succeeded' ORDER BY held_until_ms, uuid LIMIT ?",
    ),
    rProcessingDue: db.query<ReservationRow, [number, number]>(
      "SELECT * FROM reservations WHERE payment_intent_id IS NOT NULL AND json_extract(payment, '$.status') = 'processing' AND (status <> 'held' OR held_until_ms <= ?) ORDER BY updated_at_ms, uuid LIMIT ?",
    ),
    rRefundsDue: db.query<ReservationRow, [number]>(
      "SELECT * FROM reservations WHERE payment_intent_id IS NOT NULL AND status = 'cancelled' AND json_extract(payment, '$.status') = 'refunding' ORDER BY updated_at_ms, uuid LIMIT ?",
    ),
    rByIntent: db.query<ReservationRow, [string]>("SELECT * FROM reservations WHERE payment_intent_id = ?"),
    rInsert: db.query(
      `INSERT INTO reservations (uuid, event_type_id, status, start_ms, end_ms, held_until_ms, email, firstname, lastname,
        phone, timezone, location, guests, custom_fields, meet_link, payment, payment_intent_id, confirmed_at_ms,
        cancelled_at_ms, created_at_ms, updated_at_ms, ics_sequence, cancel_reason)
       VALUES ($uuid, $eventTypeId, $status, $startMs, $endMs, $heldUntilMs, $email, $firstname, $lastname,
        $phone, $timezone, $location, $guests, $customFields, $meetLink, $payment, $paymentIntentId, $confirmedAtMs,
        $cancelledAtMs, $createdAtMs, $updatedAtMs, $sequence, $cancelReason)`,
    ),
    rUpdate: db.query(
      `UPDATE reservations SET status = $status, start_ms = $startMs, end_ms = $endMs, held_until_ms = $heldUntilMs,
        email = $email, firstname = $firstname, lastname = $lastname, phone = $phone, timezone = $timezone,
        location = $location, guests = $guests, custom_fields = $customFields, meet_link = $meetLink,
        payment = $payment, payment_intent_id = $paymentIntentId, confirmed_at_ms = $confirmedAtMs,
        cancelled_at_ms = $cancelledAtMs, updated_at_ms = $updatedAtMs, ics_sequence = $sequence, cancel_reason = $cancelReason
       WHERE uuid = $uuid AND event_type_id = $eventTypeId AND updated_at_ms = $expectedUpdatedAtMs`,
    ),
    // updated_at_ms only moves forward, so a compare-and-set read before the sweep fails after it.
    sweepExpire: db.query<{ event_type_id: number }, [number, number, number]>(
      // A paid hold keeps its seat (domain/reservation.ts keepsSeat): never expired here.
      `UPDATE reservations SET status = 'expired', updated_at_ms = max(updated_at_ms + 1, ?)
       WHERE status = 'held' AND held_until_ms <= ? AND NOT (coalesce(json_extract(payment, '$.status'), '') = 'succeeded' OR (coalesce(json_extract(payment, '$.status'), '') = 'processing' AND start_ms > ?)) RETURNING event_type_id`,
    ),
    sweepCancel: db.query<{ event_type_id: number }, [number, number, number, number]>(
      `UPDATE reservations SET status = 'cancelled', cancelled_at_ms = ?, updated_at_ms = max(updated_at_ms + 1, ?)
       WHERE status = 'expired' AND (held_until_ms <= ? OR start_ms <= ?) RETURNING event_type_id`,
    ),
    whInsert: db.query<unknown, [Record<string, string | number>]>(
      `INSERT INTO webhook_events (channel, event_type_id, reservation_uuid, kind, msg_id, url, payload, next_attempt_at_ms, created_at_ms)
       VALUES ($channel, $eventTypeId, $reservationUuid, $kind, $msgId, $url, $payload, $createdAtMs, $createdAtMs)`,
    ),
    // Due, not leased, and first in line for its reservation on its channel: an earlier event still pending there holds later ones back.
    whAnyDue: db.query<{ id: number }, [string, number, number]>(
      "SELECT e.id FROM webhook_events e WHERE e.channel = ? AND e.status = 'pending' AND e.next_attempt_at_ms <= ? AND (e.locked_until_ms IS NULL OR e.locked_until_ms <= ?) LIMIT 1",
    ),
    // As above, and no more of one event type than `cap` less the leases it holds now on the channel.
    whDue: db.query<{ id: number }, { channel: string; now: number; limit: number; cap: number }>(
      `WITH ready AS (
         SELECT e.id, e.event_type_id, e.next_attempt_at_ms, ROW_NUMBER() OVER (PARTITION BY e.event_type_id ORDER BY e.next_attempt_at_ms, e.id) AS n
         FROM webhook_events e
         WHERE e.channel = $channel AND e.status = 'pending' AND e.next_attempt_at_ms <= $now AND (e.locked_until_ms IS NULL OR e.locked_until_ms <= $now)
           AND NOT EXISTS (SELECT 1 FROM webhook_events p WHERE p.reservation_uuid = e.reservation_uuid AND p.channel = e.channel AND p.id < e.id AND p.status = 'pending')
       ), busy AS (
         SELECT event_type_id, COUNT(*) AS leased FROM webhook_events WHERE channel = $channel AND status = 'pending' AND locked_until_ms > $now GROUP BY event_type_id
       )
       SELECT r.id FROM ready r LEFT JOIN busy b ON b.event_type_id = r.event_type_id
       WHERE r.n + COALESCE(b.leased, 0) <= $cap
       ORDER BY r.next_attempt_at_ms, r.id LIMIT $limit`,
    ),
    whLease: db.query<WebhookRow, [number, number]>("UPDATE webhook_events SET locked_until_ms = ?, attempts = attempts + 1 WHERE id = ? RETURNING *"),
    whAttempt: db.query(
      "INSERT INTO webhook_attempts (event_id, attempt, at_ms, status_code, error, duration_ms) VALUES ($id, $attempt, $atMs, $statusCode, $error, $durationMs)",
    ),
    whOutcome: db.query(
      `UPDATE webhook_events SET status = $status, next_attempt_at_ms = $nextAttemptAtMs, locked_until_ms = NULL,
        last_status_code = $statusCode, last_error = $error, delivered_at_ms = $deliveredAtMs, url = COALESCE($url, url)
       WHERE id = $id AND channel = $channel AND attempts = $attempt AND status = 'pending'`,
    ),
    whRecent: db.query<WebhookRow, [number, string | null, string | null, number]>(
      "SELECT * FROM webhook_events WHERE event_type_id = ? AND (? IS NULL OR channel = ?) ORDER BY id DESC LIMIT ?",
    ),
    whAttemptsOf: db.query<{ attempt: number; at_ms: number; status_code: number | null; error: string | null; duration_ms: number }, [number]>(
      "SELECT * FROM webhook_attempts WHERE event_id = ? ORDER BY attempt",
    ),
    busyBetween: db.query<BusyInterval, [number, number, number]>(
      "SELECT start_ms AS startMs, end_ms AS endMs FROM busy_intervals WHERE event_type_id = ? AND end_ms > ? AND start_ms < ? ORDER BY start_ms, end_ms",
    ),
    // The claim's read of the same, unordered (the claim only asks whether any meets its span): an
    // ORDER BY costs SQLite a sorter even when nothing is busy, which was a tenth of a booking's time.
    busyMeeting: db.query<BusyInterval, [number, number, number]>(
      "SELECT start_ms AS startMs, end_ms AS endMs FROM busy_intervals WHERE event_type_id = ? AND end_ms > ? AND start_ms < ?",
    ),
    busySourceById: db.query<BusySourceRow, [number]>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s WHERE s.id = ?`),
    busySourcesOf: db.query<BusySourceRow, [number]>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s WHERE s.event_type_id = ? ORDER BY s.id`),
    busySourcesAll: db.query<BusySourceRow, []>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s ORDER BY s.id`),
    busySourceInsert: db.query<{ id: number }, [number, string, string, string | null, string | null, string, number | null, number]>(
      "INSERT INTO busy_sources (event_type_id, kind, url, username, secret, calendars, freshness_minutes, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    busySourceDelete: db.query<{ event_type_id: number }, [number]>("DELETE FROM busy_sources WHERE id = ? RETURNING event_type_id"),
    busyObjects: db.query<BusyObject, [number]>("SELECT href, etag, ics FROM busy_objects WHERE source_id = ? ORDER BY href"),
    busyObjectTags: db.query<Pick<BusyObject, "href" | "etag">, [number]>("SELECT href, etag FROM busy_objects WHERE source_id = ? ORDER BY href"),
    busyObjectUpsert: db.query<unknown, [number, string, string | null, string]>(
      "INSERT INTO busy_objects (source_id, href, etag, ics) VALUES (?, ?, ?, ?) ON CONFLICT (source_id, href) DO UPDATE SET etag = excluded.etag, ics = excluded.ics",
    ),
    busyObjectDelete: db.query<unknown, [number, string]>("DELETE FROM busy_objects WHERE source_id = ? AND href = ?"),
    busyIntervalsOfSource: db.query<BusyInterval, [number]>("SELECT start_ms AS startMs, end_ms AS endMs FROM busy_intervals WHERE source_id = ? ORDER BY start_ms, end_ms"),
    busyIntervalsClear: db.query<unknown, [number]>("DELETE FROM busy_intervals WHERE source_id = ?"),
    busyIntervalInsert: db.query<unknown, [number, number, number, number]>("INSERT INTO busy_intervals (source_id, event_type_id, start_ms, end_ms) VALUES (?, ?, ?, ?)"),
    busySynced: db.query<unknown, [string, number, number, number | null, string | null, number]>(
      "UPDATE busy_sources SET sync_state = ?, last_attempt_at_ms = ?, last_success_at_ms = ?, last_error = NULL, failure_count = 0, expanded_until_ms = coalesce(?, expanded_until_ms), skipped_objects = coalesce(?, skipped_objects) WHERE id = ?",
    ),
    busyFailed: db.query<unknown, [number, number, string, number]>("UPDATE busy_sources SET last_attempt_at_ms = ?, last_failure_at_ms = ?, last_error = ?, failure_count = failure_count + 1 WHERE id = ?"),
    idemGet: db.query<{ request_hash: string; reservation_uuid: string | null; status: number | null; response: string | null; created_at_ms: number }, [number, string]>(
      "SELECT request_hash, reservation_uuid, status, response, created_at_ms FROM idempotency_keys WHERE event_type_id = ? AND key = ?",
    ),
    idemInsert: db.query<unknown, [number, string, string, number]>(
      "INSERT INTO idempotency_keys (event_type_id, key, request_hash, created_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    idemLink: db.query<unknown, [string, number, string]>("UPDATE idempotency_keys SET reservation_uuid = ? WHERE event_type_id = ? AND key = ?"),
    idemFinish: db.query<unknown, [number, string, number, string]>("UPDATE idempotency_keys SET status = ?, response = ? WHERE event_type_id = ? AND key = ?"),
    // A key tied to a booking stays: that booking happened, and a retry must find it, not book again.
    idemDelete: db.query<unknown, [number, string]>("DELETE FROM idempotency_keys WHERE event_type_id = ? AND key = ? AND reservation_uuid IS NULL"),
    idemPurge: db.query<unknown, [number]>("DELETE FROM idempotency_keys WHERE created_at_ms < ?"),
    idemTakeOver: db.query<unknown, [number, number, string, number]>(
      "UPDATE idempotency_keys SET created_at_ms = ? WHERE event_type_id = ? AND key = ? AND status IS NULL AND reservation_uuid IS NULL AND created_at_ms = ?",
    ),
    };
}

/** Wait for the write lock while migrating at start, and for any write of a request (then StoreBusyError). */
const STARTUP_WAIT_MS = 10_000;
const WRITE_WAIT_MS = 100;

/** Runs a write of an event type row, turning a clash on the unique slug into SlugTakenError. */
function slugChecked<T>(slug: string | null, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (slug !== null && code === "SQLITE_CONSTRAINT_UNIQUE" && /event_types\.slug/.test(message ?? "")) throw new SlugTakenError(slug);
    throw error;
  }
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: string } | null)?.code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
};

class SqliteStore implements Store {
  readonly engine = "sqlite";
  private readonly parsed: ParsedEventTypes;

  private readonly q: ReturnType<typeof prepareQueries>;

  constructor(
    private readonly db: Database,
    private readonly secrets: SecretBox,
  ) {
    this.q = prepareQueries(db);
    this.parsed = new ParsedEventTypes(secrets);
  }

  private sealed(secret: string | null): string | null {
    return secret === null ? null : this.secrets.seal(secret, "calendar");
  }

  private cached(row: EventTypeRow | null): EventTypeRecord | null {
    return this.parsed.of(row);
  }


  readonly eventTypes: Store["eventTypes"] = {
    create: async (input: NewEventType, nowIso: string) =>
      this.cached(
        this.write(() =>
          slugChecked(input.slug, () =>
            this.q.etInsert.get(
              input.tokenHash, input.overrideTokenHash, input.slug, input.linkToken, input.disabled ? 1 : 0, JSON.stringify(input.settings), this.secrets.seal(input.webhookSecret, "webhook"), nowIso, nowIso,
              input.feedToken ?? null,
            ),
          ),
        ),
      )!,
    byId: async (id: number) => this.cached(this.q.etById.get(id)),
    byTokenHash: async (tokenHash: string) => this.byCredential(this.q.etRevisionByToken, this.q.etByToken, tokenHash),
    byLinkToken: async (linkToken: string) => this.byCredential(this.q.etRevisionByLinkToken, this.q.etByLinkToken, linkToken),
    byFeedToken: async (feedToken: string) => this.byCredential(this.q.etRevisionByFeedToken, this.q.etByFeedToken, feedToken),
    bySlug: async (slug: string) => this.cached(this.q.etBySlug.get(slug)),
    list: async () => this.q.etList.all().map((r) => this.cached(r)!),
    count: async () => this.q.etCount.get()!.n,
    update: async (id: number, change: EventTypeChange, nowIso: string) =>
      this.write(() => {
        const current = this.q.etById.get(id);
        if (!current) return null;
        const next = { ...toEventType(current, this.secrets), ...change };
        return this.cached(
          slugChecked(next.slug, () =>
            this.q.etUpdate.get(
              next.tokenHash, next.overrideTokenHash, next.slug, next.linkToken, next.disabled ? 1 : 0, JSON.stringify(next.settings), this.secrets.seal(next.webhookSecret, "webhook"), next.webhookDisabledAtMs, nowIso,
              next.feedToken, id,
            ),
          ),
        );
      }),
    delete: async (id: number) => {
      this.parsed.forget(id);
      return this.write(() => this.q.etDelete.run(id).changes > 0);
    },
  };

  readonly reservations: Store["reservations"] = {
    seatHolders: async (eventTypeId, fromMs, untilMs, nowMs) => this.q.seatHolders.all({ eventTypeId, untilMs, fromMs, nowMs }),
    byUuid: async (eventTypeId, uuid) => {
      const row = this.q.rByUuid.get(eventTypeId, uuid);
      return row ? toReservation(row) : null;
    },
    byPaymentIntent: async (intentId) => {
      const row = this.q.rByIntent.get(intentId);
      return row ? toReservation(row) : null;
    },
    claim: async (claim: SeatClaim, decide: (holders: SeatHolder[], current: ReservationRecord | null, nowMs: number, busy: BusyInterval[]) => SeatDecision) => {
      // Everything between BEGIN IMMEDIATE and COMMIT runs synchronously: no other request of this
      // process can interleave, and other processes wait on SQLite's write lock. Claims arriving
      // together share one transaction (see `batched`), each decided in turn on what the ones before
      // it wrote.
      return this.batched(() => {
          // One host, one clock: the caller's, read now that the write lock is held.
          const nowMs = claimInstant(claim);
          const currentRow = claim.uuid ? this.q.rByUuid.get(claim.eventTypeId, claim.uuid) : null;
          const holders = this.q.seatHolders.all({ eventTypeId: claim.eventTypeId, untilMs: claim.untilMs, fromMs: claim.fromMs, nowMs }).filter((h) => h.uuid !== claim.uuid);
          // The organizer's calendars as last synced, read under the same write lock as the seats.
          const busy = claim.busySpan ? this.q.busyMeeting.all(claim.eventTypeId, claim.busySpan.fromMs, claim.busySpan.untilMs) : [];
          const decision = decide(holders, currentRow ? toReservation(currentRow) : null, nowMs, busy);
          if ("refuse" in decision) return { refused: decision.refuse };
          const record = decision.write;
          const seat = claim.seat ?? { startMs: claim.fromMs, endMs: claim.untilMs };
          if (record.startMs < seat.startMs || record.endMs > seat.endMs) throw new Error("a claim wrote a reservation outside the seat it locked");
          for (const event of decision.events ?? []) this.q.whInsert.run({ ...event, channel: event.channel ?? "webhook" });
          if (currentRow) {
            const changed = this.q.rUpdate.run({ ...reservationColumns(record), expectedUpdatedAtMs: currentRow.updated_at_ms }).changes;
            if (changed !== 1) throw new Error("reservation changed inside its own transaction");
          } else {
            this.q.rInsert.run(reservationColumns(record));
          }
          if (claim.idempotencyKey) this.q.idemLink.run(record.uuid, claim.eventTypeId, claim.idempotencyKey);
          this.q.etClaimed.run(record.endMs - record.startMs, claim.eventTypeId);
          return { record };
      });
    },
    save: async (record: ReservationRecord, expectedUpdatedAtMs: number, events: OutboxEvent[] = []) =>
      this.write(() => {
        const before = this.q.rByUuid.get(record.eventTypeId, record.uuid);
        const changed = this.q.rUpdate.run({ ...reservationColumns(record), expectedUpdatedAtMs }).changes === 1;
        if (changed) for (const event of events) this.q.whInsert.run({ ...event, channel: event.channel ?? "webhook" });
        // Slot lists and configuration depend on seats only; a payment note leaves their caches alone.
        if (changed && movesSeats(before, record)) this.q.etBump.run(record.eventTypeId);
        return changed;
      }),
    paidHoldsDue: async (nowMs: number, limit: number) => this.q.rPaidHoldsDue.all(nowMs, limit).map(toReservation),
    processingDue: async (nowMs: number, limit: number) => this.q.rProcessingDue.all(nowMs, limit).map(toReservation),
    refundsDue: async (limit: number) => this.q.rRefundsDue.all(limit).map(toReservation),
    sweep: async (nowMs: number) =>
      this.write(() => {
        const expired = this.q.sweepExpire.all(nowMs, nowMs, nowMs);
        const cancelled = this.q.sweepCancel.all(nowMs, nowMs, nowMs - EXPIRED_GRACE_MS, nowMs);
        for (const id of new Set([...expired, ...cancelled].map((r) => r.event_type_id))) this.q.etBump.run(id);
        this.q.idemPurge.run(nowMs - IDEMPOTENCY_TTL_MS);
        return { expired: expired.length, cancelled: cancelled.length };
      }),
    list: async (eventTypeId: number, query: ReservationQuery) => {
      const statuses = query.statuses ? JSON.stringify(query.statuses) : null;
      return this.q.rList.all(eventTypeId, query.untilMs, query.fromMs, statuses, statuses, query.limit).map(toReservation);
    },
    insertMany: async (records: ReservationRecord[]) => {
      this.write(() => {
        const touched = new Set<number>();
        for (const r of records) {
          this.q.rInsert.run(reservationColumns(r));
          this.q.etLongest.run(r.endMs - r.startMs, r.eventTypeId);
          touched.add(r.eventTypeId);
        }
        for (const id of touched) this.q.etBump.run(id);
      });
    },
  };

  /** One object per channel, so `webhooks` is the very object `outbox.channel("webhook")` answers. */
  private readonly channels = new Map<OutboxChannel, ChannelOutbox>();

  readonly outbox: Store["outbox"] = {
    channel: (channel) => {
      let outbox = this.channels.get(channel);
      if (!outbox) this.channels.set(channel, (outbox = this.channelOutbox(channel)));
      return outbox;
    },
    recent: async (eventTypeId, limit) => this.recentDeliveries(eventTypeId, null, limit),
  };

  readonly busy: Store["busy"] = {
    add: async (input: NewBusySource, nowMs: number): Promise<BusySourceRecord> => {
      const id = this.write(
        () =>
          this.q.busySourceInsert.get(input.eventTypeId, input.kind, input.url, input.username, this.sealed(input.secret), JSON.stringify(input.calendars), input.freshnessMinutes, nowMs)!.id,
      );
      return toBusySource(this.q.busySourceById.get(id)!, this.secrets);
    },
    list: async (eventTypeId?: number) => (eventTypeId === undefined ? this.q.busySourcesAll.all() : this.q.busySourcesOf.all(eventTypeId)).map((row) => toBusySource(row, this.secrets)),
    byId: async (id: number) => {
      const row = this.q.busySourceById.get(id);
      return row ? toBusySource(row, this.secrets) : null;
    },
    remove: async (id: number) =>
      this.write(() => {
        const gone = this.q.busySourceDelete.get(id);
        if (gone) this.q.etBump.run(gone.event_type_id);
        return gone !== null;
      }),
    objects: async (sourceId: number) => this.q.busyObjects.all(sourceId),
    objectTags: async (sourceId: number) => this.q.busyObjectTags.all(sourceId),
    recordSync: async (sourceId: number, w: BusySyncWrite) =>
      this.write(() => {
        const source = this.q.busySourceById.get(sourceId);
        if (!source) return false;
        for (const href of w.deletes) this.q.busyObjectDelete.run(sourceId, href);
        for (const o of w.upserts) this.q.busyObjectUpsert.run(sourceId, o.href, o.etag, o.ics);
        this.q.busySynced.run(JSON.stringify(w.syncState), w.atMs, w.atMs, w.expandedUntilMs, w.skippedObjects ? JSON.stringify(w.skippedObjects) : null, sourceId);
        if (w.intervals === null) return false;
        const next = mergedIntervals(w.intervals);
        if (sameIntervals(next, this.q.busyIntervalsOfSource.all(sourceId))) return false;
        this.q.busyIntervalsClear.run(sourceId);
        for (const i of next) this.q.busyIntervalInsert.run(sourceId, source.event_type_id, i.startMs, i.endMs);
        // Cached slot pages and configurations are kept per revision: the next ones see the calendar.
        this.q.etBump.run(source.event_type_id);
        return true;
      }),
    recordFailure: async (sourceId: number, atMs: number, error: string) => {
      this.write(() => this.q.busyFailed.run(atMs, atMs, error, sourceId));
    },
    between: async (eventTypeId: number, fromMs: number, untilMs: number) => this.q.busyBetween.all(eventTypeId, fromMs, untilMs),
  };
  readonly webhooks: Store["webhooks"] = this.outbox.channel("webhook");

  private channelOutbox(channel: OutboxChannel): ChannelOutbox {
    return {
      claimDue: async (nowMs, leaseMs, limit, perEventType = Number.MAX_SAFE_INTEGER) => {
        // A read first: an idle outbox (the usual case, polled every second) never takes the write lock.
        if (this.q.whAnyDue.all(channel, nowMs, nowMs).length === 0) return [];
        return this.write(() =>
          this.q.whDue.all({ channel, now: nowMs, limit, cap: perEventType }).map((row) => toDelivery(this.q.whLease.get(nowMs + leaseMs, row.id)!)),
        );
      },
      recordAttempt: async (id, attempt, outcome) => {
        this.write(() => {
          // Only the worker that holds this attempt records it: one whose lease ran out (and whose
          // event another worker took) finds the attempt count moved on and writes nothing.
          const held = this.q.whOutcome.run({
            id,
            channel,
            url: outcome.url ?? null,
            attempt: attempt.attempt,
            status: outcome.status,
            nextAttemptAtMs: outcome.status === "pending" ? outcome.nextAttemptAtMs : attempt.atMs,
            statusCode: attempt.statusCode,
            error: attempt.error,
            deliveredAtMs: outcome.status === "delivered" ? attempt.atMs + attempt.durationMs : null,
          }).changes === 1;
          if (held) this.q.whAttempt.run({ id, ...attempt });
        });
      },
      recent: async (eventTypeId, limit) => this.recentDeliveries(eventTypeId, channel, limit),
    };
  }

  private recentDeliveries(eventTypeId: number, channel: OutboxChannel | null, limit: number) {
    return this.q.whRecent.all(eventTypeId, channel, channel, limit).map((row) => ({
      ...toDelivery(row),
      attemptLog: this.q.whAttemptsOf.all(row.id).map((a) => ({ attempt: a.attempt, atMs: a.at_ms, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms })),
    }));
  }

  readonly idempotency: Store["idempotency"] = {
    begin: async (eventTypeId: number, key: string, requestHash: string, nowMs: number): Promise<IdempotencyState> =>
      this.write((): IdempotencyState => {
        if (this.q.idemInsert.run(eventTypeId, key, requestHash, nowMs).changes === 1) return { state: "new" };
        const row = this.q.idemGet.get(eventTypeId, key)!;
        if (row.request_hash !== requestHash) return { state: "mismatch" };
        if (row.status !== null && row.response !== null) return { state: "done", status: row.status, response: row.response };
        // Registered long ago and never linked to a booking: its request died; this one takes over.
        if (row.reservation_uuid === null && row.created_at_ms <= nowMs - IDEMPOTENCY_LEASE_MS) {
          if (this.q.idemTakeOver.run(nowMs, eventTypeId, key, row.created_at_ms).changes === 1) return { state: "new" };
        }
        return { state: "pending", reservationUuid: row.reservation_uuid };
      }),
    finish: async (eventTypeId: number, key: string, status: number, response: string) => {
      this.write(() => this.q.idemFinish.run(status, response, eventTypeId, key));
    },
    release: async (eventTypeId: number, key: string) => {
      this.write(() => this.q.idemDelete.run(eventTypeId, key));
    },
  };

  /** An event type found by a credential column: the common case reads two integers, the full row only when the cached revision is stale. */
  private byCredential(
    head: Statement<{ id: number; revision: number }, [string]>,
    full: Statement<EventTypeRow, [string]>,
    credential: string,
  ): EventTypeRecord | null {
    const current = head.get(credential);
    if (!current) return null;
    return this.parsed.current(current.id, current.revision) ?? this.cached(full.get(credential));
  }

  /** Claims waiting for the next batch (see `batched`). */
  private pending: { work: () => unknown; resolve: (value: never) => void; reject: (error: unknown) => void }[] = [];

  /**
   * Runs `work` like `write`, but together with the other claims that arrive before the next turn
   * of the event loop: one immediate transaction, each work in a savepoint of its own (a work that
   * throws undoes only its own writes and rejects only its own promise), one COMMIT for all. Each
   * claim still runs alone on what the ones before it wrote, and is answered only once its writes
   * are committed; what the batch saves is a commit (and its share of WAL pages and checkpoints)
   * per booking, the largest cost of a booking on SQLite.
   */
  private batched<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: never) => void, reject });
      if (this.pending.length === 1) setImmediate(() => this.runBatch());
    });
  }

  /**
   * One transaction of waiting claims (at most MOST_CLAIMS_PER_BATCH; the rest go in the next
   * turn, so a burst never holds the event loop for long). Every claim of it is answered, whatever
   * fails: its own outcome once the commit succeeded, else the error that undid the transaction.
   */
  private runBatch(): void {
    const batch = this.pending.splice(0, MOST_CLAIMS_PER_BATCH);
    if (this.pending.length > 0) setImmediate(() => this.runBatch());
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    let failed: { error: unknown } | null = null;
    try {
      this.q.begin.run();
      for (const item of batch) {
        this.q.savepoint.run();
        let value: unknown;
        try {
          value = item.work();
          this.q.release.run();
        } catch (error) {
          // Some errors (SQLITE_FULL, IOERR, NOMEM, a trigger's RAISE(ROLLBACK)) end the whole
          // transaction, savepoints and the claims before included: the batch fails with this error.
          if (!this.undoClaim()) throw error;
          outcomes.push({ error });
          continue;
        }
        outcomes.push({ value });
      }
      this.q.commit.run();
    } catch (error) {
      failed = { error: isBusy(error) ? new StoreBusyError() : error };
      try {
        if (this.db.inTransaction) this.q.rollback.run();
      } catch {
        // The error that broke the batch is the one to answer with, not the rollback's.
      }
    } finally {
      batch.forEach((item, i) => {
        const outcome = failed ?? outcomes[i] ?? { error: new Error("claim not run") };
        if ("error" in outcome) item.reject(outcome.error);
        else item.resolve(outcome.value as never);
      });
    }
  }

  /** Undoes the writes of the claim in the current savepoint; false when that cannot be done, the transaction being gone or broken. */
  private undoClaim(): boolean {
    if (!this.db.inTransaction) return false;
    try {
      this.q.rollbackTo.run();
      this.q.release.run();
      return true;
    } catch {
      return false;
    }
  }

  /** Runs `work` in one immediate transaction; another writer holding on beyond the short wait is StoreBusyError. */
  private write<T>(work: () => T): T {
    try {
      return this.db.transaction(work).immediate();
    } catch (error) {
      if (isBusy(error)) throw new StoreBusyError();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
