import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { AdminBookingDetail, AdminBookingPage, OrganizerReservationView } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { BusinessFailure } from "../../domain/errors.ts";
import { statusAt } from "../../domain/reservation.ts";
import { answers, Done, envelope } from "../../http/answers.ts";
import { done, ok } from "../../http/envelope.ts";
import { ApiError } from "../../http/errors.ts";
import { BookingUuid, EventTypeId } from "../../http/path-params.ts";
import { adminDoc } from "../../http/route-doc.ts";
import { publicOrigin } from "../../lib/links.ts";
import type { AdminGuard } from "../admin/guard.ts";
import { hostScopes } from "../admin/host-scope.ts";
import { existingEventType } from "../event-types/organizer.ts";
import { ReservationResponse } from "../reservations/model.ts";
import type { ReservationService } from "../reservations/service.ts";
import { TimeSlotsQueryShape, TimeSlotsResponse } from "../time-slots/model.ts";
import { MAX_SLOTS_PER_ANSWER, type TimeSlotService } from "../time-slots/service.ts";
import { OrganizerCancelBody, OrganizerRescheduleBody, ReservationListQuery, ReservationSearchQuery } from "./model.ts";
import type { BookingAdmin } from "./service.ts";

/**
 * The organizer's bookings under `/admin`: every event type's a page at a time, an event type's in a
 * date range, one with its deliveries, and the organizer's cancel and reschedule with the free times
 * to move a booking to. Behind the admin guard; a host's session reaches only its own bookings.
 */
export const bookingOrganizerRoutes = (
  ctx: AppContext,
  guard: AdminGuard,
  bookings: BookingAdmin,
  reservations: ReservationService,
  slots: TimeSlotService,
) => {
  const eventTypeRecord = (id: number) => existingEventType(ctx.store, id);
  return (
    new Elysia()
      .use(guard)
      .get("/event-types/:id/reservations", async ({ params, query }) => ok(await bookings.reservations(params.id, query)), {
        params: Type.Object({ id: EventTypeId }),
        query: ReservationListQuery,
        response: answers(envelope(Type.Array(OrganizerReservationView)), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminListEventTypeReservations",
          summary: "List an event type's bookings in a date range",
          description:
            "The event type's reservations whose start lies in the range (at most 5000), each with its `payment` (`status`, `amount`, `currency`, `paymentIntentId`, `refundId`) or null.",
        }),
      })
      // The organizer's bookings across event types, a page at a time (the console's list).
      .get(
        "/reservations",
        async ({ query, request }) => {
          // A host's session lists only bookings of its own host, whatever filter it sends.
          const own = hostScopes.get(request);
          if (own !== undefined && query.hostId !== undefined && query.hostId !== own)
            throw new ApiError("forbidden", "A host's console session lists only its own host's bookings.");
          return ok(await bookings.searchReservations(own === undefined ? query : { ...query, hostId: own }, publicOrigin(ctx.config, request.url)));
        },
        {
          query: ReservationSearchQuery,
          response: answers(envelope(AdminBookingPage), [401, 403, 422]),
          detail: adminDoc({
            operationId: "adminSearchReservations",
            hostAccess: "narrowed",
            summary: "List bookings across event types, a page at a time",
            description:
              "Filtered by event type, host, status (the status time has made, so a page may hold fewer than `limit` items and still have a `next`), days (read in `timezone`, default UTC) and a part of the name or email (`q`); ordered by start. Answers `{ items, next }`: pass `next` as `cursor` for the following page (null on the last). Every page costs the same however deep.",
            host: "lists only bookings that take the host's time, whatever filters it sends; `hostId` of another host is 403 `forbidden`.",
          }),
        },
      )
      .get(
        "/event-types/:id/reservations/:uuid",
        async ({ params, request }) => {
          const answer = await bookings.reservation(params.id, params.uuid, publicOrigin(ctx.config, request.url));
          const own = hostScopes.get(request);
          if (own === undefined) return ok(answer);
          // A host sees the emails to the visitor and to themselves; the rest (the organizer's webhook
          // receiver, other hosts' copies and calendars) is not theirs to read.
          const ownEmail = (await ctx.store.hosts.byId(own))?.email ?? null;
          const theirs = new Set([`mailto:${answer.email}`, ...(ownEmail ? [`mailto:${ownEmail}`] : [])].map((url) => url.toLowerCase()));
          return ok({ ...answer, deliveries: answer.deliveries.filter((d) => theirs.has(d.url.toLowerCase())) });
        },
        {
          params: Type.Object({ id: EventTypeId, uuid: BookingUuid }),
          response: answers(envelope(AdminBookingDetail), [401, 403, 404]),
          detail: adminDoc({
            operationId: "adminGetReservation",
            hostAccess: "own-booking",
            summary: "Read one booking",
            description:
              "With its manage link and its deliveries of every channel (webhooks, emails, reminders, calendar writes), times in the event type's zone.",
            host: "its own bookings only, without the webhook deliveries (the organizer's receiver); another host's booking is 404 `not_found`.",
          }),
        },
      )
      // The organizer cancels or moves a booking: the visitor's notice rules do not bind them (see ChangeOptions.organizer).
      .post(
        "/event-types/:id/reservations/:uuid/cancel",
        async ({ params, body, request }) => {
          const eventType = await eventTypeRecord(params.id);
          return done(
            await reservations.cancel(eventType, params.uuid, undefined, {
              origin: publicOrigin(ctx.config, request.url),
              organizer: true,
              reason: body.reason,
            }),
          );
        },
        {
          transform(context) {
            context.body ??= {};
          },
          params: Type.Object({ id: EventTypeId, uuid: BookingUuid }),
          body: OrganizerCancelBody,
          response: answers(Done, [401, 403, 404, 422]),
          detail: adminDoc({
            optionalBody: true,
            operationId: "adminCancelReservation",
            hostAccess: "own-booking",
            summary: "Cancel a booking as the organizer",
            description:
              "The visitor's cancel notice does not bind the organizer; `reason`, when given, is told to the visitor. A meeting that has ended answers `success: false`, `reservation_finished`.",
            host: "its own bookings only; another host's booking is 404 `not_found`.",
          }),
        },
      )
      // The free times a booking can be moved to: the slots of GET /time-slots, with the notice and
      // horizon lifted as the organizer's reschedule lifts them (no link token needed, so a host's session can ask).
      .get(
        "/event-types/:id/reservations/:uuid/time-slots",
        async ({ params, query }) => {
          const eventType = await eventTypeRecord(params.id);
          const record = await ctx.store.reservations.byUuid(eventType.id, params.uuid.toLowerCase());
          if (!record) throw new ApiError("not_found", `No reservation ${params.uuid.slice(0, 40)} of event type ${eventType.id}.`);
          const nowMs = ctx.clock.now();
          const status = statusAt(record, nowMs);
          if (status === "cancelled" || status === "expired")
            throw new BusinessFailure("reservation_finished", `A ${status} reservation cannot be rescheduled.`);
          const { data, nextFrom } = await slots.rescheduleSlots(eventType, query, nowMs, record.uuid);
          return nextFrom === undefined ? ok(data) : { ...ok(data), nextFrom };
        },
        {
          params: Type.Object({ id: EventTypeId, uuid: BookingUuid }),
          query: TimeSlotsQueryShape,
          response: answers(TimeSlotsResponse, [401, 403, 404, 422]),
          detail: adminDoc({
            operationId: "adminListRescheduleTimeSlots",
            hostAccess: "own-booking",
            summary: "List the free times a booking can be moved to",
            description: `The slots of \`GET /time-slots\` for the same days (opening hours, seats, the hosts' other bookings and calendars), with the minimum notice and the horizon lifted as the organizer's reschedule lifts them: every free time still to come. No link token is needed, so a host's session can ask; the organizer console's reschedule dialog lists these. At most ${MAX_SLOTS_PER_ANSWER} slots, in whole days, with \`nextFrom\` as in \`GET /time-slots\`. A cancelled or expired booking answers \`success: false\`, \`reservation_finished\`, as its reschedule would.`,
            host: "its own bookings only; another host's booking is 404 `not_found`.",
          }),
        },
      )
      .post(
        "/event-types/:id/reservations/:uuid/reschedule",
        async ({ params, body, request }) => {
          const eventType = await eventTypeRecord(params.id);
          return ok(await reservations.reschedule(eventType, params.uuid, body, { origin: publicOrigin(ctx.config, request.url), organizer: true }));
        },
        {
          params: Type.Object({ id: EventTypeId, uuid: BookingUuid }),
          body: OrganizerRescheduleBody,
          response: answers(ReservationResponse, [401, 403, 404, 422]),
          detail: adminDoc({
            operationId: "adminRescheduleReservation",
            hostAccess: "own-booking",
            summary: "Move a booking as the organizer",
            description:
              "To a free time (one of `GET /admin/event-types/{id}/reservations/{uuid}/time-slots`): notice and horizon do not bind the organizer, opening hours, seats, booking limits and the hosts' time do. A time not offered answers `success: false`, `slot_unavailable`; a day whose booking limit is reached `limit_reached`; a cancelled or expired booking `reservation_finished`. The visitor and organizer get the updated invite when the server sends mail.",
            host: "its own bookings only; another host's booking is 404 `not_found`.",
          }),
        },
      )
  );
};
