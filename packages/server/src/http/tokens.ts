import { timingSafeEqual } from "node:crypto";

/** A fresh secret token with a readable prefix (`bk_` API token, `bko_` override token). */
export function newToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return prefix + Buffer.from(bytes).toString("base64url");
}

/** SHA-256 hex of a token; only this is stored. */
export function hashToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(hashToken(given), "hex");
  const b = Buffer.from(hashToken(expected), "hex");
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+([\x21-\x7e]{1,512})\s*$/i.exec(header);
  return match ? match[1]! : null;
}
