/**
 * Where the server's own pages live, besides the demo page at `/`. Configuration checks the alias
 * prefix of the public API against these (config.ts), and the rate limit gives page loads a budget
 * of their own (http/caller.ts); neither has to know the other.
 */
export const PAGE_ROOTS = ["/book", "/embed", "/docs", "/openapi.json", "/favicon.svg", "/console"] as const;

/** Whether `path` is `root` or lies under it, segment by segment (`/booking-api` is not under `/book`). */
export function isAtOrUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

/**
 * The server's own pages and files, which browsers fetch without a token: booking pages, the demo
 * page, the docs, the icon, the organizer console's page and script, and the element's script (plain and versioned), its on-demand parts, its
 * texts and the Stripe.js stand-in beside it. Never a path under the API's alias prefix: those are
 * API calls, counted in the API's budget whatever the prefix looks like.
 */
export function isPagePath(path: string, aliasPrefix = ""): boolean {
  if (aliasPrefix !== "" && isAtOrUnder(path, aliasPrefix)) return false;
  return (
    path === "/" ||
    path === "/favicon.svg" ||
    path === "/docs" ||
    path === "/openapi.json" ||
    path === "/book" ||
    path.startsWith("/book/") ||
    path.startsWith("/embed/") ||
    path === "/console" ||
    path === "/console/" ||
    path.startsWith("/console/v/")
  );
}
