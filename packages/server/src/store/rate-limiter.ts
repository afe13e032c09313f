/** Outcome of counting one request against its key's window. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
}

/**
 * Counts requests per key in fixed windows aligned to the epoch (so instances sharing a counter
 * agree on window edges). Asynchronous so a shared counter can replace the in-process one. A port of
 * the store, not of HTTP: a store may bring its own counter (PostgreSQL's, shared by all instances),
 * which the HTTP layer then counts with.
 */
export interface RateLimiter {
  hit(key: string, nowMs: number): Promise<RateDecision>;
}

/**
 * A limiter that also tells a key's count without adding to it: for attempts where only failures
 * count (sign-ins), each checked before it is made and counted only when it failed.
 */
export interface AttemptLimiter extends RateLimiter {
  /** The key's standing in the current window, not counting this look: allowed while under the limit. */
  peek(key: string, nowMs: number): Promise<RateDecision>;
}

/** The decision for a key counted `count` times in the window (`pending`: one more is about to be made). */
export function decisionOf(count: number, limit: number, resetSeconds: number, pending = false): RateDecision {
  return { allowed: pending ? count < limit : count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}

/** The in-process limiter: one counter per key, dropped wholesale when the window turns. */
export class MemoryRateLimiter implements AttemptLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(private readonly limit: number, private readonly windowSeconds: number) {}

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    const windowMs = this.windowSeconds * 1000;
    const window = Math.floor(nowMs / windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return decisionOf(count, this.limit, Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000)));
  }

  async peek(key: string, nowMs: number): Promise<RateDecision> {
    const windowMs = this.windowSeconds * 1000;
    const window = Math.floor(nowMs / windowMs);
    const count = window === this.window ? (this.counts.get(key) ?? 0) : 0;
    return decisionOf(count, this.limit, Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000)), true);
  }
}
