import type pg from "pg";
import { decisionOf, type AttemptLimiter, type RateDecision } from "../rate-limiter.ts";

/**
 * The `RateLimiter` of several instances: one counter row per key and fixed window aligned to the
 * epoch (the windows of MemoryRateLimiter), counted by a single upsert, so every instance on the
 * database sees the same count. Old windows are deleted by `forgetOldWindows` (the store's sweep).
 */
export class PostgresRateLimiter implements AttemptLimiter {
  /** The longest window of this limiter and the ones made by `another`: older windows are forgotten only after it. */
  private readonly longest: { seconds: number };

  constructor(
    private readonly pool: pg.Pool,
    private readonly limit: number,
    private readonly windowSeconds: number,
    private readonly prefix = "",
    longest?: { seconds: number },
  ) {
    this.longest = longest ?? { seconds: windowSeconds };
    this.longest.seconds = Math.max(this.longest.seconds, windowSeconds);
  }

  /** Counters of another limit and window in the same table on the same connections, their keys kept apart by `name`. */
  another(name: string, limit: number, windowSeconds: number): PostgresRateLimiter {
    return new PostgresRateLimiter(this.pool, limit, windowSeconds, `${name}:`, this.longest);
  }

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000));
    let count: number;
    try {
      count = await this.count(key, windowStart);
    } catch {
      try {
        // A connection the pool had not yet found dead: one more try on a fresh one.
        count = await this.count(key, windowStart);
      } catch {
        // The counter is unreachable: serve the request rather than fail it; the store, which the
        // request needs anyway, answers for itself.
        return { allowed: true, limit: this.limit, remaining: this.limit, resetSeconds };
      }
    }
    return decisionOf(count, this.limit, resetSeconds);
  }

  async peek(key: string, nowMs: number): Promise<RateDecision> {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000));
    try {
      const { rows } = await this.pool.query<{ count: number }>({
        name: "rate_limit_peek",
        text: "SELECT count FROM rate_limits WHERE key = $1 AND window_start = $2",
        values: [this.prefix + key, windowStart],
      });
      return decisionOf(rows[0]?.count ?? 0, this.limit, resetSeconds, true);
    } catch {
      // As `hit`: an unreachable counter lets the attempt through.
      return decisionOf(0, this.limit, resetSeconds, true);
    }
  }

  private async count(key: string, windowStart: number): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>({
      name: "rate_limit_count",
      text: `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
      values: [this.prefix + key, windowStart],
    });
    return rows[0]!.count;
  }

  /** Deletes windows older than the previous one of the longest window; the previous stays for an instance whose clock runs a little behind. */
  async forgetOldWindows(nowMs: number): Promise<void> {
    const windowMs = this.longest.seconds * 1000;
    await this.pool.query("DELETE FROM rate_limits WHERE window_start < $1", [(Math.floor(nowMs / windowMs) - 1) * windowMs]);
  }

  /** Ends the counters' own connections. */
  async close(): Promise<void> {
    await this.pool.end();
  }
}
