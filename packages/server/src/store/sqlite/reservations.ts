import type { OutboxEvent } from "../outbox.ts";
import type { LimitBooking, ReservationQuery, ReservationRecord, ReservationSearch } from "../reservations.ts";
import type { Store } from "../store.ts";
import { hostIdsOf, movesSeats, reservationColumns, toReservation, type ReservationRow } from "../rows/reservations.ts";
import { sqliteClaims, toSeatHolder, type SeatHolderRow } from "./claim.ts";
import type { SqliteConnection } from "./connection.ts";
import { BUMP_REVISION } from "./event-types.ts";
import { INSERT_RESERVATION, LIMIT_BOOKINGS, RESERVATION_BY_UUID, SEAT_HOLDERS, UPDATE_RESERVATION } from "./reservation-sql.ts";
import type { SqliteAttemptLimits } from "./rate-limiter.ts";
import { sqliteSweep } from "./sweep.ts";
import { sqliteSeries, sqliteSeriesClaims } from "./series.ts";
import { eventInserter } from "./outbox.ts";

/**
 * Reservations on SQLite. Reads need no lock (WAL readers see the last commit); seats are taken
 * only by claims (see sqliteClaims), and every write runs under the write lock.
 */
export function sqliteReservations(connection: SqliteConnection, attempts: SqliteAttemptLimits): Store["reservations"] {
  const { db } = connection;
  const q = {
    seatHolders: db.query<SeatHolderRow, [{ eventTypeId: number; untilMs: number; fromMs: number; nowMs: number }]>(SEAT_HOLDERS),
    limitBookings: db.query<LimitBooking, [{ eventTypeId: number; hostIds: string; fromMs: number; untilMs: number; nowMs: number }]>(LIMIT_BOOKINGS),
    rByUuid: db.query<ReservationRow, [number, string]>(RESERVATION_BY_UUID),
    rList: db.query<ReservationRow, [number, number, number, string | null, string | null, number]>(
      `SELECT * FROM reservations WHERE event_type_id = ? AND start_ms < ? AND end_ms > ?
       AND (? IS NULL OR status IN (SELECT value FROM json_each(?))) ORDER BY start_ms, uuid LIMIT ?`,
    ),
    rPaidHoldsDue: db.query<ReservationRow, [number, number]>(
      "SELECT * FROM reservations WHERE status = 'held' AND held_until_ms <= ? AND json_extract(payment, '$.status') = 'succeeded' ORDER BY held_until_ms, uuid LIMIT ?",
    ),
    rProcessingDue: db.query<ReservationRow, [number, number]>(
      "SELECT * FROM reservations WHERE payment_intent_id IS NOT NULL AND json_extract(payment, '$.status') = 'processing' AND (status <> 'held' OR held_until_ms <= ?) ORDER BY updated_at_ms, uuid LIMIT ?",
    ),
    rRefundsDue: db.query<ReservationRow, [number]>(
      "SELECT * FROM reservations WHERE payment_intent_id IS NOT NULL AND status = 'cancelled' AND json_extract(payment, '$.status') = 'refunding' ORDER BY updated_at_ms, uuid LIMIT ?",
    ),
    rByIntent: db.query<ReservationRow, [string]>("SELECT * FROM reservations WHERE payment_intent_id = ?"),
    rInsert: db.query(INSERT_RESERVATION),
    rUpdate: db.query(UPDATE_RESERVATION),
    etBump: db.query<unknown, [number]>(BUMP_REVISION),
    etLongest: db.query<unknown, [number, number]>("UPDATE event_types SET longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id = ?"),
    hostsChanged: db.query<unknown, [number, string]>(
      "UPDATE hosts SET revision = revision + 1, longest_reservation_ms = max(longest_reservation_ms, ?) WHERE id IN (SELECT value FROM json_each(?))",
    ),
  };
  const insertEvents = eventInserter(db);
  const sweep = sqliteSweep(connection, attempts);

  return {
    seatHolders: async (eventTypeId, fromMs, untilMs, nowMs) => q.seatHolders.all({ eventTypeId, untilMs, fromMs, nowMs }).map(toSeatHolder),
    byUuid: async (eventTypeId, uuid) => {
      const row = q.rByUuid.get(eventTypeId, uuid);
      return row ? toReservation(row) : null;
    },
    byPaymentIntent: async (intentId) => {
      const row = q.rByIntent.get(intentId);
      return row ? toReservation(row) : null;
    },
    claim: sqliteClaims(connection),
    limitBookings: async (eventTypeId, hostIds, fromMs, untilMs, nowMs) =>
      q.limitBookings.all({ eventTypeId: eventTypeId ?? 0, hostIds: JSON.stringify(hostIds), fromMs, untilMs, nowMs }),
    claimSeries: sqliteSeriesClaims(connection),
    series: sqliteSeries(db),
    save: async (record: ReservationRecord, expectedUpdatedAtMs: number, events: OutboxEvent[] = []) =>
      connection.write(() => {
        const before = q.rByUuid.get(record.eventTypeId, record.uuid);
        const changed = q.rUpdate.run({ ...reservationColumns(record), expectedUpdatedAtMs }).changes === 1;
        if (changed) insertEvents(events);
        // Slot lists and configuration depend on seats only; a payment note leaves their caches alone.
        if (changed && movesSeats(before, record)) {
          // Through its hosts' revisions (every event type of theirs); the event type's own when none is recorded.
          const touched = [...new Set([...record.hostIds, ...hostIdsOf(before?.host_ids)])];
          if (touched.length > 0) q.hostsChanged.run(0, JSON.stringify(touched));
          else q.etBump.run(record.eventTypeId);
        }
        return changed;
      }),
    paidHoldsDue: async (nowMs: number, limit: number) => q.rPaidHoldsDue.all(nowMs, limit).map(toReservation),
    processingDue: async (nowMs: number, limit: number) => q.rProcessingDue.all(nowMs, limit).map(toReservation),
    refundsDue: async (limit: number) => q.rRefundsDue.all(limit).map(toReservation),
    sweep,
    list: async (eventTypeId: number, query: ReservationQuery) => {
      const statuses = query.statuses ? JSON.stringify(query.statuses) : null;
      return q.rList.all(eventTypeId, query.untilMs, query.fromMs, statuses, statuses, query.limit).map(toReservation);
    },
    search: async (search: ReservationSearch) => {
      const { sql, params } = searchSql(search);
      return db
        .query<ReservationRow, (string | number)[]>(sql)
        .all(...params)
        .map(toReservation);
    },
    insertMany: async (records: ReservationRecord[]) => {
      connection.write(() => {
        const touched = new Set<number>();
        for (const r of records) {
          q.rInsert.run(reservationColumns(r));
          q.etLongest.run(r.endMs - r.startMs, r.eventTypeId);
          q.hostsChanged.run(r.endMs - r.startMs, JSON.stringify(r.hostIds));
          touched.add(r.eventTypeId);
        }
        for (const id of touched) q.etBump.run(id);
      });
    },
  };
}

/** The statement of one page of the organizer's list; its text depends only on which filters are set, so each shape is prepared once. */
function searchSql(search: ReservationSearch): { sql: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (search.eventTypeIds) {
    where.push(`event_type_id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(search.eventTypeIds));
  }
  if (search.hostId !== undefined) where.push("uuid IN (SELECT reservation_uuid FROM reservation_hosts WHERE host_id = ?)"), params.push(search.hostId);
  if (search.untilMs !== undefined) where.push("start_ms < ?"), params.push(search.untilMs);
  if (search.fromMs !== undefined) where.push("end_ms > ?"), params.push(search.fromMs);
  if (search.statuses) where.push("status IN (SELECT value FROM json_each(?))"), params.push(JSON.stringify(search.statuses));
  if (search.text) {
    where.push("(instr(lower(email), ?) > 0 OR instr(lower(firstname || ' ' || lastname), ?) > 0)");
    params.push(search.text.toLowerCase(), search.text.toLowerCase());
  }
  const ahead = search.order === "asc" ? ">" : "<";
  if (search.after) where.push(`(start_ms, uuid) ${ahead} (?, ?)`), params.push(search.after.startMs, search.after.uuid);
  const direction = search.order === "asc" ? "ASC" : "DESC";
  params.push(search.limit);
  return {
    sql: `SELECT * FROM reservations ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY start_ms ${direction}, uuid ${direction} LIMIT ?`,
    params,
  };
}
