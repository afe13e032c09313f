import { escapeHtml } from "../../lib/html.ts";

/** What a page needs to know to load the element. */
export interface CalendarScriptOptions {
  /** Path of the built script, versioned when it is built (see CalendarScriptFile.pagePath). */
  calendarPath: string;
  /** Vite's dev server under `npm run dev`, or null. */
  devCalendarUrl: string | null;
}

/**
 * The head of a server page that shows the element: its icon, and the element's script, deferred so
 * it never holds up the page's first paint (from Vite's dev server under `npm run dev`). The element
 * loads the Stripe.js stand-in itself when a payment needs it; the page does not.
 */
export function calendarScripts(options: CalendarScriptOptions): string {
  return `${FAVICON_LINK}\n${calendarScript(options)}`;
}

/** The server pages' icon link. */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

/** With `npm run dev` the element comes from Vite's dev server, which reloads the page on every change. */
function calendarScript({ calendarPath, devCalendarUrl }: CalendarScriptOptions): string {
  if (!devCalendarUrl) return `<script src="${escapeHtml(calendarPath)}" defer></script>`;
  const origin = escapeHtml(devCalendarUrl.replace(/\/$/, ""));
  return `<script type="module" src="${origin}/@vite/client"></script>\n<script type="module" src="${origin}/src/embed.ts"></script>`;
}

/**
 * The demo page's one inline script: the preview controls set the element's `locale` and `theme`
 * attributes and its `--bc-primary` property, as a host page would. Exported for the page's
 * Content-Security-Policy, which allows it by its hash.
 */
export const PREVIEW_SCRIPT = `
document.getElementById("preview").addEventListener("input", function (event) {
  var form = event.currentTarget, calendar = document.querySelector("booking-calendar");
  if (!calendar) return;
  ["locale", "theme"].forEach(function (name) {
    var value = form.elements[name].value;
    if (value) calendar.setAttribute(name, value); else calendar.removeAttribute(name);
  });
  if (event.target.name === "primary") calendar.style.setProperty("--bc-primary", event.target.value);
});
`;

/**
 * Every language the element speaks out of the box (its catalogs, packages/booking-calendar/src/i18n),
 * each named in itself, with English's two clocks: the preview sets the element's `locale`.
 */
export const PREVIEW_LANGUAGES: ReadonlyArray<readonly [string, string]> = [
  ["en-US", "English (US, 12h)"],
  ["en-GB", "English (UK, 24h)"],
  ["de", "Deutsch"],
  ["fr", "Français"],
  ["es", "Español"],
  ["it", "Italiano"],
  ["pt", "Português"],
  ["nl", "Nederlands"],
  ["pl", "Polski"],
  ["cs", "Čeština"],
  ["ja", "日本語"],
];

/** Preview of languages and themes without touching the event type. */
const PREVIEW_CONTROLS = `<details class="preview"><summary>Preview a language or theme</summary>
<form id="preview">
<label>Language <select name="locale"><option value="">From the event type</option>${PREVIEW_LANGUAGES.map(([tag, name]) => `<option value="${tag}">${name}</option>`).join("")}</select></label>
<label>Theme <select name="theme"><option value="">From the event type</option><option>light</option><option>dark</option><option>auto</option></select></label>
<label>Accent colour <input name="primary" type="color" value="#2563eb"></label>
</form></details>
<script>${PREVIEW_SCRIPT}</script>`;

/** One demo event type as the demo page offers it. */
export interface DemoEventType {
  title: string;
  /** Publishable token the page may carry. */
  token: string;
  slug: string | null;
}

/**
 * The demo page `npm start` serves at `/`: the organizer's bookable event types with a booking page as tabs, the chosen one in
 * a `<booking-calendar>`. With the Stripe stand-in it says on screen that payments are test payments
 * (the element loads the Stripe.js stand-in the configuration names).
 */
export function demoPage(eventTypes: DemoEventType[], chosen: number, options: CalendarScriptOptions & { stripeStandin: boolean }): string {
  const current = eventTypes[chosen];
  const tabs = eventTypes.map((et, i) => `<li><a href="/?event=${i}"${i === chosen ? ' aria-current="page"' : ""}>${escapeHtml(et.title)}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Booking calendar demo</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f1f5f9; color: #0f172a; }
  main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
  nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.5rem; padding: 0; margin: 1rem 0; }
  nav a { display: inline-block; padding: 0.4rem 0.8rem; border-radius: 999px; border: 1px solid #94a3b8; color: inherit; text-decoration: none; background: #fff; }
  nav a[aria-current="page"] { background: #1e3a8a; border-color: #1e3a8a; color: #fff; }
  .note { background: #fef3c7; color: #713f12; border-radius: 8px; padding: 0.6rem 0.9rem; }
  footer { margin-top: 2rem; font-size: 0.9rem; }
  details.preview { margin: 0 0 1rem; }
  details.preview form { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; margin-top: 0.5rem; }
  details.preview label { display: grid; gap: 0.25rem; font-size: 0.9rem; }
</style>
${calendarScripts(options)}
</head>
<body>
<main>
<h1>Booking calendar demo</h1>
<p>Book one of the demo organizer's event types as a visitor would. The same element goes on any page with one script tag.</p>
${options.stripeStandin ? '<p class="note" role="note"><strong>Test payments:</strong> card payments on this demo go to a local Stripe stand-in; no money moves. Card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.</p>\n' : ""}<nav aria-label="Demo event types"><ul>${tabs}</ul></nav>
${PREVIEW_CONTROLS}
${current ? `<booking-calendar token="${escapeHtml(current.token)}"></booking-calendar>` : "<p>No event types with a booking page yet: create one with a <code>slug</code> through the admin API.</p>"}
<footer><a href="/docs">API reference</a></footer>
</main>
</body>
</html>
`;
}
