import { oneOf } from "./literals.ts";
import { Type, type Static } from "@sinclair/typebox";
import { Availability } from "./admin.ts";
import { RESERVATION_STATUSES } from "./constants.ts";
import { BookingsCalendar } from "./event-type-views.ts";
import { LIMITS } from "./limits.ts";
import { BookingLimits, BookingLimitsView } from "./booking-limits.ts";

/** Fields of a host: the person whose time event types book (docs/hosts.md). */
export const HostFields = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: "Shown to visitors beside the avatar and named in invites." }),
    email: Type.String({
      format: "email",
      maxLength: LIMITS.emailMaxLength,
      description: "Gets a copy of the confirmations of the host's bookings; the organizer of their invites.",
    }),
    timezone: Type.String({ maxLength: 64, description: "IANA zone; new schedules of the host default to it. Default UTC." }),
    avatarUrl: Type.Union([Type.String({ maxLength: 2000, description: "http(s) URL of a picture the booker shows." }), Type.Null()]),
    limits: Type.Composite([BookingLimits], {
      additionalProperties: false,
      description:
        "Booking limits of the host across all of their event types: bookings per day, week or month and minutes per day or week, in calendar periods of the host's zone (weeks start on Monday). Each kind absent or null is no limit; a change replaces the whole object ({} removes every limit).",
    }),
  },
  { additionalProperties: false },
);

/** Body of `POST /admin/hosts`. */
export const HostCreate = Type.Composite([Type.Pick(HostFields, ["name", "email"]), Type.Partial(Type.Pick(HostFields, ["timezone", "avatarUrl", "limits"]))], {
  additionalProperties: false,
});
export type HostCreate = Static<typeof HostCreate>;

/** Body of `PATCH /admin/hosts/{hostId}`: any subset of the fields. */
export const HostPatch = Type.Partial(HostFields, { additionalProperties: false });
export type HostPatch = Static<typeof HostPatch>;

/** A host as the admin API shows it. */
export const HostView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  isDefault: Type.Boolean({ description: "Event types created without naming hosts belong to it." }),
  bookingsCalendar: Type.Union([BookingsCalendar, Type.Null()], { description: "The calendar the host's confirmed bookings are written into." }),
  eventTypeIds: Type.Array(Type.Integer()),
  limits: BookingLimitsView,
  feedToken: Type.String({ description: "Secret of the host's private booking feed: their confirmed bookings of every event type, no other host's." }),
  feedUrl: Type.Optional(Type.String({ description: "Absolute address of that feed (`/feeds/{feedToken}.ics`), in the admin API's answers." })),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type HostView = Static<typeof HostView>;

/** Fields of a schedule: named weekly hours and date overrides of a host. */
export const ScheduleFields = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    timezone: Type.String({ maxLength: 64, description: "IANA zone of the hours; default the host's." }),
    availability: Availability,
  },
  { additionalProperties: false },
);

/** Body of `POST /admin/hosts/{hostId}/schedules`. */
export const ScheduleCreate = Type.Composite([Type.Pick(ScheduleFields, ["name", "availability"]), Type.Partial(Type.Pick(ScheduleFields, ["timezone"]))], {
  additionalProperties: false,
});
export type ScheduleCreate = Static<typeof ScheduleCreate>;

/** Body of `PATCH /admin/schedules/{scheduleId}`. */
export const SchedulePatch = Type.Partial(ScheduleFields, { additionalProperties: false });
export type SchedulePatch = Static<typeof SchedulePatch>;

/** A schedule as the admin API shows it. */
export const ScheduleView = Type.Object({
  id: Type.Integer(),
  hostId: Type.Integer(),
  name: Type.String(),
  timezone: Type.String(),
  availability: Availability,
  eventTypeIds: Type.Array(Type.Integer(), { description: "Event types whose host uses it." }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type ScheduleView = Static<typeof ScheduleView>;

/** One booking of a host as the organizer's list shows it (`GET /admin/hosts/{hostId}/reservations`), times in UTC. */
export const HostBookingView = Type.Object({
  uuid: Type.String({ format: "uuid" }),
  eventTypeId: Type.Integer({ description: "The event type it was booked through." }),
  hostIds: Type.Array(Type.Integer(), { description: "The hosts it takes: every host of a collective event type, the one assigned by round robin." }),
  status: oneOf(RESERVATION_STATUSES),
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
});
export type HostBookingView = Static<typeof HostBookingView>;
