import { timingSafeEqual } from "node:crypto";

/** A fresh secret token with a readable prefix (`bk_` API token, `bko_` override token). */
export function newToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return prefix + Buffer.from(bytes).toString("base64url");
}

const recentHashes = new Map<string, string>();

/**
 * SHA-256 hex of a token; only this is stored. Every request hashes its bearer token, so the
 * hashes of recently seen tokens are remembered (a bounded map, emptied when full).
 */
export function hashToken(token: string): string {
  let hash = recentHashes.get(token);
  if (hash === undefined) {
    hash = new Bun.CryptoHasher("sha256").update(token).digest("hex");
    if (recentHashes.size >= 10_000) recentHashes.clear();
    recentHashes.set(token, hash);
  }
  return hash;
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const BEARER = /^bearer +([\x21-\x7e]{1,512}) *$/i;

/** The token of an `Authorization: Bearer <token>` header (printable ASCII, at most 512), or null. */
export function bearerToken(header: string | null): string | null {
  if (header === null) return null;
  return BEARER.exec(header)?.[1] ?? null;
}
