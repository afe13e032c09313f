import type pg from "pg";
import {
  REMINDER_WITHDRAWN,
  changedReservations,
  type ChannelOutbox,
  type OutboxChannel,
  type OutboxEvent,
  type OutboxRepository,
  type WebhookAttempt,
} from "../outbox.ts";
import type { Connections } from "./connections.ts";
import { toDelivery, type WebhookRow } from "../rows/outbox.ts";

/** The events of one change in one round trip, in the order given (their ids, which order a reservation's events, follow it). */
const INSERT_EVENTS = `INSERT INTO webhook_events (event_type_id, reservation_uuid, kind, msg_id, url, payload, next_attempt_at_ms, created_at_ms, channel)
  SELECT e, r, k, m, u, p, n, c, ch
  FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[]) WITH ORDINALITY AS t(e, r, k, m, u, p, n, c, ch, i)
  ORDER BY i`;

/** Withdraws a reservation's reminders still pending (see `OutboxEvent.notBeforeMs`); a worker sending one meanwhile records nothing. */
const WITHDRAW_REMINDERS = `UPDATE webhook_events SET status = 'failed', locked_until_ms = NULL, last_error = $2
  WHERE reservation_uuid = $1 AND channel = 'reminder' AND status = 'pending'`;

/**
 * Adds events to the outbox inside the caller's transaction, so they exist exactly when the
 * reservation change they announce does; first withdraws the reservation's reminders still pending.
 */
export async function insertEvents(client: pg.PoolClient, events: OutboxEvent[]): Promise<void> {
  for (const uuid of changedReservations(events)) await client.query(WITHDRAW_REMINDERS, [uuid, REMINDER_WITHDRAWN]);
  await addEvents(client, events);
}

/** Adds events to the outbox, withdrawing nothing. */
async function addEvents(client: pg.PoolClient, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(INSERT_EVENTS, [
    events.map((e) => e.eventTypeId),
    events.map((e) => e.reservationUuid),
    events.map((e) => e.kind),
    events.map((e) => e.msgId),
    events.map((e) => e.url),
    events.map((e) => e.payload),
    events.map((e) => e.notBeforeMs ?? e.createdAtMs),
    events.map((e) => e.createdAtMs),
    events.map((e) => e.channel ?? "webhook"),
  ]);
}

/** Of the channel ($4), due, not leased, and first in line for its reservation there: an earlier event still pending holds later ones back. */
const DUE = `e.channel = $4 AND e.status = 'pending' AND e.next_attempt_at_ms <= $1 AND (e.locked_until_ms IS NULL OR e.locked_until_ms <= $1)`;

/** The outbox on PostgreSQL, leased by row locks so the workers of every instance share it. */
export function postgresOutbox(db: Connections): OutboxRepository {
  // One object per channel, so the store's `webhooks` is the very object `channel("webhook")` answers.
  const channels = new Map<OutboxChannel, ChannelOutbox>();
  return {
    channel: (channel) => {
      let outbox = channels.get(channel);
      if (!outbox) channels.set(channel, (outbox = channelOutbox(db, channel)));
      return outbox;
    },
    recent: (eventTypeId, limit) => recentDeliveries(db, eventTypeId, null, limit),
    // A reminder still waiting for its time is not pulled forward; one withdrawn stays withdrawn.
    retryNow: async (eventTypeId, id, nowMs) =>
      (
        await db.run(
          `UPDATE webhook_events SET status = 'pending', next_attempt_at_ms = $3
           WHERE id = $1 AND event_type_id = $2 AND (locked_until_ms IS NULL OR locked_until_ms <= $3)
           AND ((status = 'failed' AND (last_error IS NULL OR last_error <> $4)) OR (status = 'pending' AND channel <> 'reminder'))`,
          [id, eventTypeId, nowMs, REMINDER_WITHDRAWN],
          true,
        )
      ).rowCount === 1,
  };
}

/** One channel of the outbox on PostgreSQL. */
function channelOutbox(db: Connections, channel: OutboxChannel): ChannelOutbox {
  return {
    claimDue: async (nowMs, leaseMs, limit, perEventType = Number.MAX_SAFE_INTEGER) => {
      // A plain read first: an idle outbox (the usual case, polled every second by every instance) takes no lock.
      const any = await db.run(`SELECT 1 FROM webhook_events e WHERE ${DUE.replace("$4", "$2")} LIMIT 1`, [nowMs, channel], true);
      if (any.rowCount === 0) return [];
      const leased = await db.transaction(async (c) => {
        // SKIP LOCKED: events another instance is leasing right now are left to it; a row it leased
        // and committed meanwhile is re-checked and no longer due.
        // The window picks the candidates (no more of one event type than its free slots); the
        // outer query locks them, since row locks and window functions do not mix in one query level.
        const due = await c.query<{ id: number }>(
          `SELECT e.id FROM webhook_events e
           WHERE ${DUE} AND e.id IN (
             WITH ready AS (
               SELECT e.id, e.event_type_id, e.next_attempt_at_ms, ROW_NUMBER() OVER (PARTITION BY e.event_type_id ORDER BY e.next_attempt_at_ms, e.id) AS n
               FROM webhook_events e
               WHERE ${DUE}
                 AND NOT EXISTS (SELECT 1 FROM webhook_events p WHERE p.reservation_uuid = e.reservation_uuid AND p.channel = e.channel AND p.id < e.id AND p.status = 'pending')
             ), busy AS (
               SELECT event_type_id, COUNT(*) AS leased FROM webhook_events WHERE channel = $4 AND status = 'pending' AND locked_until_ms > $1 GROUP BY event_type_id
             )
             SELECT r.id FROM ready r LEFT JOIN busy b ON b.event_type_id = r.event_type_id
             WHERE r.n + COALESCE(b.leased, 0) <= $3
             ORDER BY r.next_attempt_at_ms, r.id LIMIT $2
           )
           ORDER BY e.next_attempt_at_ms, e.id FOR UPDATE OF e SKIP LOCKED`,
          [nowMs, limit, perEventType, channel],
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
      await db.transaction(async (c) => {
        // Only the worker that holds this attempt records it: one whose lease ran out (and whose
        // event another worker took) finds the attempt count moved on and writes nothing.
        const held = await c.query(
          `UPDATE webhook_events SET status = $1, next_attempt_at_ms = $2, locked_until_ms = NULL,
            last_status_code = $3, last_error = $4, delivered_at_ms = $5, url = COALESCE($8, url) WHERE id = $6 AND attempts = $7 AND status = 'pending' AND channel = $9`,
          [
            outcome.status,
            outcome.status === "pending" ? outcome.nextAttemptAtMs : attempt.atMs,
            attempt.statusCode,
            attempt.error,
            outcome.status === "delivered" ? attempt.atMs + attempt.durationMs : null,
            id,
            attempt.attempt,
            outcome.url ?? null,
            channel,
          ],
        );
        if (held.rowCount !== 1) return;
        await c.query("INSERT INTO webhook_attempts (event_id, attempt, at_ms, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)", [
          id,
          attempt.attempt,
          attempt.atMs,
          attempt.statusCode,
          attempt.error,
          attempt.durationMs,
        ]);
        if (outcome.followUps) {
          await c.query("UPDATE webhook_events SET payload = $2 WHERE id = $1", [id, outcome.followUps.payload]);
          await addEvents(c, outcome.followUps.events);
        }
      });
    },
    recent: (eventTypeId, limit) => recentDeliveries(db, eventTypeId, channel, limit),
  };
}

/** The event type's most recent events (of one channel, or of all), newest first, with their attempts. */
async function recentDeliveries(db: Connections, eventTypeId: number, channel: OutboxChannel | null, limit: number) {
  const events = (
    await db.run<WebhookRow>(
      "SELECT * FROM webhook_events WHERE event_type_id = $1 AND ($3::text IS NULL OR channel = $3) ORDER BY id DESC LIMIT $2",
      [eventTypeId, limit, channel],
      true,
    )
  ).rows;
  if (events.length === 0) return [];
  const attempts = (
    await db.run<{ event_id: number; attempt: number; at_ms: number; status_code: number | null; error: string | null; duration_ms: number }>(
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
}
