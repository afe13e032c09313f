import { EXPIRED_GRACE_MS } from "../../domain/reservation.ts";
import { commitSeatChange } from "./claim.ts";
import type { Connections } from "./connections.ts";
import { IDEMPOTENCY_TTL_MS } from "../idempotency.ts";
import { paidHold } from "./reservation-sql.ts";
import type { PostgresRateLimiter } from "./rate-limiter.ts";

/**
 * `store.reservations.sweep` on PostgreSQL: writes down what time already decided (holds past
 * their time expired, expired ones past the grace cancelled), bumping the revision of each event
 * type it touched, and forgets old idempotency keys and rate-limit windows.
 */
export async function sweep(db: Connections, rateLimiter: PostgresRateLimiter, nowMs: number): Promise<{ expired: number; cancelled: number }> {
  const swept = await db.transaction(async (c, tx) => {
    // Nothing written here frees a seat anyone counts (a hold past its time is free already), so no
    // time range is locked. A reservation a claim or save holds right now is skipped (never waited
    // for) and swept next time: expiry is derived from time anyway. updated_at_ms only moves
    // forward, so a compare-and-set read before the sweep fails after it.
    const expired = (
      await c.query<{ event_type_id: number }>(
        `UPDATE reservations SET status = 'expired', updated_at_ms = greatest(updated_at_ms + 1, $1)
         WHERE uuid IN (SELECT uuid FROM reservations WHERE status = 'held' AND held_until_ms <= $1 AND NOT ${paidHold("$1")} FOR UPDATE SKIP LOCKED)
           AND status = 'held' AND held_until_ms <= $1 AND NOT ${paidHold("$1")}
         RETURNING event_type_id`,
        [nowMs],
      )
    ).rows;
    const cancelled = (
      await c.query<{ event_type_id: number }>(
        `UPDATE reservations SET status = 'cancelled', cancelled_at_ms = $1, updated_at_ms = greatest(updated_at_ms + 1, $1)
         WHERE uuid IN (SELECT uuid FROM reservations WHERE status = 'expired' AND (held_until_ms <= $2 OR start_ms <= $1) FOR UPDATE SKIP LOCKED)
           AND status = 'expired' AND (held_until_ms <= $2 OR start_ms <= $1)
         RETURNING event_type_id`,
        [nowMs, nowMs - EXPIRED_GRACE_MS],
      )
    ).rows;
    await c.query("DELETE FROM idempotency_keys WHERE created_at_ms < $1", [nowMs - IDEMPOTENCY_TTL_MS]);
    // The revisions of the event types touched, counted with the commit.
    tx.commitWith((client) =>
      commitSeatChange(
        client,
        [...expired, ...cancelled].map((r) => r.event_type_id),
        Math.floor(Math.random() * 1024),
      ),
    );
    return { expired: expired.length, cancelled: cancelled.length };
  });
  await rateLimiter.forgetOldWindows(nowMs);
  return swept;
}
