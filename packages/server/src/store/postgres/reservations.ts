import { LIMIT_BOOKINGS, toLimitBooking } from "./hosts-sql.ts";
import type { OutboxEvent } from "../outbox.ts";
import type { ReservationQuery, ReservationRecord, ReservationSearch } from "../reservations.ts";
import type { Store } from "../store.ts";
import { FINE_BUCKET_MS, claimSeats, commitSeatChange } from "./claim.ts";
import type { Connections } from "./connections.ts";
import type { PostgresRateLimiter } from "./rate-limiter.ts";
import { DATABASE_NOW, INSERT_RESERVATION, SEAT_HOLDERS, UPDATE_RESERVATION, reservationValues, updateValues } from "./reservation-sql.ts";
import { hostIdsOf, movesSeats, toReservation, type ReservationRow } from "../rows/reservations.ts";
import { toSeatHolder, type SeatHolderRow } from "./rows.ts";
import { sweep } from "./sweep.ts";
import { insertEvents } from "./outbox.ts";
import { postgresSeries, postgresSeriesClaims } from "./series.ts";

/** The database server's clock, in epoch milliseconds. */
export async function databaseNow(db: Connections): Promise<number> {
  return (await db.run<{ now: number }>(DATABASE_NOW, [], true)).rows[0]!.now;
}

/**
 * Reservations on PostgreSQL. Reads are single statements, retried on a lost connection; seats are
 * taken only by claims, under the advisory locks of their time range (see claimSeats and
 * PostgresStore); writes that free seats (save, sweep) lock just the rows they change.
 */
export function postgresReservations(db: Connections, rateLimiter: PostgresRateLimiter, databaseTime: boolean): Store["reservations"] {
  return {
    seatHolders: async (eventTypeId, fromMs, untilMs, nowMs) =>
      (await db.run<SeatHolderRow>(SEAT_HOLDERS, [eventTypeId, fromMs, untilMs, nowMs], true)).rows.map(toSeatHolder),
    byUuid: async (eventTypeId, uuid) => {
      const row = (await db.run<ReservationRow>("SELECT * FROM reservations WHERE event_type_id = $1 AND uuid = $2", [eventTypeId, uuid], true)).rows[0];
      return row ? toReservation(row) : null;
    },
    byPaymentIntent: async (intentId) => {
      const row = (await db.run<ReservationRow>("SELECT * FROM reservations WHERE payment_intent_id = $1 LIMIT 1", [intentId], true)).rows[0];
      return row ? toReservation(row) : null;
    },
    paidHoldsDue: async (nowMs: number, limit: number) =>
      (
        await db.run<ReservationRow>(
          `SELECT * FROM reservations WHERE status = 'held' AND held_until_ms <= $1 AND payment::json->>'status' = 'succeeded'
           ORDER BY held_until_ms, uuid LIMIT $2`,
          [nowMs, limit],
          true,
        )
      ).rows.map(toReservation),
    processingDue: async (nowMs: number, limit: number) =>
      (
        await db.run<ReservationRow>(
          `SELECT * FROM reservations WHERE payment_intent_id IS NOT NULL AND payment::json->>'status' = 'processing' AND (status <> 'held' OR held_until_ms <= $1)
           ORDER BY updated_at_ms, uuid LIMIT $2`,
          [nowMs, limit],
          true,
        )
      ).rows.map(toReservation),
    refundsDue: async (limit: number) =>
      (
        await db.run<ReservationRow>(
          "SELECT * FROM reservations WHERE payment_intent_id IS NOT NULL AND status = 'cancelled' AND payment::json->>'status' = 'refunding' ORDER BY updated_at_ms, uuid LIMIT $1",
          [limit],
          true,
        )
      ).rows.map(toReservation),
    list: async (eventTypeId: number, query: ReservationQuery) =>
      (
        await db.run<ReservationRow>(
          `SELECT * FROM reservations WHERE event_type_id = $1 AND start_ms < $2 AND end_ms > $3
           AND ($4::text[] IS NULL OR status = ANY($4::text[])) ORDER BY start_ms, uuid LIMIT $5`,
          [eventTypeId, query.untilMs, query.fromMs, query.statuses ?? null, query.limit],
          true,
        )
      ).rows.map(toReservation),
    search: async (search: ReservationSearch) => {
      const { sql, params } = searchSql(search);
      return (await db.run<ReservationRow>(sql, params, true)).rows.map(toReservation);
    },
    claim: async (claim, decide) => claimSeats(db, claim, decide, databaseTime),
    limitBookings: async (eventTypeId, hostIds, fromMs, untilMs, nowMs) =>
      (await db.run<Parameters<typeof toLimitBooking>[0]>(LIMIT_BOOKINGS, [eventTypeId ?? 0, [...hostIds], fromMs, untilMs, nowMs], true)).rows.map(
        toLimitBooking,
      ),
    claimSeries: postgresSeriesClaims(db, databaseTime),
    series: postgresSeries(db),
    save: async (record: ReservationRecord, expectedUpdatedAtMs: number, events: OutboxEvent[] = []) =>
      db.transaction(async (c, tx) => {
        // No seat is taken, so no time range is locked: the reservation's row, then (at commit) a
        // seat_revisions shard row, the order of a claim, so the two never deadlock.
        const before = (
          await c.query<Pick<ReservationRow, "status" | "start_ms" | "end_ms" | "held_until_ms" | "payment" | "host_ids">>(
            "SELECT status, start_ms, end_ms, held_until_ms, payment, host_ids FROM reservations WHERE event_type_id = $1 AND uuid = $2 FOR UPDATE",
            [record.eventTypeId, record.uuid],
          )
        ).rows[0];
        const changed = (await c.query(UPDATE_RESERVATION, updateValues(record, expectedUpdatedAtMs))).rowCount === 1;
        if (changed) await insertEvents(c, events);
        // Slot lists and configuration depend on seats only; a payment note leaves their caches alone.
        if (changed && movesSeats(before, record)) {
          const hosts = [...record.hostIds, ...hostIdsOf(before?.host_ids)];
          tx.commitWith((client) => commitSeatChange(client, [record.eventTypeId], Math.floor(record.startMs / FINE_BUCKET_MS), 0, hosts));
        }
        return changed;
      }),
    // With the database's time for claims, the sweep writes down expiry by the same clock.
    sweep: async (nowMs: number) => sweep(db, rateLimiter, databaseTime ? await databaseNow(db) : nowMs),
    // A seeding and import helper (see the Store interface): it takes the event types' rows, not
    // the advisory locks of the time ranges, so it does not exclude a claim running meanwhile.
    insertMany: async (records: ReservationRecord[]) => {
      if (records.length === 0) return;
      const longest = new Map<number, number>();
      for (const r of records) longest.set(r.eventTypeId, Math.max(longest.get(r.eventTypeId) ?? 0, r.endMs - r.startMs));
      const ids = [...longest.keys()].sort((a, b) => a - b);
      await db.transaction(async (c) => {
        await c.query("SELECT id FROM event_types WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE", [ids]);
        for (const r of records) await c.query(INSERT_RESERVATION, reservationValues(r));
        for (const id of ids) {
          await c.query("UPDATE event_types SET longest_reservation_ms = greatest(longest_reservation_ms, $1), revision = revision + 1 WHERE id = $2", [
            longest.get(id),
            id,
          ]);
        }
        const hostLongest = new Map<number, number>();
        for (const r of records) for (const h of r.hostIds) hostLongest.set(h, Math.max(hostLongest.get(h) ?? 0, r.endMs - r.startMs));
        for (const h of [...hostLongest.keys()].sort((a, b) => a - b)) {
          await c.query("UPDATE hosts SET longest_reservation_ms = greatest(longest_reservation_ms, $1), revision = revision + 1 WHERE id = $2", [
            hostLongest.get(h),
            h,
          ]);
        }
      });
    },
  };
}

/** The statement of one page of the organizer's list, with only the filters that are set. */
function searchSql(search: ReservationSearch): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const next = (value: unknown) => `$${params.push(value)}`;
  if (search.eventTypeIds) where.push(`event_type_id = ANY(${next(search.eventTypeIds)}::bigint[])`);
  if (search.hostId !== undefined) where.push(`uuid IN (SELECT reservation_uuid FROM reservation_hosts WHERE host_id = ${next(search.hostId)})`);
  if (search.untilMs !== undefined) where.push(`start_ms < ${next(search.untilMs)}`);
  if (search.fromMs !== undefined) where.push(`end_ms > ${next(search.fromMs)}`);
  if (search.statuses) where.push(`status = ANY(${next(search.statuses)}::text[])`);
  if (search.text) {
    const text = next(search.text.toLowerCase());
    where.push(`(strpos(lower(email), ${text}) > 0 OR strpos(lower(firstname || ' ' || lastname), ${text}) > 0)`);
  }
  const ahead = search.order === "asc" ? ">" : "<";
  if (search.after) where.push(`(start_ms, uuid) ${ahead} (${next(search.after.startMs)}, ${next(search.after.uuid)})`);
  const direction = search.order === "asc" ? "ASC" : "DESC";
  return {
    sql: `SELECT * FROM reservations ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY start_ms ${direction}, uuid ${direction} LIMIT ${next(search.limit)}`,
    params,
  };
}
