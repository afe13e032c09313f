import { EXPIRED_GRACE_MS } from "../../domain/reservation.ts";
import type { Connections } from "./connections.ts";
import { IDEMPOTENCY_TTL_MS } from "../rows.ts";
import { PAID_HOLD } from "./reservation-sql.ts";
import type { PostgresRateLimiter } from "./rate-limiter.ts";

/**
 * `store.reservations.sweep` on PostgreSQL: writes down what time already decided (holds past
 * their time expired, expired ones past the grace cancelled), bumping the revision of each event
 * type it touched, and forgets old idempotency keys and rate-limit windows.
 */
export async function sweep(db: Connections, rateLimiter: PostgresRateLimiter, nowMs: number): Promise<{ expired: number; cancelled: number }> {
  const swept = await db.transaction(async (c) => {
    // Event types with something to write down, locked in id order; one a claim holds right now
    // is skipped (never waited for) and swept next time: expiry is derived from time anyway.
    const locked = await c.query<{ id: number }>(
      `SELECT id FROM event_types WHERE id IN (
         SELECT event_type_id FROM reservations
         WHERE (status = 'held' AND held_until_ms <= $1 AND NOT ${PAID_HOLD}) OR (status = 'expired' AND (held_until_ms <= $2 OR start_ms <= $1)))
       ORDER BY id FOR NO KEY UPDATE SKIP LOCKED`,
      [nowMs, nowMs - EXPIRED_GRACE_MS],
    );
    const ids = locked.rows.map((r) => r.id);
    let expired: { event_type_id: number }[] = [];
    let cancelled: { event_type_id: number }[] = [];
    if (ids.length > 0) {
      // updated_at_ms only moves forward, so a compare-and-set read before the sweep fails after it.
      expired = (
        await c.query<{ event_type_id: number }>(
          `UPDATE reservations SET status = 'expired', updated_at_ms = greatest(updated_at_ms + 1, $1)
           WHERE status = 'held' AND held_until_ms <= $1 AND NOT ${PAID_HOLD} AND event_type_id = ANY($2::bigint[]) RETURNING event_type_id`,
          [nowMs, ids],
        )
      ).rows;
      cancelled = (
        await c.query<{ event_type_id: number }>(
          `UPDATE reservations SET status = 'cancelled', cancelled_at_ms = $1, updated_at_ms = greatest(updated_at_ms + 1, $1)
           WHERE status = 'expired' AND (held_until_ms <= $2 OR start_ms <= $1) AND event_type_id = ANY($3::bigint[]) RETURNING event_type_id`,
          [nowMs, nowMs - EXPIRED_GRACE_MS, ids],
        )
      ).rows;
      const touched = [...new Set([...expired, ...cancelled].map((r) => r.event_type_id))];
      if (touched.length > 0) await c.query("UPDATE event_types SET revision = revision + 1 WHERE id = ANY($1::bigint[])", [touched]);
    }
    await c.query("DELETE FROM idempotency_keys WHERE created_at_ms < $1", [nowMs - IDEMPOTENCY_TTL_MS]);
    return { expired: expired.length, cancelled: cancelled.length };
  });
  await rateLimiter.forgetOldWindows(nowMs);
  return swept;
}
