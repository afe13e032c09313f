import { EXPIRED_GRACE_MS } from "../domain/reservation.ts";

/** Idempotency keys are kept for a day, like the hold grace; the sweep deletes older ones. */
export const IDEMPOTENCY_TTL_MS = EXPIRED_GRACE_MS;
/** A keyed request that registered and then vanished (a crash) frees its key after this long. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

/** Where a request with an idempotency key stands. */
export type IdempotencyState =
  | { state: "new" }
  | { state: "done"; status: number; response: string }
  | { state: "pending" }
  /**
   * A booking was saved under the key but no answer was stored: its request lost the connection at
   * COMMIT (answered 503, outcome unknown) or failed after it. A retry answers that booking.
   */
  | { state: "saved"; reservationUuid: string }
  | { state: "mismatch" };

/** Requests sent with an `Idempotency-Key`: how each stands, and the answer its retries get. */
export interface IdempotencyRepository {
  /** Registers a keyed request, or tells how an earlier one with the same key stands. */
  begin(eventTypeId: number, key: string, requestHash: string, nowMs: number): Promise<IdempotencyState>;
  /** Stores the answer given to a keyed request, to be replayed to its retries; the first answer stored stays. */
  finish(eventTypeId: number, key: string, status: number, response: string): Promise<void>;
  /**
   * Forgets a keyed request that failed, so a retry runs afresh; a key tied to a booking is kept,
   * since that booking was saved. After a lost COMMIT this is what settles the key: the claim that
   * links a key holds its row until its transaction ends, so the delete waits for the end (or
   * fails, leaving the key to its lease) and frees the key only if the booking was not saved.
   */
  release(eventTypeId: number, key: string): Promise<void>;
}
