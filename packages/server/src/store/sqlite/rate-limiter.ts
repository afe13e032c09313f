import { decisionOf, windowOf, type AttemptLimiter, type RateDecision } from "../rate-limiter.ts";
import type { SqliteConnection } from "./connection.ts";

/**
 * The `AttemptLimiter`s of every process on the SQLite file, the twin of postgres/rate-limiter.ts:
 * one counter row per key and fixed window aligned to the epoch, in the same `rate_limits` table. A
 * slot is taken by one upsert under the file's write lock, so attempts sent together to several
 * processes each see the slots the others took. Old windows are deleted by `forgetOldWindows` (the
 * store's sweep). The request limit stays in each process (MemoryRateLimiter): counting every
 * request would put every request into the queue for the one write lock.
 */
export class SqliteAttemptLimits {
  private readonly q: ReturnType<typeof prepare>;
  /** The longest window of the limiters made so far: older windows are forgotten only after it. */
  private longestSeconds = 0;

  constructor(private readonly connection: SqliteConnection) {
    this.q = prepare(connection);
  }

  /** Counters of one limit and window, their keys kept apart from other limits' by `name`. */
  limiter(name: string, limit: number, windowSeconds: number): AttemptLimiter {
    this.longestSeconds = Math.max(this.longestSeconds, windowSeconds);
    const { connection, q } = this;
    const prefix = `${name}:`;
    return {
      async take(key: string, nowMs: number): Promise<RateDecision> {
        const { windowStart, resetSeconds } = windowOf(nowMs, windowSeconds);
        // Another process holding the write lock beyond the short wait is StoreBusyError: the attempt is not made.
        const taken = connection.write(() => q.take.get(prefix + key, windowStart, limit));
        return decisionOf(taken?.count ?? null, limit, resetSeconds);
      },
      async giveBack(key: string, takenAtMs: number): Promise<void> {
        connection.write(() => q.giveBack.run(prefix + key, windowOf(takenAtMs, windowSeconds).windowStart));
      },
    };
  }

  /** Deletes windows older than the previous one of the longest window (the previous stays for a process whose clock runs a little behind); runs inside the sweep's transaction. */
  forgetOldWindows(nowMs: number): void {
    if (this.longestSeconds === 0) return;
    const windowMs = this.longestSeconds * 1000;
    this.q.forget.run((Math.floor(nowMs / windowMs) - 1) * windowMs);
  }
}

function prepare({ db }: SqliteConnection) {
  return {
    // A full window is left as it is and returns no row: a refused attempt takes no slot.
    take: db.query<{ count: number }, [string, number, number]>(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 WHERE count < ? RETURNING count`,
    ),
    giveBack: db.query<unknown, [string, number]>("UPDATE rate_limits SET count = count - 1 WHERE key = ? AND window_start = ? AND count > 0"),
    forget: db.query<unknown, [number]>("DELETE FROM rate_limits WHERE window_start < ?"),
  };
}
