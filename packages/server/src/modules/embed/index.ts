import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import type { Store } from "../../store/types.ts";
import { ApiError } from "../../http/errors.ts";
import { pageSecurityHeaders, type PagePolicyOptions } from "../../http/page-policy.ts";
import { publicOrigin } from "../../lib/links.ts";
import { demoPage, PREVIEW_SCRIPT, type DemoEventType } from "./page.ts";
import { loadCalendarScript, loadCatalogFile, loadStripeStandinScript, type StaticScript } from "./service.ts";

// Revalidated after five minutes: the URL carries no version, and a new release should reach pages soon.
const CACHE_CONTROL = "public, max-age=300";

/** Answers a script, or 304 when the browser already holds this version. */
function serve(script: StaticScript, request: Request, set: { headers: Record<string, string | number>; status?: number | string }) {
  set.headers.etag = script.etag;
  set.headers["cache-control"] = CACHE_CONTROL;
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
export const usesStripeStandin = (ctx: AppContext): boolean => ctx.config.environment !== "production" && ctx.config.stripe.apiBase !== null;

/**
 * The organizer's event types as the demo page offers them, with the publishable link token each
 * page may carry. A disabled one is left out: the organizer took it off, and its token with it.
 */
async function demoEventTypes(store: Store): Promise<DemoEventType[]> {
  return (await store.eventTypes.list()).filter((et) => !et.disabled).map((et) => ({ title: et.settings.title, token: et.linkToken, slug: et.slug }));
}

/**
 * The script-tag file of `<booking-calendar>` at `/embed/booking-calendar.js` and its texts in the
 * languages other than English at `/embed/locales/<language>.json` (open to every origin, like the
 * public API, and cached like the script), and outside production the demo page at `/` with the Stripe.js
 * stand-in it needs when payments go to the local Stripe stand-in.
 */
export const embedRoutes = (ctx: AppContext, calendarScriptPath?: string) => {
  let calendar: StaticScript | null = null;
  const stripeStandin = usesStripeStandin(ctx);
  const standinScript = stripeStandin ? loadStripeStandinScript(ctx.config.stripe.apiBase!) : null;
  const catalogs = new Map<string, StaticScript>();
  const app = new Elysia()
    .get("/embed/booking-calendar.js", ({ request, set }) => {
      calendar ??= loadCalendarScript(calendarScriptPath);
      if (!calendar) throw new ApiError("not_found", "The calendar script is not built yet: run `npm run build -w @booking/calendar` (npm start does it).");
      return serve(calendar, request, set);
    })
    .get("/embed/locales/:file", ({ params, request, set }) => {
      const catalog = catalogs.get(params.file) ?? loadCatalogFile(params.file, calendarScriptPath);
      if (!catalog) throw new ApiError("not_found", `The calendar has no texts at /embed/locales/${params.file.slice(0, 40)}.`);
      catalogs.set(params.file, catalog);
      return serve(catalog, request, set);
    });
  if (ctx.config.environment === "production") return app;
  return app
    .get("/embed/stripe-standin.js", ({ request, set }) => {
      if (!standinScript) throw new ApiError("not_found", "Payments go to Stripe itself here; there is no Stripe.js stand-in.");
      return serve(standinScript, request, set);
    })
    .get("/", async ({ query, request }) => {
      const eventTypes = await demoEventTypes(ctx.store);
      const chosen = Math.min(Math.max(0, Number.parseInt(String(query.event ?? "0"), 10) || 0), Math.max(0, eventTypes.length - 1));
      const headers = { "content-type": "text/html;charset=utf-8", ...pageSecurityHeaders(pagePolicyOf(ctx, publicOrigin(ctx.config, request.url), [PREVIEW_SCRIPT])) };
      return new Response(demoPage(eventTypes, chosen, { stripeStandin, devCalendarUrl: ctx.config.devCalendarUrl }), { headers });
    });
};
