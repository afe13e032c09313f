import { IDEMPOTENCY_LEASE_MS, type IdempotencyRepository, type IdempotencyState } from "../idempotency.ts";
import type { SqliteConnection } from "./connection.ts";

/** Idempotency keys on SQLite: the key's row is the registration, written under the write lock. */
export function sqliteIdempotency(connection: SqliteConnection): IdempotencyRepository {
  const { db } = connection;
  const q = {
    idemGet: db.query<
      { request_hash: string; reservation_uuid: string | null; status: number | null; response: string | null; created_at_ms: number },
      [number, string]
    >("SELECT request_hash, reservation_uuid, status, response, created_at_ms FROM idempotency_keys WHERE event_type_id = ? AND key = ?"),
    idemInsert: db.query<unknown, [number, string, string, number]>(
      "INSERT INTO idempotency_keys (event_type_id, key, request_hash, created_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    idemFinish: db.query<unknown, [number, string, number, string]>(
      "UPDATE idempotency_keys SET status = ?, response = ? WHERE event_type_id = ? AND key = ? AND status IS NULL",
    ),
    // A key tied to a booking stays: that booking happened, and a retry must find it, not book again.
    idemDelete: db.query<unknown, [number, string]>("DELETE FROM idempotency_keys WHERE event_type_id = ? AND key = ? AND reservation_uuid IS NULL"),
    idemTakeOver: db.query<unknown, [number, number, string, number]>(
      "UPDATE idempotency_keys SET created_at_ms = ? WHERE event_type_id = ? AND key = ? AND status IS NULL AND reservation_uuid IS NULL AND created_at_ms = ?",
    ),
  };
  return {
    begin: async (eventTypeId: number, key: string, requestHash: string, nowMs: number): Promise<IdempotencyState> =>
      connection.write((): IdempotencyState => {
        if (q.idemInsert.run(eventTypeId, key, requestHash, nowMs).changes === 1) return { state: "new" };
        const row = q.idemGet.get(eventTypeId, key)!;
        if (row.request_hash !== requestHash) return { state: "mismatch" };
        if (row.status !== null && row.response !== null) return { state: "done", status: row.status, response: row.response };
        // The link commits with the booking it names: that booking was saved, though no answer was stored.
        if (row.reservation_uuid !== null) return { state: "saved", reservationUuid: row.reservation_uuid };
        // Registered long ago and never linked to a booking: its request died; this one takes over.
        if (row.created_at_ms <= nowMs - IDEMPOTENCY_LEASE_MS) {
          if (q.idemTakeOver.run(nowMs, eventTypeId, key, row.created_at_ms).changes === 1) return { state: "new" };
        }
        return { state: "pending" };
      }),
    finish: async (eventTypeId: number, key: string, status: number, response: string) => {
      connection.write(() => q.idemFinish.run(status, response, eventTypeId, key));
    },
    release: async (eventTypeId: number, key: string) => {
      connection.write(() => q.idemDelete.run(eventTypeId, key));
    },
  };
}
