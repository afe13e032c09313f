import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers, text } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import type { Store } from "../../store/store.ts";
import { ApiError } from "../../http/errors.ts";
import { pageSecurityHeaders, type PagePolicyOptions } from "../../http/page-policy.ts";
import { BuildVersion, LocaleFile, PartFile } from "../../http/path-params.ts";
import { CALENDAR_PATH, publicOrigin } from "../../lib/links.ts";
import { STRIPE_JS_STANDIN_PATH, usesStripeStandin as standinInUse } from "../../lib/stripe-js.ts";
import { demoPage, PREVIEW_SCRIPT, type DemoEventType } from "./page.ts";
import {
  type CalendarScriptFile,
  FAVICON_PATH,
  favicon,
  loadCatalogFile,
  loadPartFile,
  loadStripeStandinScript,
  versionedCalendarPath,
  type StaticScript,
} from "./service.ts";

// Revalidated after five minutes: the URL carries no version, and a new release should reach pages soon.
const SHORT_CACHE = "public, max-age=300";
// A versioned URL always answers the same bytes: browsers and CDNs keep it for a year without asking again.
const IMMUTABLE = "public, max-age=31536000, immutable";
const FAVICON_CACHE = "public, max-age=86400";

type HeaderSet = { headers: Record<string, string | number>; status?: number | string };

/** Answers a file, or 304 when the browser already holds this version. */
function serve(script: StaticScript, request: Request, set: HeaderSet, cacheControl = SHORT_CACHE) {
  set.headers.etag = script.etag;
  set.headers["cache-control"] = cacheControl;
  if (request.headers.get("if-none-match") === script.etag) {
    set.status = 304;
    return "";
  }
  return script.body.send(set, request.headers.get("accept-encoding"));
}

/** What the server's pages that show the element load, for their Content-Security-Policy. */
export function pagePolicyOf(ctx: AppContext, apiOrigin: string, inlineScripts: readonly string[] = []): PagePolicyOptions {
  return { apiOrigin, stripeStandinUrl: usesStripeStandin(ctx) ? ctx.config.stripe.apiBase : null, devCalendarUrl: ctx.config.devCalendarUrl, inlineScripts };
}

/** Whether pages should load the Stripe.js stand-in: outside production, when the SDK talks to a stand-in. */
export const usesStripeStandin = (ctx: AppContext): boolean => standinInUse(ctx.config);

/**
 * The organizer's event types as the demo page offers them, with the publishable link token each
 * page may carry: only those with a booking page, whose token that page publishes anyway. One
 * without a page is booked through the API alone, and its link token is published nowhere; a
 * disabled one is left out: the organizer took it off, and its token with it.
 */
async function demoEventTypes(store: Store): Promise<DemoEventType[]> {
  return (await store.eventTypes.list())
    .filter((et) => !et.disabled && et.slug !== null)
    .map((et) => ({ title: et.settings.title, token: et.linkToken, slug: et.slug }));
}

/**
 * The script-tag file of `<booking-calendar>` (open to every origin, like the public API): at
 * `/embed/v/{version}/booking-calendar.js`, immutable, which the server's pages and the docs use,
 * and at the plain `/embed/booking-calendar.js` for sites that embedded it before, revalidated after
 * five minutes. An older version's URL leads to the current one. Its texts in the languages other than
 * English at `locales/<language>.json` beside either URL (the script fetches them from beside itself), and
 * likewise the parts of its code it fetches on first need at `parts/<name>.js` (the popup, the payment step).
 * The server pages' icon at `/favicon.svg`. Outside production, the demo page at `/` and the Stripe.js
 * stand-in the element loads when payments go to the local Stripe stand-in.
 */
export const embedRoutes = (ctx: AppContext, calendar: CalendarScriptFile) => {
  const stripeStandin = usesStripeStandin(ctx);
  const standinScript = stripeStandin ? loadStripeStandinScript(ctx.config.stripe.apiBase!) : null;
  const icon = favicon();
  const catalogs = new Map<string, StaticScript>();
  const built = () => {
    const script = calendar.get();
    if (!script) throw new ApiError("not_found", "The calendar script is not built yet: run `npm run build -w @booking/calendar` (npm start does it).");
    return script;
  };
  const catalog = (file: string) => {
    const found = catalogs.get(file) ?? loadCatalogFile(file, calendar.path);
    if (!found) throw new ApiError("not_found", `The calendar has no texts at locales/${file.slice(0, 40)}.`);
    catalogs.set(file, found);
    return found;
  };
  const parts = new Map<string, StaticScript>();
  const part = (file: string) => {
    const found = parts.get(file) ?? loadPartFile(file, calendar.path);
    if (!found) throw new ApiError("not_found", `The calendar has no code at parts/${file.slice(0, 40)}.`);
    parts.set(file, found);
    return found;
  };
  const app = new Elysia()
    .get(CALENDAR_PATH, ({ request, set }) => serve(built(), request, set), {
      response: answers(text("JavaScript.", "text/javascript"), [404], { 304: text("Not modified.", "text/javascript") }),
      detail: pageDoc({
        operationId: "calendarScript",
        summary: "The calendar's script-tag file",
        description: "The `<booking-calendar>` element for a script tag, revalidated after five minutes (ETag).",
      }),
    })
    .get("/embed/locales/:file", ({ params, request, set }) => serve(catalog(params.file), request, set), {
      params: Type.Object({ file: LocaleFile }),
      response: answers(Type.Object({}, { additionalProperties: true }), [404], { 304: Type.Object({}, { additionalProperties: true }) }),
      detail: pageDoc({
        operationId: "calendarTexts",
        summary: "The calendar's texts in one language",
        description: "`{language}.json`: fetched by the script on first need.",
      }),
    })
    .get("/embed/parts/:file", ({ params, request, set }) => serve(part(params.file), request, set), {
      params: Type.Object({ file: PartFile }),
      response: answers(text("JavaScript.", "text/javascript"), [404], { 304: text("Not modified.", "text/javascript") }),
      detail: pageDoc({
        operationId: "calendarPart",
        summary: "A part of the calendar's code",
        description: "`popup.js`, `payment.js` or `manage.js`: fetched by the script on first need.",
      }),
    })
    .get(
      "/embed/v/:version/booking-calendar.js",
      ({ params, request, set }) => {
        const script = built();
        if (params.version === script.version) return serve(script, request, set, IMMUTABLE);
        if (!/^[0-9a-f]{16}$/.test(params.version))
          throw new ApiError("not_found", "No such version of the calendar script; the current one is linked from /embed/booking-calendar.js.");
        // A page that still names an earlier release gets the current one, which it can run as well.
        set.headers["cache-control"] = SHORT_CACHE;
        set.headers.location = versionedCalendarPath(script.version);
        set.status = 302;
        return "";
      },
      {
        params: Type.Object({ version: BuildVersion }),
        response: answers(text("JavaScript.", "text/javascript"), [404], {
          302: text("No body: `Location` names the current version.", "text/plain"),
          304: text("Not modified.", "text/javascript"),
        }),
        detail: pageDoc({
          operationId: "calendarScriptVersioned",
          summary: "The calendar's script-tag file of one build",
          description: "Immutable and kept for a year under the current build's version; an earlier version's URL redirects (302) to the current one.",
        }),
      },
    )
    // Texts beside a versioned script come from the same build: kept as long as the script is.
    .get(
      "/embed/v/:version/locales/:file",
      ({ params, request, set }) => serve(catalog(params.file), request, set, params.version === built().version ? IMMUTABLE : SHORT_CACHE),
      {
        params: Type.Object({ version: BuildVersion, file: LocaleFile }),
        response: answers(Type.Object({}, { additionalProperties: true }), [404], { 304: Type.Object({}, { additionalProperties: true }) }),
        detail: pageDoc({
          operationId: "calendarTextsVersioned",
          summary: "The calendar's texts of one build",
          description: "As `/embed/locales/{file}`, kept as long as the script of the same version.",
        }),
      },
    )
    // So is the code beside it: a page running that script gets the parts of the same build.
    .get(
      "/embed/v/:version/parts/:file",
      ({ params, request, set }) => serve(part(params.file), request, set, params.version === built().version ? IMMUTABLE : SHORT_CACHE),
      {
        params: Type.Object({ version: BuildVersion, file: PartFile }),
        response: answers(text("JavaScript.", "text/javascript"), [404], { 304: text("Not modified.", "text/javascript") }),
        detail: pageDoc({
          operationId: "calendarPartVersioned",
          summary: "A part of the calendar's code of one build",
          description: "As `/embed/parts/{file}`, kept as long as the script of the same version.",
        }),
      },
    )
    .get(FAVICON_PATH, ({ request, set }) => serve(icon, request, set, FAVICON_CACHE), {
      response: answers(text("SVG image.", "image/svg+xml"), [], { 304: text("Not modified.", "image/svg+xml") }),
      detail: pageDoc({
        operationId: "favicon",
        summary: "The site icon",
        description: "The icon of the booking and demo pages.",
      }),
    });
  if (ctx.config.environment === "production") return app;
  return app
    .get(
      STRIPE_JS_STANDIN_PATH,
      ({ request, set }) => {
        if (!standinScript) throw new ApiError("not_found", "Payments go to Stripe itself here; there is no Stripe.js stand-in.");
        return serve(standinScript, request, set);
      },
      {
        response: answers(text("JavaScript.", "text/javascript"), [404], { 304: text("Not modified.", "text/javascript") }),
        detail: pageDoc({
          operationId: "stripeJsStandin",
          summary: "The Stripe.js stand-in",
          description: "Outside production, the stand-in for Stripe.js that talks to the local Stripe stand-in.",
        }),
      },
    )
    .get(
      "/",
      async ({ query, request }) => {
        const eventTypes = await demoEventTypes(ctx.store);
        const chosen = Math.min(Math.max(0, Number.parseInt(String(query.event ?? "0"), 10) || 0), Math.max(0, eventTypes.length - 1));
        const headers = {
          "content-type": "text/html;charset=utf-8",
          ...pageSecurityHeaders(pagePolicyOf(ctx, publicOrigin(ctx.config, request.url), [PREVIEW_SCRIPT])),
        };
        return new Response(demoPage(eventTypes, chosen, { stripeStandin, calendarPath: calendar.pagePath(), devCalendarUrl: ctx.config.devCalendarUrl }), {
          headers,
        });
      },
      {
        response: answers(text("HTML page.", "text/html"), []),
        detail: pageDoc({
          operationId: "demoPage",
          summary: "The demo page",
          description: "Outside production, a page with the calendar of each event type (`?event=` picks one).",
        }),
      },
    );
};
