import { IDEMPOTENCY_LEASE_MS, type IdempotencyRepository, type IdempotencyState } from "../idempotency.ts";
import { StoreBusyError } from "../errors.ts";
import type { Connections } from "./connections.ts";

/** Idempotency keys on PostgreSQL: the key's row is the registration, so a retry reaching another instance finds it. */
export function postgresIdempotency(db: Connections): IdempotencyRepository {
  return {
    begin: async (eventTypeId: number, key: string, requestHash: string, nowMs: number) =>
      db.transaction(async (c): Promise<IdempotencyState> => {
        // A key released by its request between our insert and read is registered again; a few rounds at most.
        for (let round = 0; round < 3; round++) {
          const inserted = await c.query(
            "INSERT INTO idempotency_keys (event_type_id, key, request_hash, created_at_ms) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            [eventTypeId, key, requestHash, nowMs],
          );
          if (inserted.rowCount === 1) return { state: "new" };
          const row = (
            await c.query<{ request_hash: string; reservation_uuid: string | null; status: number | null; response: string | null; created_at_ms: number }>(
              "SELECT request_hash, reservation_uuid, status, response, created_at_ms FROM idempotency_keys WHERE event_type_id = $1 AND key = $2",
              [eventTypeId, key],
            )
          ).rows[0];
          if (!row) continue;
          if (row.request_hash !== requestHash) return { state: "mismatch" };
          if (row.status !== null && row.response !== null) return { state: "done", status: row.status, response: row.response };
          // The link commits with the booking it names: that booking was saved, though no answer was stored.
          if (row.reservation_uuid !== null) return { state: "saved", reservationUuid: row.reservation_uuid };
          // Registered long ago and never linked to a booking: its request died; this one takes over.
          if (row.created_at_ms <= nowMs - IDEMPOTENCY_LEASE_MS) {
            const taken = await c.query(
              "UPDATE idempotency_keys SET created_at_ms = $1 WHERE event_type_id = $2 AND key = $3 AND status IS NULL AND reservation_uuid IS NULL AND created_at_ms = $4",
              [nowMs, eventTypeId, key, row.created_at_ms],
            );
            if (taken.rowCount === 1) return { state: "new" };
          }
          return { state: "pending" };
        }
        throw new StoreBusyError();
      }),
    finish: async (eventTypeId: number, key: string, status: number, response: string) => {
      await db.run(
        "UPDATE idempotency_keys SET status = $1, response = $2 WHERE event_type_id = $3 AND key = $4 AND status IS NULL",
        [status, response, eventTypeId, key],
        true,
      );
    },
    release: async (eventTypeId: number, key: string) => {
      // A key tied to a booking stays (a COMMIT may have gone through though its answer was lost): a retry must find it, not book again.
      await db.run("DELETE FROM idempotency_keys WHERE event_type_id = $1 AND key = $2 AND reservation_uuid IS NULL", [eventTypeId, key], true);
    },
  };
}
