import { oneOf } from "./literals.ts";
import { Type, type Static } from "@sinclair/typebox";
import { DELIVERY_CHANNELS, PAYMENT_STATUSES, RESERVATION_STATUSES } from "./constants.ts";
import { Nullable } from "./event-type-views.ts";
import { CustomFieldValue, Location } from "./event-types.ts";

/** What happened to a booking's money: its payment succeeded, or was refunded because its seat was gone. */
export const BookingPayment = Type.Object({
  status: oneOf(PAYMENT_STATUSES),
  amount: Type.Integer({ description: "Smallest currency unit." }),
  currency: Type.String(),
  paymentIntentId: Type.String(),
  refundId: Nullable(Type.String()),
});
export type BookingPayment = Static<typeof BookingPayment>;

/** A reservation as the organizer's lists show it, times in the asked zone and in UTC. */
export const OrganizerReservationView = Type.Object({
  uuid: Type.String({ format: "uuid" }),
  status: oneOf(RESERVATION_STATUSES, { description: "As time has made it (a lapsed hold is `expired`)." }),
  start: Type.String({ format: "date-time", description: "In the asked zone (default UTC; one booking: the event type's)." }),
  end: Type.String({ format: "date-time" }),
  startIso8601: Type.String({ format: "date-time" }),
  endIso8601: Type.String({ format: "date-time" }),
  heldUntil: Nullable(Type.String({ format: "date-time" })),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  phone: Type.String(),
  timezone: Nullable(Type.String(), { description: "The zone the visitor booked in, if known." }),
  location: Nullable(Location),
  guests: Type.Array(Type.String()),
  customFields: Type.Array(CustomFieldValue),
  payment: Nullable(BookingPayment),
  createdAt: Type.String({ format: "date-time" }),
  cancelReason: Nullable(Type.String(), { description: "Why the booking was cancelled, when the visitor or organizer said." }),
  seriesId: Type.Optional(
    Nullable(Type.String({ format: "uuid" }), { description: "The series the booking is an occurrence of (recurring bookings); null for a single booking." }),
  ),
});
export type OrganizerReservationView = Static<typeof OrganizerReservationView>;

/** A booking as the organizer's list across event types shows it (`GET /admin/reservations`). */
export const AdminBookingView = Type.Composite([
  Type.Object({
    eventTypeId: Type.Integer(),
    eventTypeTitle: Type.String(),
    manageUrl: Nullable(Type.String({ format: "uri" }), {
      description: "The visitor's reschedule and cancel page (null when the event type has no slug or is gone).",
    }),
  }),
  OrganizerReservationView,
]);
export type AdminBookingView = Static<typeof AdminBookingView>;

/** One page of `GET /admin/reservations`; `next` is the cursor of the next page, null on the last. */
export const AdminBookingPage = Type.Object({ items: Type.Array(AdminBookingView), next: Nullable(Type.String()) });
export type AdminBookingPage = Static<typeof AdminBookingPage>;

/** One try at delivering an outbox event. */
export const DeliveryAttempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String({ format: "date-time" }),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  durationMs: Type.Integer(),
});
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

/** An outbox event as the organizer sees it; `webhookId` is the message id (an email's Message-ID) and `url` where it goes (`mailto:` for an email). */
export const WebhookDeliveryView = Type.Object({
  id: Type.Integer(),
  webhookId: Type.String(),
  kind: Type.Union([Type.Literal("reservation.created"), Type.Literal("reservation.rescheduled"), Type.Literal("reservation.cancelled")]),
  reservationUuid: Type.String(),
  url: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed")]),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String({ format: "date-time" }), { description: "When a pending event is tried next." }),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String({ format: "date-time" })),
  createdAt: Type.String({ format: "date-time" }),
  attemptLog: Type.Array(DeliveryAttempt),
});
export type WebhookDeliveryView = Static<typeof WebhookDeliveryView>;

/** An outbox event of any channel (webhooks, emails, calendar writes, reminders), with its `channel`. */
export const DeliveryView = Type.Composite([Type.Object({ channel: oneOf(DELIVERY_CHANNELS) }), WebhookDeliveryView]);
export type DeliveryView = Static<typeof DeliveryView>;

/** One booking of an event type with its deliveries of every channel (`GET /admin/event-types/{id}/reservations/{uuid}`). */
export const AdminBookingDetail = Type.Composite([AdminBookingView, Type.Object({ deliveries: Type.Array(DeliveryView) })]);
export type AdminBookingDetail = Static<typeof AdminBookingDetail>;

/** Body of the organizer's cancel: the reason, told to the visitor. */
export const OrganizerCancelBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false });
export type OrganizerCancelBody = Static<typeof OrganizerCancelBody>;

/** Body of the organizer's reschedule: the new start and end (a slot's, as GET /time-slots lists them). */
export const OrganizerRescheduleBody = Type.Object(
  { start: Type.String({ format: "date-time" }), end: Type.String({ format: "date-time" }), timezone: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
export type OrganizerRescheduleBody = Static<typeof OrganizerRescheduleBody>;
