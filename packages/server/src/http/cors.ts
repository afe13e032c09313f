/**
 * Cross-origin access for the public API, which the calendar calls from any site that embeds it.
 * Tokens travel as bearer headers, never cookies, so any origin may call; the organizer's admin API,
 * the assistant server (`/mcp`, also the admin key's) and Stripe's webhook get no CORS headers, so
 * browsers on other sites cannot call them.
 */
export function isCrossOriginPath(path: string, aliasPrefix: string): boolean {
  return !path.startsWith("/admin") && path !== "/mcp" && !path.startsWith("/webhooks/") && (aliasPrefix === "" || !path.startsWith(`${aliasPrefix}/admin`));
}

/** Headers on every public answer: any origin, and the headers a client script may read. */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After, apigw-requestid, Service-Api-Version, Idempotent-Replayed",
};

/** The answer to a preflight `OPTIONS` request of a public path. */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "access-control-allow-methods": "GET, POST, PUT, DELETE",
      "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key, Service-Api-Version, Booking-Override-Token",
      "access-control-max-age": "86400",
    },
  });
}
