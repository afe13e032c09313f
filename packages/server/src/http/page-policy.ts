import { createHash } from "node:crypto";

/** What a page that shows the element loads from where, for its Content-Security-Policy. */
export interface PagePolicyOptions {
  /** Origin the element calls the API at (its `api-base`; BOOKING_PUBLIC_URL may differ from the page's own). */
  apiOrigin: string;
  /** Base URL of the local Stripe stand-in the Stripe.js stand-in calls, or null when payments go to Stripe. */
  stripeStandinUrl: string | null;
  /** Vite's dev server under `npm run dev`, which serves the element and reloads the page over a WebSocket. */
  devCalendarUrl: string | null;
  /** Inline `<script>` bodies the page carries, allowed by their hash and nothing else inline. */
  inlineScripts?: readonly string[];
}

// Stripe.js and the frames of its card fields (Stripe's documented CSP for Stripe.js).
const STRIPE_SCRIPTS = ["https://js.stripe.com", "https://*.js.stripe.com"];
const STRIPE_FRAMES = ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"];
const STRIPE_API = "https://api.stripe.com";

/**
 * No framing, for every HTML page of the server: the CSP directive (added to each page's own policy)
 * and `X-Frame-Options` for browsers that predate `frame-ancestors`. A page in another site's frame
 * could be clickjacked; what sites embed is the element, which runs in their own page.
 */
export const NO_FRAMING = { directive: "frame-ancestors 'none'", headers: { "x-frame-options": "DENY" } } as const;

/** The origin of an absolute URL, or null. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** `'sha256-…'` of an inline script as CSP hashes it: the exact text between the tags. */
export function scriptHash(body: string): string {
  return `'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`;
}

/**
 * Security headers of the server's HTML pages (booking pages, manage links, the demo page): a
 * Content-Security-Policy that lets scripts come only from this server, Stripe.js and (under
 * `npm run dev`) Vite, with inline scripts by hash only, so a value that slipped past escaping
 * still could not run; and no framing at all: booking pages are meant to be linked, and what sites
 * embed is the element, which runs in their own page.
 */
export function pageSecurityHeaders(options: PagePolicyOptions): Record<string, string> {
  const dev = options.devCalendarUrl ? originOf(options.devCalendarUrl) : null;
  const standin = options.stripeStandinUrl ? originOf(options.stripeStandinUrl) : null;
  const api = originOf(options.apiOrigin);
  // The API's origin too: the element loads the Stripe.js stand-in from there when the configuration names it.
  const scripts = ["'self'", ...(api && standin ? [api] : []), ...STRIPE_SCRIPTS, ...(dev ? [dev] : []), ...(options.inlineScripts ?? []).map(scriptHash)];
  const connect = ["'self'", ...(api ? [api] : []), STRIPE_API, ...(standin ? [standin] : []), ...(dev ? [dev, dev.replace(/^http/, "ws")] : [])];
  const directives = [
    "default-src 'self'",
    `script-src ${[...new Set(scripts)].join(" ")}`,
    // Lit and Stripe's fields set styles at run time; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https://*.stripe.com",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(" ")}`,
    `frame-src ${STRIPE_FRAMES.join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    NO_FRAMING.directive,
  ];
  return { "content-security-policy": directives.join("; "), ...NO_FRAMING.headers };
}
