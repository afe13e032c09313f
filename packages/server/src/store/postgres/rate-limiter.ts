import type pg from "pg";
import { decisionOf, windowOf, type AttemptLimiter, type RateDecision } from "../rate-limiter.ts";
import { StoreUnavailableError } from "../errors.ts";

/**
 * The `RateLimiter` of several instances: one counter row per key and fixed window aligned to the
 * epoch (the windows of MemoryRateLimiter), counted by a single upsert, so every instance on the
 * database sees the same count. The same rows serve as the `AttemptLimiter` of `another` limit.
 * Old windows are deleted by `forgetOldWindows` (the store's sweep).
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
    const { windowStart, resetSeconds } = windowOf(nowMs, this.windowSeconds);
    try {
      return decisionOf(await this.withOneRetry(() => this.count(key, windowStart)), this.limit, resetSeconds);
    } catch {
      // The counter is unreachable: serve the request rather than fail it; the store, which the
      // request needs anyway, answers for itself.
      return { allowed: true, limit: this.limit, remaining: this.limit, resetSeconds };
    }
  }

  async take(key: string, nowMs: number): Promise<RateDecision> {
    const { windowStart, resetSeconds } = windowOf(nowMs, this.windowSeconds);
    let taken: number | null;
    try {
      taken = await this.withOneRetry(async () => {
        // The row lock of the upsert orders attempts on one key: each sees the count the one before
        // it left, and a full window is left as it is (no row returned).
        const { rows } = await this.pool.query<{ count: number }>({
          name: "rate_limit_take",
          text: `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)
           ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 WHERE rate_limits.count < $3 RETURNING count`,
          values: [this.prefix + key, windowStart, this.limit],
        });
        return rows[0]?.count ?? null;
      });
    } catch (error) {
      // Unlike `hit`: an attempt that cannot be counted is not made (the caller answers 503).
      throw new StoreUnavailableError("the attempt counter cannot be reached", { cause: error });
    }
    return decisionOf(taken, this.limit, resetSeconds);
  }

  async giveBack(key: string, takenAtMs: number): Promise<void> {
    const { windowStart } = windowOf(takenAtMs, this.windowSeconds);
    await this.pool.query({
      name: "rate_limit_give_back",
      text: "UPDATE rate_limits SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0",
      values: [this.prefix + key, windowStart],
    });
  }

  /** Runs a statement, and once more when it failed: on a connection the pool had not yet found dead, the second runs on a fresh one. */
  private async withOneRetry<T>(statement: () => Promise<T>): Promise<T> {
    try {
      return await statement();
    } catch {
      return await statement();
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
