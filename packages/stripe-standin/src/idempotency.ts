/**
 * Stripe's idempotent requests (https://docs.stripe.com/api/idempotent_requests).
 *
 * A POST with an `Idempotency-Key` header saves its status and body; a later POST with the same key on
 * the same account replays them (with `Idempotent-Replayed: true` and `Original-Request` headers) when the
 * endpoint and parameters are the same, and fails with a 400 `idempotency_error` when they differ.
 * As on Stripe, only requests that got as far as executing are saved (successes and card declines), not
 * ones refused for bad parameters or keys, and keys expire after 24 hours.
 *
 * stripe-node sends a fresh `Idempotency-Key: stripe-node-retry-<uuid>` on every POST unless one is given,
 * so every SDK POST passes through here.
 */
import { idempotencyMismatch } from "./errors.ts";

/** A saved response. */
export interface SavedResponse {
  status: number;
  body: string;
  requestId: string;
}

interface Entry extends SavedResponse {
  endpoint: string;
  fingerprint: string;
  savedAt: number;
}

const LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Saved responses by account and key. */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  private slot(account: string | null, key: string): string {
    return `${account ?? "platform"}\u0000${key}`;
  }

  /**
   * The saved response for a repeated request, `undefined` for a new one; throws `idempotency_error`
   * when the key was used for another endpoint or other parameters.
   */
  replay(account: string | null, key: string, endpoint: string, fingerprint: string): SavedResponse | undefined {
    const slot = this.slot(account, key);
    const entry = this.entries.get(slot);
    if (!entry) return undefined;
    if (this.now() - entry.savedAt > LIFETIME_MS) {
      this.entries.delete(slot);
      return undefined;
    }
    if (entry.endpoint !== endpoint) throw idempotencyMismatch(key, `for the same endpoint they were first used for ('${endpoint}' vs '${entry.endpoint}')`);
    if (entry.fingerprint !== fingerprint) throw idempotencyMismatch(key, "with the same parameters they were first used with");
    return entry;
  }

  /** Saves a response for replay. */
  save(account: string | null, key: string, endpoint: string, fingerprint: string, response: SavedResponse): void {
    this.entries.set(this.slot(account, key), { ...response, endpoint, fingerprint, savedAt: this.now() });
  }
}
