import ICAL from "ical.js";
import { DateTime, IANAZone } from "luxon";
import { findIana } from "windows-iana";

/**
 * An iCalendar zone whose offsets come from the IANA database through luxon, so ical.js can compare,
 * iterate and convert times of a TZID that the calendar names without defining (Google's
 * "Europe/Berlin" without a VTIMEZONE, Outlook's "W. Europe Standard Time"), and of floating times
 * and all-day dates, which belong to the organizer's zone.
 */
class LuxonZone extends ICAL.Timezone {
  constructor(readonly iana: string) {
    super({ tzid: iana });
  }

  /**
   * The offset that turns the wall time into luxon's instant. A wall time that a spring change skips
   * is read as luxon reads it (moved forward by the gap), so the same text always gives the same instant.
   */
  override utcOffset(tt: ICAL.Time): number {
    const wall = { year: tt.year, month: tt.month, day: tt.day, hour: tt.hour, minute: tt.minute, second: tt.second };
    const instant = DateTime.fromObject(wall, { zone: this.iana }).toMillis();
    const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
    return (wallAsUtc - instant) / 1000;
  }
}

/** Turns the TZIDs of one calendar into zones, with each name's zone made once. */
export class ZoneResolver {
  private readonly zones = new Map<string, ICAL.Timezone>();
  readonly floating: ICAL.Timezone;

  /**
   * `embedded` are the calendar's own VTIMEZONE definitions by TZID; `floatingZone` is the IANA zone
   * of floating times, all-day dates and TZIDs that cannot be resolved.
   */
  constructor(private readonly embedded: Map<string, ICAL.Component>, floatingZone: string) {
    this.floating = new LuxonZone(floatingZone);
  }

  /**
   * The zone a TZID names. In this order: the calendar's own VTIMEZONE of that name (RFC 5545 lets a
   * TZID mean only the definition in the same object); an IANA name; a Windows name as Outlook and
   * Exchange write it, mapped by the CLDR table of `windows-iana`; the IANA name at the end of a
   * prefixed TZID ("/mozilla.org/20050126_1/Europe/Berlin"); otherwise the floating zone, since a
   * guess at the organizer's own zone is closer than UTC.
   */
  zone(tzid: string): ICAL.Timezone {
    let zone = this.zones.get(tzid);
    if (!zone) {
      const definition = this.embedded.get(tzid);
      if (definition) zone = new ICAL.Timezone(definition);
      else {
        const iana = ianaName(tzid);
        zone = iana ? new LuxonZone(iana) : this.floating;
      }
      this.zones.set(tzid, zone);
    }
    return zone;
  }
}

/** The IANA name for a TZID written without a definition, or null when none is known. */
export function ianaName(tzid: string): string | null {
  const name = tzid.trim().replace(/^"|"$/g, "");
  if (IANAZone.isValidZone(name)) return name;
  const windows = findIana(name)[0];
  if (windows && IANAZone.isValidZone(windows)) return windows;
  const tail = /([A-Za-z]+\/[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)?)$/.exec(name)?.[1];
  if (tail && IANAZone.isValidZone(tail)) return tail;
  return null;
}
