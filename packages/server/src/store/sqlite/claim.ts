import { claimedHosts, claimInstant, hostViews } from "../claim.ts";
import { hostIdsOf, reservationColumns, toReservation, type ReservationRow } from "../rows/reservations.ts";
import type { HostBusyInterval } from "../hosts.ts";
import type { ClaimDecide, LimitBooking, SeatClaim, SeatHolder } from "../reservations.ts";
import type { Store } from "../store.ts";
import type { SqliteConnection } from "./connection.ts";
import {
  EVENT_TYPE_HOST_IDS,
  HOLDING_RESERVATION,
  HOST_BUSY,
  INSERT_RESERVATION,
  LAST_BOOKED,
  LIMIT_BOOKINGS,
  LIVE_HOSTS,
  ONE_HOST_BOOKINGS,
  ONE_HOST_CALENDAR_BUSY,
  RESERVATION_BY_UUID,
  SEAT_HOLDERS,
  UPDATE_RESERVATION,
} from "./reservation-sql.ts";
import { eventInserter } from "./outbox.ts";
import { HOST_AWAY } from "./time-off.ts";
import { toAway, type TimeOffRow } from "../time-off.ts";

/** A seat holder row as SQLite answers it: the hosts as JSON text. */
export type SeatHolderRow = Omit<SeatHolder, "hostIds"> & { hostIds: string };
export const toSeatHolder = (row: SeatHolderRow): SeatHolder => ({
  uuid: row.uuid,
  startMs: row.startMs,
  endMs: row.endMs,
  heldUntilMs: row.heldUntilMs,
  hostIds: hostIdsOf(row.hostIds),
});

/**
 * `store.reservations.claim` on SQLite, the one way seats are taken: under the write lock, reads the
 * seat holders, the candidate hosts' other bookings and calendars, lets `decide` choose, and writes
 * the reservation (with its hosts), its outbox events, the link of its idempotency key and the
 * revisions of the event type and of the hosts in the same transaction.
 */
export function sqliteClaims(connection: SqliteConnection): Store["reservations"]["claim"] {
  const { db } = connection;
  const q = {
    rByUuid: db.query<ReservationRow, [number, string]>(RESERVATION_BY_UUID),
    seatHolders: db.query<SeatHolderRow, [{ eventTypeId: number; untilMs: number; fromMs: number; nowMs: number }]>(SEAT_HOLDERS),
    hostBusy: db.query<HostBusyInterval, [{ hostIds: string; eventTypeId: number; fromMs: number; untilMs: number; nowMs: number }]>(HOST_BUSY),
    // HOST_BUSY of one host in plain range reads (see ONE_HOST_BOOKINGS).
    oneHostBookings: db.query<{ startMs: number; endMs: number; uuid: string }, [{ hostId: number; eventTypeId: number; fromMs: number; untilMs: number }]>(
      ONE_HOST_BOOKINGS,
    ),
    holding: db.query<{ heldUntilMs: number | null }, [{ uuid: string; nowMs: number }]>(HOLDING_RESERVATION),
    oneHostCalendars: db.query<{ startMs: number; endMs: number }, [{ hostId: number; fromMs: number; untilMs: number }]>(ONE_HOST_CALENDAR_BUSY),
    lastBooked: db.query<{ hostId: number; lastMs: number }, [{ hostIds: string; eventTypeId: number }]>(LAST_BOOKED),
    away: db.query<TimeOffRow, [{ hostIds: string; fromMs: number; untilMs: number }]>(HOST_AWAY),
    hostIds: db.query<{ hostId: number }, [number]>(EVENT_TYPE_HOST_IDS),
    limitBookings: db.query<LimitBooking, [{ eventTypeId: number; hostIds: string; fromMs: number; untilMs: number; nowMs: number }]>(LIMIT_BOOKINGS),
    liveHosts: db.query<{ id: number }, [string]>(LIVE_HOSTS),
    // The one-host case of a claim (most event types) without a JSON array to build and walk.
    liveHost: db.query<{ id: number }, [number]>("SELECT id FROM hosts WHERE id = ?"),
    rInsert: db.query(INSERT_RESERVATION),
    rUpdate: db.query(UPDATE_RESERVATION),
    idemLink: db.query<unknown, [string, number, string]>("UPDATE idempotency_keys SET reservation_uuid = ? WHERE event_type_id = ? AND key = ?"),
    // A claim's write to its event type in one statement: the revision bumped (when no host carries it), the longest reservation kept.
    etClaimed: db.query<unknown, [number, number, number]>(
      "UPDATE event_types SET revision = revision + ?, longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id = ?",
    ),
    // And to its hosts: every event type of theirs gets a new revision, counted in booking_revision
    // (a host's revision is both columns' sum), which tells token lookups that only seats changed.
    hostsClaimed: db.query<unknown, [number, string]>(
      "UPDATE hosts SET booking_revision = booking_revision + 1, longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id IN (SELECT value FROM json_each(?))",
    ),
    hostClaimed: db.query<unknown, [number, number]>(
      "UPDATE hosts SET booking_revision = booking_revision + 1, longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id = ?",
    ),
  };
  const insertEvents = eventInserter(db);
  /** Those of the hosts that still exist, in the order given. */
  const liveOf = (named: number[]): number[] => {
    const live = new Set(q.liveHosts.all(JSON.stringify(named)).map((h) => h.id));
    return named.filter((id) => live.has(id));
  };

  /**
   * What takes the hosts outside the event type in the span (HOST_BUSY), for one host in plain range reads
   * (the claim needs only the times: where each comes from is the availability check's, not read here).
   */
  const hostBusy = (
    hostIds: number[],
    hostsJson: string,
    eventTypeId: number,
    span: { fromMs: number; untilMs: number },
    nowMs: number,
  ): HostBusyInterval[] => {
    const { fromMs, untilMs } = span;
    if (hostIds.length !== 1) return q.hostBusy.all({ hostIds: hostsJson, eventTypeId, fromMs, untilMs, nowMs });
    const hostId = hostIds[0]!;
    const rows: HostBusyInterval[] = [];
    for (const b of q.oneHostBookings.all({ hostId, eventTypeId, fromMs, untilMs })) {
      const holding = q.holding.get({ uuid: b.uuid, nowMs });
      if (holding)
        rows.push({ hostId, startMs: b.startMs, endMs: b.endMs, heldUntilMs: holding.heldUntilMs, eventTypeId: null, sourceId: null, reservationUuid: b.uuid });
    }
    for (const c of q.oneHostCalendars.all({ hostId, fromMs, untilMs }))
      rows.push({ hostId, startMs: c.startMs, endMs: c.endMs, heldUntilMs: null, eventTypeId: null, sourceId: null, reservationUuid: null });
    return rows;
  };

  return async (claim: SeatClaim, decide: ClaimDecide) => {
    // Everything between BEGIN IMMEDIATE and COMMIT runs synchronously: no other request of this
    // process can interleave, and other processes wait on SQLite's write lock. Claims arriving
    // together share one transaction (see SqliteConnection.batched), each decided in turn on what the ones before
    // it wrote.
    return connection.batched(() => {
      // One host, one clock: the caller's, read now that the write lock is held.
      const nowMs = claimInstant(claim);
      // A host deleted since the caller read its event type is no candidate (its booking would break
      // the reservation_hosts foreign key); no deletion can start before this claim commits.
      const named = claim.hostIds ?? q.hostIds.all(claim.eventTypeId).map((h) => h.hostId);
      const candidates = named.length === 1 ? (q.liveHost.get(named[0]!) ? [named[0]!] : []) : liveOf(named);
      const hostsJson = JSON.stringify(candidates);
      const currentRow = claim.uuid ? q.rByUuid.get(claim.eventTypeId, claim.uuid) : null;
      const holders = q.seatHolders
        .all({ eventTypeId: claim.eventTypeId, untilMs: claim.untilMs, fromMs: claim.fromMs, nowMs })
        .filter((h) => h.uuid !== claim.uuid)
        .map(toSeatHolder);
      // The hosts' calendars as last synced and their bookings of other event types, read under the same write lock as the seats.
      const busyRows = claim.busySpan ? hostBusy(candidates, hostsJson, claim.eventTypeId, claim.busySpan, nowMs) : [];
      const lastBooked = new Map<number, number>();
      if (claim.lastBooked) for (const row of q.lastBooked.all({ hostIds: hostsJson, eventTypeId: claim.eventTypeId })) lastBooked.set(row.hostId, row.lastMs);
      // Their time off too, under the same lock: a time off written before this claim refuses it.
      const away = claim.busySpan ? q.away.all({ hostIds: hostsJson, fromMs: claim.busySpan.fromMs, untilMs: claim.busySpan.untilMs }).map(toAway) : [];
      const busy = busyRows.map((b) => ({ startMs: b.startMs, endMs: b.endMs }));
      // What booking limits count, read under the same write lock: no claim can commit between this read and this write.
      const counted = claim.limits
        ? q.limitBookings.all({
            eventTypeId: claim.limits.eventType ? claim.eventTypeId : 0,
            hostIds: JSON.stringify(claim.limits.hostIds),
            fromMs: claim.limits.fromMs,
            untilMs: claim.limits.untilMs,
            nowMs,
          })
        : [];
      const decision = decide(holders, currentRow ? toReservation(currentRow) : null, nowMs, busy, hostViews(candidates, busyRows, lastBooked, away), counted);
      if ("refuse" in decision) return { refused: decision.refuse };
      const record = { ...decision.write, hostIds: claimedHosts(decision.write, candidates) };
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
      // The hosts it took and those it left (a reassignment) get new revisions, and with them every
      // event type of theirs; the event type's own only when no host was recorded.
      const touched = [...new Set([...record.hostIds, ...hostIdsOf(currentRow?.host_ids)])];
      q.etClaimed.run(touched.length > 0 ? 0 : 1, record.endMs - record.startMs, claim.eventTypeId);
      if (touched.length === 1) q.hostClaimed.run(record.endMs - record.startMs, touched[0]!);
      else if (touched.length > 1) q.hostsClaimed.run(record.endMs - record.startMs, JSON.stringify(touched));
      connection.claimed(touched, touched.length > 0 ? null : claim.eventTypeId);
      return { record };
    });
  };
}
