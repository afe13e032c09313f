import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers, text } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { ApiError } from "../../http/errors.ts";
import { FeedFile } from "../../http/path-params.ts";
import { BookingFeedService, matchesEtag } from "./service.ts";

/**
 * `GET /feeds/{feedToken}.ics`: a private iCalendar feed of confirmed bookings, subscribed to in a
 * calendar app: an event type's (the organizer's) or a host's (their own bookings). The secret in
 * the path is the only credential; an unknown one is the API's JSON 404. Answers carry an ETag, and a request naming it
 * in If-None-Match gets 304 without the text.
 */
export const feedRoutes = (ctx: AppContext) => {
  const feeds = new BookingFeedService(ctx.store, () => ctx.clock.now(), ctx.config.mail.from);
  return new Elysia().get(
    "/feeds/:file",
    async ({ params, request, set }) => {
      const file = params.file;
      const feed = file.endsWith(".ics") ? await feeds.feed(file.slice(0, -".ics".length)) : null;
      if (!feed) throw new ApiError("not_found", "No booking feed at this address; a new one may have been issued for it.");
      set.headers.etag = feed.etag;
      // Kept by the calendar app only, and asked again each time: the ETag makes that cheap.
      set.headers["cache-control"] = "private, no-cache";
      set.headers["referrer-policy"] = "no-referrer";
      set.headers["x-robots-tag"] = "noindex";
      if (matchesEtag(request.headers.get("if-none-match"), feed.etag)) {
        set.status = 304;
        return "";
      }
      set.headers["content-type"] = "text/calendar; charset=utf-8";
      set.headers["content-disposition"] = 'inline; filename="bookings.ics"';
      return feed.body;
    },
    {
      params: Type.Object({ file: FeedFile }),
      response: answers(text("iCalendar.", "text/calendar"), [404], { 304: text("Not modified.", "text/calendar") }),
      detail: pageDoc({
        operationId: "getBookingFeed",
        summary: "A private booking feed",
        description:
          "The iCalendar feed of an event type's or a host's confirmed bookings at its secret address (`feedUrl` in the admin API), with an ETag: a request that names it in If-None-Match gets 304 without the text. An unknown or replaced address is 404.",
      }),
    },
  );
};
