import { Type, type Static } from "@sinclair/typebox";
import { RecurrenceRequest, SeriesOccurrence } from "./recurrence.ts";
import { CustomFieldValue, Location } from "./event-types.ts";
import { LIMITS } from "./limits.ts";

/** Request body of create and prepare. */
export const ReservationInput = Type.Object({
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
  email: Type.String({ format: "email", maxLength: LIMITS.emailMaxLength }),
  timezone: Type.Optional(Type.String({ maxLength: 64 })),
  locale: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        "The language the visitor booked in, as a BCP 47 tag (letters, digits and hyphens), with their clock as its `hc` extension (`de`, `en-u-hc-h12`, `pl-u-hc-h23`). The emails and invites of the booking follow it; without it (or in a language the server has no texts for) they use the event type's preset language, then English.",
    }),
  ),
  phone: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  firstname: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  lastname: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  location: Type.Optional(Location),
  guests: Type.Optional(Type.Array(Type.String({ format: "email", maxLength: LIMITS.emailMaxLength }), { maxItems: LIMITS.maxGuests })),
  customFields: Type.Optional(Type.Array(CustomFieldValue, { maxItems: LIMITS.maxCustomFieldValues })),
  recurrence: Type.Optional(RecurrenceRequest),
});
export type ReservationInput = Static<typeof ReservationInput>;

/** Data of create, prepare, reschedule and confirm (create, confirm and reschedule of a confirmed reservation add `meetLink` and `location`). */
export const ReservationResult = Type.Object({
  uuid: Type.Union([Type.String({ format: "uuid" }), Type.Null()]),
  userId: Type.Union([Type.Integer(), Type.Null()]),
  userName: Type.Union([Type.String(), Type.Null()]),
  userEmail: Type.Union([Type.String(), Type.Null()]),
  meetLink: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  location: Type.Optional(
    Type.Union([Location, Type.Null()], {
      description:
        "Where the meeting is (confirm, create and reschedule of a confirmed reservation): the organizer's address or number to call, the link, or a video meeting (its link is `meetLink`).",
    }),
  ),
  manageUrl: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: "The visitor's link to reschedule or cancel: the booking page with ?reservation={uuid}; null when the event type has no slug.",
    }),
  ),
  seriesId: Type.Optional(
    Type.Union([Type.String({ format: "uuid" }), Type.Null()], {
      description: "The series the reservation is an occurrence of; absent or null for a single booking.",
    }),
  ),
  occurrences: Type.Optional(
    Type.Array(SeriesOccurrence, { description: "A booked series (create with `recurrence`): every occurrence, the first being this answer's `uuid`." }),
  ),
});
export type ReservationResult = Static<typeof ReservationResult>;

/** Body of `PUT /reservations/{uuid}`. */
export const RescheduleInput = Type.Object({
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
  timezone: Type.Optional(Type.String({ maxLength: 64 })),
  overrideToken: Type.Optional(Type.String({ maxLength: 500 })),
});
export type RescheduleInput = Static<typeof RescheduleInput>;

/** Body of `POST /reservations/{uuid}/confirm`. */
export const ConfirmInput = Type.Object({
  phone: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  firstname: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  lastname: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  customFields: Type.Optional(Type.Array(CustomFieldValue, { maxItems: LIMITS.maxCustomFieldValues })),
});
export type ConfirmInput = Static<typeof ConfirmInput>;

/** Optional body of `DELETE /reservations/{uuid}`: why the booking is cancelled, passed on to the organizer. */
export const CancelInput = Type.Object({
  reason: Type.Optional(
    Type.String({
      maxLength: LIMITS.textMaxLength,
      description:
        "Why the booking is cancelled; stored, sent as `cancelReason` in the reservation.cancelled webhook and shown in the cancellation emails and their invites.",
    }),
  ),
});
export type CancelInput = Static<typeof CancelInput>;

/** Body of `POST /reservations/{uuid}/payments`. */
export const PaymentInput = Type.Object({
  email: Type.String({ format: "email", maxLength: LIMITS.emailMaxLength }),
  name: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  company: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  street: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  city: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  postalCode: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  country: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$" })),
  taxId: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
  crn: Type.Optional(Type.String({ maxLength: LIMITS.textMaxLength })),
});
export type PaymentInput = Static<typeof PaymentInput>;

/** Data of `POST /reservations/{uuid}/payments`. */
export const PaymentResult = Type.Object({
  clientSecret: Type.String(),
  paymentIntentId: Type.String(),
  providerAccountId: Type.String(),
  amount: Type.Integer(),
});
export type PaymentResult = Static<typeof PaymentResult>;
