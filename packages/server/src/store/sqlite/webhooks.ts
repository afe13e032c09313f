import type { Database } from "bun:sqlite";
import { REMINDER_WITHDRAWN, changedReservations, type ChannelOutbox, type OutboxChannel, type OutboxEvent, type Store } from "../types.ts";
import { toDelivery, type WebhookRow } from "../rows.ts";
import type { SqliteConnection } from "./connection.ts";

const INSERT_EVENT = `INSERT INTO webhook_events (channel, event_type_id, reservation_uuid, kind, msg_id, url, payload, next_attempt_at_ms, created_at_ms)
  VALUES ($channel, $eventTypeId, $reservationUuid, $kind, $msgId, $url, $payload, $notBeforeMs, $createdAtMs)`;

/** Withdraws a reservation's reminders still pending (see `OutboxEvent.notBeforeMs`); a worker sending one meanwhile records nothing. */
const WITHDRAW_REMINDERS = `UPDATE webhook_events SET status = 'failed', locked_until_ms = NULL, last_error = $error
  WHERE reservation_uuid = $uuid AND channel = 'reminder' AND status = 'pending'`;

/**
 * What adds events to the outbox inside the caller's transaction, so they exist exactly when the
 * reservation change they announce does; its statement is prepared once, here.
 */
export function eventInserter(db: Database): (events: readonly OutboxEvent[]) => void {
  const insert = db.query<unknown, [Record<string, string | number>]>(INSERT_EVENT);
  const withdraw = db.query<unknown, [Record<string, string>]>(WITHDRAW_REMINDERS);
  return (events) => {
    for (const uuid of changedReservations(events)) withdraw.run({ uuid, error: REMINDER_WITHDRAWN });
    for (const e of events) {
      insert.run({
        channel: e.channel ?? "webhook", eventTypeId: e.eventTypeId, reservationUuid: e.reservationUuid, kind: e.kind, msgId: e.msgId,
        url: e.url, payload: e.payload, notBeforeMs: e.notBeforeMs ?? e.createdAtMs, createdAtMs: e.createdAtMs,
      });
    }
  };
}

/** The outbox on SQLite, leased under the write lock. */
export function sqliteOutbox(connection: SqliteConnection): Store["outbox"] {
  const q = prepareOutbox(connection.db);
  // One object per channel, so the store's `webhooks` is the very object `channel("webhook")` answers.
  const channels = new Map<OutboxChannel, ChannelOutbox>();
  return {
    channel: (channel) => {
      let outbox = channels.get(channel);
      if (!outbox) channels.set(channel, (outbox = channelOutbox(connection, q, channel)));
      return outbox;
    },
    recent: async (eventTypeId, limit) => recentDeliveries(q, eventTypeId, null, limit),
    retryNow: async (eventTypeId, id, nowMs) => connection.write(() => q.whRetryNow.run({ id, eventTypeId, now: nowMs, withdrawn: REMINDER_WITHDRAWN }).changes === 1),
  };
}

/** One channel of the outbox on SQLite. */
function channelOutbox(connection: SqliteConnection, q: OutboxQueries, channel: OutboxChannel): ChannelOutbox {
  return {
    claimDue: async (nowMs, leaseMs, limit, perEventType = Number.MAX_SAFE_INTEGER) => {
      // A read first: an idle outbox (the usual case, polled every second) never takes the write lock.
      if (q.whAnyDue.all(channel, nowMs, nowMs).length === 0) return [];
      return connection.write(() =>
        q.whDue.all({ channel, now: nowMs, limit, cap: perEventType }).map((row) => toDelivery(q.whLease.get(nowMs + leaseMs, row.id)!)),
      );
    },
    recordAttempt: async (id, attempt, outcome) => {
      connection.write(() => {
        // Only the worker that holds this attempt records it: one whose lease ran out (and whose
        // event another worker took) finds the attempt count moved on and writes nothing.
        const held = q.whOutcome.run({
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
        if (held) q.whAttempt.run({ id, ...attempt });
      });
    },
    recent: async (eventTypeId, limit) => recentDeliveries(q, eventTypeId, channel, limit),
  };
}

/** The event type's most recent events (of one channel, or of all), newest first, with their attempts. */
function recentDeliveries(q: OutboxQueries, eventTypeId: number, channel: OutboxChannel | null, limit: number) {
  return q.whRecent.all(eventTypeId, channel, channel, limit).map((row) => ({
    ...toDelivery(row),
    attemptLog: q.whAttemptsOf.all(row.id).map((a) => ({ attempt: a.attempt, atMs: a.at_ms, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms })),
  }));
}

type OutboxQueries = ReturnType<typeof prepareOutbox>;

/** The outbox's statements, prepared once per connection. */
function prepareOutbox(db: Database) {
  return {
    // A reminder still waiting for its time is not pulled forward; one withdrawn stays withdrawn.
    whRetryNow: db.query<unknown, [{ id: number; eventTypeId: number; now: number; withdrawn: string }]>(
      `UPDATE webhook_events SET status = 'pending', next_attempt_at_ms = $now
       WHERE id = $id AND event_type_id = $eventTypeId AND (locked_until_ms IS NULL OR locked_until_ms <= $now)
       AND ((status = 'failed' AND (last_error IS NULL OR last_error <> $withdrawn)) OR (status = 'pending' AND channel <> 'reminder'))`,
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
  };
}
