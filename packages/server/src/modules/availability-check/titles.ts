import ICAL from "ical.js";
import type { BusySourceRecord } from "../../store/busy.ts";
import type { Store } from "../../store/store.ts";
import { busyFromICalendar } from "../calendars/expand.ts";

/** Most calendar events whose times are expanded to find one title: a check stays cheap on a big feed. */
const MAX_EVENTS_READ = 5_000;

/**
 * The title (SUMMARY) of the calendar event of `source` that makes [startMs, endMs) busy, read from
 * the objects the last sync kept, each event expanded on its own by the sync's own rules (so the
 * event found is one the sync counted); null when none is found or the calendar cannot be read.
 * Only busy times are kept per interval, so the title is looked up on demand, for the organizer's
 * and the host's own check only.
 */
export async function calendarEventTitle(store: Store, source: BusySourceRecord, startMs: number, endMs: number): Promise<string | null> {
  const host = await store.hosts.byId(source.hostId);
  const zone = host?.timezone ?? "UTC";
  let read = 0;
  for (const object of await store.busy.objects(source.id)) {
    let calendars: ICAL.Component[];
    try {
      const parsed = ICAL.parse(object.ics);
      const roots = (Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[];
      calendars = roots.map((root) => new ICAL.Component(root as unknown[]));
    } catch {
      continue;
    }
    for (const calendar of calendars) {
      const zones = calendar.getAllSubcomponents("vtimezone");
      for (const event of calendar.getAllSubcomponents("vevent")) {
        if (++read > MAX_EVENTS_READ) return null;
        const summary = event.getFirstPropertyValue("summary");
        if (typeof summary !== "string" || summary.trim() === "") continue;
        const one = new ICAL.Component(["vcalendar", [], []]);
        for (const zone of zones) one.addSubcomponent(new ICAL.Component(zone.toJSON()));
        one.addSubcomponent(new ICAL.Component(event.toJSON()));
        try {
          if (busyFromICalendar(one.toString(), { fromMs: startMs, untilMs: endMs }, zone).some((b) => b.startMs < endMs && b.endMs > startMs))
            return summary.trim();
        } catch {}
      }
    }
  }
  return null;
}
