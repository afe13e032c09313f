import { oneOf } from "./literals.ts";
import { RecurrenceField } from "./recurrence.ts";
import { Type, type SchemaOptions, type Static, type TSchema } from "@sinclair/typebox";
import { AvailabilityRules, HostAssignmentSchema } from "./admin.ts";
import { CUSTOM_FIELD_TYPES, LOCATION_TYPES, THEME_MODES, WEEK_STARTS } from "./constants.ts";
import { ShowIf, Translations } from "./event-types.ts";
import { BookingLimits, BookingLimitsView } from "./booking-limits.ts";

/** `schema` or null. */
export const Nullable = <T extends TSchema>(schema: T, options: SchemaOptions = {}) => Type.Union([schema, Type.Null()], options);
const nullable = Nullable;

/** A custom field as kept: every property resolved (`uuid` assigned, `required` and `order` set). */
export const CustomFieldDefinition = Type.Object({
  uuid: Type.String({ format: "uuid" }),
  label: Type.String(),
  name: Type.String(),
  type: oneOf(CUSTOM_FIELD_TYPES),
  required: Type.Boolean(),
  order: Type.Integer(),
  options: Type.Optional(Type.Array(Type.String())),
  placeholder: Type.Optional(Type.String()),
  showIf: Type.Optional(ShowIf),
});
export type CustomFieldDefinition = Static<typeof CustomFieldDefinition>;

/** A place an event type offers, as kept: the organizer's value and, when named, its label. */
export const LocationSetting = Type.Object({
  type: oneOf(LOCATION_TYPES),
  value: nullable(Type.String()),
  label: Type.Optional(nullable(Type.String(), { description: "The organizer's name for the place; absent on event types stored before labels existed." })),
});
export type LocationSetting = Static<typeof LocationSetting>;

/** Where a host's confirmed bookings are written: one calendar of one of its CalDAV busy sources. */
export const BookingsCalendar = Type.Object({ sourceId: Type.Integer(), calendarUrl: Type.String() });
export type BookingsCalendar = Static<typeof BookingsCalendar>;

/**
 * Every setting of an event type with its defaults applied: what the store keeps, what the admin
 * API shows beside the event type's state, and what a change (`EventTypePatch`) is resolved into.
 */
export const EventTypeSettings = Type.Object({
  title: Type.String(),
  description: Type.String(),
  timezone: Type.String({ description: "IANA zone of the opening hours." }),
  durationMinutes: Type.Integer(),
  slotIntervalMinutes: Type.Integer(),
  seats: Type.Integer(),
  holdMinutes: Type.Integer(),
  bufferBeforeMinutes: Type.Integer(),
  bufferAfterMinutes: Type.Integer(),
  minNoticeMinutes: Type.Integer(),
  horizonDays: Type.Integer(),
  rescheduleNoticeMinutes: Type.Integer(),
  cancelNoticeMinutes: Type.Integer(),
  availability: AvailabilityRules,
  locations: Type.Array(LocationSetting),
  customFields: Type.Array(CustomFieldDefinition),
  payment: nullable(Type.Object({ amount: Type.Integer(), currency: Type.String(), providerAccountId: Type.String() })),
  webhookUrl: nullable(Type.String()),
  reminderMinutes: Type.Optional(
    Type.Array(Type.Integer(), {
      description:
        "Minutes before a confirmed booking's start when reminders go, latest last; [] sends none. Absent on event types stored before reminders existed (they remind as new ones do).",
    }),
  ),
  organizerEmail: Type.Optional(nullable(Type.String(), { description: "Where the organizer's copy of each confirmation goes; none when null or absent." })),
  contact: Type.Optional(
    nullable(Type.String(), {
      description: "How visitors reach the organizer once a booking can no longer be changed online; null or absent: organizerEmail.",
    }),
  ),
  bookingsCalendar: Type.Optional(
    nullable(BookingsCalendar, { description: "Set through a busy source's write-bookings route, never by the event type's own update." }),
  ),
  locale: Type.Object({ preset: Type.String(), startDayOfWeek: oneOf(WEEK_STARTS), texts: Type.Record(Type.String(), Type.String()) }),
  translations: Type.Optional(Translations),
  theme: Type.Object({ mode: oneOf(THEME_MODES), borderRadius: Type.String(), colors: Type.Record(Type.String(), Type.String()) }),
  profileImage: nullable(Type.String()),
  calendarTitle: nullable(Type.String()),
  hostName: nullable(Type.String()),
  compact: Type.Boolean(),
  externalBooking: Type.Boolean(),
  maxGuests: Type.Integer(),
  limits: Type.Optional(BookingLimits),
  recurrence: Type.Optional(RecurrenceField),
});
export type EventTypeSettings = Static<typeof EventTypeSettings>;

/** One host of an event type as the admin API shows it: who, in what order, and whose hours. */
export const EventTypeHostView = Type.Object({
  hostId: Type.Integer(),
  name: Type.String(),
  priority: Type.Integer(),
  scheduleId: nullable(Type.Integer(), { description: "The host's schedule in use; null: the event type's own hours (`availability`)." }),
});
export type EventTypeHostView = Static<typeof EventTypeHostView>;

/** The organizer's view of an event type: settings and state, never token hashes nor the webhook signing secret. */
export const EventTypeView = Type.Composite([
  Type.Omit(EventTypeSettings, ["reminderMinutes", "bookingsCalendar", "limits"]),
  Type.Object({
    id: Type.Integer(),
    limits: BookingLimitsView,
    reminderMinutes: Type.Array(Type.Integer(), {
      description: "The reminder offsets in use (the default for an event type stored before reminders existed).",
    }),
    bookingsCalendar: nullable(BookingsCalendar, { description: "The calendar bookings are written into: the host's (a collective team's first host's)." }),
    slug: nullable(Type.String(), { description: "Name of the booking page `/book/{slug}`, or null." }),
    linkToken: Type.String({ description: "The booking page's publishable credential; public by design, replaced with the API token." }),
    feedToken: Type.String({ description: "Secret of the private booking feed `/feeds/{feedToken}.ics`." }),
    feedUrl: Type.Optional(Type.String({ description: "Absolute address of that feed, in the admin API's answers." })),
    disabled: Type.Boolean(),
    webhookDisabledAt: nullable(Type.String({ format: "date-time" }), {
      description: "When the receiver answered 410 Gone; events resume once `webhookUrl` is set again.",
    }),
    hosts: Type.Array(EventTypeHostView, { description: "Whose time it books, in order." }),
    assignment: HostAssignmentSchema,
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
  }),
]);
export type EventTypeView = Static<typeof EventTypeView>;

/** Answer of `POST /admin/event-types`: the event type with its API and override tokens and its `whsec_` webhook signing secret, shown this once. */
export const CreatedEventType = Type.Composite([
  EventTypeView,
  Type.Object({ token: Type.String(), overrideToken: Type.String(), webhookSecret: Type.String() }),
]);
export type CreatedEventType = Static<typeof CreatedEventType>;

/** Answer of a token regeneration: the new plain token, shown this once (with a new link token for a new API token). */
export const IssuedTokens = Type.Object({
  id: Type.Integer(),
  token: Type.Optional(Type.String()),
  overrideToken: Type.Optional(Type.String()),
  linkToken: Type.Optional(Type.String()),
});
export type IssuedTokens = Static<typeof IssuedTokens>;

/** Body of `POST /admin/event-types/{id}/token`: which token to issue anew (default the API token). */
export const RegenerateTokenBody = Type.Object(
  { kind: Type.Optional(Type.Union([Type.Literal("api"), Type.Literal("override")])) },
  { additionalProperties: false },
);
export type RegenerateTokenBody = Static<typeof RegenerateTokenBody>;

/** Answer of `POST /admin/event-types/{id}/webhook-secret`: the new signing secret, shown this once. */
export const RotatedWebhookSecret = Type.Object({ id: Type.Integer(), webhookSecret: Type.String() });
export type RotatedWebhookSecret = Static<typeof RotatedWebhookSecret>;

/** Answer of `POST /admin/event-types/{id}/feed-token`: the feed's new secret and address. */
export const RotatedFeedToken = Type.Object({ id: Type.Integer(), feedToken: Type.String(), feedUrl: Type.Optional(Type.String()) });
export type RotatedFeedToken = Static<typeof RotatedFeedToken>;
