import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { TimeSlotsQueryShape } from "./model.ts";
import type { TimeSlotService } from "./service.ts";

/** `GET /time-slots`. */
export const timeSlotRoutes = (ctx: AppContext, slots: TimeSlotService) =>
  new Elysia().use(requireEventType(ctx.store)).get(
    "/time-slots",
    async ({ eventType, query, request, set }) => {
      const page = await slots.page(eventType, query, ctx.clock.now());
      return page.send(set, request.headers.get("accept-encoding"));
    },
    { query: TimeSlotsQueryShape },
  );
