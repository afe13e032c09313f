import { timingSafeEqual } from "node:crypto";

// Making, hashing and comparing secrets: used by the admin service and the reservation rules as well
// as by the HTTP layer's authentication, so it lives outside src/http.

/** Prefix of the booking page's publishable link token (API tokens are `bk_`, override tokens `bko_`). */
export const LINK_TOKEN_PREFIX = "bcl_";

/** Prefix of the secret in the URL of an event type's private booking feed, `/feeds/{token}.ics`. */
export const FEED_TOKEN_PREFIX = "bcf_";

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

/** Whether `token` is the one whose stored hash is `hash`, compared in constant time. */
export function matchesHash(token: string, hash: string): boolean {
  const given = Buffer.from(hashToken(token), "hex");
  const expected = Buffer.from(hash, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
