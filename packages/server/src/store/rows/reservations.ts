import { paidHold } from "../../domain/reservation.ts";
import type { ReservationRecord } from "../reservations.ts";

// `reservations` rows as both engines return them (PostgreSQL with bigints read as numbers), and their records.

/** A `reservations` row. */
export interface ReservationRow {
  uuid: string;
  event_type_id: number;
  host_ids: string;
  status: ReservationRecord["status"];
  start_ms: number;
  end_ms: number;
  held_until_ms: number | null;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  timezone: string | null;
  locale: string | null;
  location: string | null;
  guests: string;
  custom_fields: string;
  meet_link: string | null;
  ics_sequence: number;
  payment: string | null;
  payment_intent_id: string | null;
  confirmed_at_ms: number | null;
  cancelled_at_ms: number | null;
  cancel_reason: string | null;
  /** Absent on rows read by statements that name their columns. */
  series_id?: string | null;
  series_rule?: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A reservation record from its row; JSON columns are text in both engines. */
export const toReservation = (r: ReservationRow): ReservationRecord => ({
  uuid: r.uuid,
  eventTypeId: r.event_type_id,
  hostIds: hostIdsOf(r.host_ids),
  status: r.status,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  phone: r.phone,
  timezone: r.timezone,
  // Only when the booking named one: records made before (and without) it read as they always did.
  ...(r.locale == null ? {} : { locale: r.locale }),
  location: r.location === null ? null : JSON.parse(r.location),
  guests: JSON.parse(r.guests),
  customFields: JSON.parse(r.custom_fields),
  meetLink: r.meet_link,
  sequence: r.ics_sequence,
  payment: r.payment === null ? null : JSON.parse(r.payment),
  confirmedAtMs: r.confirmed_at_ms,
  cancelledAtMs: r.cancelled_at_ms,
  cancelReason: r.cancel_reason,
  ...(r.series_id == null ? {} : { seriesId: r.series_id, seriesRule: r.series_rule ? JSON.parse(r.series_rule) : null }),
  createdAtMs: r.created_at_ms,
  updatedAtMs: r.updated_at_ms,
});

/** The host ids of a reservation row's JSON text; the text of one host is parsed without JSON.parse. */
export function hostIdsOf(text: string | null | undefined): number[] {
  if (!text || text === "[]") return [];
  const one = /^\[(\d+)\]$/.exec(text);
  return one ? [Number(one[1])] : (JSON.parse(text) as (number | string)[]).map(Number);
}

/** A reservation's column values, named as the SQLite statements bind them: the inverse of `toReservation`. */
export const reservationColumns = (r: ReservationRecord) => ({
  uuid: r.uuid,
  eventTypeId: r.eventTypeId,
  hostIds: JSON.stringify(r.hostIds),
  status: r.status,
  startMs: r.startMs,
  endMs: r.endMs,
  heldUntilMs: r.heldUntilMs,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  phone: r.phone,
  timezone: r.timezone,
  locale: r.locale ?? null,
  location: r.location === null ? null : JSON.stringify(r.location),
  guests: JSON.stringify(r.guests),
  customFields: JSON.stringify(r.customFields),
  meetLink: r.meetLink,
  sequence: r.sequence,
  payment: r.payment === null ? null : JSON.stringify(r.payment),
  paymentIntentId: r.payment?.intentId ?? null,
  confirmedAtMs: r.confirmedAtMs,
  cancelledAtMs: r.cancelledAtMs,
  cancelReason: r.cancelReason ?? null,
  seriesId: r.seriesId ?? null,
  seriesRule: r.seriesRule ? JSON.stringify(r.seriesRule) : null,
  createdAtMs: r.createdAtMs,
  updatedAtMs: r.updatedAtMs,
});

/**
 * Whether saving `after` over the stored `before` moves seats (status, times or hold), which slot
 * lists and configuration depend on; a payment note does not. Without a stored row, nothing moved.
 */
export const movesSeats = (
  before: Pick<ReservationRow, "status" | "start_ms" | "end_ms" | "held_until_ms" | "payment"> | null | undefined,
  after: ReservationRecord,
): boolean =>
  before != null &&
  (before.status !== after.status ||
    before.start_ms !== after.startMs ||
    before.end_ms !== after.endMs ||
    before.held_until_ms !== after.heldUntilMs ||
    // A payment that starts or stops keeping a hold's seat (a processing one that failed) moves it.
    paidHold({
      status: before.status,
      startMs: before.start_ms,
      heldUntilMs: before.held_until_ms,
      payment: before.payment === null ? null : JSON.parse(before.payment),
    }) !== paidHold(after));
