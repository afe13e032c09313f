import { Type, type Static } from "@sinclair/typebox";
import { z } from "zod";
import {
  BusySourceInput,
  BusySourceView,
  DateOverride,
  DayRanges,
  EventTypeHostInput,
  HostAssignmentSchema,
  HostCreate,
  HostFields,
  HostView,
  LIMITS,
  MAX_DATE_OVERRIDES,
  MAX_EVENT_TYPE_HOSTS,
  RESERVATION_STATUSES,
  ScheduleFields,
  ScheduleView,
  Nullable,
  SyncOutcome,
  WEEKDAYS,
  WeeklyHours,
  WriteBookingsInput,
} from "@booking/wire";
import { toolOutput } from "./tool-input.ts";
import { TimeOffToolInputs, TimeOffToolOutputs } from "./time-off.ts";
import { described, EventTypeRef, eventTypeChoice, hostId, HostRef, oneOf, date, timezone } from "./model-parts.ts";
import { CheckToolInputs, CheckToolOutputs, LimitToolInputs, LimitToolOutputs } from "./rules-model.ts";

export { EventTypeRef } from "./model-parts.ts";

// Inputs of the assistant server's tools: TypeBox, composed of the wire's shapes where the admin API
// takes the same thing (hosts, schedules, an event type's hosts, busy sources), turned into what the
// MCP SDK takes in one place (`toolInput`). Outputs are zod, as the SDK checks them. Inputs check
// shape only; dates, zones and rules are judged by the same services as the HTTP API, so a wrong
// value gets the same answer whichever channel sent it.

const ranges = (what: string) => described(DayRanges, what);
const sourceId = Type.Integer({ minimum: 1, description: "Id of the busy source (see list_busy_sources)." });
const scheduleId = Type.Integer({ minimum: 1, description: "Id of the schedule (see get_host)." });
const overrides = Type.Array(DateOverride, { maxItems: MAX_DATE_OVERRIDES, description: "Dates with their own hours (or closed) instead of their weekday's." });
const schedule = ScheduleFields.properties;
const busySource = BusySourceInput.properties;
const uuid = (what: string) => Type.String({ maxLength: 100, description: what });

/** Inputs of every tool, by tool name. */
export const ToolInputs = {
  list_hosts: Type.Object({}),
  get_host: Type.Object({ hostId }),
  create_host: HostCreate,
  update_host: Type.Object({ hostId, ...Type.Partial(HostFields).properties }),
  delete_host: Type.Object({ hostId }),
  list_host_bookings: Type.Object({
    hostId,
    from: date("First day, YYYY-MM-DD, in the chosen zone."),
    until: date("Last day (inclusive), YYYY-MM-DD."),
    status: Type.Optional(oneOf(RESERVATION_STATUSES, "Only bookings in this status.")),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: "IANA zone of the days and the times shown; default the host's." })),
  }),
  create_schedule: Type.Object({
    hostId,
    name: described(schedule.name, "Name of the schedule, e.g. Working hours."),
    timezone: Type.Optional(schedule.timezone),
    weekly: described(WeeklyHours, "Opening hours by weekday; days left out are closed."),
    overrides: Type.Optional(overrides),
  }),
  update_schedule: Type.Object({
    scheduleId,
    name: Type.Optional(schedule.name),
    timezone: Type.Optional(schedule.timezone),
    weekly: Type.Optional(described(WeeklyHours, "Weekdays to set; the days left out keep their hours.")),
    overrides: Type.Optional(described(overrides, "Replaces the schedule's date overrides when given.")),
  }),
  delete_schedule: Type.Object({ scheduleId }),
  ...TimeOffToolInputs,
  set_event_type_hosts: Type.Object({
    ...eventTypeChoice,
    hosts: Type.Array(EventTypeHostInput, { minItems: 1, maxItems: MAX_EVENT_TYPE_HOSTS, description: "Whose time the event type books; replaces its hosts." }),
    assignment: Type.Optional(
      described(
        HostAssignmentSchema,
        "With several hosts: collective offers a time when every host is free and books them all; round-robin offers it when any is free and books one. Kept when absent.",
      ),
    ),
  }),
  list_busy_sources: Type.Object({ ...eventTypeChoice, hostId: Type.Optional(described(hostId, "List this host's calendars instead of an event type's.")) }),
  add_busy_source: Type.Object({
    ...eventTypeChoice,
    hostId: Type.Optional(
      described(hostId, "Add the calendar to this host rather than to the event type's (first) host; it blocks every event type of the host."),
    ),
    ...busySource,
  }),
  remove_busy_source: Type.Object({ sourceId }),
  sync_busy_source: Type.Object({ sourceId }),
  write_bookings_to_calendar: Type.Object({ sourceId, ...WriteBookingsInput.properties }),
  stop_writing_bookings: Type.Object({ sourceId }),
  ...LimitToolInputs,
  list_event_types: Type.Object({}),
  resolve_booking_link: Type.Object({
    link: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: "A booking link (https://host/book/intro-call, optionally with ?reservation=<uuid>), its path, or just the slug.",
    }),
    timezone,
    slotCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, description: "How many of the next free slots to include; default 5." })),
  }),
  find_free_slots: Type.Object({
    ...eventTypeChoice,
    from: date("First day, YYYY-MM-DD, in the chosen time zone."),
    until: date(`Last day (inclusive), YYYY-MM-DD; at most ${LIMITS.maxSlotRangeDays} days after from.`),
    timezone,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 2000, description: "At most this many slots, earliest first; default 200." })),
    includeShortNotice: Type.Optional(
      Type.Boolean({
        description:
          "Also list future times inside the minimum notice or beyond the booking horizon: visitors cannot book them, but the organizer can move a reservation there. Default false.",
      }),
    ),
  }),
  search_reservations: Type.Object({
    ...eventTypeChoice,
    email: Type.Optional(Type.String({ maxLength: LIMITS.emailMaxLength, description: "Part of the visitor's email address, any case." })),
    name: Type.Optional(Type.String({ maxLength: 200, description: "Part of the visitor's name (first or last, any case and accents)." })),
    status: Type.Optional(oneOf(RESERVATION_STATUSES, "held (booking in progress), confirmed, expired or cancelled.")),
    from: Type.Optional(date("First day of the search, YYYY-MM-DD; default today.")),
    until: Type.Optional(date("Last day of the search (inclusive), YYYY-MM-DD; default one year after from, at most 366 days after it.")),
    timezone,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: "At most this many reservations, earliest first; default 25." })),
  }),
  get_reservation: Type.Object({ uuid: uuid("The reservation's uuid."), ...eventTypeChoice, timezone }),
  reschedule_reservation: Type.Object({
    uuid: uuid("The reservation's uuid (search_reservations finds it)."),
    start: Type.String({
      maxLength: 64,
      description:
        "New start: an ISO 8601 date-time with offset (2026-11-25T15:00:00+01:00), or a local date-time without offset (2026-11-25T15:00) read in `timezone`. The end follows from the meeting length.",
    }),
    ...eventTypeChoice,
    timezone,
  }),
  cancel_reservation: Type.Object({ uuid: uuid("The reservation's uuid."), ...eventTypeChoice, timezone }),
  get_availability: Type.Object({ ...eventTypeChoice }),
  ...CheckToolInputs,
  set_weekly_hours: Type.Object({
    ...eventTypeChoice,
    days: Type.Array(oneOf(WEEKDAYS), {
      minItems: 1,
      maxItems: 7,
      description: 'Weekdays to set, e.g. ["monday", "friday"]; the other days keep their hours.',
    }),
    ranges: ranges("Opening hours of each of those days; an empty list closes them every week."),
  }),
  set_date_override: Type.Object({
    ...eventTypeChoice,
    date: date("The date, YYYY-MM-DD, in the event type's zone."),
    ranges: ranges("Opening hours of that date instead of its weekday's; an empty list closes the day."),
  }),
  close_day: Type.Object({ ...eventTypeChoice, date: date("The date to close, YYYY-MM-DD, in the event type's zone.") }),
  clear_date_override: Type.Object({ ...eventTypeChoice, date: date("The date whose override to remove, YYYY-MM-DD; it gets its weekday's hours again.") }),
};

/** Arguments of a tool, as its input schema checks them. */
export type ToolArgs<K extends keyof typeof ToolInputs> = Static<(typeof ToolInputs)[K]>;

/** A busy source as the calendar tools show it (never its password or token): the admin API's view. */
const BusySourceOut = toolOutput(BusySourceView);
/** A sync asked for now: its outcome when it ended within the answer window, else `syncing` and no outcome yet. */
const SyncNowOut = toolOutput(
  Type.Object({
    state: oneOf(
      ["done", "syncing"],
      "done: the sync ended and `sync` is its outcome; syncing: it goes on after this answer, poll list_busy_sources for the source's status.",
    ),
    sync: Nullable(SyncOutcome, { description: "The outcome; null while the sync goes on." }),
    source: BusySourceView,
  }),
);

/** The facts that name an event type in a result. */

const Money = z.object({ amount: z.number().int().describe("Smallest currency unit."), currency: z.string() });
const TimeRange = z.object({ start: z.string(), end: z.string() });

/** An event type in a list. */
export const EventTypeSummary = EventTypeRef.extend({
  bookingUrl: z.string().nullable().describe("The shareable booking page; null without a slug."),
  disabled: z.boolean().describe("A disabled event type takes no bookings from visitors."),
  timezone: z.string(),
  durationMinutes: z.number().int(),
  seats: z.number().int(),
  price: Money.nullable(),
  hosts: z.array(z.object({ hostId: z.number().int(), name: z.string() })).describe("Whose time it books (see get_host)."),
  assignment: z.enum(["collective", "round-robin"]).describe("With several hosts: collective books them all at once; round-robin books one free host."),
});
export type EventTypeSummary = z.infer<typeof EventTypeSummary>;

/** Weekly hours (every weekday) and date overrides, in the event type's zone. */
export const AvailabilityView = z.object({
  timezone: z.string(),
  weekly: z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(TimeRange)])) as Record<(typeof WEEKDAYS)[number], z.ZodArray<typeof TimeRange>>),
  overrides: z.array(z.object({ date: z.string(), ranges: z.array(TimeRange), closed: z.boolean() })),
});
export type AvailabilityView = z.infer<typeof AvailabilityView>;

/** A custom field's condition, as the assistant reads it. */
const ShowIfView = z
  .object({ field: z.string(), equals: z.array(z.string()).optional(), checked: z.literal(true).optional(), notEmpty: z.literal(true).optional() })
  .describe(
    "Asked only while the earlier field `field` is answered one of `equals`, is checked, or is answered (notEmpty); not asked: not required, an answer refused.",
  );

/** An event type with the settings that decide what can be booked. */
export const EventTypeDetail = EventTypeSummary.extend({
  description: z.string(),
  slotIntervalMinutes: z.number().int(),
  holdMinutes: z.number().int(),
  bufferBeforeMinutes: z.number().int(),
  bufferAfterMinutes: z.number().int(),
  minNoticeMinutes: z.number().int(),
  horizonDays: z.number().int(),
  rescheduleNoticeMinutes: z.number().int().describe("Visitors may reschedule until this long before the start; the organizer always may."),
  cancelNoticeMinutes: z.number().int().describe("Visitors may cancel until this long before the start; the organizer always may."),
  reminderMinutes: z
    .array(z.number().int())
    .describe("Reminder emails go to the visitor and guests this many minutes before a confirmed booking's start; empty: none."),
  locations: z.array(z.object({ type: z.string(), value: z.string().nullable() })),
  customFields: z.array(z.object({ name: z.string(), label: z.string(), type: z.string(), required: z.boolean(), showIf: ShowIfView.optional() })),
  availability: AvailabilityView,
  recurrence: z
    .object({ maxOccurrences: z.number().int(), intervals: z.array(z.enum(["weekly", "biweekly"])) })
    .nullable()
    .describe("Whether visitors may book a series (the same time every week or two weeks, up to maxOccurrences dates); null: single bookings only."),
});
export type EventTypeDetail = z.infer<typeof EventTypeDetail>;

/** A free slot; `start`, `end`, `date` and `time` are in the result's time zone. */
export const SlotView = z.object({
  start: z.string(),
  end: z.string(),
  startUtc: z.string(),
  endUtc: z.string(),
  date: z.string(),
  time: z.string().describe("HH:MM of the start."),
  freeSeats: z.number().int(),
  seats: z.number().int(),
});
export type SlotView = z.infer<typeof SlotView>;

/** A reservation; `start` and `end` are in `timezone`. */
export const ReservationView = z.object({
  uuid: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  eventType: EventTypeRef,
  start: z.string(),
  end: z.string(),
  startUtc: z.string(),
  endUtc: z.string(),
  timezone: z.string().describe("Zone of start and end."),
  visitorTimezone: z.string().nullable().describe("The zone the visitor booked in, if known."),
  name: z.string().nullable(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  phone: z.string(),
  guests: z.array(z.string()),
  location: z.object({ type: z.string(), value: z.string().nullable() }).nullable(),
  customFields: z.array(z.object({ uuid: z.string(), name: z.string().nullable(), label: z.string().nullable(), value: z.unknown() })),
  meetLink: z.string().nullable(),
  manageUrl: z.string().nullable().describe("The visitor's own reschedule and cancel link."),
  heldUntil: z.string().nullable(),
  payment: z.object({ status: z.string(), amount: z.number().int(), currency: z.string() }).nullable(),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type ReservationView = z.infer<typeof ReservationView>;

/** Result of a change of opening hours. */
const AvailabilityChange = z.object({
  eventType: EventTypeRef,
  availability: AvailabilityView,
  reservationsOnDate: z.array(ReservationView).describe("Confirmed or held reservations on the changed date; a change of hours keeps them."),
});

/** A host as the host tools show it: the admin API's view. */
const HostOut = toolOutput(HostView);
/** A schedule as the host tools show it: the admin API's view. */
const ScheduleOut = toolOutput(ScheduleView);
const EventTypeHostOut = z.object({ hostId: z.number().int(), name: z.string(), priority: z.number().int(), scheduleId: z.number().int().nullable() });

/** Outputs of every tool, by tool name. */
export const ToolOutputs = {
  list_hosts: z.object({ hosts: z.array(HostOut) }),
  get_host: z.object({ host: HostOut, schedules: z.array(ScheduleOut), calendars: z.array(BusySourceOut), eventTypes: z.array(EventTypeRef) }),
  create_host: z.object({ host: HostOut }),
  update_host: z.object({ host: HostOut }),
  delete_host: z.object({ hostId: z.number().int(), deleted: z.boolean() }),
  list_host_bookings: z.object({
    host: HostRef,
    timezone: z.string().describe("Zone of the days and of start and end."),
    from: z.string(),
    until: z.string(),
    bookings: z.array(
      z.object({
        uuid: z.string(),
        eventType: EventTypeRef,
        hostIds: z.array(z.number().int()),
        status: z.enum(RESERVATION_STATUSES),
        start: z.string(),
        end: z.string(),
        name: z.string().nullable(),
        email: z.string(),
      }),
    ),
  }),
  create_schedule: z.object({ schedule: ScheduleOut }),
  update_schedule: z.object({ schedule: ScheduleOut }),
  delete_schedule: z.object({ scheduleId: z.number().int(), deleted: z.boolean() }),
  ...TimeOffToolOutputs,
  set_event_type_hosts: z.object({ eventType: EventTypeRef, assignment: z.enum(["collective", "round-robin"]), hosts: z.array(EventTypeHostOut) }),
  ...LimitToolOutputs,
  list_busy_sources: z.object({
    eventType: EventTypeRef.nullable().describe("The event type listed; null when a host's calendars were asked for."),
    host: HostRef.nullable().describe("The host listed; null for an event type."),
    sources: z.array(BusySourceOut),
  }),
  add_busy_source: SyncNowOut,
  remove_busy_source: z.object({ sourceId: z.number().int(), removed: z.boolean() }),
  sync_busy_source: SyncNowOut,
  write_bookings_to_calendar: z.object({ source: BusySourceOut }),
  stop_writing_bookings: z.object({ source: BusySourceOut }),
  list_event_types: z.object({ eventTypes: z.array(EventTypeSummary) }),
  resolve_booking_link: z.object({
    eventType: EventTypeDetail,
    timezone: z.string(),
    nextFreeSlots: z.array(SlotView),
    reservation: ReservationView.nullable().describe("The reservation the link names with ?reservation=, if any."),
  }),
  find_free_slots: z.object({
    eventType: EventTypeRef,
    timezone: z.string(),
    from: z.string(),
    until: z.string(),
    disabled: z.boolean(),
    slots: z.array(SlotView),
    truncated: z.boolean().describe("True when more slots were free than `limit`."),
  }),
  search_reservations: z.object({
    timezone: z.string().nullable().describe("Zone of the times; null when each reservation shows its event type's zone."),
    from: z.string(),
    until: z.string(),
    total: z.number().int(),
    truncated: z.boolean(),
    reservations: z.array(ReservationView),
  }),
  get_reservation: z.object({ reservation: ReservationView }),
  reschedule_reservation: z.object({
    reservation: ReservationView,
    previousStart: z.string(),
    previousEnd: z.string(),
    changed: z.boolean(),
    webhookQueued: z.boolean().describe("Whether reservation.rescheduled was queued for the event type's webhook."),
  }),
  cancel_reservation: z.object({
    reservation: ReservationView,
    alreadyCancelled: z.boolean(),
    webhookQueued: z.boolean().describe("Whether reservation.cancelled was queued for the event type's webhook."),
  }),
  get_availability: z.object({ eventType: EventTypeRef, availability: AvailabilityView }),
  ...CheckToolOutputs,
  set_weekly_hours: z.object({ eventType: EventTypeRef, availability: AvailabilityView }),
  set_date_override: AvailabilityChange,
  close_day: AvailabilityChange,
  clear_date_override: AvailabilityChange.extend({ removed: z.boolean() }),
} as const;

/** Structured result of a tool, by tool name. */
export type ToolOutput<K extends keyof typeof ToolOutputs> = z.infer<(typeof ToolOutputs)[K]>;
