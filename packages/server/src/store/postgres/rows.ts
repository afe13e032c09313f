import pg from "pg";
export { toDelivery, toReservation, type ReservationRow, type WebhookRow } from "../rows.ts";
import type { EventTypeRecord, SeatHolder } from "../types.ts";

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

/** The seat holder of a seat-holder row, as the seat decision reads it. */
export const toSeatHolder = (r: SeatHolderRow): SeatHolder => ({
  uuid: r.uuid,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
});
