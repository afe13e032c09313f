import { Type, type Static } from "@sinclair/typebox";
import { AVAILABILITY_REASON_CODES } from "./constants.ts";
import { oneOf } from "./literals.ts";

/** Query of `GET /admin/event-types/{id}/availability-check`. */
export const AvailabilityCheckQuery = Type.Object({
  start: Type.String({ format: "date-time", description: "The start asked about, ISO 8601 with an offset or Z (`2026-05-12T10:00:00+02:00`)." }),
});
export type AvailabilityCheckQuery = Static<typeof AvailabilityCheckQuery>;

/** Query of `GET /admin/hosts/{hostId}/availability-check`. */
export const HostAvailabilityCheckQuery = Type.Object({
  start: Type.String({ format: "date-time", description: "The start asked about, ISO 8601 with an offset or Z." }),
  eventTypeId: Type.Optional(
    Type.Integer({ minimum: 1, description: "Check through this event type of the host only; default: every event type the host belongs to." }),
  ),
});
export type HostAvailabilityCheckQuery = Static<typeof HostAvailabilityCheckQuery>;

/**
 * One reason a time is not bookable. `code` is stable; `message` says it in English for people; the
 * other fields say what the reason is about, each only where it applies.
 */
export const AvailabilityReason = Type.Object({
  code: oneOf(AVAILABILITY_REASON_CODES, { description: "Stable code of the reason." }),
  message: Type.String({ description: "The reason in English words." }),
  hostId: Type.Optional(Type.Integer({ description: "The host the reason is about (absent: the event type's own, such as `disabled`)." })),
  schedule: Type.Optional(
    Type.Object(
      { id: Type.Union([Type.Integer(), Type.Null()]), name: Type.String() },
      { description: "`outside_hours`: the hours that leave the time out (`id` null: the event type's own hours)." },
    ),
  ),
  timezone: Type.Optional(Type.String({ description: "`outside_hours`, `horizon`: the zone those hours and days are read in." })),
  bookableFrom: Type.Optional(Type.String({ format: "date-time", description: "`min_notice`: the first instant the notice allows a start." })),
  bookableUntil: Type.Optional(Type.String({ format: "date-time", description: "`horizon`: the instant the last bookable day ends." })),
  busyFrom: Type.Optional(Type.String({ format: "date-time", description: "`host_busy`, `calendar_busy`, `buffer`: start of what takes the time." })),
  busyUntil: Type.Optional(Type.String({ format: "date-time", description: "End of what takes the time." })),
  eventType: Type.Optional(
    Type.Object(
      { id: Type.Integer(), title: Type.String() },
      { description: "`host_busy`: the event type of the booking that takes the host (shown to the organizer and to the host themself)." },
    ),
  ),
  reservationUuid: Type.Optional(Type.String({ description: "`host_busy`: that booking (the organizer and the host themself)." })),
  calendar: Type.Optional(
    Type.Object(
      { id: Type.Integer(), kind: Type.String(), url: Type.String() },
      { description: "`calendar_busy`: the host's calendar (busy source) holding the event (the organizer and the host themself)." },
    ),
  ),
  title: Type.Optional(Type.String({ description: "`calendar_busy`: the calendar event's title (the organizer and the host themself)." })),
  seats: Type.Optional(Type.Integer({ description: "`seats_full`: the seats the time has, all taken." })),
});
export type AvailabilityReason = Static<typeof AvailabilityReason>;

/** One host of a team event type at the time asked, with their own reasons. */
export const HostAvailability = Type.Object({
  hostId: Type.Integer(),
  name: Type.String(),
  free: Type.Boolean({ description: "True when this host could take the time." }),
  reasons: Type.Array(AvailabilityReason),
});
export type HostAvailability = Static<typeof HostAvailability>;

/**
 * Whether a start is bookable through an event type and, when not, every reason: the same steps that
 * build `GET /time-slots`, so `bookable` is exactly whether the slot page lists that start.
 */
export const AvailabilityCheck = Type.Object({
  eventTypeId: Type.Integer(),
  title: Type.String(),
  start: Type.String({ format: "date-time", description: "The start asked about, UTC." }),
  end: Type.String({ format: "date-time", description: "Its end by the meeting length, UTC." }),
  bookable: Type.Boolean({ description: "True exactly when the slot page offers this start to visitors." }),
  reasons: Type.Array(AvailabilityReason, { description: "Why it is not bookable; empty when it is." }),
  hosts: Type.Array(HostAvailability, {
    description: "Each host with their own reasons (one entry for an event type of one host): a round-robin time is bookable when one host is free.",
  }),
});
export type AvailabilityCheck = Static<typeof AvailabilityCheck>;

/** A host's time checked through each of the host's event types (or the one asked). */
export const HostAvailabilityCheck = Type.Object({
  hostId: Type.Integer(),
  start: Type.String({ format: "date-time" }),
  bookable: Type.Boolean({ description: "True when at least one of the listed event types offers the host at that start." }),
  eventTypes: Type.Array(AvailabilityCheck, { description: "One check per event type, each about this host only." }),
});
export type HostAvailabilityCheck = Static<typeof HostAvailabilityCheck>;
