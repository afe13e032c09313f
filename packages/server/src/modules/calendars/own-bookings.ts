import type { BusyObject } from "../../store/busy.ts";
import type { Store } from "../../store/store.ts";
import { bookingUid, organizerBookingKey } from "../invites/ics.ts";

/**
 * The hrefs of objects that are only this host's own bookings (each UID a booking UID of one of
 * its reservations, of any event type: they block the host as bookings already); a booking of
 * another host in the same calendar still blocks.
 * An organizer-side UID (`organizerBookingKey`) is one-way, so the reservations around the
 * entries' starts are read at once and their keys compared, each entry matching only a reservation
 * within its own window; an older entry's UID names the uuid itself.
 */
export async function ownBookings(store: Store, hostId: number, objects: readonly BusyObject[]): Promise<Set<string>> {
  const entriesOf = new Map<string, BookingEntry[]>();
  for (const object of objects) {
    const entries = bookingEntriesOf(object.ics);
    if (entries !== null) entriesOf.set(object.href, entries);
  }
  const keyed = [...entriesOf.values()].flat().flatMap((e) => ("key" in e && e.startMs !== null ? [{ startMs: e.startMs, slackMs: e.slackMs }] : []));
  const byKey = new Map<string, { startMs: number; endMs: number }>();
  if (keyed.length > 0) {
    const fromMs = keyed.reduce((min, e) => Math.min(min, e.startMs - e.slackMs), Number.POSITIVE_INFINITY);
    const untilMs = keyed.reduce((max, e) => Math.max(max, e.startMs + e.slackMs + 1), Number.NEGATIVE_INFINITY);
    for (const r of await store.hosts.reservations(hostId, { fromMs, untilMs, limit: 100_000 }))
      byKey.set(organizerBookingKey(r.uuid), { startMs: r.startMs, endMs: r.endMs });
  }
  const own = new Set<string>();
  for (const [href, entries] of entriesOf) {
    let all = true;
    for (const entry of entries) {
      if ("uuid" in entry) {
        if (!(await isHostBooking(store, hostId, entry.uuid))) all = false;
        continue;
      }
      // The reservation overlaps the entry's window, as a read of that window alone would find it.
      const found = entry.startMs === null ? undefined : byKey.get(entry.key);
      if (!found || entry.startMs === null || !(found.startMs < entry.startMs + entry.slackMs + 1 && found.endMs > entry.startMs - entry.slackMs)) all = false;
    }
    if (all) own.add(href);
  }
  return own;
}

/** Whether the reservation `uuid` (named by an older entry's UID) is one of the host's. */
async function isHostBooking(store: Store, hostId: number, uuid: string): Promise<boolean> {
  for (const eventTypeId of await store.hosts.eventTypeIds(hostId)) {
    const r = await store.reservations.byUuid(eventTypeId, uuid);
    if (r) return r.hostIds.length === 0 || r.hostIds.includes(hostId);
  }
  return false;
}

/**
 * A booking's entry in a calendar object, by its UID: a visitor-side UID (`<reservation uuid>@booking-calendar`,
 * as entries were written before the organizer's copies had their own) names the uuid; an
 * organizer-side one (`<organizerBookingKey>@booking-calendar`) its key, with where to look for the
 * reservation: its DTSTART, exact in UTC (`slackMs` 0), or a local or all-day time read as UTC with
 * the slack of any zone's offset; null when it has none that can be read.
 */
type BookingEntry = { uuid: string } | { key: string; startMs: number | null; slackMs: number };

/**
 * The bookings in a calendar object, one per VEVENT, read from the unfolded text (a booking entry
 * has one UID and one DTSTART); null for an object holding any other event.
 */
export function bookingEntriesOf(ics: string): BookingEntry[] | null {
  const unfolded = ics.replace(/\r?\n[ \t]/g, "");
  const events = [...unfolded.matchAll(/^BEGIN:VEVENT\r?$([\s\S]*?)^END:VEVENT\r?$/gim)].map((m) => m[1]!);
  if (events.length === 0) return null;
  const entries: BookingEntry[] = [];
  for (const event of events) {
    const uid = /^UID[;:](?:[^\r\n:]*:)?([^\r\n]*?)\r?$/im.exec(event)?.[1]?.trim();
    const match = uid === undefined ? null : BOOKING_UID.exec(uid);
    if (!match) return null;
    if (match[1]) {
      entries.push({ uuid: match[1].toLowerCase() });
      continue;
    }
    const start = /^DTSTART[;:](?:[^\r\n:]*:)?(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?\r?$/im.exec(event);
    const startMs = start
      ? Date.UTC(Number(start[1]), Number(start[2]) - 1, Number(start[3]), Number(start[4] ?? 0), Number(start[5] ?? 0), Number(start[6] ?? 0))
      : null;
    // A zone's offset is within ±14 h; a whole day adds a day.
    const slackMs = start?.[7] === "Z" ? 0 : start?.[4] === undefined ? 38 * 3_600_000 : 14 * 3_600_000;
    entries.push({ key: match[2]!.toLowerCase(), startMs: startMs !== null && Number.isFinite(startMs) ? startMs : null, slackMs });
  }
  return entries;
}

const BOOKING_UID = new RegExp(
  `^(?:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|([0-9a-f]{40}))${bookingUid("").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
  "i",
);
