import type { OutboxDelivery, OutboxEvent } from "../outbox.ts";

// Outbox rows (`webhook_events`) as both engines return them (PostgreSQL with bigints read as numbers), and their records.

/** A `webhook_events` row. */
export interface WebhookRow {
  id: number;
  channel: OutboxDelivery["channel"];
  event_type_id: number;
  reservation_uuid: string;
  kind: OutboxEvent["kind"];
  msg_id: string;
  url: string;
  payload: string;
  status: OutboxDelivery["status"];
  attempts: number;
  next_attempt_at_ms: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at_ms: number | null;
  created_at_ms: number;
}

/** An outbox event with its delivery state, from its row. */
export const toDelivery = (r: WebhookRow): OutboxDelivery => ({
  id: r.id,
  channel: r.channel,
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
