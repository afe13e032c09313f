import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { LIMITS } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { DomainError, BusinessFailure, ValidationFailed } from "../../domain/errors.ts";
import { StoreBusyError, StoreUnavailableError } from "../../store/errors.ts";
import type { Services } from "../../services.ts";
import { AvailabilityTools } from "./availability.ts";
import { SYNC_ANSWER_MS } from "../calendars/service.ts";
import { CalendarTools } from "./calendars.ts";
import { CheckTools } from "./checks.ts";
import { HostTools } from "./hosts.ts";
import { TIME_OFF_TOOLS, TimeOffTools } from "./time-off.ts";
import { Lookup } from "./lookup.ts";
import { ToolInputs, ToolOutputs } from "./model.ts";
import { toolInput } from "./tool-input.ts";
import { OrganizerTools, type ToolAnswer } from "./service.ts";

/** How the server introduces itself to assistants. */
export const SERVER_INFO = { name: "booking-calendar", title: "Booking calendar (organizer)", version: "1.0.0" };

const INSTRUCTIONS = `Tools for the organizer of a self-hosted booking calendar: their event types (meeting kinds with opening hours), the reservations visitors made, the opening hours, and the hosts whose time event types book (their schedules, calendars, time off and bookings across event types; team event types are collective or round robin).
Times: every tool reads and shows times in the \`timezone\` it is given (an IANA name such as Europe/Prague), by default the event type's own zone. Dates are YYYY-MM-DD.
To move a meeting ("move my 3 pm with Ada to tomorrow"): search_reservations (name, date) to find its uuid, find_free_slots for the new day, then reschedule_reservation with the new start; the end follows from the meeting length.
To explain why a time cannot be booked ("why can't I book Alex on Tuesday at 10?"): list_hosts to find the host, then check_availability with hostId and the local start; it lists every reason by the same rules as the booking page.
Changes act as the organizer: the visitor's notice rules do not apply, but opening hours, seats and booking limits do, and nothing moves into the past. Reschedules and cancellations notify the event type's webhook like any change. Changing opening hours never cancels a reservation.`;

type ToolName = keyof typeof ToolInputs;

interface ToolMeta {
  title: string;
  description: string;
  annotations: ToolAnnotations;
}

const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const HOURS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Title, description and hints of every tool (exported so a test can read the limits they state). */
export const TOOLS: Record<ToolName, ToolMeta> = {
  list_event_types: {
    title: "List event types",
    description: "Lists the organizer's event types with id, title, slug, booking link, length, time zone, seats, price and whether they are disabled.",
    annotations: READ,
  },
  resolve_booking_link: {
    title: "Resolve a booking link",
    description:
      "Turns a booking link (https://<server>/book/<slug>, optionally ?reservation=<uuid>) or a bare slug into its event type: settings, opening hours and the next free slots; a link with ?reservation= also returns that reservation.",
    annotations: READ,
  },
  find_free_slots: {
    title: "Find free slots",
    description: `Free times of an event type between two dates (at most ${LIMITS.maxSlotRangeDays} days), shown in the given time zone. By default only what visitors can book; includeShortNotice adds times inside the minimum notice or past the horizon, which the organizer can still move a reservation to.`,
    annotations: READ,
  },
  search_reservations: {
    title: "Search reservations",
    description:
      "Finds reservations by part of the visitor's email or name, status and date range (default: from today for a year), in one event type or all. Results are sorted by start, with times in the given zone.",
    annotations: READ,
  },
  get_reservation: {
    title: "Get a reservation",
    description: "One reservation by uuid: visitor, times, status, location, answers, meeting link and the visitor's manage link.",
    annotations: READ,
  },
  reschedule_reservation: {
    title: "Reschedule a reservation",
    description:
      "Moves a confirmed (or held) reservation to a new start, as the organizer: the visitor's reschedule notice does not apply, but the new time must be in the future, within opening hours and have a free seat. The end follows from the meeting length. Sends the reservation.rescheduled webhook.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  cancel_reservation: {
    title: "Cancel a reservation",
    description:
      "Cancels a reservation as the organizer (the visitor's cancel notice does not apply) and frees its seat. A meeting that has already ended cannot be cancelled. Sends the reservation.cancelled webhook.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  check_availability: {
    title: "Why is a time (not) bookable",
    description:
      "Answers \"why can't I book Alex on Tuesday at 10?\": whether a start is bookable through an event type (or for a host, through each of their event types) and every reason it is not, with stable codes: outside_hours (which schedule), min_notice, horizon, host_busy (a booking through another event type: which), calendar_busy (which calendar, the event's title), buffer, limit_reached, time_off, seats_full, disabled; a team's hosts each with their own. The same rules as the booking page.",
    annotations: READ,
  },
  get_availability: {
    title: "Read opening hours",
    description: "The event type's weekly opening hours and date overrides (days with their own hours or closed), in its own time zone.",
    annotations: READ,
  },
  set_weekly_hours: {
    title: "Set weekly hours",
    description:
      "Sets the opening hours of some weekdays every week (an empty list closes them); other weekdays and date overrides stay. Times are HH:MM in the event type's zone.",
    annotations: HOURS,
  },
  set_date_override: {
    title: "Set a date's hours",
    description: "Gives one date its own opening hours instead of its weekday's (an empty list closes it). Existing reservations that day are kept and listed.",
    annotations: HOURS,
  },
  close_day: {
    title: "Close a day",
    description: "Closes one date for new bookings. Existing reservations that day are kept and listed, so they can be moved or cancelled.",
    annotations: HOURS,
  },
  clear_date_override: {
    title: "Clear a date's override",
    description: "Removes a date's own hours or closing, so it has its weekday's hours again.",
    annotations: HOURS,
  },
  list_hosts: {
    title: "List hosts",
    description:
      "The hosts: the people whose time event types book (a host's bookings of any event type, schedules and calendars block them everywhere), each with email, zone and the ids of its event types.",
    annotations: READ,
  },
  get_host: {
    title: "Get a host",
    description: "One host with its schedules (named weekly hours), its calendars with their sync status, and the event types it hosts.",
    annotations: READ,
  },
  create_host: {
    title: "Create a host",
    description:
      "Adds a host (a person whose time is booked): name, email, time zone, an optional avatar URL and optional booking limits across all of their event types. set_event_type_hosts then gives it event types.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  update_host: {
    title: "Change a host",
    description:
      "Changes a host's name, email, time zone, avatar (null removes it) or booking limits (replaced whole, as set_booking_limits does); the fields left out stay.",
    annotations: HOURS,
  },
  delete_host: {
    title: "Delete a host",
    description:
      "Deletes a host with its schedules and calendars. Refused for the default host, and while the host has event types or bookings (take it off its event types first).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  list_host_bookings: {
    title: "List a host's bookings",
    description:
      "A host's bookings across all its event types (personal and team) in a range of days, by start, with each booking's event type, status and visitor; days and times in the host's zone unless another is asked.",
    annotations: READ,
  },
  create_schedule: {
    title: "Create a schedule",
    description:
      "Adds a named schedule (weekly hours and date overrides, in the host's zone unless another is given) to a host; an event type uses it through set_event_type_hosts (scheduleId).",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  update_schedule: {
    title: "Change a schedule",
    description:
      "Renames a schedule, changes its zone, sets some weekdays (the others keep their hours) or replaces its date overrides. Every event type using it offers the new hours at once; no booking is cancelled.",
    annotations: HOURS,
  },
  delete_schedule: {
    title: "Delete a schedule",
    description: "Deletes a schedule no event type uses (refused otherwise).",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
  set_event_type_hosts: {
    title: "Set an event type's hosts",
    description:
      "Sets whose time an event type books: one host, or a team. collective: a time is offered when every host is free and the booking takes them all; round-robin: offered when any host is free, and each booking takes one free host (highest priority first, then the least recently booked). Each host may use one of its schedules (scheduleId) or the event type's own hours.",
    annotations: HOURS,
  },
  set_booking_limits: {
    title: "Set booking limits",
    description:
      "Sets the booking limits of an event type (in its zone; weeks start on its calendar's first weekday) or, with hostId, of a host across all of their event types (in the host's zone, weeks from Monday): at most N bookings per calendar day, week or month, at most N minutes booked per day or week. Held and confirmed bookings count, cancelled ones do not. A full day or week is no longer offered, and a booking past a limit is refused with limit_reached; round robin leaves a host at their limit out.",
    annotations: HOURS,
  },
  list_busy_sources: {
    title: "List the calendars that block slots",
    description:
      "The calendars (CalDAV or iCalendar feeds) of an event type's hosts, or of one host (hostId), whose busy times are left out of free slots, with their sync status: last good sync, last error, objects and busy intervals.",
    annotations: READ,
  },
  add_busy_source: {
    title: "Add a calendar that blocks slots",
    description: `Gives a host (hostId, or the named event type's first host) a calendar to read busy times from: a CalDAV account or calendar, or a read-only iCalendar feed; synced at once. From then on slots meeting its events, in every event type of the host (recurring and all-day included; free/transparent events not) are no longer offered or bookable. A sync longer than ${SYNC_ANSWER_MS / 1000} s goes on after the answer (state "syncing"); list_busy_sources shows its outcome.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  remove_busy_source: {
    title: "Remove a calendar that blocks slots",
    description: "Stops reading a calendar; its cached busy times are dropped, so the times it blocked are offered again.",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  sync_busy_source: {
    title: "Sync a calendar now",
    description: `Fetches what changed in one calendar now (rather than at its next background sync) and shows the outcome; a failure keeps the last good busy times. A sync longer than ${SYNC_ANSWER_MS / 1000} s goes on after the answer (state "syncing"); list_busy_sources shows its outcome once the source's syncing turns false.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
  write_bookings_to_calendar: {
    title: "Write bookings into a calendar",
    description:
      "Has the confirmed bookings of the source's host (of every event type) written into one calendar of a CalDAV busy source (with its credentials): each new booking is added, a moved one updated, a cancelled one removed. Replaces the host's earlier bookings calendar; the source's first calendar unless one is named.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
  ...TIME_OFF_TOOLS,
  stop_writing_bookings: {
    title: "Stop writing bookings into a calendar",
    description: "Stops writing an event type's bookings into the calendar of this busy source; entries already written stay.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
};

/**
 * A fresh assistant server with every organizer tool, acting through `services`; links in its
 * answers point at `origin`. Each tool answers structured content (checked against its output
 * schema) and a short text; every failure is a tool error with a message, never a crash.
 */
export function createMcpServer(ctx: AppContext, services: Services, origin: string): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, capabilities: { tools: {} } });
  // One lookup for both tool sets: they resolve event types and reservations the same way.
  const lookup = new Lookup(ctx.store, services.reservations);
  const tools = new OrganizerTools(ctx, services, origin, lookup);
  const hours = new AvailabilityTools(ctx, services, origin, lookup);
  const calendars = new CalendarTools(services, lookup);
  const hosts = new HostTools(ctx, services, lookup);
  const checks = new CheckTools(ctx, services, lookup);
  const timeOff = new TimeOffTools(services);
  const runs: { [K in ToolName]: (args: never) => Promise<ToolAnswer<unknown>> } = {
    list_event_types: () => tools.listEventTypes(),
    resolve_booking_link: (args) => tools.resolveBookingLink(args),
    find_free_slots: (args) => tools.findFreeSlots(args),
    search_reservations: (args) => tools.searchReservations(args),
    get_reservation: (args) => tools.getReservation(args),
    reschedule_reservation: (args) => tools.rescheduleReservation(args),
    cancel_reservation: (args) => tools.cancelReservation(args),
    get_availability: (args) => hours.get(args),
    check_availability: (args) => checks.check(args),
    set_weekly_hours: (args) => hours.setWeeklyHours(args),
    set_date_override: (args) => hours.setDateOverride(args),
    close_day: (args) => hours.closeDay(args),
    clear_date_override: (args) => hours.clearDateOverride(args),
    list_hosts: () => hosts.list(),
    get_host: (args) => hosts.get(args),
    create_host: (args) => hosts.create(args),
    update_host: (args) => hosts.update(args),
    delete_host: (args) => hosts.delete(args),
    list_host_bookings: (args) => hosts.bookings(args),
    create_schedule: (args) => hosts.createSchedule(args),
    update_schedule: (args) => hosts.updateSchedule(args),
    delete_schedule: (args) => hosts.deleteSchedule(args),
    set_event_type_hosts: (args) => hosts.setEventTypeHosts(args),
    set_booking_limits: (args) => hosts.setLimits(args),
    list_busy_sources: (args) => calendars.list(args),
    add_busy_source: (args) => calendars.add(args),
    remove_busy_source: (args) => calendars.remove(args),
    sync_busy_source: (args) => calendars.sync(args),
    write_bookings_to_calendar: (args) => calendars.writeBookings(args),
    stop_writing_bookings: (args) => calendars.stopWriting(args),
    list_time_off: (args) => timeOff.list(args),
    add_time_off: (args) => timeOff.add(args),
    remove_time_off: (args) => timeOff.remove(args),
  };
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    const run = runs[name] as (args: unknown) => Promise<ToolAnswer<unknown>>;
    server.registerTool(name, { ...TOOLS[name], inputSchema: toolInput(ToolInputs[name]), outputSchema: ToolOutputs[name] }, (async (args: unknown) =>
      answer(name, () => run(args), ctx)) as never);
  }
  return server;
}

/** Runs a tool and turns its answer, or its failure, into a tool result. */
async function answer(name: string, run: () => Promise<ToolAnswer<unknown>>, ctx: AppContext): Promise<CallToolResult> {
  try {
    const { data, text } = await run();
    return { content: [{ type: "text", text }], structuredContent: data as Record<string, unknown> };
  } catch (error) {
    return { content: [{ type: "text", text: failureText(name, error, ctx) }], isError: true };
  }
}

const BUSINESS_TEXT: Record<string, string> = {
  slot_unavailable:
    "That time is not free: it is outside the opening hours, in the past, or every seat is taken. find_free_slots lists the free times (with includeShortNotice, also those only the organizer can use).",
  slot_locked: "Someone else is changing this slot or reservation at this moment; try again in a moment.",
  limit_reached:
    "A booking limit is reached for that day, week or month (the event type's or the host's limits: bookings or minutes per period); find_free_slots lists the days still open.",
};

/** A failure as a message an assistant can act on, ending with its stable code. */
function failureText(name: string, error: unknown, ctx: AppContext): string {
  if (error instanceof ValidationFailed) {
    const problems = Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(" ")}`);
    return `Invalid input. ${problems.join("; ")} (validation_failed)`;
  }
  if (error instanceof DomainError) return `${error.message} (${error.code})`;
  if (error instanceof BusinessFailure) return `${BUSINESS_TEXT[error.code] ?? error.message} (${error.code})`;
  if (error instanceof StoreBusyError) return "The database is busy with other changes; nothing was changed. Try again in a moment. (slot_locked)";
  if (error instanceof StoreUnavailableError)
    return "The database cannot be reached right now (a restart or failover); try again in a moment, then check the current state (get_reservation) before changing anything twice. (service_unavailable)";
  ctx.log({ level: "error", message: `assistant tool ${name} failed`, error });
  return "An unexpected error occurred on the server; it is logged. Check the current state (get_reservation, get_availability) before trying again. (internal_error)";
}
