import ICAL from "ical.js";
import { IANAZone } from "luxon";
import type { BusyInterval } from "../../domain/slots.ts";
import { valueCount, ZoneDefinitionError, ZoneResolver } from "./ical-zones.ts";
import { epochMs, seriesInstances } from "./recurrence.ts";

export { MAX_INSTANCES_PER_SERIES, MAX_RULE_STEPS_PER_SERIES } from "./recurrence.ts";

/** The span of time a caller wants the busy intervals of, in epoch ms, `untilMs` excluded. */
export interface BusyWindow {
  fromMs: number;
  untilMs: number;
}

/**
 * The most RDATE and EXDATE values one event may list. Each is a time ical.js builds and zones; a
 * list of 300 000 in one property cost seconds. An event listing more is not read (the calendar
 * text fails with the reason), as no calendar program writes such lists.
 */
export const MAX_DATES_PER_EVENT = 10_000;

/**
 * The most instances one calendar text (a feed, a CalDAV object) may expand to, single events and
 * the instances of all its series together. An organizer's real calendar holds some thousands over
 * the booking horizon; a thousand series repeating every second (each up to MAX_INSTANCES_PER_SERIES)
 * would take minutes. Past it the text is not read, with the reason.
 */
export const MAX_INSTANCES_PER_CALENDAR = 200_000;

/**
 * The calendar text cannot be read: not iCalendar, a broken line or value, an event without a start.
 * The caller records it as the calendar's sync failure; nothing of that text is used.
 */
export class CalendarFormatError extends Error {
  override readonly name = "CalendarFormatError";
}

/**
 * Busy intervals meeting [fromMs, untilMs) from one iCalendar text (a feed, a CalDAV object or several
 * VCALENDARs one after another), sorted by start then end, neither merged nor clipped to the window.
 *
 * What counts as busy:
 * - every VEVENT instance that is neither STATUS:CANCELLED nor TRANSP:TRANSPARENT (nor marked
 *   X-MICROSOFT-CDO-BUSYSTATUS:FREE, Outlook's free) — tentative events count as busy;
 * - series from RRULE (any number), RDATE (dates, date-times or periods) less EXDATE; an override
 *   (RECURRENCE-ID) replaces its instance with its own times and status, also when moved into or out
 *   of the window; RANGE=THISANDFUTURE shifts the later instances as ical.js reads it (by the
 *   override's change of start, with the override's length); an override whose instance the series
 *   lacks still counts as an event of its own;
 * - without DTEND or DURATION, a date lasts one day and a date-time lasts no time at all; an instance
 *   of no length (or ending before it starts) blocks nothing and is left out;
 * - all-day dates and floating times are wall times in `floatingZone`, as is a TZID that names no
 *   known zone (see ZoneResolver for how TZIDs are resolved);
 * - VFREEBUSY FREEBUSY periods of FBTYPE BUSY, BUSY-UNAVAILABLE and BUSY-TENTATIVE (BUSY when absent).
 *
 * Throws CalendarFormatError on text that cannot be read, and on an event or an embedded time zone
 * past the bounds of any real calendar (MAX_DATES_PER_EVENT, ical-zones.ts zoneDefinitionProblem);
 * never loops without end (the caps above). Still CPU work in proportion to the text: the server
 * runs it on worker threads (expansion.ts).
 */
export function busyFromICalendar(ics: string, window: BusyWindow, floatingZone: string): BusyInterval[] {
  const steps = busyFromICalendarSteps(ics, window, floatingZone);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * busyFromICalendar a step at a time: the generator pauses after each event (a whole series is one
 * step, bounded by the caps above) and returns the intervals. A big calendar is CPU work that
 * nothing can interrupt; the caller checks its deadline and lets other work run between the steps.
 */
export function* busyFromICalendarSteps(ics: string, window: BusyWindow, floatingZone: string): Generator<void, BusyInterval[]> {
  if (!IANAZone.isValidZone(floatingZone)) throw new RangeError(`Unknown floating zone ${floatingZone}.`);
  const calendars = parseCalendars(ics);
  const busy: BusyInterval[] = [];
  const used = { instances: 0 };
  try {
    for (const calendar of calendars) yield* collectCalendar(calendar, window, floatingZone, busy, used);
  } catch (error) {
    if (error instanceof CalendarFormatError) throw error;
    if (error instanceof ZoneDefinitionError) throw new CalendarFormatError(error.message, { cause: error });
    throw new CalendarFormatError(`The calendar cannot be read: ${messageOf(error)}`, { cause: error });
  }
  return busy.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** Intervals sorted by start, those that overlap or touch joined into one; the input is left as it is. */
export function mergeBusy(intervals: readonly BusyInterval[]): BusyInterval[] {
  const sorted = [...intervals].sort((a, b) => a.startMs - b.startMs);
  const merged: BusyInterval[] = [];
  for (const interval of sorted) {
    const last = merged[merged.length - 1];
    if (last && interval.startMs <= last.endMs) last.endMs = Math.max(last.endMs, interval.endMs);
    else merged.push({ startMs: interval.startMs, endMs: interval.endMs });
  }
  return merged;
}

function parseCalendars(ics: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(ics);
  } catch (error) {
    throw new CalendarFormatError(`The calendar cannot be parsed: ${messageOf(error)}`, { cause: error });
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new CalendarFormatError("The text holds no VCALENDAR.");
  const jcals = Array.isArray(parsed[0]) ? parsed : [parsed];
  return jcals.map((jcal) => {
    const component = new ICAL.Component(jcal as unknown[]);
    if (component.name !== "vcalendar") throw new CalendarFormatError(`The text holds a ${component.name.toUpperCase()}, not a VCALENDAR.`);
    return component;
  });
}

/** Counts `count` more instances of the text against MAX_INSTANCES_PER_CALENDAR. */
function spend(used: { instances: number }, count: number): void {
  used.instances += count;
  if (used.instances > MAX_INSTANCES_PER_CALENDAR)
    throw new CalendarFormatError(`The calendar holds more than ${MAX_INSTANCES_PER_CALENDAR} events and instances of series.`);
}

function* collectCalendar(
  calendar: ICAL.Component,
  window: BusyWindow,
  floatingZone: string,
  busy: BusyInterval[],
  used: { instances: number },
): Generator<void, void> {
  const definitions = new Map<string, ICAL.Component>();
  for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
    const tzid = vtimezone.getFirstPropertyValue("tzid");
    if (typeof tzid === "string") definitions.set(tzid, vtimezone);
  }
  const zones = new ZoneResolver(definitions, floatingZone);

  const masters: ICAL.Component[] = [];
  const overridesByUid = new Map<string, ICAL.Component[]>();
  for (const vevent of calendar.getAllSubcomponents("vevent")) {
    checkDateLists(vevent);
    assignZones(vevent, zones);
    if (vevent.hasProperty("recurrence-id")) {
      const uid = String(vevent.getFirstPropertyValue("uid") ?? "");
      overridesByUid.set(uid, [...(overridesByUid.get(uid) ?? []), vevent]);
      // An override stands for itself: its times and status replace those of its instance.
      addSingle(new ICAL.Event(vevent), window, busy);
      spend(used, 1);
    } else masters.push(vevent);
    yield;
  }
  for (const master of masters) {
    const overrides = overridesByUid.get(String(master.getFirstPropertyValue("uid") ?? "")) ?? [];
    // Without `exceptions`, ical.js would relate every override in the calendar, whatever its UID.
    const event = new ICAL.Event(master, { exceptions: [] });
    if (!event.startDate) throw new CalendarFormatError(`The event ${event.uid ?? "without a UID"} has no DTSTART.`);
    if (event.isRecurring()) spend(used, addSeries(event, overrides, window, busy));
    else {
      addSingle(event, window, busy);
      spend(used, 1);
    }
    yield;
  }

  for (const vfreebusy of calendar.getAllSubcomponents("vfreebusy")) {
    addFreeBusy(vfreebusy, zones, window, busy);
    yield;
  }
}

const DATE_PROPERTIES = ["dtstart", "dtend", "recurrence-id", "rdate", "exdate"];

/** Refuses an event that lists more than MAX_DATES_PER_EVENT RDATE and EXDATE values, counted before ical.js builds any of them. */
function checkDateLists(vevent: ICAL.Component): void {
  let listed = 0;
  for (const name of ["rdate", "exdate"]) for (const property of vevent.getAllProperties(name)) listed += valueCount(property);
  if (listed > MAX_DATES_PER_EVENT) {
    const uid = vevent.getFirstPropertyValue("uid");
    throw new CalendarFormatError(
      `The event ${typeof uid === "string" ? uid : "without a UID"} lists ${listed} RDATE and EXDATE values, more than ${MAX_DATES_PER_EVENT}.`,
    );
  }
}

/**
 * Gives every date and date-time of the event its zone before ical.js computes anything with it:
 * ical.js knows only zones registered globally, and reads the others as UTC. A rule's UNTIL that is
 * not UTC (RFC 5545 wants UTC when DTSTART has a zone) is read in DTSTART's zone.
 */
function assignZones(vevent: ICAL.Component, zones: ZoneResolver): void {
  for (const name of DATE_PROPERTIES) {
    for (const property of vevent.getAllProperties(name)) {
      const tzid = property.getParameter("tzid");
      for (const value of property.getValues()) {
        if (value instanceof ICAL.Period) {
          zoneTime(value.start, tzid, zones);
          if (value.end) zoneTime(value.end, tzid, zones);
        } else if (value instanceof ICAL.Time) zoneTime(value, tzid, zones);
      }
    }
  }
  const start = vevent.getFirstPropertyValue("dtstart");
  for (const rule of vevent.getAllProperties("rrule")) {
    const recur = rule.getFirstValue();
    if (recur instanceof ICAL.Recur && recur.until && recur.until.zone !== ICAL.Timezone.utcTimezone) {
      recur.until.zone = start instanceof ICAL.Time && !recur.until.isDate ? start.zone : zones.floating;
    }
  }
}

function zoneTime(time: ICAL.Time, tzid: string | string[] | null | undefined, zones: ZoneResolver): void {
  if (time.zone === ICAL.Timezone.utcTimezone) return;
  const name = Array.isArray(tzid) ? tzid[0] : tzid;
  time.zone = time.isDate || !name ? zones.floating : zones.zone(name);
}

/** Whether an event (or an override) takes the organizer's time. */
function takesTime(event: ICAL.Event): boolean {
  const component = event.component;
  const status = String(component.getFirstPropertyValue("status") ?? "").toUpperCase();
  const transparency = String(component.getFirstPropertyValue("transp") ?? "").toUpperCase();
  const outlookStatus = String(component.getFirstPropertyValue("x-microsoft-cdo-busystatus") ?? "").toUpperCase();
  return status !== "CANCELLED" && transparency !== "TRANSPARENT" && outlookStatus !== "FREE";
}

function addSingle(event: ICAL.Event, window: BusyWindow, busy: BusyInterval[]): void {
  if (!event.startDate) throw new CalendarFormatError(`The event ${event.uid ?? "without a UID"} has no DTSTART.`);
  if (takesTime(event)) addInterval(epochMs(event.startDate), epochMs(event.endDate), window, busy);
}

function addInterval(startMs: number, endMs: number, window: BusyWindow, busy: BusyInterval[]): void {
  if (endMs > startMs && endMs > window.fromMs && startMs < window.untilMs) busy.push({ startMs, endMs });
}

/** Adds the series' busy instances; answers how many instances it found. */
function addSeries(event: ICAL.Event, overrides: ICAL.Component[], window: BusyWindow, busy: BusyInterval[]): number {
  const overridden = new Set<number>();
  // A THISANDFUTURE override moves the later instances by its change of start and gives them its
  // length: instances that start after the window, or long before it, can be moved into it.
  let earlierBy = 0;
  let reachMs = spanMs(event.startDate, event.endDate);
  for (const override of overrides) {
    const exception = new ICAL.Event(override);
    event.relateException(exception);
    overridden.add(epochMs(exception.recurrenceId));
    if (exception.modifiesFuture() && exception.startDate) {
      const shiftMs = epochMs(exception.startDate) - epochMs(exception.recurrenceId);
      earlierBy = Math.max(earlierBy, -shiftMs);
      reachMs = Math.max(reachMs, shiftMs + spanMs(exception.startDate, exception.endDate));
    }
  }

  const instances = seriesInstances(event, { lowMs: window.fromMs - reachMs, fromMs: window.fromMs, stopMs: window.untilMs + earlierBy });
  const { excludedMs, excludedDates } = exclusions(event.component);
  for (const [startMs, instance] of instances) {
    // Most instances of a long series end before the window: leave them before asking ical.js for details.
    const lastEndMs = startMs + Math.max(reachMs, instance.end ? epochMs(instance.end) - startMs : 0);
    if (lastEndMs <= window.fromMs) continue;
    if (overridden.has(startMs) || excludedMs.has(startMs) || excludedDates.has(dateOf(instance.start))) continue;
    const details = event.getOccurrenceDetails(instance.start);
    if (!takesTime(details.item)) continue;
    addInterval(epochMs(details.startDate), epochMs(instance.end ?? details.endDate), window, busy);
  }
  return instances.size;
}

/** How long an instance from `start` to `end` lasts, in ms; an hour more for a day that DST makes longer. */
function spanMs(start: ICAL.Time, end: ICAL.Time): number {
  return Math.max(0, epochMs(end) - epochMs(start)) + 3_600_000;
}

/** EXDATE instants, and the days of EXDATEs given as dates (which remove every instance that day). */
function exclusions(vevent: ICAL.Component): { excludedMs: Set<number>; excludedDates: Set<string> } {
  const excludedMs = new Set<number>();
  const excludedDates = new Set<string>();
  for (const property of vevent.getAllProperties("exdate")) {
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Time)) continue;
      if (value.isDate) excludedDates.add(dateOf(value));
      else excludedMs.add(epochMs(value));
    }
  }
  return { excludedMs, excludedDates };
}

/** The wall date of a time in its own zone. */
function dateOf(time: ICAL.Time): string {
  return `${time.year}-${time.month}-${time.day}`;
}

function addFreeBusy(vfreebusy: ICAL.Component, zones: ZoneResolver, window: BusyWindow, busy: BusyInterval[]): void {
  for (const property of vfreebusy.getAllProperties("freebusy")) {
    const type = String(property.getParameter("fbtype") ?? "BUSY").toUpperCase();
    if (!type.startsWith("BUSY")) continue;
    for (const value of property.getValues()) {
      if (!(value instanceof ICAL.Period)) continue;
      zoneTime(value.start, null, zones);
      if (value.end) zoneTime(value.end, null, zones);
      addInterval(epochMs(value.start), epochMs(value.getEnd()), window, busy);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
