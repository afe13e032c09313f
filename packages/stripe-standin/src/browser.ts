import { readFileSync } from "node:fs";

// Read on first use: a server that never serves the script never touches the file.
let source: string | undefined;

/**
 * The Stripe.js stand-in (browser script, see `browser/stripe.js`) pointed at a Stripe stand-in's
 * base URL. Served in place of js.stripe.com by the demo page and by the browser tests' routing.
 */
export function stripeJsStandin(apiBase: string): string {
  source ??= readFileSync(new URL("../browser/stripe.js", import.meta.url), "utf8");
  return source.replace("__STANDIN_API__", apiBase.replace(/\/$/, "").replace(/["\\]/g, ""));
}
