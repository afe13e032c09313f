import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { done, ok } from "../../http/envelope.ts";
import { idempotent } from "../../http/idempotency.ts";
import type { PaymentService } from "../payments/service.ts";
import { CancelInput, CancelQuery, ConfirmInput, PaymentInput, RescheduleInput, ReservationInput, ReservationParams } from "./model.ts";
import { resultOf, type ReservationService } from "./service.ts";
import { manageUrlOf, publicOrigin } from "../../lib/links.ts";
import type { EventTypeRecord } from "../../store/types.ts";

/** The reservation routes of the public API (spec 4.2-4.8). */
export const reservationRoutes = (ctx: AppContext, reservations: ReservationService, payments: PaymentService) => {
  const origin = (request: Request) => ({ origin: publicOrigin(ctx.config, request.url) });
  const recover = (eventType: Pick<EventTypeRecord, "id" | "slug" | "hosts">, request: Request) => async (uuid: string) => {
    const r = await ctx.store.reservations.byUuid(eventType.id, uuid);
    if (!r) throw new Error(`idempotent request booked ${uuid}, which is gone`);
    return ok(resultOf(r, manageUrlOf(origin(request).origin, eventType.slug, r.uuid), r.status === "confirmed", eventType.hosts));
  };
  return new Elysia()
    .use(requireEventType(ctx.store))
    .post(
      "/reservations",
      ({ eventType, body, request, set }) =>
        idempotent(
          ctx.store, eventType.id, request, body, set, ctx.clock.now(),
          async (key) => ok(await reservations.book(eventType, body, "confirm", { ...origin(request), ...(key ? { idempotencyKey: key } : {}) })),
          recover(eventType, request),
        ),
      { body: ReservationInput },
    )
    .post(
      "/reservations/prepare",
      ({ eventType, body, request, set }) =>
        idempotent(
          ctx.store, eventType.id, request, body, set, ctx.clock.now(),
          async (key) => ok(await reservations.book(eventType, body, "hold", { ...origin(request), ...(key ? { idempotencyKey: key } : {}) })),
          recover(eventType, request),
        ),
      { body: ReservationInput },
    )
    .put("/reservations/:reservationUuid", async ({ eventType, params, body, request }) => ok(await reservations.reschedule(eventType, params.reservationUuid, body, origin(request))), {
      params: ReservationParams,
      body: RescheduleInput,
    })
    .delete(
      "/reservations/:reservationUuid",
      async ({ eventType, params, query, body, request }) =>
        done(await reservations.cancel(eventType, params.reservationUuid, request.headers.get("booking-override-token") ?? query.overrideToken, { ...origin(request), reason: body.reason })),
      {
        params: ReservationParams,
        query: CancelQuery,
        // The body is optional (the spec's cancel has none): an empty one reads as {}.
        transform(context) {
          context.body ??= {};
        },
        body: CancelInput,
      },
    )
    .post(
      "/reservations/:reservationUuid/confirm",
      ({ eventType, params, body, request, set }) =>
        idempotent(ctx.store, eventType.id, request, body, set, ctx.clock.now(), async () => ok(await reservations.confirm(eventType, params.reservationUuid, body, origin(request)))),
      {
        params: ReservationParams,
        // The body is optional: an empty one reads as {}.
        transform(context) {
          context.body ??= {};
        },
        body: ConfirmInput,
      },
    )
    .post(
      "/reservations/:reservationUuid/refresh",
      ({ eventType, params, body, request, set }) =>
        idempotent(ctx.store, eventType.id, request, body, set, ctx.clock.now(), async () => {
          await reservations.refresh(eventType, params.reservationUuid, origin(request).origin);
          return ok([] as never[]);
        }),
      { params: ReservationParams },
    )
    .post(
      "/reservations/:reservationUuid/payments",
      ({ eventType, params, body, request, set }) =>
        idempotent(ctx.store, eventType.id, request, body, set, ctx.clock.now(), async () => {
          const reservation = await reservations.find(eventType, params.reservationUuid);
          return ok(await payments.createIntent(eventType, reservation, body, origin(request).origin));
        }),
      { params: ReservationParams, body: PaymentInput },
    );
};
