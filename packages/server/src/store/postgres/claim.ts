import type { ReservationRecord, SeatClaim, SeatDecision, SeatHolder } from "../types.ts";
import type { Connections } from "./connections.ts";
import { DATABASE_NOW, INSERT_RESERVATION, SEAT_HOLDERS, UPDATE_RESERVATION, reservationValues, updateValues } from "./reservation-sql.ts";
import { toReservation, toSeatHolder, type ReservationRow, type SeatHolderRow } from "./rows.ts";
import { claimInstant } from "../rows.ts";
import { insertEvents } from "./webhooks.ts";

/** A seat claim waits this long for its event type's lock, like SQLite's busy wait, then answers slot_locked. */
const CLAIM_LOCK_WAIT_MS = 100;

/**
 * `store.reservations.claim` on PostgreSQL, the one way seats are taken: under the event type's
 * row lock, reads the seat holders, lets `decide` choose, and writes the reservation, its outbox
 * events and the link of its idempotency key in the same transaction.
 */
export async function claimSeats(
  db: Connections,
  claim: SeatClaim,
  decide: (holders: SeatHolder[], current: ReservationRecord | null, nowMs: number) => SeatDecision,
  databaseTime: boolean,
): Promise<{ record: ReservationRecord } | { refused: string }> {
  return db.transaction(async (c): Promise<{ record: ReservationRecord } | { refused: string }> => {
    // The event type's row is the slot lock of every instance. A claim waits for it as briefly as
    // SQLite's busy wait (claims take milliseconds, so a short queue clears), then answers
    // slot_locked. NO KEY UPDATE excludes every other claim and seat writer alike, yet lets
    // foreign-key checks (idempotency keys, webhook events of other requests) through.
    await c.query(`SET LOCAL lock_timeout = ${CLAIM_LOCK_WAIT_MS}`);
    const locked = await c.query("SELECT id FROM event_types WHERE id = $1 FOR NO KEY UPDATE", [claim.eventTypeId]);
    if (locked.rowCount === 0) throw new Error(`event type ${claim.eventTypeId} does not exist`);
    // Several hosts, several clocks: judged by the database's, one time for all of them, so no two
    // hosts can disagree whether a hold still holds its seat.
    const nowMs = databaseTime
      ? (await c.query<{ now: number }>(DATABASE_NOW)).rows[0]!.now
      : claimInstant(claim);
    const currentRow = claim.uuid
      ? (await c.query<ReservationRow>("SELECT * FROM reservations WHERE event_type_id = $1 AND uuid = $2 FOR UPDATE", [claim.eventTypeId, claim.uuid])).rows[0]
      : undefined;
    const holders = (await c.query<SeatHolderRow>(SEAT_HOLDERS, [claim.eventTypeId, claim.fromMs, claim.untilMs, nowMs])).rows
      .map(toSeatHolder)
      .filter((h) => h.uuid !== claim.uuid);
    const decision = decide(holders, currentRow ? toReservation(currentRow) : null, nowMs);
    if ("refuse" in decision) return { refused: decision.refuse };
    const record = decision.write;
    await insertEvents(c, decision.events ?? []);
    if (currentRow) {
      const changed = await c.query(UPDATE_RESERVATION, updateValues(record, currentRow.updated_at_ms));
      if (changed.rowCount !== 1) throw new Error("reservation changed inside its own transaction");
    } else {
      await c.query(INSERT_RESERVATION, reservationValues(record));
    }
    await c.query("UPDATE event_types SET longest_reservation_ms = greatest(longest_reservation_ms, $1), revision = revision + 1 WHERE id = $2", [
      record.endMs - record.startMs,
      claim.eventTypeId,
    ]);
    if (claim.idempotencyKey) {
      await c.query("UPDATE idempotency_keys SET reservation_uuid = $1 WHERE event_type_id = $2 AND key = $3", [record.uuid, claim.eventTypeId, claim.idempotencyKey]);
    }
    return { record };
  });
}
