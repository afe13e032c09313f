import { timingSafeEqual } from "node:crypto";
import type { EventTypeRecord, Store } from "../store/types.ts";

/** Advice on every refusal of the organizer's channels (admin API, assistant server). */
export const ADMIN_HINT = "Send Authorization: Bearer <admin key>, the BOOKING_ADMIN_KEY the server was started with.";

/** Whether the request carries the admin key as its bearer token. */
export function hasAdminKey(request: Request, adminKey: string): boolean {
  const token = bearerToken(request.headers.get("authorization"));
  return token !== null && sameSecret(token, adminKey);
}

/** Prefix of the booking page's publishable link token (API tokens are `bk_`, override tokens `bko_`). */
export const LINK_TOKEN_PREFIX = "bcl_";

/** A fresh random token with a readable prefix (`bk_` API token, `bko_` override token, `bcl_` link token). */
export function newToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return prefix + Buffer.from(bytes).toString("base64url");
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;
}

/** SHA-256 hex of a token; only this is stored. */
export function hashToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const BEARER = /^bearer +([\x21-\x7e]{1,512}) *$/i;

/** Whether `token` is the one whose stored hash is `hash`, compared in constant time. */
export function matchesHash(token: string, hash: string): boolean {
  const given = Buffer.from(hashToken(token), "hex");
  const expected = Buffer.from(hash, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

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
