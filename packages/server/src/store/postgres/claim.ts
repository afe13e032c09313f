import type pg from "pg";
import type { HostBusyInterval } from "../hosts.ts";
import type { ClaimDecide, ReservationRecord, SeatClaim } from "../reservations.ts";
import type { Connections } from "./connections.ts";
import { DATABASE_NOW_MS, INSERT_RESERVATION, SEAT_HOLDERS, UPDATE_RESERVATION, reservationValues, updateValues } from "./reservation-sql.ts";
import { hostIdsOf, toReservation, type ReservationRow } from "../rows/reservations.ts";
import { toSeatHolder, type SeatHolderRow } from "./rows.ts";
import { claimedHosts, claimInstant, hostViews } from "../claim.ts";
import { insertEvents } from "./outbox.ts";
import { EVENT_TYPE_HOST_IDS, HOST_BUSY, LAST_BOOKED, LIMIT_BOOKINGS, toLimitBooking } from "./hosts-sql.ts";
import { HOST_AWAY } from "./time-off.ts";
import { toAway, type TimeOffRow } from "../time-off.ts";

/** A seat claim waits this long for the locks of its time range, like SQLite's busy wait, then answers slot_locked. */
const CLAIM_LOCK_WAIT_MS = 100;

/**
 * The revision bump at commit waits up to this for its seat_revisions shard row (each holder keeps
 * it only for its own commit, a fraction of a millisecond), as other writes do; then StoreBusyError.
 */
const REVISION_LOCK_WAIT_MS = 1_000;

/** Width of a fine time bucket: the five-minute grid meetings start on, so distinct slots rarely share one. */
export const FINE_BUCKET_MS = 5 * 60_000;
/** Width of a coarse time bucket, for claims too long to lock in fine buckets. */
export const COARSE_BUCKET_MS = 2 * 60 * 60_000;
/** A claim whose range spans more fine buckets than this locks coarse ones instead, so no claim takes more than a few dozen locks. */
const MOST_FINE_BUCKETS = 48;

/** One advisory lock of a claim: its bucket key and whether it is taken exclusively. */
export interface SeatLock {
  bucket: number;
  exclusive: boolean;
}

/**
 * The advisory locks of a claim that reads seat holders in `window` and may write a reservation
 * inside `seat`, in the one order every claim takes them (ascending keys), so claims never deadlock.
 *
 * Two claims must wait for each other exactly when one may write where the other reads. So a claim
 * locks the fine buckets of its seat exclusively and the rest of its window shared: claims of
 * neighbouring slots, whose windows overlap only in buffers, share nothing but shared locks and
 * run in parallel, while any claim writing into another's window meets an exclusive lock there.
 * A fine claim also takes the coarse buckets of its range shared, and a claim too long for fine
 * buckets takes its coarse buckets exclusively: the two sizes meet there. Coarse keys are negative,
 * fine ones positive, both in one key space per host.
 */
export function seatLocks(window: { fromMs: number; untilMs: number }, seat: { startMs: number; endMs: number }): SeatLock[] {
  const fromMs = Math.min(window.fromMs, seat.startMs);
  const untilMs = Math.max(window.untilMs, seat.endMs);
  const buckets = (from: number, until: number, size: number) => {
    const out: number[] = [];
    for (let b = Math.floor(from / size); b <= Math.floor((until - 1) / size); b++) out.push(b);
    return out;
  };
  const coarse = buckets(fromMs, untilMs, COARSE_BUCKET_MS).map((b) => -1 - b);
  const fine = buckets(fromMs, untilMs, FINE_BUCKET_MS);
  if (fine.length > MOST_FINE_BUCKETS) return coarse.sort((x, y) => x - y).map((bucket) => ({ bucket, exclusive: true }));
  const seatFine = new Set(buckets(seat.startMs, seat.endMs, FINE_BUCKET_MS));
  return [...coarse.map((bucket) => ({ bucket, exclusive: false })), ...fine.map((bucket) => ({ bucket, exclusive: seatFine.has(bucket) }))].sort(
    (x, y) => x.bucket - y.bucket,
  );
}

/**
 * The statement that takes a claim's advisory locks until the end of the transaction: the time
 * buckets of every candidate host. The first key is the host's (hashed with the schema, so hosts of
 * other schemas on the same database never wait for each other); the second is the bucket, as a
 * 32-bit integer. Bookings of one host through any of its event types meet on these keys, bookings
 * of different hosts never do. All locks are taken in one global order (by key), so a team claim
 * taking the locks of several hosts never deadlocks with another. Integers and booleans only,
 * written into the text so it can run in BEGIN's round trip.
 */
export function lockSeatsSql(hostIds: readonly number[], locks: SeatLock[], limitNames: readonly string[] = []): string {
  const hosts = [...new Set(hostIds.map((id) => Math.trunc(id)))].join(",");
  // Buckets wrap into 32 bits: two buckets a few thousand years apart may share a lock, which only waits.
  const buckets = locks.map((l) => l.bucket | 0).join(",");
  const exclusive = locks.map((l) => String(l.exclusive)).join(",");
  // The limits' locks join the same ordered set, so claims taking them never deadlock either.
  const names = limitNames.filter((n) => /^[eh][0-9]+$/.test(n)).join(",");
  const limits = names === "" ? "" : `UNION ALL SELECT hashtext(current_schema() || ':limits:' || n), 0, true FROM unnest('{${names}}'::text[]) AS n`;
  return `SELECT CASE WHEN l.exclusive THEN pg_advisory_xact_lock(l.k, l.bucket) ELSE pg_advisory_xact_lock_shared(l.k, l.bucket) END
    FROM (SELECT k, bucket, exclusive FROM (SELECT hashtext(current_schema() || ':h' || h) AS k, b.bucket, b.exclusive
          FROM unnest('{${hosts}}'::bigint[]) AS h, unnest('{${buckets}}'::int[], '{${exclusive}}'::bool[]) AS b(bucket, exclusive)
          ${limits}) AS a
          ORDER BY 1, 2, 3 DESC OFFSET 0) AS l`;
}

/**
 * The names of the exclusive limit locks of a claim that reads `limits`: one per limited event type
 * (`e<id>`) and host (`h<id>`). Every claim counted against a limit takes its lock, so such claims
 * run one at a time while claims of other hosts and event types never wait for them.
 */
export function limitLockNames(eventTypeId: number, limits: SeatClaim["limits"]): string[] {
  if (!limits) return [];
  return [...(limits.eventType ? [`e${Math.trunc(eventTypeId)}`] : []), ...limits.hostIds.map((id) => `h${Math.trunc(id)}`)];
}

/**
 * The statement that ends a claim's BEGIN round trip: the candidate hosts that still exist, each
 * row held with FOR KEY SHARE until the end of the transaction (and the database's clock, when the
 * claim is judged by it). A host's deletion locks its row FOR UPDATE and then looks for its
 * bookings: a deletion that began first is waited for (at most the claim's lock wait) and its host
 * left out, a later one waits for the claim and then finds its booking and refuses. So a booking
 * never names a host deleted under it. The clock is read after those locks. Integers only, written
 * into the text.
 */
export function liveHostsSql(hostIds: readonly number[], databaseTime: boolean): string {
  const hosts = [...new Set(hostIds.map((id) => Math.trunc(id)))].sort((x, y) => x - y).join(",");
  const now = databaseTime ? DATABASE_NOW_MS : "NULL::bigint";
  // The CTE is read first, so the clock is read once its row locks are held.
  return `WITH live AS MATERIALIZED (SELECT ARRAY(SELECT id FROM hosts WHERE id = ANY('{${hosts}}'::bigint[]) ORDER BY id FOR KEY SHARE) AS ids)
    SELECT ${now} AS now, live.ids AS live FROM live`;
}

/** Seat changes of an event type count in this many rows of seat_revisions. */
const REVISION_SHARDS = 16;

/**
 * The statements that end a transaction that moved seats, sent with COMMIT in one round trip. The
 * event type's revision (what slot pages and configurations are cached by) is its row's plus the
 * sum of its seat_revisions counters plus its hosts' revisions (each its row's plus its
 * host_revisions counters); a seat change of a reservation with hosts adds one to a counter of each
 * of them (every event type of theirs moves), of one without hosts to the event type's, in the same
 * transaction, so the revision changes atomically with the seats and never takes a value twice. Bookings of
 * distinct slots count in different rows (`shard`, from the locked bucket), so they do not queue
 * on one row while their commits wait for the disk. The longest reservation (the bound of the
 * seat-holder scan) is written only when it grows, which is rare.
 */
export function commitSeatChange(
  client: pg.ClientBase,
  eventTypeIds: number[],
  shard: number,
  longestMs = 0,
  hostIds: readonly number[] = [],
): Promise<unknown> {
  const ids = [...new Set(eventTypeIds)].sort((x, y) => x - y).map((id) => Math.trunc(id));
  const hosts = [...new Set(hostIds)].sort((x, y) => x - y).map((id) => Math.trunc(id));
  if (ids.length === 0) return client.query("COMMIT");
  const row = ((Math.trunc(shard) % REVISION_SHARDS) + REVISION_SHARDS) % REVISION_SHARDS;
  // Integers only, so inlining them is safe; a multi-statement query cannot take parameters.
  const longest =
    longestMs > 0
      ? `UPDATE event_types SET longest_reservation_ms = ${Math.trunc(longestMs)} WHERE id = ${ids[0]} AND longest_reservation_ms < ${Math.trunc(longestMs)};`
      : "";
  // The hosts' counters too: every event type of theirs gets a new revision (and the hosts' longest
  // reservation, the bound of their busy scan, grows when it must).
  const hostLongest =
    longestMs > 0 && hosts.length > 0
      ? `UPDATE hosts SET longest_reservation_ms = ${Math.trunc(longestMs)} WHERE id IN (${hosts.join(",")}) AND longest_reservation_ms < ${Math.trunc(longestMs)};`
      : "";
  const hostRevisions =
    hosts.length > 0
      ? `INSERT INTO host_revisions (host_id, shard, n) VALUES ${hosts.map((id) => `(${id}, ${row}, 1)`).join(", ")}
       ON CONFLICT (host_id, shard) DO UPDATE SET n = host_revisions.n + 1;`
      : "";
  // With hosts, their counters carry the change to every event type of theirs; the event types' own
  // counters only when no host is recorded (a reservation from before hosts).
  const seatRevisions =
    hosts.length > 0
      ? ""
      : `INSERT INTO seat_revisions (event_type_id, shard, n) VALUES ${ids.map((id) => `(${id}, ${row}, 1)`).join(", ")}
       ON CONFLICT (event_type_id, shard) DO UPDATE SET n = seat_revisions.n + 1;`;
  return client.query(
    `SET LOCAL lock_timeout = ${REVISION_LOCK_WAIT_MS};
     ${longest}
     ${hostLongest}
     ${seatRevisions}
     ${hostRevisions}
     COMMIT`,
  );
}

/**
 * `store.reservations.claim` on PostgreSQL, the one way seats are taken: under advisory locks on
 * the time buckets the claim reads and writes (`seatLocks`), reads the seat holders, lets `decide`
 * choose, and writes the reservation, its outbox events, the link of its idempotency key and the
 * event type's revision in the same transaction. Claims of slots that cannot overlap never wait for
 * each other, whichever instance runs them.
 */
export async function claimSeats(
  db: Connections,
  claim: SeatClaim,
  decide: ClaimDecide,
  databaseTime: boolean,
): Promise<{ record: ReservationRecord } | { refused: string }> {
  const seat = claim.seat ?? { startMs: claim.fromMs, endMs: claim.untilMs };
  const hostIds = claim.hostIds ?? (await db.run<{ hostId: number }>(EVENT_TYPE_HOST_IDS, [claim.eventTypeId], true)).rows.map((h) => Number(h.hostId));
  // The time range's locks (taken with BEGIN) are the slot lock of every instance. A claim waits for
  // them as briefly as SQLite's busy wait (claims take milliseconds, so a short queue clears), then
  // answers slot_locked. Every statement below starts after they are held, so it sees what the
  // claims before committed.
  // The database's clock is read in the same round trip, right after the locks are held.
  const locks = `${lockSeatsSql(hostIds, seatLocks(claim, seat), limitLockNames(claim.eventTypeId, claim.limits))}; ${liveHostsSql(hostIds, databaseTime)}`;
  return db.transaction(
    async (c, tx): Promise<{ record: ReservationRecord } | { refused: string }> => {
      const begun = tx.begun[0] as { now: number | string | null; live: (number | string)[] };
      // Several hosts, several clocks: judged by the database's, one time for all of them, so no two
      // hosts can disagree whether a hold still holds its seat.
      const nowMs = databaseTime ? Number(begun.now) : claimInstant(claim);
      // A host deleted since the candidates were read is no candidate any more (its booking would
      // break the reservation_hosts foreign key); the ones left stay until COMMIT (see liveHostsSql).
      const live = new Set(begun.live.map(Number));
      const candidates = hostIds.filter((id) => live.has(id));
      const currentRow = claim.uuid
        ? (await c.query<ReservationRow>("SELECT * FROM reservations WHERE event_type_id = $1 AND uuid = $2 FOR UPDATE", [claim.eventTypeId, claim.uuid]))
            .rows[0]
        : undefined;
      const holders = (
        await c.query<SeatHolderRow>({ name: "seat_holders", text: SEAT_HOLDERS, values: [claim.eventTypeId, claim.fromMs, claim.untilMs, nowMs] })
      ).rows
        .map(toSeatHolder)
        .filter((h) => h.uuid !== claim.uuid);
      // The hosts' calendars as last synced and their bookings of other event types, read in the claim's transaction like the seats.
      const busyRows = claim.busySpan
        ? (
            await c.query<HostBusyInterval>({
              name: "host_busy",
              text: HOST_BUSY,
              values: [candidates, claim.eventTypeId, claim.busySpan.fromMs, claim.busySpan.untilMs, nowMs],
            })
          ).rows
        : [];
      const lastBooked = new Map<number, number>();
      if (claim.lastBooked) {
        for (const row of (
          await c.query<{ hostId: number; lastMs: number }>({ name: "last_booked", text: LAST_BOOKED, values: [candidates, claim.eventTypeId] })
        ).rows)
          lastBooked.set(Number(row.hostId), Number(row.lastMs));
      }
      // Their time off too, in the same transaction: a time off committed before this read refuses the claim.
      const away = claim.busySpan
        ? (await c.query<TimeOffRow>({ name: "host_away", text: HOST_AWAY, values: [candidates, claim.busySpan.fromMs, claim.busySpan.untilMs] })).rows.map(
            toAway,
          )
        : [];
      const busy = busyRows.map((b) => ({ startMs: b.startMs, endMs: b.endMs }));
      // What booking limits count, read under the limits' exclusive locks (see limitLockNames): no
      // other claim that counts against the same limits can commit between this read and this write.
      const counted = claim.limits
        ? (
            await c.query<Parameters<typeof toLimitBooking>[0]>({
              name: "limit_bookings",
              text: LIMIT_BOOKINGS,
              values: [claim.limits.eventType ? claim.eventTypeId : 0, claim.limits.hostIds, claim.limits.fromMs, claim.limits.untilMs, nowMs],
            })
          ).rows.map(toLimitBooking)
        : [];
      const decision = decide(
        holders,
        currentRow ? toReservation(currentRow) : null,
        nowMs,
        busy,
        hostViews(
          candidates,
          busyRows.map((b) => ({ ...b, hostId: Number(b.hostId) })),
          lastBooked,
          away,
        ),
        counted,
      );
      if ("refuse" in decision) return { refused: decision.refuse };
      const record = { ...decision.write, hostIds: claimedHosts(decision.write, candidates) };
      // Outside the locked seat another claim may be writing right now: that would be a double booking.
      if (record.startMs < seat.startMs || record.endMs > seat.endMs) throw new Error("a claim wrote a reservation outside the seat it locked");
      await insertEvents(c, decision.events ?? []);
      if (currentRow) {
        const changed = await c.query(UPDATE_RESERVATION, updateValues(record, currentRow.updated_at_ms));
        if (changed.rowCount !== 1) throw new Error("reservation changed inside its own transaction");
      } else {
        await c.query({ name: "insert_reservation", text: INSERT_RESERVATION, values: reservationValues(record) });
      }
      if (claim.idempotencyKey) {
        await c.query("UPDATE idempotency_keys SET reservation_uuid = $1 WHERE event_type_id = $2 AND key = $3", [
          record.uuid,
          claim.eventTypeId,
          claim.idempotencyKey,
        ]);
      }
      // The hosts it took and those it left (a reassignment) get new revisions.
      const touchedHosts = [...record.hostIds, ...hostIdsOf(currentRow?.host_ids)];
      tx.commitWith((client) =>
        commitSeatChange(client, [claim.eventTypeId], Math.floor(record.startMs / FINE_BUCKET_MS), record.endMs - record.startMs, touchedHosts),
      );
      return { record };
    },
    { lockWaitMs: CLAIM_LOCK_WAIT_MS, beginWith: locks },
  );
}
