import ICAL from "ical.js";
import { DateTime } from "luxon";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { weeksOf } from "@booking/wire";
import { patternStartMs, type SeriesPicture } from "../../domain/series.ts";
import { bookingEvent, inviteCalendar, publishedCopy, type InviteContext, type InviteEventType, type InviteMethod, type InviteReservation } from "./ics.ts";

/** A series as an invite says it: its picture (see `seriesPicture`) and its id, the entry's UID. */
export type SeriesInvite = SeriesPicture & { id: string };

/** The VTIMEZONE of an IANA zone, from the IANA data `timezones-ical-library` ships; null for a zone it does not know (then times are written in UTC). */
function vtimezone(zone: string): ICAL.Component | null {
  if (zone === "UTC" || zone === "Etc/UTC") return null;
  const block = tzlib_get_ical_block(zone);
  const text = Array.isArray(block) ? block[0] : undefined;
  return text?.startsWith("BEGIN:VTIMEZONE") ? new ICAL.Component(ICAL.parse(text)) : null;
}

/** An instant as a DATE-TIME property value: local time with TZID when the zone has a VTIMEZONE, else UTC. */
function setTime(component: ICAL.Component, name: string, ms: number, zone: string | null, add = false): void {
  const found = add ? null : component.getFirstProperty(name);
  const property = found ?? component.addProperty(new ICAL.Property(name));
  if (zone === null) {
    property.removeParameter("tzid");
    property.setValue(ICAL.Time.fromJSDate(new Date(Math.floor(ms / 1000) * 1000), true));
    return;
  }
  const local = DateTime.fromMillis(ms, { zone });
  property.setValue(
    ICAL.Time.fromData({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second, isDate: false }),
  );
  property.setParameter("tzid", zone);
}

/**
 * The invite of a series (recurring bookings) as it now stands, one calendar entry for all its
 * occurrences: a VEVENT whose UID is the series' id, DTSTART and DTEND at the first occurrence's
 * pattern time with TZID (and the zone's VTIMEZONE, so calendars keep the wall-clock time across
 * DST changes), RRULE FREQ=WEEKLY;COUNT=n, with INTERVAL=2 every two weeks (ical.js writes
 * the parts in its order and leaves out INTERVAL=1, the default), EXDATE for each occurrence cancelled, and for each one moved an overriding VEVENT
 * (RECURRENCE-ID its pattern time). SEQUENCE rises with every change of any occurrence. REQUEST
 * while any occurrence stands, CANCEL once none does; the organizer's copy is PUBLISH.
 */
export function seriesInvite(
  eventType: InviteEventType,
  r: InviteReservation,
  series: SeriesInvite,
  context: InviteContext,
): { method: InviteMethod; ics: string } {
  const over = series.standing === 0;
  const method: InviteMethod = context.copy === "organizer" ? "PUBLISH" : over ? "CANCEL" : "REQUEST";
  const timezone = vtimezone(series.rule.zone);
  const zone = timezone ? series.rule.zone : null;
  const firstMs = patternStartMs(series.rule, 0);
  const master = bookingEvent(
    eventType,
    { ...r, uuid: series.id, sequence: series.sequence, status: over ? "cancelled" : "confirmed", startMs: firstMs, endMs: firstMs + series.durationMs },
    context,
  );
  setTime(master, "dtstart", firstMs, zone);
  setTime(master, "dtend", firstMs + series.durationMs, zone);
  master.addPropertyWithValue("rrule", ICAL.Recur.fromData({ freq: "WEEKLY", interval: weeksOf(series.rule.interval), count: series.rule.count }));
  for (const ms of series.exdatesMs) setTime(master, "exdate", ms, zone, true);
  if (method === "PUBLISH") publishedCopy(master, r, context);
  const overrides = series.moved.map((m) => {
    const instance = bookingEvent(
      eventType,
      { ...r, uuid: series.id, sequence: series.sequence, status: "confirmed", startMs: m.startMs, endMs: m.endMs },
      context,
    );
    setTime(instance, "recurrence-id", m.patternMs, zone);
    if (method === "PUBLISH") publishedCopy(instance, r, context);
    return instance;
  });
  return { method, ics: inviteCalendar([...(timezone ? [timezone] : []), master, ...overrides], method) };
}

/** The pattern times of a series, for texts that list its dates. */
export function seriesStarts(series: SeriesInvite): number[] {
  return Array.from({ length: series.rule.count }, (_, i) => patternStartMs(series.rule, i));
}
