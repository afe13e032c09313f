import { hashToken, LINK_TOKEN_PREFIX, sameSecret } from "../lib/tokens.ts";
import type { EventTypeRecord } from "../store/event-types.ts";
import type { Store } from "../store/store.ts";

/** Advice on every refusal of the organizer's channels (admin API, assistant server). */
export const ADMIN_HINT = "Send Authorization: Bearer <admin key>, the BOOKING_ADMIN_KEY the server was started with.";

/** Whether the request carries the admin key as its bearer token. */
export function hasAdminKey(request: Request, adminKey: string): boolean {
  const token = bearerToken(request.headers.get("authorization"));
  return token !== null && sameSecret(token, adminKey);
}

const BEARER = /^bearer +([\x21-\x7e]{1,512}) *$/i;

/** The token of an `Authorization: Bearer <token>` header (printable ASCII, at most 512), or null. */
export function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * The event type a bearer credential belongs to: its API token (stored hashed) or its booking
 * page's link token (stored as is, since it is published). Both act alike on the public API.
 */
export function eventTypeOfCredential(store: Store, token: string): Promise<EventTypeRecord | null> {
  return token.startsWith(LINK_TOKEN_PREFIX) ? store.eventTypes.byLinkToken(token) : store.eventTypes.byTokenHash(hashToken(token));
}
