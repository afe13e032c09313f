import type { BusyInterval } from "../../domain/slots.ts";
import { claimInstant, reservationColumns, toReservation, type ReservationRow } from "../rows.ts";
import type { ReservationRecord, SeatClaim, SeatDecision, SeatHolder, Store } from "../types.ts";
import { BUSY_MEETING } from "./busy.ts";
import type { SqliteConnection } from "./connection.ts";
import { INSERT_RESERVATION, RESERVATION_BY_UUID, SEAT_HOLDERS, UPDATE_RESERVATION } from "./reservation-sql.ts";
import { eventInserter } from "./webhooks.ts";

/**
 * `store.reservations.claim` on SQLite, the one way seats are taken: under the write lock, reads the
 * seat holders, lets `decide` choose, and writes the reservation, its outbox events, the link of its
 * idempotency key and the event type's revision in the same transaction.
 */
export function sqliteClaims(connection: SqliteConnection): Store["reservations"]["claim"] {
  const { db } = connection;
  const q = {
    rByUuid: db.query<ReservationRow, [number, string]>(RESERVATION_BY_UUID),
    seatHolders: db.query<SeatHolder, [{ eventTypeId: number; untilMs: number; fromMs: number; nowMs: number }]>(SEAT_HOLDERS),
    busyMeeting: db.query<BusyInterval, [number, number, number]>(BUSY_MEETING),
    rInsert: db.query(INSERT_RESERVATION),
    rUpdate: db.query(UPDATE_RESERVATION),
    idemLink: db.query<unknown, [string, number, string]>("UPDATE idempotency_keys SET reservation_uuid = ? WHERE event_type_id = ? AND key = ?"),
    // A claim's write to its event type in one statement: the revision bumped, the longest reservation kept.
    etClaimed: db.query<unknown, [number, number]>("UPDATE event_types SET revision = revision + 1, longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id = ?"),
  };
  const insertEvents = eventInserter(db);

  return async (claim: SeatClaim, decide: (holders: SeatHolder[], current: ReservationRecord | null, nowMs: number, busy: BusyInterval[]) => SeatDecision) => {
    // Everything between BEGIN IMMEDIATE and COMMIT runs synchronously: no other request of this
    // process can interleave, and other processes wait on SQLite's write lock. Claims arriving
    // together share one transaction (see SqliteConnection.batched), each decided in turn on what the ones before
    // it wrote.
    return connection.batched(() => {
      // One host, one clock: the caller's, read now that the write lock is held.
      const nowMs = claimInstant(claim);
      const currentRow = claim.uuid ? q.rByUuid.get(claim.eventTypeId, claim.uuid) : null;
      const holders = q.seatHolders.all({ eventTypeId: claim.eventTypeId, untilMs: claim.untilMs, fromMs: claim.fromMs, nowMs }).filter((h) => h.uuid !== claim.uuid);
      // The organizer's calendars as last synced, read under the same write lock as the seats.
      const busy = claim.busySpan ? q.busyMeeting.all(claim.eventTypeId, claim.busySpan.fromMs, claim.busySpan.untilMs) : [];
      const decision = decide(holders, currentRow ? toReservation(currentRow) : null, nowMs, busy);
      if ("refuse" in decision) return { refused: decision.refuse };
      const record = decision.write;
      const seat = claim.seat ?? { startMs: claim.fromMs, endMs: claim.untilMs };
      if (record.startMs < seat.startMs || record.endMs > seat.endMs) throw new Error("a claim wrote a reservation outside the seat it locked");
      insertEvents(decision.events ?? []);
      if (currentRow) {
        const changed = q.rUpdate.run({ ...reservationColumns(record), expectedUpdatedAtMs: currentRow.updated_at_ms }).changes;
        if (changed !== 1) throw new Error("reservation changed inside its own transaction");
      } else {
        q.rInsert.run(reservationColumns(record));
      }
      if (claim.idempotencyKey) q.idemLink.run(record.uuid, claim.eventTypeId, claim.idempotencyKey);
      q.etClaimed.run(record.endMs - record.startMs, claim.eventTypeId);
      return { record };
    });
  };
}
