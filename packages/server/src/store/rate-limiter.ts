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
 * Counts attempts of which only the failures should stay counted (sign-ins), in the fixed windows
 * of `RateLimiter`. Each attempt first takes a slot, checked against the limit and counted in one
 * atomic step in the store, so attempts sent in parallel, to one instance or to several on the same
 * database, can never together get past the limit (a look first and a count later could: every
 * look of a burst sees the same count). An attempt that turned out not to be a failure gives its
 * slot back. Unlike `RateLimiter`, whose counter lets requests through when it cannot be reached,
 * `take` then throws: an attempt that cannot be counted is not made.
 */
export interface AttemptLimiter {
  /** Takes one of the key's slots in the window of `nowMs`: allowed while fewer than the limit are taken; a refused attempt takes none. */
  take(key: string, nowMs: number): Promise<RateDecision>;
  /** Gives back a slot taken at `takenAtMs`, to that window even once the next one began; the count never goes below zero. */
  giveBack(key: string, takenAtMs: number): Promise<void>;
}

/** The fixed window of `nowMs` and the seconds left in it, the same on every instance. */
export function windowOf(nowMs: number, windowSeconds: number): { windowStart: number; resetSeconds: number } {
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  return { windowStart, resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)) };
}

/** The decision for a key counted `count` times in the window (null: a slot refused, the count unchanged at the limit). */
export function decisionOf(count: number | null, limit: number, resetSeconds: number): RateDecision {
  if (count === null) return { allowed: false, limit, remaining: 0, resetSeconds };
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}

/** The in-process limiter: one counter per key, dropped wholesale when the window turns. */
export class MemoryRateLimiter implements RateLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    const { windowStart, resetSeconds } = windowOf(nowMs, this.windowSeconds);
    if (windowStart !== this.window) {
      this.window = windowStart;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return decisionOf(count, this.limit, resetSeconds);
  }
}
