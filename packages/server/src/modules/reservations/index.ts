import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers } from "../../http/answers.ts";
import { publicDoc } from "../../http/route-doc.ts";
import type { AppContext } from "../../context.ts";
import { requireEventType } from "../../http/auth.ts";
import { done, ok } from "../../http/envelope.ts";
import { idempotency } from "../../http/idempotency.ts";
import { ReservationUuid } from "../../http/path-params.ts";
import type { PaymentService } from "../payments/service.ts";
import {
  CancelInput,
  CancelQuery,
  CancelResponse,
  ConfirmInput,
  PaymentInput,
  PaymentResponse,
  RefreshResponse,
  RescheduleInput,
  ReservationInput,
  ReservationResponse,
} from "./model.ts";
import type { ReservationService } from "./service.ts";
import type { SeriesService } from "./series.ts";
import { resultOf } from "./result.ts";
import { manageUrlOf, publicOrigin } from "../../lib/links.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";

/** The reservation routes of the public API (spec 4.2-4.8). */
export const reservationRoutes = (ctx: AppContext, reservations: ReservationService, payments: PaymentService, series: SeriesService) => {
  const origin = (request: Request) => ({ origin: publicOrigin(ctx.config, request.url) });
  const recover = (eventType: EventTypeRecord, request: Request) => async (uuid: string) => {
    const r = await ctx.store.reservations.byUuid(eventType.id, uuid);
    if (!r) throw new Error(`idempotent request booked ${uuid}, which is gone`);
    if (r.seriesId) return ok(await series.recovered(eventType, r, origin(request).origin));
    return ok(resultOf(r, manageUrlOf(origin(request).origin, eventType.slug, r.uuid), r.status === "confirmed", eventType.hosts));
  };
  return new Elysia()
    .use(requireEventType(ctx.store))
    .use(idempotency(ctx.store, () => ctx.clock.now()))
    .post(
      "/reservations",
      ({ eventType, body, request, once }) =>
        once(
          async (key) => {
            const options = { ...origin(request), ...(key ? { idempotencyKey: key } : {}) };
            return ok(await (body.recurrence ? series.book(eventType, body, options) : reservations.book(eventType, body, "confirm", options)));
          },
          recover(eventType, request),
        ),
      {
        body: ReservationInput,
        idempotent: true,
        response: answers(ReservationResponse, [401, 403, 409, 413, 422]),
        detail: publicDoc({
          operationId: "createReservation",
          summary: "Book a slot in one step",
          description:
            "Books a slot offered by GET /time-slots and confirms it at once. When the slot is full or not offered the answer is HTTP 200 with `success: false` and code `slot_unavailable`; when a booking limit of the event type or of its host (bookings or minutes per day, week or month) would be passed, `limit_reached`; when another request is writing it at this moment, `slot_locked`. A paid event type answers 422 `payment_required`: prepare, pay, then confirm. The answer carries `meetLink` (video meetings) and `location` (the organizer's address or number, or the link). When the server sends mail, the visitor and each guest get a confirmation with a calendar invite (METHOD:REQUEST; ORGANIZER the event type's organizer, the visitor and guests ATTENDEEs), in the language and clock of `locale` (else the event type's preset language, else English) and times in `timezone`; the event type's organizer email gets a notification with the entry attached as METHOD:PUBLISH (not an invitation). The visitor and guests get a reminder email before the start at each of the event type's `reminderMinutes` (admin API; default a day and an hour before; those already past when booked are left out). With `recurrence` (`{ interval, count }`, where the event type's `recurrence` allows it) it books a series: `count` occurrences, the first at `start`, then every week (`weekly`) or two (`biweekly`) at the same wall-clock time in the event type's zone, all or nothing: when any occurrence is not offered or taken the answer is 409 `series_unavailable` with every such occurrence in `conflicts`, and nothing is booked. Each occurrence is a reservation of its own (moved or cancelled alone by its uuid) carrying `seriesId`; the answer lists them in `occurrences`. The visitor gets one email for the series, with one recurring invite (RRULE, TZID with VTIMEZONE).",
          idempotent: true,
        }),
      },
    )
    .post(
      "/reservations/prepare",
      ({ eventType, body, request, once }) =>
        once(
          async (key) => ok(await reservations.book(eventType, body, "hold", { ...origin(request), ...(key ? { idempotencyKey: key } : {}) })),
          recover(eventType, request),
        ),
      {
        body: ReservationInput,
        idempotent: true,
        response: answers(ReservationResponse, [401, 403, 413, 422]),
        detail: publicDoc({
          operationId: "prepareReservation",
          summary: "Hold a slot",
          description:
            "Holds a slot for the event type's `holdMinutes` (status `held`). The hold expires on its own; it can be refreshed, confirmed, or cancelled. Same outcomes as create for full, not offered, limited or locked slots; a hold counts against booking limits until it lapses.",
          idempotent: true,
        }),
      },
    )
    .put(
      "/reservations/:reservationUuid",
      async ({ eventType, params, body, request }) => ok(await reservations.reschedule(eventType, params.reservationUuid, body, origin(request))),
      {
        params: Type.Object({ reservationUuid: ReservationUuid }),
        body: RescheduleInput,
        response: answers(ReservationResponse, [401, 403, 404, 413, 422]),
        detail: publicDoc({
          operationId: "rescheduleReservation",
          summary: "Reschedule a reservation",
          description:
            "Moves a held or confirmed reservation to another offered slot; the status stays as it was. A move into a day, week or month whose booking limit is reached answers `success: false`, `limit_reached` (the reservation itself is not counted twice). A visitor may reschedule until `rescheduleNoticeMinutes` before the current start (later: 403 `forbidden`); the organizer's `overrideToken` lifts that rule and the minimum notice and horizon of the new slot. A cancelled or expired reservation answers `success: false`, `reservation_finished`. A confirmed reservation keeps its meeting: the answer carries its `meetLink` and `location`, and when the server sends mail the visitor and organizer get the updated invite (same UID, higher SEQUENCE); the reminders of the old time are withdrawn and new ones scheduled for the new time.",
        }),
      },
    )
    .delete(
      "/reservations/:reservationUuid",
      async ({ eventType, params, query, body, request }) =>
        done(
          await reservations.cancel(eventType, params.reservationUuid, request.headers.get("booking-override-token") ?? query.overrideToken, {
            ...origin(request),
            reason: body.reason,
          }),
        ),
      {
        params: Type.Object({ reservationUuid: ReservationUuid }),
        query: CancelQuery,
        // The body is optional (the spec's cancel has none): an empty one reads as {}.
        transform(context) {
          context.body ??= {};
        },
        body: CancelInput,
        response: answers(CancelResponse, [401, 403, 404, 422]),
        detail: publicDoc({
          optionalBody: true,
          operationId: "cancelReservation",
          summary: "Cancel a reservation",
          description:
            'Cancels and frees the seat at once. Cancelling a cancelled reservation succeeds again without change. A hold can always be cancelled; a confirmed reservation until `cancelNoticeMinutes` before its start (later: 403 `forbidden`, unless the query carries the organizer\'s `overrideToken`). A meeting that has ended answers `success: false`, `reservation_finished`. Cancelling a confirmed reservation emails the visitor (and organizer) an invite with METHOD:CANCEL when the server sends mail. An optional JSON body `{ "reason": "…" }` (at most 500 characters; an addition to the spec) is stored with the reservation, sent as `cancelReason` in the `reservation.cancelled` webhook and shown in the cancellation emails and their cancel invites; its line breaks are kept as LF, and any other control character (a NUL among them) answers 422 `validation_failed` with `control_characters` on `reason`. Its pending reminder emails are withdrawn: none is sent after a cancel.',
        }),
      },
    )
    .post(
      "/reservations/:reservationUuid/confirm",
      ({ eventType, params, body, request, once }) =>
        once(async () => ok(await reservations.confirm(eventType, params.reservationUuid, body, origin(request)))),
      {
        params: Type.Object({ reservationUuid: ReservationUuid }),
        // The body is optional: an empty one reads as {}.
        transform(context) {
          context.body ??= {};
        },
        body: ConfirmInput,
        idempotent: true,
        response: answers(ReservationResponse, [401, 403, 404, 413, 422]),
        detail: publicDoc({
          optionalBody: true,
          operationId: "confirmReservation",
          summary: "Confirm a held reservation",
          description:
            "Confirms a prepared reservation; passed attributes update it (custom field answers merge by uuid). A paid event type needs a successful payment first (422 `payment_required`). An expired hold is confirmed only if its seat can be taken again, else `reservation_finished`. Confirming a confirmed reservation answers the same result again. `meetLink` is set for video meetings; `location` says where the meeting is (for an in-person meeting, the organizer's address).",
          idempotent: true,
        }),
      },
    )
    .post(
      "/reservations/:reservationUuid/refresh",
      ({ eventType, params, request, once }) =>
        once(async () => {
          await reservations.refresh(eventType, params.reservationUuid, origin(request).origin);
          return ok([] as never[]);
        }),
      {
        params: Type.Object({ reservationUuid: ReservationUuid }),
        idempotent: true,
        response: answers(RefreshResponse, [401, 403, 404]),
        detail: publicDoc({
          operationId: "refreshReservation",
          summary: "Extend a hold",
          description:
            "Holds a held or expired reservation again for `holdMinutes` from now if its seat is still free; `data` is an empty array. Otherwise, and for confirmed or cancelled reservations, HTTP 200 with `success: false`, code `reservation_finished`.",
          idempotent: true,
        }),
      },
    )
    .post(
      "/reservations/:reservationUuid/payments",
      ({ eventType, params, body, request, once }) =>
        once(async () => {
          const reservation = await reservations.find(eventType, params.reservationUuid);
          return ok(await payments.createIntent(eventType, reservation, body, origin(request).origin));
        }),
      {
        params: Type.Object({ reservationUuid: ReservationUuid }),
        body: PaymentInput,
        idempotent: true,
        response: answers(PaymentResponse, [401, 403, 404, 413, 422]),
        detail: publicDoc({
          operationId: "createReservationPayment",
          summary: "Create the card payment of a held reservation",
          description:
            "Creates (or reuses while still payable) a Stripe PaymentIntent on the organizer's connected account for the event type's amount and currency. Use `clientSecret` with Stripe.js on `providerAccountId`, then confirm the reservation. 400 `provider_not_configured` when card payments are not set up. A reservation that is not held answers `success: false`, `reservation_finished`.",
          idempotent: true,
        }),
      },
    );
};
