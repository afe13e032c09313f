import { EXPIRED_GRACE_MS } from "../../domain/reservation.ts";
import { IDEMPOTENCY_TTL_MS } from "../idempotency.ts";
import type { SqliteConnection } from "./connection.ts";
import type { SqliteAttemptLimits } from "./rate-limiter.ts";
import { BUMP_REVISION } from "./event-types.ts";
import { paidHold } from "./reservation-sql.ts";

/**
 * `store.reservations.sweep` on SQLite: writes down what time already decided (holds past their
 * time expired, expired ones past the grace cancelled), bumping the revision of each event type it
 * touched, and forgets old idempotency keys and attempt-counter windows.
 */
export function sqliteSweep(connection: SqliteConnection, attempts: SqliteAttemptLimits): (nowMs: number) => Promise<{ expired: number; cancelled: number }> {
  const { db } = connection;
  const q = {
    // updated_at_ms only moves forward, so a compare-and-set read before the sweep fails after it.
    sweepExpire: db.query<{ event_type_id: number }, [number, number, number]>(
      // A paid hold keeps its seat (domain/reservation.ts keepsSeat): never expired here.
      `UPDATE reservations SET status = 'expired', updated_at_ms = max(updated_at_ms + 1, ?)
       WHERE status = 'held' AND held_until_ms <= ? AND NOT ${paidHold("?")} RETURNING event_type_id`,
    ),
    sweepCancel: db.query<{ event_type_id: number }, [number, number, number, number]>(
      `UPDATE reservations SET status = 'cancelled', cancelled_at_ms = ?, updated_at_ms = max(updated_at_ms + 1, ?)
       WHERE status = 'expired' AND (held_until_ms <= ? OR start_ms <= ?) RETURNING event_type_id`,
    ),
    etBump: db.query<unknown, [number]>(BUMP_REVISION),
    idemPurge: db.query<unknown, [number]>("DELETE FROM idempotency_keys WHERE created_at_ms < ?"),
  };
  return async (nowMs: number) =>
    connection.write(() => {
      const expired = q.sweepExpire.all(nowMs, nowMs, nowMs);
      const cancelled = q.sweepCancel.all(nowMs, nowMs, nowMs - EXPIRED_GRACE_MS, nowMs);
      for (const id of new Set([...expired, ...cancelled].map((r) => r.event_type_id))) q.etBump.run(id);
      q.idemPurge.run(nowMs - IDEMPOTENCY_TTL_MS);
      attempts.forgetOldWindows(nowMs);
      return { expired: expired.length, cancelled: cancelled.length };
    });
}
