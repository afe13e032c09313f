import type { Clock } from "./clock.ts";
import type { ServerConfig } from "./config.ts";
import type { RateLimiter } from "./store/rate-limiter.ts";
import type { Store } from "./store/types.ts";

/** A line for the operator's log; errors carry the request id the client was given. */
export interface LogEntry {
  level: "info" | "warn" | "error";
  message: string;
  requestId?: string;
  error?: unknown;
}

/** Everything a route or service needs from outside: passed in, never imported as a singleton. */
export interface AppContext {
  store: Store;
  clock: Clock;
  config: ServerConfig;
  rateLimiter: RateLimiter;
  log: (entry: LogEntry) => void;
}
