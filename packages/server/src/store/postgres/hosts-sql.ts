import { paidHold } from "./reservation-sql.ts";

/** A row's columns qualified with `r.`, for the reservation tests of `paidHold` inside a join. */
const onR = (sql: string) => sql.replace(/\b(payment|start_ms)\b/g, "r.$1");

/**
 * What takes hosts $1 at $5 outside event type $2 and meets [$3, $4): their bookings of other event
 * types holding a seat (read through reservation_hosts, by host and start, bounded by the hosts'
 * longest reservation), and their calendars' busy intervals (heldUntilMs null).
 */
export const HOST_BUSY = `SELECT rh.host_id AS "hostId", rh.start_ms AS "startMs", rh.end_ms AS "endMs",
    CASE WHEN r.status = 'held' AND NOT ${onR(paidHold("$5"))} THEN r.held_until_ms END AS "heldUntilMs",
    rh.event_type_id::bigint AS "eventTypeId", NULL::bigint AS "sourceId", r.uuid::text AS "reservationUuid"
  FROM reservation_hosts rh JOIN reservations r ON r.uuid = rh.reservation_uuid
  WHERE rh.host_id = ANY($1::bigint[]) AND rh.event_type_id <> $2 AND rh.start_ms < $4 AND rh.end_ms > $3
    AND rh.start_ms >= $3 - (SELECT coalesce(max(longest_reservation_ms), 0) FROM hosts WHERE id = ANY($1::bigint[]))
    AND (r.status = 'confirmed' OR (r.status = 'held' AND (r.held_until_ms > $5 OR ${onR(paidHold("$5"))})))
  UNION ALL
  SELECT host_id, start_ms, end_ms, NULL::bigint, NULL::bigint, source_id::bigint, NULL::text FROM busy_intervals WHERE host_id = ANY($1::bigint[]) AND end_ms > $3 AND start_ms < $4`;

/** When each of hosts $1 last got a held or confirmed booking of event type $2 (round robin's rule). */
export const LAST_BOOKED = `SELECT rh.host_id AS "hostId", max(rh.created_at_ms) AS "lastMs" FROM reservation_hosts rh JOIN reservations r ON r.uuid = rh.reservation_uuid
  WHERE rh.host_id = ANY($1::bigint[]) AND rh.event_type_id = $2 AND r.status IN ('held', 'confirmed')
  GROUP BY rh.host_id`;

/** The hosts of event type $1, in their order. */
export const EVENT_TYPE_HOST_IDS = `SELECT host_id AS "hostId" FROM event_type_hosts WHERE event_type_id = $1 ORDER BY position`;

/** The host row's revision plus its counters (see `commitSeatChange`), for `SELECT ... FROM hosts h`. */
export const HOST_REVISION = "(h.revision + (SELECT coalesce(sum(n), 0) FROM host_revisions hr WHERE hr.host_id = h.id))::bigint";
/**
 * A host's share of an event type's revision: its revision counted from its first (1), so a fresh
 * event type's revision is 1 and each change of one of its hosts adds one.
 */
export const HOST_REVISION_SHARE = `(${HOST_REVISION} - 1)`;

/**
 * The bookings booking limits count (domain/limits.ts), holding a seat at $5 and starting in
 * [$3, $4): those of event type $1 (hostId null; none for 0) and those of hosts $2 through any
 * event type, one row per host.
 */
export const LIMIT_BOOKINGS = `SELECT NULL::bigint AS "hostId", uuid, start_ms AS "startMs", end_ms AS "endMs",
    CASE WHEN status = 'held' AND NOT ${paidHold("$5")} THEN held_until_ms END AS "heldUntilMs" FROM reservations
  WHERE event_type_id = $1 AND start_ms >= $3 AND start_ms < $4
    AND (status = 'confirmed' OR (status = 'held' AND (held_until_ms > $5 OR ${paidHold("$5")})))
  UNION ALL
  SELECT rh.host_id, r.uuid, rh.start_ms, rh.end_ms, CASE WHEN r.status = 'held' AND NOT ${onR(paidHold("$5"))} THEN r.held_until_ms END
  FROM reservation_hosts rh JOIN reservations r ON r.uuid = rh.reservation_uuid
  WHERE rh.host_id = ANY($2::bigint[]) AND rh.start_ms >= $3 AND rh.start_ms < $4
    AND (r.status = 'confirmed' OR (r.status = 'held' AND (r.held_until_ms > $5 OR ${onR(paidHold("$5"))})))`;

/** A row of LIMIT_BOOKINGS as PostgreSQL answers it (bigints as strings), as the store hands it on. */
export const toLimitBooking = (r: {
  hostId: number | string | null;
  uuid: string;
  startMs: number | string;
  endMs: number | string;
  heldUntilMs: number | string | null;
}) => ({
  hostId: r.hostId === null ? null : Number(r.hostId),
  uuid: r.uuid,
  startMs: Number(r.startMs),
  endMs: Number(r.endMs),
  heldUntilMs: r.heldUntilMs === null ? null : Number(r.heldUntilMs),
});
