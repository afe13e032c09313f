import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripeJsStandin } from "@booking/stripe-standin";
import { PreparedBody } from "../../lib/prepared-body.ts";

/** A script the server hands out as is, with an ETag so browsers revalidate cheaply. */
export interface StaticScript {
  body: PreparedBody;
  etag: string;
}

const JAVASCRIPT = "text/javascript;charset=utf-8";
const JSON_TYPE = "application/json;charset=utf-8";

function script(source: string, contentType = JAVASCRIPT): StaticScript {
  return { body: new PreparedBody(source, contentType), etag: `"${createHash("sha256").update(source).digest("base64url").slice(0, 22)}"` };
}

/** Where the script-tag build of `<booking-calendar>` lies (`npm run build -w @booking/calendar` writes it). */
export function calendarScriptPath(): string {
  return fileURLToPath(import.meta.resolve("@booking/calendar/embed"));
}

/**
 * The calendar's script-tag file, read once; null while it has not been built, so the route can
 * say how to build it instead of failing.
 */
export function loadCalendarScript(path = calendarScriptPath()): StaticScript | null {
  return existsSync(path) ? script(readFileSync(path, "utf8")) : null;
}

/** A language the calendar fetches its texts in: two or three lowercase letters, as its build names them. */
const CATALOG_FILE = /^([a-z]{2,3})\.json$/;

/**
 * The calendar's texts in one language (`locales/<language>.json` beside the script-tag file, written
 * by its build), read once; null for a name that is not a catalog or a language not built.
 */
export function loadCatalogFile(file: string, scriptPath = calendarScriptPath()): StaticScript | null {
  const language = CATALOG_FILE.exec(file)?.[1];
  if (!language) return null;
  const path = join(dirname(scriptPath), "locales", `${language}.json`);
  return existsSync(path) ? script(readFileSync(path, "utf8"), JSON_TYPE) : null;
}

/** The Stripe.js stand-in pointed at the server's Stripe stand-in, for the demo page. */
export function loadStripeStandinScript(apiBase: string): StaticScript {
  return script(stripeJsStandin(apiBase));
}
