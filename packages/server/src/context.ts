import type { Clock } from "./clock.ts";
import type { ServerConfig } from "./config.ts";
import type { RateLimiter } from "./store/rate-limiter.ts";
import type { Store } from "./store/store.ts";

/** A line for the operator's log; errors carry the request id the client was given. */
export interface LogEntry {
  level: "info" | "warn" | "error";
  message: string;
  requestId?: string;
  error?: unknown;
  /**
   * A link the log prints whole, for whoever runs a development server to open (a host's console
   * sign-in link that no SMTP_URL can email). Every URL in `message` and `error` loses its query and
   * fragment, which would cut such a link's secret off; this field is the one deliberate exception.
   * Never set in production, and the log drops it there all the same.
   */
  developmentLink?: string;
}

/** Everything a route or service needs from outside: passed in, never imported as a singleton. */
export interface AppContext {
  store: Store;
  clock: Clock;
  config: ServerConfig;
  rateLimiter: RateLimiter;
  log: (entry: LogEntry) => void;
}
