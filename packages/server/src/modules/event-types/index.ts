import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { ok } from "../../http/envelope.ts";
import { InitBody } from "./model.ts";
import type { EventTypeService } from "./service.ts";
import { publicOrigin } from "../../lib/links.ts";

/** `GET /configuration` (enabled event types only). */
export const configurationRoutes = (ctx: AppContext, eventTypes: EventTypeService) =>
  new Elysia()
    .use(requireEventType(ctx.store))
    .get("/configuration", async ({ eventType, request }) =>
      ok({ configuration: await eventTypes.configuration(eventType, ctx.clock.now(), publicOrigin(ctx.config, request.url)) }),
    );

/** `POST /event-types/init`, which also answers for disabled event types. */
export const initRoutes = (ctx: AppContext, eventTypes: EventTypeService) =>
  new Elysia()
    .use(requireEventType(ctx.store, { allowDisabled: true }))
    .post("/event-types/init", async ({ eventType, body, request }) => ok(await eventTypes.init(eventType, body.reservationUuid, ctx.clock.now(), publicOrigin(ctx.config, request.url))), {
      // The body is optional: an empty one reads as {}.
      transform(context) {
        context.body ??= {};
      },
      body: InitBody,
    });
