import { Elysia } from "elysia";
import { answers } from "../../http/answers.ts";
import { publicDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { ok } from "../../http/envelope.ts";
import { ConfigurationResponse, InitBody, InitResponse } from "./model.ts";
import type { EventTypeService } from "./service.ts";
import { publicOrigin } from "../../lib/links.ts";

/** `GET /configuration` (enabled event types only). */
export const configurationRoutes = (ctx: AppContext, eventTypes: EventTypeService) =>
  new Elysia()
    .use(requireEventType(ctx.store))
    .get("/configuration", async ({ eventType, request }) =>
      ok({ configuration: await eventTypes.configuration(eventType, ctx.clock.now(), publicOrigin(ctx.config, request.url)) }), {
      response: answers(ConfigurationResponse, [401, 403]),
      detail: publicDoc({
        operationId: "getEventTypeConfiguration",
        summary: "Read the booking calendar configuration",
        description: "The configuration of the event type that owns the token: bookable day range, locale, theme, and the event type's public settings. `emailConfirmation` says whether the visitor will be emailed a confirmation with a calendar invite (the server has SMTP configured), so a success screen promises an email only when one is sent.",
      }),
    });

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
      response: answers(InitResponse, [401, 404, 422]),
      detail: publicDoc({
        optionalBody: true,
        operationId: "initEventType",
        summary: "Start the booking calendar",
        description: "Everything the calendar needs to start: configuration, custom fields, and with `reservationUuid` the reservation being rescheduled. Also answers for a disabled event type, with `disabled: true`.",
      }),
    });
