import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers } from "../../http/answers.ts";
import { pageDoc } from "../../http/route-doc.ts";
import type { ServerConfig } from "../../config.ts";
import { publicOrigin } from "../../lib/links.ts";
import type { PaymentService } from "./service.ts";

/** Where Stripe sends its events; the body stays raw text so its signature can be verified. */
export const STRIPE_WEBHOOK_PATH = "/webhooks/stripe";

/** `POST /webhooks/stripe`: Stripe's events about payments, verified by signature (not part of the public API). */
export const stripeWebhookRoutes = (payments: PaymentService, config: ServerConfig) =>
  new Elysia().post(
    STRIPE_WEBHOOK_PATH,
    async ({ body, request }) => {
      // The origin of the manage link in an organizer's webhook that a payment causes (a refund's cancellation).
      const outcome = await payments.receiveWebhook(
        typeof body === "string" ? body : "",
        request.headers.get("stripe-signature"),
        publicOrigin(config, request.url),
      );
      return { received: true, outcome };
    },
    {
      response: answers(Type.Object({ received: Type.Boolean() }, { additionalProperties: true }), [404]),
      detail: pageDoc({
        operationId: "stripeWebhook",
        summary: "Stripe's events",
        description:
          "Where Stripe sends payment events, checked by their `Stripe-Signature`; a payment that succeeded confirms its held reservation, one whose seat is gone is refunded.",
      }),
    },
  );
