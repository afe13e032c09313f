import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { CreatedEventType, EventTypeView, IssuedTokens, RotatedFeedToken, RotatedWebhookSecret } from "@booking/wire";
import { answers, Done, envelope } from "../../http/answers.ts";
import { adminDoc, publicDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { done, ok } from "../../http/envelope.ts";
import { EventTypeId } from "../../http/path-params.ts";
import { ConfigurationResponse, EventTypeCreate, EventTypePatch, InitBody, InitResponse, RegenerateTokenBody } from "./model.ts";
import type { EventTypeService } from "./service.ts";
import type { EventTypeAdmin } from "./organizer.ts";
import type { AdminGuard } from "../admin/guard.ts";
import { feedAddressed } from "../feeds/service.ts";
import { publicOrigin } from "../../lib/links.ts";

/** `GET /configuration` (enabled event types only). */
export const configurationRoutes = (ctx: AppContext, eventTypes: EventTypeService) =>
  new Elysia()
    .use(requireEventType(ctx.store))
    .get(
      "/configuration",
      async ({ eventType, request }) =>
        ok({ configuration: await eventTypes.configuration(eventType, ctx.clock.now(), publicOrigin(ctx.config, request.url)) }),
      {
        response: answers(ConfigurationResponse, [401, 403]),
        detail: publicDoc({
          operationId: "getEventTypeConfiguration",
          summary: "Read the booking calendar configuration",
          description:
            "The configuration of the event type that owns the token: bookable day range, locale, theme, and the event type's public settings. `emailConfirmation` says whether the visitor will be emailed a confirmation with a calendar invite (the server has SMTP configured), so a success screen promises an email only when one is sent.",
        }),
      },
    );

/** `POST /event-types/init`, which also answers for disabled event types. */
export const initRoutes = (ctx: AppContext, eventTypes: EventTypeService) =>
  new Elysia()
    .use(requireEventType(ctx.store, { allowDisabled: true }))
    .post(
      "/event-types/init",
      async ({ eventType, body, request }) =>
        ok(await eventTypes.init(eventType, body.reservationUuid, ctx.clock.now(), publicOrigin(ctx.config, request.url))),
      {
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
          description:
            "Everything the calendar needs to start: configuration, custom fields, and with `reservationUuid` the reservation being rescheduled. Also answers for a disabled event type, with `disabled: true`.",
        }),
      },
    );

/**
 * The organizer's event types under `/admin`: list, create, read, change, delete, stop and resume
 * them, and issue their tokens, webhook signing secret and feed address. Behind the admin guard.
 */
export const eventTypeOrganizerRoutes = (ctx: AppContext, guard: AdminGuard, eventTypes: EventTypeAdmin) => {
  /** An answer that carries a feed token, with the feed's absolute URL beside it. */
  const withFeedUrl = <T extends { feedToken: string }>(request: Request, answer: T) => feedAddressed(publicOrigin(ctx.config, request.url), answer);
  return new Elysia()
    .use(guard)
    .get("/event-types", async ({ request }) => ok((await eventTypes.list()).map((view) => withFeedUrl(request, view))), {
      response: answers(envelope(Type.Array(EventTypeView)), [401, 403]),
      detail: adminDoc({
        operationId: "adminListEventTypes",
        summary: "List event types",
        description:
          "Every event type with its settings and state (never its token hashes or webhook secret), with the address of its private booking feed as `feedUrl`.",
      }),
    })
    .post("/event-types", async ({ body, request }) => ok(withFeedUrl(request, await eventTypes.create(body))), {
      body: EventTypeCreate,
      response: answers(envelope(CreatedEventType), [401, 403, 413, 422]),
      detail: adminDoc({
        operationId: "adminCreateEventType",
        summary: "Create an event type",
        description:
          "Creates an event type from `title` and any of the settings `PATCH /admin/event-types/{id}` takes; without `hosts`, it books the default host's time. The answer carries, this once, the API token (`token`), the override token (`overrideToken`) and the webhook signing secret (`webhookSecret`), besides the link token and the feed address that can be read again.",
      }),
    })
    .get("/event-types/:id", async ({ params, request }) => ok(withFeedUrl(request, await eventTypes.get(params.id))), {
      params: Type.Object({ id: EventTypeId }),
      response: answers(envelope(EventTypeView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminGetEventType",
        summary: "Read an event type",
        description: "Its settings and state, with `slug`, `linkToken`, `feedToken` and `feedUrl`.",
      }),
    })
    .patch("/event-types/:id", async ({ params, body, request }) => ok(withFeedUrl(request, await eventTypes.update(params.id, body))), {
      params: Type.Object({ id: EventTypeId }),
      body: EventTypePatch,
      response: answers(envelope(EventTypeView), [401, 403, 404, 413, 422]),
      detail: adminDoc({
        operationId: "adminUpdateEventType",
        summary: "Change an event type",
        description:
          "Changes any subset of the settings: `theme` and `locale` merge one level deep, other keys replace. Every field that is off is named in the 422. See docs/admin.md for each setting.",
      }),
    })
    .delete(
      "/event-types/:id",
      async ({ params }) => {
        await eventTypes.delete(params.id);
        return done("Event type deleted with its reservations.");
      },
      {
        params: Type.Object({ id: EventTypeId }),
        response: answers(Done, [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminDeleteEventType",
          summary: "Delete an event type",
          description: "Deletes the event type with its reservations; its tokens and feed stop working at once.",
        }),
      },
    )
    .post("/event-types/:id/disable", async ({ params, request }) => ok(withFeedUrl(request, await eventTypes.setDisabled(params.id, true))), {
      params: Type.Object({ id: EventTypeId }),
      response: answers(envelope(EventTypeView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminDisableEventType",
        summary: "Stop bookings of an event type",
        description: "The public API answers 403 `event_type_disabled` for it (init still answers, with `disabled: true`); existing bookings stay.",
      }),
    })
    .post("/event-types/:id/enable", async ({ params, request }) => ok(withFeedUrl(request, await eventTypes.setDisabled(params.id, false))), {
      params: Type.Object({ id: EventTypeId }),
      response: answers(envelope(EventTypeView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminEnableEventType",
        summary: "Resume bookings of an event type",
        description: "Undoes `POST /admin/event-types/{id}/disable`.",
      }),
    })
    .post("/event-types/:id/feed-token", async ({ params, request }) => ok(withFeedUrl(request, await eventTypes.rotateFeedToken(params.id))), {
      params: Type.Object({ id: EventTypeId }),
      response: answers(envelope(RotatedFeedToken), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRotateFeedToken",
        summary: "Give the booking feed a new address",
        description: "A new secret for the event type's private booking feed, answered as `feedToken` and `feedUrl`; the old address stops working at once.",
      }),
    })
    .post("/event-types/:id/token", async ({ params, body }) => ok(await eventTypes.regenerateToken(params.id, body.kind ?? "api")), {
      transform(context) {
        context.body ??= {};
      },
      params: Type.Object({ id: EventTypeId }),
      body: RegenerateTokenBody,
      response: answers(envelope(IssuedTokens), [401, 403, 404, 422]),
      detail: adminDoc({
        optionalBody: true,
        operationId: "adminRegenerateToken",
        summary: "Issue new tokens",
        description:
          'Without a body (or `{"kind": "api"}`), a new API token and link token; with `{"kind": "override"}`, a new override token. The old ones stop working at once; the new ones are answered this once (the link token can be read again).',
      }),
    })
    .post("/event-types/:id/webhook-secret", async ({ params }) => ok(await eventTypes.rotateWebhookSecret(params.id)), {
      params: Type.Object({ id: EventTypeId }),
      response: answers(envelope(RotatedWebhookSecret), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRotateWebhookSecret",
        summary: "Issue a new webhook signing secret",
        description: "Later webhooks are signed with it; it is answered this once and no other answer carries it.",
      }),
    });
};
