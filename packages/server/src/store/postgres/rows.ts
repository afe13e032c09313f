import pg from "pg";
import type { EventTypeRecord, OutboxEvent, ReservationRecord, SeatHolder, WebhookDelivery } from "../types.ts";

/** bigint columns (ids, epoch milliseconds, counts) as numbers: every value stays far below 2^53. */
export const NUMERIC_BIGINTS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** A row of `event_types` as pg returns it, read into an EventTypeRecord by `toEventType`. */
export interface EventTypeRow {
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

/** A row of `reservations` as pg returns it, read into a ReservationRecord by `toReservation`. */
export interface ReservationRow {
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

/** A row of `webhook_events` as pg returns it, read into a WebhookDelivery by `toDelivery`. */
export interface WebhookRow {
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

/** A row of the seat-holder query, read into a SeatHolder by `toSeatHolder`. */
export interface SeatHolderRow {
  uuid: string;
  start_ms: number;
  end_ms: number;
  held_until_ms: number | null;
}

/** The record of an event type's row, its settings parsed from their JSON text. */
export const toEventType = (r: EventTypeRow): EventTypeRecord => ({
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

/** The record of a reservation's row, its JSON columns parsed. */
export const toReservation = (r: ReservationRow): ReservationRecord => ({
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

/** The delivery of a webhook event's row; the payload stays the text it was signed as. */
export const toDelivery = (r: WebhookRow): WebhookDelivery => ({
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

/** The seat holder of a seat-holder row, as the seat decision reads it. */
export const toSeatHolder = (r: SeatHolderRow): SeatHolder => ({
  uuid: r.uuid,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
});
