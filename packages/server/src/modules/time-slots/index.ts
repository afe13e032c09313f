import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { ok } from "../../http/envelope.ts";
import { FirstFreeQueryShape, TimeSlotsQueryShape } from "./model.ts";
import type { TimeSlotService } from "./service.ts";

/** `GET /time-slots` and `GET /time-slots/first-free`. */
export const timeSlotRoutes = (ctx: AppContext, slots: TimeSlotService) =>
  new Elysia().use(requireEventType(ctx.store)).get(
    "/time-slots",
    async ({ eventType, query, request, set }) => {
      const page = await slots.page(eventType, query, ctx.clock.now());
      return page.send(set, request.headers.get("accept-encoding"));
    },
    { query: TimeSlotsQueryShape },
  ).get(
    "/time-slots/first-free",
    async ({ eventType, query }) => ok({ date: await slots.firstFreeDay(eventType, query, ctx.clock.now()) }),
    { query: FirstFreeQueryShape },
  );
