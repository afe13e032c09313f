import { Elysia } from "elysia";
import { StoreBusyError } from "../store/errors.ts";
import type { EventTypeRecord } from "../store/event-types.ts";
import type { Store } from "../store/store.ts";
import { BusinessFailure, ValidationFailed } from "./errors.ts";
import { pathOf } from "../lib/links.ts";

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_STEP_MS = 25;
const WAIT_LIMIT_MS = 5000;
/**
 * How long a retry finding its key tied to a saved booking but no answer stored waits for the
 * earlier request to store its own (it may be between its COMMIT and that write), so the first
 * answer is the one replayed; past it the earlier request is taken to have lost its answer.
 */
const SAVED_ANSWER_WAIT_MS = 1000;

/** The part of Elysia's context a replay writes to. */
interface ReplaySink {
  headers: Record<string, string | number>;
  status?: number | string;
}

/**
 * Runs a POST once per `Idempotency-Key` (additive to the spec): a retry with the same key and body
 * gets the first answer again (marked `Idempotent-Replayed: true`) and books nothing twice; the same
 * key with another body is 422. Errors and transient answers (`slot_locked`) free the key for a new
 * try; final ones (success, `slot_unavailable`, `reservation_finished`, `limit_reached`) are replayed.
 * `recover` rebuilds the answer from the reservation a request booked if it never stored its answer
 * (its connection was lost at COMMIT, so it answered 503 not knowing the booking was saved): the
 * retry gets that booking, marked as a replay, never a second one.
 */
export async function idempotent<T extends object>(
  store: Store,
  eventTypeId: number,
  request: Request,
  body: unknown,
  set: ReplaySink,
  nowMs: number,
  run: (key: string | undefined) => Promise<T>,
  recover?: (reservationUuid: string) => Promise<T>,
): Promise<T> {
  const key = request.headers.get("idempotency-key");
  if (key === null) return run(undefined);
  if (!KEY.test(key)) throw new ValidationFailed({ "Idempotency-Key": ["Use 1 to 255 printable ASCII characters."] });
  const hash = requestHash(request, body);

  for (let waited = 0; ; waited += WAIT_STEP_MS) {
    const state = await store.idempotency.begin(eventTypeId, key, hash, nowMs).catch((error) => {
      // Another writer holds the store: the same answer a seat claim would give, and nothing is registered.
      if (error instanceof StoreBusyError) throw new BusinessFailure("slot_locked", "The service is busy with another booking; try again.");
      throw error;
    });
    if (state.state === "mismatch") throw new ValidationFailed({ "Idempotency-Key": ["This key was already used with another request."] });
    if (state.state === "done") {
      set.headers["idempotent-replayed"] = "true";
      set.status = state.status;
      return JSON.parse(state.response) as T;
    }
    if (state.state === "saved") {
      if (waited < SAVED_ANSWER_WAIT_MS) {
        await Bun.sleep(WAIT_STEP_MS);
        continue;
      }
      // The earlier request booked (its answer lost with its connection at COMMIT, or never stored):
      // answer that booking, as it stands now, as a replay, and store the answer for the retries
      // after this one (unless the earlier request stored its own meanwhile: the first one stays).
      // Only the booking routes link keys to reservations, and they pass `recover`.
      if (!recover) throw new Error("an Idempotency-Key is tied to a booking on a route that books nothing");
      const result = await recover(state.reservationUuid);
      await remember(() => store.idempotency.finish(eventTypeId, key, 200, JSON.stringify(result)));
      set.headers["idempotent-replayed"] = "true";
      return result;
    }
    if (state.state === "pending") {
      if (waited < WAIT_LIMIT_MS) {
        await Bun.sleep(WAIT_STEP_MS);
        continue;
      }
      throw new BusinessFailure("slot_locked", "A request with this Idempotency-Key is still being processed; try again shortly.");
    }
    break;
  }

  let result: T;
  try {
    result = await run(key);
  } catch (error) {
    if (error instanceof BusinessFailure && FINAL.has(error.code)) {
      await remember(() => store.idempotency.finish(eventTypeId, key, 200, JSON.stringify({ success: false, code: error.code, message: error.message })));
    } else {
      // Nothing happened (an error, or a transient `slot_locked`): a retry with the key runs afresh.
      // After a lost COMMIT (StoreOutcomeUnknownError) the store settles the key by what the database
      // holds: kept when the booking was saved (a retry answers it), freed only when it was not.
      await remember(() => store.idempotency.release(eventTypeId, key));
    }
    throw error;
  }
  await remember(() => store.idempotency.finish(eventTypeId, key, 200, JSON.stringify(result)));
  return result;
}

/** What a route marked `idempotent` runs its work through: once per `Idempotency-Key` (see `idempotent`). */
export type Once = <T extends object>(run: (key: string | undefined) => Promise<T>, recover?: (reservationUuid: string) => Promise<T>) => Promise<T>;

/**
 * The `idempotent` macro of the public API's POSTs: a route that sets `idempotent: true` gets `once`
 * in its context, which runs the route's work once per `Idempotency-Key` of the caller's event type,
 * with the request's body and the store's clock; the route only says what to run and, for bookings,
 * how to rebuild a lost answer. Mounted after the event type is resolved from the token.
 */
export const idempotency = (store: Store, now: () => number) =>
  new Elysia({ name: "idempotency" }).macro({
    idempotent: (enabled: boolean) => ({
      resolve: (context) => {
        // Named fields, not a rest of the context: Elysia would parse every request's cookies for one.
        const { request, body, set, eventType } = context as typeof context & { eventType: EventTypeRecord };
        const once: Once = (run, recover) => (enabled ? idempotent(store, eventType.id, request, body, set, now(), run, recover) : run(undefined));
        return { once };
      },
    }),
  });

/** Outcomes that a retry would meet again; only these are replayed. */
const FINAL = new Set(["slot_unavailable", "reservation_finished", "limit_reached"]);

/**
 * Bookkeeping of the key must not turn a done request into a failure: if it cannot be written (the
 * store is busy), the key stays pending, tied to any reservation booked, and its lease runs out.
 */
async function remember(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch {
    // See above: the lease in the store covers it.
  }
}

/** Method, path and body in a canonical form (keys sorted), hashed. */
function requestHash(request: Request, body: unknown): string {
  const canonical = `${request.method} ${pathOf(request.url)}\n${stableJson(body ?? null)}`;
  return new Bun.CryptoHasher("sha256").update(canonical).digest("hex");
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
