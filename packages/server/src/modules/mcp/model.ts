import { z } from "zod";
import { CLOCK_PATTERN, LIMITS, MAX_DAY_RANGES, RESERVATION_STATUSES, WEEKDAYS } from "@booking/wire";

// Input and output schemas of the assistant server's tools (zod, as the MCP SDK takes them). Inputs
// check shape only; dates, zones and rules are judged by the same services as the HTTP API, so a
// wrong value gets the same answer whichever channel sent it.

const CLOCK = new RegExp(CLOCK_PATTERN);

/** A calendar date. */
const date = (what: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Expected a date as YYYY-MM-DD.").describe(what);

/** An IANA zone name for reading and showing times. */
const timezone = z
  .string()
  .max(64)
  .optional()
  .describe("IANA time zone (e.g. Europe/Prague, America/New_York) for reading and showing times; default the event type's own zone.");

/** Names an event type by id or by slug; either may be left out when there is only one event type. */
const eventTypeChoice = {
  eventTypeId: z.number().int().positive().optional().describe("Id of the event type (see list_event_types)."),
  slug: z.string().max(200).optional().describe("Slug of the event type, the name in its booking link /book/{slug}."),
};

/** Opening hours of one day: HH:MM to HH:MM in the event type's zone; 24:00 is midnight at the end of the day. */
const TimeRangeInput = z.object({
  start: z.string().regex(CLOCK, "Expected HH:MM.").describe("Opening time, HH:MM."),
  end: z.string().regex(CLOCK, "Expected HH:MM or 24:00.").describe("Closing time, HH:MM (24:00 = midnight)."),
});
const ranges = (what: string) => z.array(TimeRangeInput).max(MAX_DAY_RANGES).describe(what);

/** A busy source as the calendar tools show it (never its password or token). */
const BusySourceOut = z.object({
  id: z.number().int(),
  hostId: z.number().int().describe("The host whose calendar it is: its busy times block every event type of the host."),
  eventTypeId: z.number().int().nullable().describe("The event type it was listed through, else the host's first event type."),
  kind: z.enum(["caldav", "ical"]),
  url: z.string(),
  username: z.string().nullable(),
  credentialsSet: z.boolean(),
  calendars: z.array(z.string()),
  freshnessMinutes: z.number().int(),
  status: z.enum(["never", "ok", "failing"]).describe("never: not synced yet; ok: the last sync worked; failing: it failed and the last good data is used."),
  stale: z.boolean(),
  lastAttemptAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastError: z.string().nullable(),
  skippedObjects: z.array(z.object({ href: z.string(), reason: z.string() })).describe("Calendar objects the last sync could not read and left out; the others count."),
  objects: z.number().int(),
  busyIntervals: z.number().int(),
  syncing: z.boolean().describe("Whether a sync asked for now is still under way; list_busy_sources shows it end (lastAttemptAt moves, syncing turns false)."),
  writeBookings: z.boolean().describe("Whether the host's confirmed bookings (of every event type) are written into a calendar of this source."),
  writeCalendar: z.string().nullable().describe("The calendar bookings are written into; null when none of this source."),
});
const SyncOut = z.object({ ok: z.boolean(), changed: z.boolean(), downloaded: z.number().int(), error: z.string().nullable() });
/** A sync asked for now: its outcome when it ended within the answer window, else `syncing` and no outcome yet. */
const SyncNowOut = z.object({
  state: z.enum(["done", "syncing"]).describe("done: the sync ended and `sync` is its outcome; syncing: it goes on after this answer, poll list_busy_sources for the source's status."),
  sync: SyncOut.nullable().describe("The outcome; null while the sync goes on."),
  source: BusySourceOut,
});
const sourceId = z.number().int().positive().describe("Id of the busy source (see list_busy_sources).");

const hostId = z.number().int().positive().describe("Id of the host (see list_hosts).");
const scheduleId = z.number().int().positive().describe("Id of the schedule (see get_host).");
/** Weekly hours as tools take them: a weekday's ranges replace that day's; days left out are closed on create, kept on update. */
const weeklyInput = z
  .object(Object.fromEntries(WEEKDAYS.map((d) => [d, ranges(`Opening hours on ${d}s; empty: closed.`).optional()])) as Record<(typeof WEEKDAYS)[number], z.ZodOptional<z.ZodArray<typeof TimeRangeInput>>>)
  .strict();
const overridesInput = z
  .array(z.object({ date: date("The date, YYYY-MM-DD, in the schedule's zone."), ranges: ranges("Its own hours; empty: closed.") }))
  .max(1000)
  .describe("Dates with their own hours (or closed) instead of their weekday's.");
const hostFields = {
  name: z.string().min(1).max(200).describe("The host's name, shown to visitors beside the avatar and named in invites."),
  email: z.string().max(LIMITS.emailMaxLength).describe("Gets a copy of the confirmations of the host's bookings; the organizer of their invites."),
  timezone: z.string().max(64).describe("IANA zone; the host's new schedules default to it (default UTC)."),
  avatarUrl: z.string().max(2000).nullable().describe("http(s) URL of the host's picture; null for none."),
};

/** Inputs of every tool, by tool name. */
export const ToolInputs = {
  list_hosts: {},
  get_host: { hostId },
  create_host: { name: hostFields.name, email: hostFields.email, timezone: hostFields.timezone.optional(), avatarUrl: hostFields.avatarUrl.optional() },
  update_host: { hostId, name: hostFields.name.optional(), email: hostFields.email.optional(), timezone: hostFields.timezone.optional(), avatarUrl: hostFields.avatarUrl.optional() },
  delete_host: { hostId },
  list_host_bookings: {
    hostId,
    from: date("First day, YYYY-MM-DD, in the chosen zone."),
    until: date("Last day (inclusive), YYYY-MM-DD."),
    status: z.enum(RESERVATION_STATUSES).optional().describe("Only bookings in this status."),
    timezone: z.string().max(64).optional().describe("IANA zone of the days and the times shown; default the host's."),
  },
  create_schedule: {
    hostId,
    name: z.string().min(1).max(200).describe("Name of the schedule, e.g. Working hours."),
    timezone: z.string().max(64).optional().describe("IANA zone of the hours; default the host's."),
    weekly: weeklyInput.describe("Opening hours by weekday; days left out are closed."),
    overrides: overridesInput.optional(),
  },
  update_schedule: {
    scheduleId,
    name: z.string().min(1).max(200).optional(),
    timezone: z.string().max(64).optional().describe("IANA zone of the hours."),
    weekly: weeklyInput.optional().describe("Weekdays to set; the days left out keep their hours."),
    overrides: overridesInput.optional().describe("Replaces the schedule's date overrides when given."),
  },
  delete_schedule: { scheduleId },
  set_event_type_hosts: {
    ...eventTypeChoice,
    hosts: z
      .array(
        z.object({
          hostId,
          priority: z.number().int().min(0).max(1000).optional().describe("Round robin offers a booking to the free hosts of the highest priority first; default 0."),
          scheduleId: z.number().int().positive().nullable().optional().describe("One of the host's schedules; absent or null: the event type's own hours."),
        }),
      )
      .min(1)
      .max(50)
      .describe("Whose time the event type books; replaces its hosts."),
    assignment: z.enum(["collective", "round-robin"]).optional().describe("With several hosts: collective offers a time when every host is free and books them all; round-robin offers it when any is free and books one. Kept when absent."),
  },
  list_busy_sources: { ...eventTypeChoice, hostId: hostId.optional().describe("List this host's calendars instead of an event type's.") },
  add_busy_source: {
    ...eventTypeChoice,
    hostId: hostId.optional().describe("Add the calendar to this host rather than to the event type's (first) host; it blocks every event type of the host."),
    kind: z.enum(["caldav", "ical"]).describe("caldav: a CalDAV account, principal or calendar URL; ical: a read-only iCalendar feed URL."),
    url: z.string().min(1).max(2000).describe("The calendar's URL (webcal:// feeds are accepted)."),
    username: z.string().max(500).optional().describe("User name for the calendar server."),
    password: z.string().max(500).optional().describe("Password (or app password) for the calendar server."),
    token: z.string().max(500).optional().describe("A bearer token instead of user name and password."),
    calendars: z.array(z.string().max(2000)).max(50).optional().describe("CalDAV only: the calendar URLs to read; default every calendar the URL leads to."),
    freshnessMinutes: z.number().int().min(1).max(10080).optional().describe("Minutes a sync stays fresh; default the server's."),
  },
  remove_busy_source: { sourceId },
  sync_busy_source: { sourceId },
  write_bookings_to_calendar: {
    sourceId,
    calendar: z.string().max(2000).optional().describe("The CalDAV calendar URL to write into (absolute, or a path on the source's server); default the source's first calendar."),
  },
  stop_writing_bookings: { sourceId },
  list_event_types: {},
  resolve_booking_link: {
    link: z
      .string()
      .min(1)
      .max(2000)
      .describe("A booking link (https://host/book/intro-call, optionally with ?reservation=<uuid>), its path, or just the slug."),
    timezone,
    slotCount: z.number().int().min(0).max(50).optional().describe("How many of the next free slots to include; default 5."),
  },
  find_free_slots: {
    ...eventTypeChoice,
    from: date("First day, YYYY-MM-DD, in the chosen time zone."),
    until: date(`Last day (inclusive), YYYY-MM-DD; at most ${LIMITS.maxSlotRangeDays} days after from.`),
    timezone,
    limit: z.number().int().min(1).max(2000).optional().describe("At most this many slots, earliest first; default 200."),
    includeShortNotice: z
      .boolean()
      .optional()
      .describe("Also list future times inside the minimum notice or beyond the booking horizon: visitors cannot book them, but the organizer can move a reservation there. Default false."),
  },
  search_reservations: {
    ...eventTypeChoice,
    email: z.string().max(LIMITS.emailMaxLength).optional().describe("Part of the visitor's email address, any case."),
    name: z.string().max(200).optional().describe("Part of the visitor's name (first or last, any case and accents)."),
    status: z.enum(RESERVATION_STATUSES).optional().describe("held (booking in progress), confirmed, expired or cancelled."),
    from: date("First day of the search, YYYY-MM-DD; default today.").optional(),
    until: date("Last day of the search (inclusive), YYYY-MM-DD; default one year after from, at most 366 days after it.").optional(),
    timezone,
    limit: z.number().int().min(1).max(200).optional().describe("At most this many reservations, earliest first; default 25."),
  },
  get_reservation: {
    uuid: z.string().max(100).describe("The reservation's uuid."),
    ...eventTypeChoice,
    timezone,
  },
  reschedule_reservation: {
    uuid: z.string().max(100).describe("The reservation's uuid (search_reservations finds it)."),
    start: z
      .string()
      .max(64)
      .describe(
        "New start: an ISO 8601 date-time with offset (2026-11-25T15:00:00+01:00), or a local date-time without offset (2026-11-25T15:00) read in `timezone`. The end follows from the meeting length.",
      ),
    ...eventTypeChoice,
    timezone,
  },
  cancel_reservation: {
    uuid: z.string().max(100).describe("The reservation's uuid."),
    ...eventTypeChoice,
    timezone,
  },
  get_availability: { ...eventTypeChoice },
  set_weekly_hours: {
    ...eventTypeChoice,
    days: z.array(z.enum(WEEKDAYS)).min(1).max(7).describe("Weekdays to set, e.g. [\"monday\", \"friday\"]; the other days keep their hours."),
    ranges: ranges("Opening hours of each of those days; an empty list closes them every week."),
  },
  set_date_override: {
    ...eventTypeChoice,
    date: date("The date, YYYY-MM-DD, in the event type's zone."),
    ranges: ranges("Opening hours of that date instead of its weekday's; an empty list closes the day."),
  },
  close_day: {
    ...eventTypeChoice,
    date: date("The date to close, YYYY-MM-DD, in the event type's zone."),
  },
  clear_date_override: {
    ...eventTypeChoice,
    date: date("The date whose override to remove, YYYY-MM-DD; it gets its weekday's hours again."),
  },
} as const;

/** The facts that name an event type in a result. */
export const EventTypeRef = z.object({ id: z.number().int(), title: z.string(), slug: z.string().nullable() });
export type EventTypeRef = z.infer<typeof EventTypeRef>;

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
  reminderMinutes: z.array(z.number().int()).describe("Reminder emails go to the visitor and guests this many minutes before a confirmed booking's start; empty: none."),
  locations: z.array(z.object({ type: z.string(), value: z.string().nullable() })),
  customFields: z.array(z.object({ name: z.string(), label: z.string(), type: z.string(), required: z.boolean() })),
  availability: AvailabilityView,
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

/** A host as the host tools show it. */
const HostOut = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  timezone: z.string(),
  avatarUrl: z.string().nullable(),
  isDefault: z.boolean().describe("Event types created without naming hosts belong to it."),
  bookingsCalendar: z.object({ sourceId: z.number().int(), calendarUrl: z.string() }).nullable().describe("The calendar the host's confirmed bookings are written into."),
  eventTypeIds: z.array(z.number().int()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const ScheduleOut = z.object({
  id: z.number().int(),
  hostId: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  availability: z.object({ weekly: z.record(z.string(), z.array(TimeRange)), overrides: z.array(z.object({ date: z.string(), ranges: z.array(TimeRange) })).optional() }),
  eventTypeIds: z.array(z.number().int()).describe("Event types whose host uses it."),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const HostRef = z.object({ id: z.number().int(), name: z.string() });
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
  set_event_type_hosts: z.object({ eventType: EventTypeRef, assignment: z.enum(["collective", "round-robin"]), hosts: z.array(EventTypeHostOut) }),
  list_busy_sources: z.object({ eventType: EventTypeRef.nullable().describe("The event type listed; null when a host's calendars were asked for."), host: HostRef.nullable().describe("The host listed; null for an event type."), sources: z.array(BusySourceOut) }),
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
  set_weekly_hours: z.object({ eventType: EventTypeRef, availability: AvailabilityView }),
  set_date_override: AvailabilityChange,
  close_day: AvailabilityChange,
  clear_date_override: AvailabilityChange.extend({ removed: z.boolean() }),
} as const;

/** Structured result of a tool, by tool name. */
export type ToolOutput<K extends keyof typeof ToolOutputs> = z.infer<(typeof ToolOutputs)[K]>;
