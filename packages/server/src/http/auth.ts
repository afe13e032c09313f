import { Elysia } from "elysia";
import type { Store } from "../store/store.ts";
import type { EventTypeRecord } from "../store/event-types.ts";
import { ApiError } from "./errors.ts";
import { resolvedEventTypes } from "./caller.ts";
import { bearerToken, eventTypeOfCredential } from "./tokens.ts";

/**
 * The event type that owns the bearer token (disabled ones included), or 401 `unauthenticated`.
 * The booking page's link token is accepted like the API token.
 */
export async function eventTypeOfToken(store: Store, authorization: string | null): Promise<EventTypeRecord> {
  const token = bearerToken(authorization);
  if (!token) throw new ApiError("unauthenticated", "Send the event type's API token as Authorization: Bearer <token>.");
  const eventType = await eventTypeOfCredential(store, token);
  if (!eventType) throw new ApiError("unauthenticated", "The API token is not valid.");
  return eventType;
}

/** 403 `event_type_disabled` unless the event type takes bookings. */
export function assertEnabled(eventType: EventTypeRecord): void {
  if (eventType.disabled) throw new ApiError("event_type_disabled", "This event type is disabled.");
}

/**
 * Resolves the caller's event type from the bearer token before the request's fields are validated,
 * so a request without a valid token hears 401 (and a disabled event type 403) whatever is wrong
 * with its query or fields. A body that is not JSON at all is refused (400) while it is read, before.
 */
export const requireEventType = (store: Store, options: { allowDisabled?: boolean } = {}) =>
  new Elysia().derive({ as: "scoped" }, async ({ request }) => {
    const eventType = resolvedEventTypes.get(request) ?? (await eventTypeOfToken(store, request.headers.get("authorization")));
    if (!options.allowDisabled) assertEnabled(eventType);
    return { eventType };
  });
