import { reservationColumns } from "../rows/reservations.ts";
import type { ReservationRecord } from "../reservations.ts";

/** Stores a new reservation; its parameters are `reservationValues`. */
export const INSERT_RESERVATION = `INSERT INTO reservations (uuid, event_type_id, status, start_ms, end_ms, held_until_ms, email, firstname,
  lastname, phone, timezone, location, guests, custom_fields, meet_link, payment, payment_intent_id, confirmed_at_ms,
  cancelled_at_ms, created_at_ms, updated_at_ms, ics_sequence, cancel_reason, locale, host_ids, series_id, series_rule)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)`;

/** A reservation's column values, $1 to $27 of INSERT_RESERVATION. */
export function reservationValues(r: ReservationRecord): unknown[] {
  const c = reservationColumns(r);
  return [
    c.uuid,
    c.eventTypeId,
    c.status,
    c.startMs,
    c.endMs,
    c.heldUntilMs,
    c.email,
    c.firstname,
    c.lastname,
    c.phone,
    c.timezone,
    c.location,
    c.guests,
    c.customFields,
    c.meetLink,
    c.payment,
    c.paymentIntentId,
    c.confirmedAtMs,
    c.cancelledAtMs,
    c.createdAtMs,
    c.updatedAtMs,
    c.sequence,
    c.cancelReason,
    c.locale,
    c.hostIds,
    c.seriesId,
    c.seriesRule,
  ];
}

/** Compare-and-set of a reservation: the values of `reservationValues`, with $20 (created_at_ms, never changed) the expected updated_at_ms. */
export const UPDATE_RESERVATION = `UPDATE reservations SET status = $3, start_ms = $4, end_ms = $5, held_until_ms = $6, email = $7,
  firstname = $8, lastname = $9, phone = $10, timezone = $11, location = $12, guests = $13, custom_fields = $14, meet_link = $15,
  payment = $16, payment_intent_id = $17, confirmed_at_ms = $18, cancelled_at_ms = $19, updated_at_ms = $21, ics_sequence = $22, cancel_reason = $23,
  locale = $24, host_ids = $25
  WHERE uuid = $1 AND event_type_id = $2 AND updated_at_ms = $20`;

/** The parameters of UPDATE_RESERVATION: writes `r` only if the row still has `expectedUpdatedAtMs`. */
export function updateValues(r: ReservationRecord, expectedUpdatedAtMs: number): unknown[] {
  // The series a reservation belongs to ($26, $27) never changes: the update leaves it out.
  const values = reservationValues(r).slice(0, 25);
  values[19] = expectedUpdatedAtMs;
  return values;
}

/**
 * True for a row whose payment keeps its hold's seat past held_until_ms at the instant in parameter
 * `now` (domain/reservation.ts `keepsSeat`, with the status check): succeeded, or processing until the start.
 */
export const paidHold = (now: string) =>
  `(coalesce(payment::json->>'status', '') = 'succeeded' OR (coalesce(payment::json->>'status', '') = 'processing' AND start_ms > ${now}))`;

/**
 * The reservations of event type $1 holding a seat at $4 that overlap [$2, $3), read by `toSeatHolder`:
 * what slot lists and seat claims count. The event type's longest reservation bounds how far back
 * an overlapping one can start, which keeps the index range scanned short.
 */
export const SEAT_HOLDERS = `SELECT uuid, start_ms, end_ms, host_ids, CASE WHEN status = 'held' AND NOT ${paidHold("$4")} THEN held_until_ms END AS held_until_ms FROM reservations
  WHERE event_type_id = $1 AND start_ms < $3 AND end_ms > $2
    AND start_ms >= $2 - (SELECT longest_reservation_ms FROM event_types WHERE id = $1)
    AND (status = 'confirmed' OR (status = 'held' AND (held_until_ms > $4 OR ${paidHold("$4")})))
  ORDER BY start_ms, uuid`;

/** The database server's clock in epoch milliseconds, as an SQL expression: the one time of all hosts, where seats are judged by it. */
export const DATABASE_NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";
/** The statement that reads DATABASE_NOW_MS as `now`. */
export const DATABASE_NOW = `SELECT ${DATABASE_NOW_MS} AS now`;
