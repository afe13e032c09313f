import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers, text } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { manageActionOf, publicOrigin, searchParamsOf } from "../../lib/links.ts";
import { BookingPageService } from "./service.ts";
import { pagePolicyOf } from "../embed/index.ts";
import { pageSecurityHeaders } from "../../http/page-policy.ts";
import { PageSlug } from "../../http/path-params.ts";
import { calendarScripts } from "../embed/page.ts";
import type { CalendarScriptFile } from "../embed/service.ts";

/**
 * `GET /book/{slug}`: the event type's shareable booking page, HTML for people (an unknown slug is
 * an HTML 404 page, not the API's JSON). `?reservation={uuid}` opens the visitor's reschedule and
 * cancel view (`&action=cancel` with the question to cancel open, `&action=reschedule` at the new
 * times); such a personal link is kept out of search engines and referrers.
 */
export const bookingPageRoutes = (ctx: AppContext, calendar: CalendarScriptFile) => {
  // Asked per page: the script may be built after the server started.
  const pages = new BookingPageService(ctx.store, () => calendarScripts({ calendarPath: calendar.pagePath(), devCalendarUrl: ctx.config.devCalendarUrl }));
  const serve = async (slug: string, request: Request) => {
    // Read by hand: a human page never answers a malformed query with a JSON 422.
    const query = searchParamsOf(request.url);
    const origin = publicOrigin(ctx.config, request.url);
    const page = await pages.render(slug, query.get("reservation"), origin, request.headers.get("accept-language"), manageActionOf(query.get("action")));
    // The heading is in the visitor's language where the organizer wrote one.
    const headers: Record<string, string> = {
      "content-type": "text/html; charset=utf-8",
      "referrer-policy": "no-referrer",
      vary: "Accept-Language",
      ...pageSecurityHeaders(pagePolicyOf(ctx, origin)),
    };
    if (page.private) headers["x-robots-tag"] = "noindex";
    return new Response(page.html, { status: page.found ? 200 : 404, headers });
  };
  return (
    new Elysia()
      .get("/book/:slug", ({ params, request }) => serve(params.slug, request), {
        params: Type.Object({ slug: PageSlug }),
        response: answers(text("HTML page.", "text/html"), [], { 404: text("HTML page saying the booking page does not exist.", "text/html") }),
        detail: pageDoc({
          operationId: "bookingPage",
          summary: "An event type's booking page",
          description: "The shareable HTML page of the event type with this slug, with the calendar on it; an unknown slug is a 404 page (HTML).",
        }),
      })
      // A link cut short still reaches a person as a page.
      .get("/book", ({ request }) => serve("", request), {
        response: answers(text("HTML page.", "text/html"), [], { 404: text("HTML page.", "text/html") }),
        detail: pageDoc({
          operationId: "bookingPageWithoutSlug",
          summary: "A booking page address cut short",
          description: "A 404 page (HTML) that says which booking pages exist: a link cut short still reaches a person as a page.",
        }),
      })
  );
};
