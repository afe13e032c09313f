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

/** The in-process limiter: one counter per key, dropped wholesale when the window turns. */
export class MemoryRateLimiter implements RateLimiter {
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
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000)),
    };
  }
}
