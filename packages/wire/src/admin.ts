import { oneOf } from "./literals.ts";
import { RecurrenceInputField } from "./recurrence.ts";
import { Type, type Static } from "@sinclair/typebox";
import { CUSTOM_FIELD_TYPES, HOST_ASSIGNMENTS, LOCATION_TYPES, THEME_COLOR_KEYS, THEME_MODES, WEEK_STARTS, WEEKDAYS, type Weekday } from "./constants.ts";
import { FIELD_NAME_PATTERN, ShowIf, Translations } from "./event-types.ts";
import { LIMITS } from "./limits.ts";
import { BookingLimits } from "./booking-limits.ts";

/** Times of day in opening hours: HH:MM, and 24:00 for midnight at the end of the day. */
export const CLOCK_PATTERN = "^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$";
/** Most opening ranges one day may have. */
export const MAX_DAY_RANGES = 48;
/** Most date overrides an event type keeps. */
export const MAX_DATE_OVERRIDES = 1000;

const clock = Type.String({ pattern: CLOCK_PATTERN, description: "HH:MM; 24:00 is midnight at the end of the day." });

/** A span of opening hours within one day, in the event type's zone. */
export const TimeRange = Type.Object({ start: clock, end: clock }, { additionalProperties: false });
export type TimeRange = Static<typeof TimeRange>;

/** The opening ranges of one day, in order; empty: closed. */
export const DayRanges = Type.Array(TimeRange, { maxItems: MAX_DAY_RANGES });

/** Opening hours by weekday; a weekday left out is closed. */
export const WeeklyHours = Type.Partial(
  Type.Object(Object.fromEntries(WEEKDAYS.map((d) => [d, DayRanges])) as Record<Weekday, typeof DayRanges>, { additionalProperties: false }),
);
export type WeeklyHours = Static<typeof WeeklyHours>;

/** A date with its own hours instead of its weekday's (an empty `ranges` closes the day). */
export const DateOverride = Type.Object({ date: Type.String({ format: "date" }), ranges: DayRanges }, { additionalProperties: false });
export type DateOverride = Static<typeof DateOverride>;

/** Most date overrides, as a list schema. */
const dateOverrides = Type.Array(DateOverride, { maxItems: MAX_DATE_OVERRIDES });

/** Weekly hours plus date overrides (an empty `ranges` closes the day). */
export const Availability = Type.Object({ weekly: WeeklyHours, overrides: Type.Optional(dateOverrides) }, { additionalProperties: false });
export type Availability = Static<typeof Availability>;

/** Opening hours as they are kept and shown: the overrides always present. */
export const AvailabilityRules = Type.Object({ weekly: WeeklyHours, overrides: dateOverrides }, { additionalProperties: false });
export type AvailabilityRules = Static<typeof AvailabilityRules>;

/** A custom field as the organizer defines it; the server assigns `uuid` when absent. */
export const CustomFieldInput = Type.Object(
  {
    uuid: Type.Optional(Type.String({ format: "uuid" })),
    label: Type.String({ minLength: 1, maxLength: 500 }),
    name: Type.String({ pattern: FIELD_NAME_PATTERN, description: "Letters, digits and underscores." }),
    type: oneOf(CUSTOM_FIELD_TYPES),
    required: Type.Optional(Type.Boolean()),
    order: Type.Optional(Type.Integer({ minimum: 0 })),
    options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 100 })),
    placeholder: Type.Optional(Type.String({ maxLength: 500 })),
    showIf: Type.Optional(ShowIf),
  },
  { additionalProperties: false },
);
export type CustomFieldInput = Static<typeof CustomFieldInput>;

/** A location the event type offers, with the organizer's value (address, phone to call). */
export const LocationInput = Type.Object(
  {
    type: oneOf(LOCATION_TYPES),
    value: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    label: Type.Optional(
      Type.Union([
        Type.String({
          minLength: 1,
          maxLength: 200,
          description:
            "The organizer's name for this place, e.g. \"Our Berlin office\"; translations in `translations.<tag>.locations`. Absent or null: the element's own words for the type.",
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

/** Card payment settings of a paid event type. */
export const PaymentSettings = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 99_999_999 }),
    currency: Type.String({ pattern: "^[A-Za-z]{3}$" }),
    providerAccountId: Type.String({ pattern: "^acct_[A-Za-z0-9]{1,250}$", description: "The organizer's connected Stripe account, acct_..." }),
  },
  { additionalProperties: false },
);

const minutes = (max: number) => Type.Integer({ minimum: 0, maximum: max });

/** Most reminders one event type sends before each booking. */
export const MAX_REMINDERS = 5;
/** Closest a reminder may come to the start: five minutes. */
export const REMINDER_MIN_MINUTES = 5;
/** Earliest a reminder may come before the start: 30 days. */
export const REMINDER_MAX_MINUTES = 43_200;

/** Form of an event type's slug, the name of its booking page `/book/{slug}`: lowercase words joined by single hyphens. */
export const SLUG_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$";

/** Longest slug accepted. */
export const SLUG_MAX_LENGTH = 64;

const SLUG = new RegExp(SLUG_PATTERN);

/** Whether `value` is a well-formed slug (already lowercased by the caller where case does not matter). */
export const isSlug = (value: string): boolean => value.length <= SLUG_MAX_LENGTH && SLUG.test(value);

/** One host of an event type as the organizer names it (docs/hosts.md). */
export const EventTypeHostInput = Type.Object(
  {
    hostId: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
    priority: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1000, description: "Round robin offers a booking to the free hosts of the highest priority first; default 0." }),
    ),
    scheduleId: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }), Type.Null()], {
        description: "One of the host's schedules; null or absent: the event type's own hours (`availability`).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventTypeHostInput = Static<typeof EventTypeHostInput>;

/** Most hosts one event type may have. */
export const MAX_EVENT_TYPE_HOSTS = 50;

/** How an event type with several hosts books, as a schema of HOST_ASSIGNMENTS. */
export const HostAssignmentSchema = oneOf(HOST_ASSIGNMENTS);

/** Every setting of an event type, all optional: the body of PATCH, and of create with `title`. */
export const EventTypeFields = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    description: Type.String({ maxLength: 5000 }),
    timezone: Type.String({ maxLength: 64 }),
    // At least five minutes: a one-minute grid over 62 days is tens of megabytes of slots.
    durationMinutes: Type.Integer({ minimum: 5, maximum: 1440 }),
    slotIntervalMinutes: Type.Integer({ minimum: 5, maximum: 1440 }),
    seats: Type.Integer({ minimum: 1, maximum: 1000 }),
    holdMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
    bufferBeforeMinutes: minutes(1440),
    bufferAfterMinutes: minutes(1440),
    minNoticeMinutes: minutes(525_600),
    horizonDays: Type.Integer({ minimum: 0, maximum: 730 }),
    rescheduleNoticeMinutes: minutes(525_600),
    cancelNoticeMinutes: minutes(525_600),
    availability: Availability,
    locations: Type.Array(LocationInput, { maxItems: LOCATION_TYPES.length }),
    customFields: Type.Array(CustomFieldInput, { maxItems: 50 }),
    payment: Type.Union([PaymentSettings, Type.Null()]),
    webhookUrl: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
    organizerEmail: Type.Union([
      Type.String({
        format: "email",
        maxLength: LIMITS.emailMaxLength,
        description: "Gets a copy of every confirmation, reschedule and cancellation email, with its calendar invite. null: no copy.",
      }),
      Type.Null(),
    ]),
    contact: Type.Union([
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          "How visitors reach the organizer when a booking can no longer be moved or cancelled online (inside rescheduleNoticeMinutes or cancelNoticeMinutes): an email address, an http(s) address or one line of text. null: organizerEmail is shown, if any.",
      }),
      Type.Null(),
    ]),
    reminderMinutes: Type.Array(Type.Integer({ minimum: REMINDER_MIN_MINUTES, maximum: REMINDER_MAX_MINUTES }), {
      maxItems: MAX_REMINDERS,
      description:
        "Reminder emails to the visitor (and guests) before a confirmed booking, in minutes before its start (5 to 43200, at most 5, each once); default [1440, 60], a day and an hour before. [] sends none.",
    }),
    slug: Type.Union([
      Type.String({
        pattern: SLUG_PATTERN,
        maxLength: SLUG_MAX_LENGTH,
        description: "Name of the booking page /book/{slug}: lowercase letters and digits, words joined by single hyphens; unique. null removes the page.",
      }),
      Type.Null(),
    ]),
    disabled: Type.Boolean(),
    locale: Type.Object(
      {
        preset: Type.Optional(
          Type.String({
            pattern: "^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)?$",
            description: "The calendar's language (texts and dates), e.g. `de` or `de-AT`; empty (the default): the visitor's browser languages, then English.",
          }),
        ),
        startDayOfWeek: Type.Optional(oneOf(WEEK_STARTS)),
        // Keys name UI strings: plain identifiers, so nothing like `__proto__` reaches a client.
        texts: Type.Optional(
          Type.Record(Type.String({ pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,99}$" }), Type.String({ maxLength: 500 }), { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    theme: Type.Object(
      {
        mode: Type.Optional(oneOf(THEME_MODES)),
        borderRadius: Type.Optional(Type.String({ maxLength: 32 })),
        // Any key here: an unknown one gets a 422 naming THEME_COLOR_KEYS, not a bare schema refusal.
        colors: Type.Optional(
          Type.Record(Type.String({ maxLength: 32 }), Type.String({ maxLength: 64 }), { description: `CSS colours by key: ${THEME_COLOR_KEYS.join(", ")}.` }),
        ),
      },
      { additionalProperties: false },
    ),
    translations: Translations,
    profileImage: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
    calendarTitle: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
    hostName: Type.Union([
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The organizer's name shown beside the avatar (profileImage) and on the confirmation; null shows none.",
      }),
      Type.Null(),
    ]),
    compact: Type.Boolean(),
    externalBooking: Type.Boolean(),
    maxGuests: Type.Integer({ minimum: 0, maximum: 10 }),
    limits: Type.Composite([BookingLimits], {
      additionalProperties: false,
      description:
        "Booking limits of the event type: its bookings per day, week or month and their minutes per day or week, in calendar periods of its zone (weeks start on locale.startDayOfWeek). Each kind absent or null is no limit; a change replaces the whole object ({} removes every limit).",
    }),
    recurrence: RecurrenceInputField,
    hosts: Type.Array(EventTypeHostInput, {
      minItems: 1,
      maxItems: MAX_EVENT_TYPE_HOSTS,
      description: "Whose time the event type books, each host once; absent on create: the default host. Replaces the list when given.",
    }),
    assignment: oneOf(HOST_ASSIGNMENTS, {
      description:
        "collective: offered when every host is free, the booking takes all; round-robin: offered when any host is free, the booking takes one (priority, then least recently booked). Default collective.",
    }),
  },
  { additionalProperties: false },
);

/** Body of `PATCH /admin/event-types/{id}`: any subset of the settings. */
export const EventTypePatch = Type.Partial(EventTypeFields, { additionalProperties: false });
export type EventTypePatch = Static<typeof EventTypePatch>;

/** Body of `POST /admin/event-types`: `title` is required, everything else has a default. */
export const EventTypeCreate = Type.Composite([Type.Pick(EventTypeFields, ["title"]), Type.Omit(EventTypePatch, ["title"])], {
  additionalProperties: false,
});
export type EventTypeCreate = Static<typeof EventTypeCreate>;
