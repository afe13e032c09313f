import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { DeliveryView, WebhookDeliveryView } from "@booking/wire";
import { answers, Done, envelope } from "../../http/answers.ts";
import { done, ok } from "../../http/envelope.ts";
import { DeliveryId, EventTypeId } from "../../http/path-params.ts";
import { adminDoc } from "../../http/route-doc.ts";
import type { AdminGuard } from "../admin/guard.ts";
import { DeliveriesQuery } from "./model.ts";
import type { DeliveryAdmin } from "./service.ts";

/**
 * What the organizer sees of the outbox under `/admin`: an event type's recent deliveries of every
 * channel (webhooks, emails, reminders, calendar writes) with their attempts, and a retry now.
 * Behind the admin guard; the organizer only.
 */
export const deliveryOrganizerRoutes = (guard: AdminGuard, deliveries: DeliveryAdmin) => {
  return new Elysia()
    .use(guard)
    .get("/event-types/:id/webhook-deliveries", async ({ params, query }) => ok(await deliveries.webhookDeliveries(params.id, query.limit ?? 50)), {
      params: Type.Object({ id: EventTypeId }),
      query: DeliveriesQuery,
      response: answers(envelope(Type.Array(WebhookDeliveryView)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListWebhookDeliveries",
        summary: "List recent webhook events",
        description: "The event type's latest webhook events (newest first, `limit` 1-500, default 50) with their delivery state and every attempt.",
      }),
    })
    .get("/event-types/:id/deliveries", async ({ params, query }) => ok(await deliveries.deliveries(params.id, query.limit ?? 50)), {
      params: Type.Object({ id: EventTypeId }),
      query: DeliveriesQuery,
      response: answers(envelope(Type.Array(DeliveryView)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListDeliveries",
        summary: "List recent deliveries of every channel",
        description:
          "The event type's latest outbox events of every channel (`channel`: `webhook`, `email`, `caldav` or `reminder`; an email's `url` is `mailto:` its recipient), newest first (`limit` 1-500, default 50), with their attempts.",
      }),
    })
    .post(
      "/event-types/:id/deliveries/:deliveryId/retry",
      async ({ params }) => {
        await deliveries.retryDelivery(params.id, params.deliveryId);
        return done("The delivery is due now; the next pass of its worker tries it.");
      },
      {
        params: Type.Object({ id: EventTypeId, deliveryId: DeliveryId }),
        response: answers(Done, [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminRetryDelivery",
          summary: "Try a delivery again now",
          description:
            "Makes a failed or waiting delivery due now: the next pass of its worker tries it. 404 for one delivered, being sent, or a reminder withdrawn.",
        }),
      },
    );
};
