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

/**
 * Most offset changes a year the rules of one embedded zone definition may make. Real zones change
 * once or twice a year (standard and daylight time); ical.js expands a definition's rules from its
 * DTSTART (Outlook writes 1601) to five years past the latest time asked, all in one call.
 */
const MAX_ZONE_CHANGES_PER_YEAR = 24;

/** Most observances (STANDARD, DAYLIGHT) and RDATE values one embedded zone definition may list; the longest real histories list a few hundred. */
const MAX_ZONE_OBSERVANCES = 2_000;

/** BY-parts no zone needs, each of which multiplies the changes of a yearly rule. */
const FINE_PARTS = ["BYSECOND", "BYMINUTE", "BYHOUR", "BYYEARDAY", "BYWEEKNO"] as const;

/** A calendar's own VTIMEZONE that would cost more to expand than any real zone (see zoneDefinitionProblem). */
export class ZoneDefinitionError extends Error {
  override readonly name = "ZoneDefinitionError";
}

/** How many values a property lists (an RDATE's dates), counted without ical.js building any of them. */
export function valueCount(property: ICAL.Property): number {
  // A property's jCal is [name, parameters, type, ...values].
  return Math.max(0, property.jCal.length - 3);
}

/**
 * Why a VTIMEZONE definition is refused, or null when it is bounded like a real zone: every rule
 * yearly (FREQ=HOURLY from 1601 is millions of changes, FREQ=SECONDLY billions), without the BY-parts
 * that multiply a year's changes, at most MAX_ZONE_CHANGES_PER_YEAR changes a year in all, and at
 * most MAX_ZONE_OBSERVANCES observances and RDATEs. Cheap: it reads the rules, it expands none.
 */
function zoneDefinitionProblem(vtimezone: ICAL.Component): string | null {
  let perYear = 0;
  let listed = 0;
  for (const observance of vtimezone.getAllSubcomponents()) {
    const kind = observance.name.toUpperCase();
    listed++;
    for (const rdate of observance.getAllProperties("rdate")) listed += valueCount(rdate);
    for (const property of observance.getAllProperties("rrule")) {
      const rule = property.getFirstValue();
      if (!(rule instanceof ICAL.Recur)) continue;
      if (rule.freq !== "YEARLY") return `its ${kind} rule repeats ${rule.freq}, while a zone changes its offset a few times a year at most (FREQ=YEARLY)`;
      const fine = FINE_PARTS.find((part) => (rule.parts[part]?.length ?? 0) > 0);
      if (fine) return `its ${kind} rule has ${fine}, which no zone needs`;
      perYear += changesPerYear(rule) / Math.max(1, rule.interval);
    }
  }
  if (perYear > MAX_ZONE_CHANGES_PER_YEAR)
    return `its rules change the offset about ${Math.ceil(perYear)} times a year, more than ${MAX_ZONE_CHANGES_PER_YEAR}`;
  if (listed > MAX_ZONE_OBSERVANCES) return `it lists ${listed} observances and dates, more than ${MAX_ZONE_OBSERVANCES}`;
  return null;
}

/** An upper bound of the instances a yearly rule has in a year, from the sizes of its BY-parts. */
function changesPerYear(rule: ICAL.Recur): number {
  const months = rule.parts.BYMONTH?.length ?? 0;
  const monthDays = rule.parts.BYMONTHDAY?.length ?? 0;
  const days = rule.parts.BYDAY ?? [];
  // A weekday without an ordinal means each of them: five a month, 53 a year.
  const weekdays = days.reduce((n, day) => n + (/^[A-Z]{2}$/i.test(day) ? (months > 0 ? 5 : 53) : 1), 0);
  const perMonth = monthDays > 0 ? monthDays : weekdays;
  if (months > 0) return months * Math.max(1, perMonth);
  return Math.max(1, monthDays > 0 ? monthDays * 12 : weekdays);
}

/** Turns the TZIDs of one calendar into zones, with each name's zone made once. */
export class ZoneResolver {
  private readonly zones = new Map<string, ICAL.Timezone>();
  readonly floating: ICAL.Timezone;

  /**
   * `embedded` are the calendar's own VTIMEZONE definitions by TZID; `floatingZone` is the IANA zone
   * of floating times, all-day dates and TZIDs that cannot be resolved.
   */
  constructor(
    private readonly embedded: Map<string, ICAL.Component>,
    floatingZone: string,
  ) {
    this.floating = new LuxonZone(floatingZone);
  }

  /**
   * The zone a TZID names. In this order: the calendar's own VTIMEZONE of that name (RFC 5545 lets a
   * TZID mean only the definition in the same object); an IANA name; a Windows name as Outlook and
   * Exchange write it, mapped by the CLDR table of `windows-iana`; the IANA name at the end of a
   * prefixed TZID ("/mozilla.org/20050126_1/Europe/Berlin"); otherwise the floating zone, since a
   * guess at the organizer's own zone is closer than UTC. Throws ZoneDefinitionError for a
   * definition that zoneDefinitionProblem refuses: the calendar's times are unknown without it.
   */
  zone(tzid: string): ICAL.Timezone {
    let zone = this.zones.get(tzid);
    if (!zone) {
      const definition = this.embedded.get(tzid);
      if (definition) {
        const problem = zoneDefinitionProblem(definition);
        if (problem) throw new ZoneDefinitionError(`The time zone ${tzid} is refused: ${problem}.`);
        zone = new ICAL.Timezone(definition);
      } else {
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
