import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripeJsStandin } from "@booking/stripe-standin";
import { CALENDAR_PATH } from "../../lib/links.ts";
import { PreparedBody } from "../../lib/prepared-body.ts";

/**
 * A file the server hands out as is, with an ETag so browsers revalidate cheaply, and a version
 * taken from its content for URLs that never change their answer.
 */
export interface StaticScript {
  body: PreparedBody;
  etag: string;
  /** 16 hex digits of the content's SHA-256. */
  version: string;
}

const JAVASCRIPT = "text/javascript;charset=utf-8";
const JSON_TYPE = "application/json;charset=utf-8";

/** A file held in memory with its ETag and content version. */
export function staticFile(source: string, contentType: string): StaticScript {
  const hash = createHash("sha256").update(source);
  const digest = hash.digest();
  return { body: new PreparedBody(source, contentType), etag: `"${digest.toString("base64url").slice(0, 22)}"`, version: digest.toString("hex").slice(0, 16) };
}

const script = (source: string, contentType = JAVASCRIPT): StaticScript => staticFile(source, contentType);

/** Path of the calendar's script under its immutable, versioned URL. */
export const versionedCalendarPath = (version: string): string => `/embed/v/${version}/booking-calendar.js`;

/**
 * The calendar's script-tag file, read on first use (and again while it is not built), shared by the
 * route that serves it and the pages that link it under its versioned URL.
 */
export class CalendarScriptFile {
  private script: StaticScript | null = null;

  /** `path`: by default the one `@booking/calendar` builds, resolved on first use. */
  constructor(readonly path?: string) {}

  /** The file, or null while it is not built. */
  get(): StaticScript | null {
    this.script ??= loadCalendarScript(this.path);
    return this.script;
  }

  /** The URL path pages load it from: the versioned one, or the plain one while it is not built. */
  pagePath(): string {
    const current = this.get();
    return current ? versionedCalendarPath(current.version) : CALENDAR_PATH;
  }
}

/** Where the script-tag build of `<booking-calendar>` lies (`npm run build -w @booking/calendar` writes it). */
export function calendarScriptPath(): string {
  return fileURLToPath(import.meta.resolve("@booking/calendar/embed"));
}

/**
 * The calendar's script-tag file, read once; null while it has not been built, so the route can
 * say how to build it instead of failing.
 */
export function loadCalendarScript(path?: string): StaticScript | null {
  let file = path;
  try {
    file ??= calendarScriptPath();
  } catch {
    // The package's export does not resolve before its first build.
    return null;
  }
  return existsSync(file) ? script(readFileSync(file, "utf8")) : null;
}

/** A language the calendar fetches its texts in: two or three lowercase letters, as its build names them. */
const CATALOG_FILE = /^([a-z]{2,3})\.json$/;

/**
 * The calendar's texts in one language (`locales/<language>.json` beside the script-tag file, written
 * by its build), read once; null for a name that is not a catalog or a language not built.
 */
export function loadCatalogFile(file: string, scriptPath?: string): StaticScript | null {
  const language = CATALOG_FILE.exec(file)?.[1];
  if (!language) return null;
  let scriptFile = scriptPath;
  try {
    scriptFile ??= calendarScriptPath();
  } catch {
    return null;
  }
  const path = join(dirname(scriptFile), "locales", `${language}.json`);
  return existsSync(path) ? script(readFileSync(path, "utf8"), JSON_TYPE) : null;
}

/** A part of the calendar's code it fetches on first need (`parts/popup.js`, `parts/payment.js`, `parts/manage.js`), as its build names them. */
const PART_FILE = /^([a-z][a-z-]{0,39})\.js$/;

/**
 * One on-demand part of the calendar's code (`parts/<name>.js` beside the script-tag file, written by
 * its build), read once; null for a name that is not a part file or a part not built.
 */
export function loadPartFile(file: string, scriptPath?: string): StaticScript | null {
  const name = PART_FILE.exec(file)?.[1];
  if (!name) return null;
  let scriptFile = scriptPath;
  try {
    scriptFile ??= calendarScriptPath();
  } catch {
    return null;
  }
  const path = join(dirname(scriptFile), "parts", `${name}.js`);
  return existsSync(path) ? script(readFileSync(path, "utf8")) : null;
}

/** The Stripe.js stand-in pointed at the server's Stripe stand-in, for the demo page. */
export function loadStripeStandinScript(apiBase: string): StaticScript {
  return script(stripeJsStandin(apiBase));
}

/**
 * The server pages' icon: a calendar sheet in the element's accent colour, drawn as SVG so one small
 * file serves every size.
 */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect x="3" y="5" width="26" height="24" rx="5" fill="#2563eb"/>
<rect x="3" y="5" width="26" height="8" rx="4" fill="#1e3a8a"/>
<rect x="9" y="2" width="3" height="7" rx="1.5" fill="#1e3a8a"/>
<rect x="20" y="2" width="3" height="7" rx="1.5" fill="#1e3a8a"/>
<path d="M10 20.5l4 4 8-8.5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
</svg>
`;

export const FAVICON_PATH = "/favicon.svg";

export const favicon = (): StaticScript => staticFile(FAVICON_SVG, "image/svg+xml");
