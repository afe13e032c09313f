import type { Database } from "bun:sqlite";
import { REMINDER_WITHDRAWN, changedReservations, type ChannelOutbox, type OutboxChannel, type OutboxEvent, type OutboxRepository } from "../outbox.ts";
import { toDelivery, type WebhookRow } from "../rows/outbox.ts";
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
    for (const e of events) insert.run(eventRow(e));
  };
}

/** The parameters of INSERT_EVENT for one event. */
function eventRow(e: OutboxEvent): Record<string, string | number> {
  return {
    channel: e.channel ?? "webhook",
    eventTypeId: e.eventTypeId,
    reservationUuid: e.reservationUuid,
    kind: e.kind,
    msgId: e.msgId,
    url: e.url,
    payload: e.payload,
    notBeforeMs: e.notBeforeMs ?? e.createdAtMs,
    createdAtMs: e.createdAtMs,
  };
}

/** The outbox on SQLite, leased under the write lock. */
export function sqliteOutbox(connection: SqliteConnection): OutboxRepository {
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
    retryNow: async (eventTypeId, id, nowMs) =>
      connection.write(() => q.whRetryNow.run({ id, eventTypeId, now: nowMs, withdrawn: REMINDER_WITHDRAWN }).changes === 1),
  };
}

/** One channel of the outbox on SQLite. */
function channelOutbox(connection: SqliteConnection, q: OutboxQueries, channel: OutboxChannel): ChannelOutbox {
  /**
   * The last claim leased events, or found an event type at its cap of leases: deliveries are under
   * way and a backlog is likely, so the read that spares an idle outbox the write lock is skipped.
   */
  let busy = false;
  return {
    claimDue: async (nowMs, leaseMs, limit, perEventType = Number.MAX_SAFE_INTEGER) => {
      // A read first: an idle outbox (the usual case, polled every second) never takes the write lock.
      // Not while draining a backlog, where the read finds events and costs a scan past the leased ones each claim.
      if (!busy && q.whAnyDue.all(channel, nowMs, nowMs).length === 0) return [];
      // In the write batch of the bookings arriving meanwhile (see SqliteConnection.batched): a lease costs no commit of its own.
      const { ids, capped } = await connection.batched(() => {
        const due = dueEvents(q, channel, nowMs, limit, perEventType);
        return { ids: due.ids.map((id) => toDelivery(q.whLease.get(nowMs + leaseMs, id)!)), capped: due.capped };
      });
      busy = ids.length > 0 || capped;
      return ids;
    },
    recordAttempt: async (id, attempt, outcome) => {
      // Batched like the claims: the records of a pass's deliveries and the bookings of the same turn share one commit.
      await connection.batched(() => {
        // Only the worker that holds this attempt records it: one whose lease ran out (and whose
        // event another worker took) finds the attempt count moved on and writes nothing.
        const held =
          q.whOutcome.run({
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
        if (!held) return;
        q.whAttempt.run({ id, ...attempt });
        if (outcome.followUps) {
          q.whPayload.run({ id, payload: outcome.followUps.payload });
          for (const e of outcome.followUps.events) q.whInsert.run(eventRow(e));
        }
      });
    },
    recent: async (eventTypeId, limit) => recentDeliveries(q, eventTypeId, channel, limit),
  };
}

/**
 * The ids of the events `claimDue` leases, in the order they fell due: for each event type with
 * pending events on the channel (found by a skip scan of the index, one step per event type), its
 * first due, unleased events that no earlier pending event of their reservation holds back, at most
 * `cap` less the leases it holds; then the earliest `limit` of them all. Each step is an index range
 * read, so a claim costs the same with ten thousand events waiting (a burst of bookings) as with
 * none: it never reads the whole backlog. Runs inside the write transaction, so the cap is exact.
 */
function dueEvents(q: OutboxQueries, channel: OutboxChannel, nowMs: number, limit: number, cap: number): { ids: number[]; capped: boolean } {
  const candidates: { id: number; dueMs: number }[] = [];
  let capped = false;
  for (let type = q.whFirstType.get(channel)?.id ?? null; type !== null; type = q.whNextType.get(channel, type)?.id ?? null) {
    const leased = q.whLeased.get(channel, type, nowMs)?.n ?? 0;
    if (leased >= cap) capped = true;
    let room = Math.min(limit, cap - leased);
    if (room <= 0) continue;
    for (const row of q.whTypeDue.iterate(channel, type, nowMs, nowMs)) {
      if (q.whHeldBack.get(row.reservation_uuid, channel, row.id)) continue;
      candidates.push({ id: row.id, dueMs: row.next_attempt_at_ms });
      if (--room === 0) break;
    }
  }
  const ids = candidates
    .sort((a, b) => a.dueMs - b.dueMs || a.id - b.id)
    .slice(0, limit)
    .map((c) => c.id);
  return { ids, capped };
}

/** The event type's most recent events (of one channel, or of all), newest first, with their attempts. */
function recentDeliveries(q: OutboxQueries, eventTypeId: number, channel: OutboxChannel | null, limit: number) {
  return q.whRecent.all(eventTypeId, channel, channel, limit).map((row) => ({
    ...toDelivery(row),
    attemptLog: q.whAttemptsOf
      .all(row.id)
      .map((a) => ({ attempt: a.attempt, atMs: a.at_ms, statusCode: a.status_code, error: a.error, durationMs: a.duration_ms })),
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
    // The event types with pending events on a channel, one at a time in id order (a skip scan of webhook_events_pending_by_type).
    whFirstType: db.query<{ id: number }, [string]>(
      "SELECT event_type_id AS id FROM webhook_events WHERE channel = ? AND status = 'pending' ORDER BY event_type_id LIMIT 1",
    ),
    whNextType: db.query<{ id: number }, [string, number]>(
      "SELECT event_type_id AS id FROM webhook_events WHERE channel = ? AND status = 'pending' AND event_type_id > ? ORDER BY event_type_id LIMIT 1",
    ),
    // The leases an event type holds now on a channel (webhook_events_leased: only leased rows are read).
    whLeased: db.query<{ n: number }, [string, number, number]>(
      "SELECT COUNT(*) AS n FROM webhook_events WHERE channel = ? AND status = 'pending' AND event_type_id = ? AND locked_until_ms > ?",
    ),
    // An event type's due, unleased events in the order they fell due.
    whTypeDue: db.query<{ id: number; next_attempt_at_ms: number; reservation_uuid: string }, [string, number, number, number]>(
      `SELECT id, next_attempt_at_ms, reservation_uuid FROM webhook_events INDEXED BY webhook_events_pending_by_type
       WHERE channel = ? AND status = 'pending' AND event_type_id = ? AND next_attempt_at_ms <= ? AND (locked_until_ms IS NULL OR locked_until_ms <= ?)
       ORDER BY next_attempt_at_ms, id`,
    ),
    // An earlier event of the same reservation still pending on the channel holds an event back (order per reservation and channel).
    whHeldBack: db.query<{ id: number }, [string, string, number]>(
      "SELECT id FROM webhook_events WHERE reservation_uuid = ? AND channel = ? AND id < ? AND status = 'pending' LIMIT 1",
    ),
    whLease: db.query<WebhookRow, [number, number]>("UPDATE webhook_events SET locked_until_ms = ?, attempts = attempts + 1 WHERE id = ? RETURNING *"),
    whAttempt: db.query(
      "INSERT INTO webhook_attempts (event_id, attempt, at_ms, status_code, error, duration_ms) VALUES ($id, $attempt, $atMs, $statusCode, $error, $durationMs)",
    ),
    whInsert: db.query<unknown, [Record<string, string | number>]>(INSERT_EVENT),
    whPayload: db.query<unknown, [{ id: number; payload: string }]>("UPDATE webhook_events SET payload = $payload WHERE id = $id"),
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
