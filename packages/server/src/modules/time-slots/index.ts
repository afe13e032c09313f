import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { ok } from "../../http/envelope.ts";
import { answers } from "../../http/answers.ts";
import { publicDoc } from "../../http/route-doc.ts";
import { LIMITS } from "@booking/wire";
import { FirstFreeQueryShape, FirstFreeResponse, SeriesQueryShape, SeriesSlotsResponse, TimeSlotsQueryShape, TimeSlotsResponse } from "./model.ts";
import { seriesSlots } from "./series.ts";
import { MAX_SLOTS_PER_ANSWER, type TimeSlotService } from "./service.ts";

/** `GET /time-slots` and `GET /time-slots/first-free`. */
export const timeSlotRoutes = (ctx: AppContext, slots: TimeSlotService) =>
  new Elysia()
    .use(requireEventType(ctx.store))
    .get(
      "/time-slots",
      async ({ eventType, query, request, set }) => {
        const page = await slots.page(eventType, query, ctx.clock.now());
        return page.send(set, request.headers.get("accept-encoding"));
      },
      {
        query: TimeSlotsQueryShape,
        response: answers(TimeSlotsResponse, [401, 403, 422]),
        detail: publicDoc({
          operationId: "listTimeSlots",
          summary: "List bookable time slots",
          description: `Slots whose start lies between the start of \`from\` and the end of \`until\`, read as whole days in \`timezone\` (default: the event type's zone). At most ${LIMITS.maxSlotRangeDays} days per request. \`start\`/\`end\` carry the offset of that zone; the \`*Iso8601\` fields are UTC. Only slots with at least one free seat are listed. An answer lists at most ${MAX_SLOTS_PER_ANSWER} slots, in whole days: a range holding more (only calendars with a slot every few minutes around the clock) ends early, and \`nextFrom\` names the day to ask from next.`,
        }),
      },
    )
    .get("/time-slots/first-free", async ({ eventType, query }) => ok({ date: await slots.firstFreeDay(eventType, query, ctx.clock.now()) }), {
      query: FirstFreeQueryShape,
      response: answers(FirstFreeResponse, [401, 403, 422]),
      detail: publicDoc({
        operationId: "findFirstFreeDay",
        summary: "Find the first day with a free slot",
        description:
          "The first day on or after `from`, read in `timezone` (default: the event type's zone), that holds a slot with a free seat within the booking horizon; `date` is null when there is none. The calendar offers it when the month shown has no free time. An addition to the spec.",
      }),
    })
    .get("/time-slots/series", async ({ eventType, query }) => ok(await seriesSlots(slots, eventType, query, ctx.clock.now())), {
      query: SeriesQueryShape,
      response: answers(SeriesSlotsResponse, [401, 403, 422]),
      detail: publicDoc({
        operationId: "listSeriesOccurrences",
        summary: "Which occurrences of a series are free",
        description:
          "For an event type whose `recurrence` allows series: the `count` occurrences a series starting at `start` (ISO 8601 with offset) would have, every week (`interval=weekly`) or two (`biweekly`) at the same wall-clock time in the event type's zone (across DST changes), each with `available`: offered now with a free seat, as GET /time-slots would list it. Booking the series (POST /reservations with `recurrence`) succeeds only when every occurrence is available. 422 when the event type takes no series, or for an interval or count it does not allow. An addition to the spec.",
      }),
    });
