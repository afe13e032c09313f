/**
 * Object ids in Stripe's format (`pi_`, `ch_`, `pm_`, `evt_`, `req_` and a random base-62 tail), so code that
 * checks prefixes or lengths treats the stand-in's objects like Stripe's.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` random base-62 characters from a cryptographic source. */
export function randomTail(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  // 62 does not divide 256; the slight bias is irrelevant for test ids.
  for (const byte of bytes) out += ALPHABET[byte % 62];
  return out;
}

/** A new id such as `pi_3Q…` (24 characters after the prefix, like Stripe's). */
export function newId(prefix: "pi" | "ch" | "pm" | "evt" | "re"): string {
  return `${prefix}_3${randomTail(23)}`;
}

/** A request id for the `Request-Id` response header. */
export function newRequestId(): string {
  return `req_${randomTail(14)}`;
}

/** A PaymentIntent's client secret: `<id>_secret_<random>`, the form Stripe.js insists on. */
export function newClientSecret(intentId: string): string {
  return `${intentId}_secret_${randomTail(25)}`;
}
