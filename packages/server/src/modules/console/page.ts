import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AppContext } from "../../context.ts";
import { escapeHtml } from "../../lib/html.ts";
import { publicOrigin } from "../../lib/links.ts";
import { pageSecurityHeaders } from "../../http/page-policy.ts";
import { pagePolicyOf } from "../embed/index.ts";
import { FAVICON_LINK } from "../embed/page.ts";
import { staticFile, type StaticScript } from "../embed/service.ts";

/** How the console signs in: with the admin key, with one-time links only (development without a key), or not at all. */
export type ConsoleMode = "key" | "link" | "off";

/** Where `npm run build -w @booking/console` writes the console's one script. */
export function consoleBundlePath(): string {
  return fileURLToPath(import.meta.resolve("@booking/console/bundle"));
}

/** The console's script, read on first use (and again while it is not built). */
export class ConsoleBundle {
  private script: StaticScript | null = null;
  constructor(readonly path?: string) {}

  get(): StaticScript | null {
    if (this.script) return this.script;
    let file = this.path;
    try {
      file ??= consoleBundlePath();
    } catch {
      return null;
    }
    if (!existsSync(file)) return null;
    this.script = staticFile(readFileSync(file, "utf8"), "text/javascript;charset=utf-8");
    return this.script;
  }

  /** The versioned path pages load it from. */
  pagePath(): string {
    return `/console/v/${this.get()?.version ?? "0"}/console.js`;
  }
}

const HEAD = `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
${FAVICON_LINK}
<title>Booking console</title>
<style>
  html { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; background: Canvas; color: CanvasText; }
  .off { max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; }
  code { font-size: 0.95em; }
</style>`;

/**
 * The console's page: its element, told how sign-in works and where the calendar's script is (the
 * preview loads it on first need). The one-time link's secret travels in the URL's fragment, which
 * browsers never send: the page posts it once, then drops it from the address bar.
 */
export function consolePage(options: { mode: Exclude<ConsoleMode, "off">; scriptPath: string; calendarPath: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
<script type="module" src="${escapeHtml(options.scriptPath)}"></script>
</head>
<body>
<booking-console sign-in="${options.mode}" calendar-src="${escapeHtml(options.calendarPath)}"></booking-console>
<noscript><p class="off">The console needs JavaScript.</p></noscript>
</body>
</html>
`;
}

/** The console's page while it cannot sign anyone in: how to turn it on. */
export function consoleOffPage(reason?: string): string {
  const body = reason
    ? `<p>${escapeHtml(reason)}</p>`
    : `<p>The organizer console is off because this server runs without an admin key.</p>
<p>To turn it on, make a long random key, for example with <code>openssl rand -base64 32</code>, start the server with it in
<code>BOOKING_ADMIN_KEY</code>, then open <code>/console</code> again and sign in with that key.</p>
<p>See <a href="/docs">the API docs</a> and the project's guide <code>docs/console.md</code>.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
${HEAD}
</head>
<body>
<main class="off">
<h1>Booking console</h1>
${body}
</main>
</body>
</html>
`;
}

/** The console page's headers: its policy (scripts from this server only) and no framing. */
export function consolePageHeaders(ctx: AppContext, request: Request): Record<string, string> {
  return { "content-type": "text/html;charset=utf-8", ...pageSecurityHeaders(pagePolicyOf(ctx, publicOrigin(ctx.config, request.url))) };
}
