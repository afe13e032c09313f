import type { RateDecision } from "../store/rate-limiter.ts";

/** The four headers of spec part 8, on every response. */
export function rateLimitHeaders(d: RateDecision, windowSeconds: number): Record<string, string> {
  return {
    "RateLimit-Policy": `${d.limit};w=${windowSeconds}`,
    RateLimit: `limit=${d.limit}, remaining=${d.remaining}, reset=${d.resetSeconds}`,
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
  };
}
