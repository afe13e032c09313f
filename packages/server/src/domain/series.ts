import { DateTime } from "luxon";
import { weeksOf, type RecurrenceInterval } from "@booking/wire";

/**
 * How an occurrence of a series (recurring bookings) sits in it, kept with each occurrence: the
 * series' rule and this occurrence's place in it, so its time in the pattern is known even after
 * it was moved, and every message about the series can say the whole series.
 */
export interface SeriesRule {
  interval: RecurrenceInterval;
  /** Occurrences in all, as booked. */
  count: number;
  /** This occurrence's place, 0 for the first. */
  index: number;
  /** Where the first occurrence was booked (its pattern time). */
  firstStartMs: number;
  /** The zone whose wall-clock time the series keeps (the event type's when booked). */
  zone: string;
}

/** One occurrence of a series as a message about the series needs it. */
export interface SeriesMember {
  uuid: string;
  status: string;
  startMs: number;
  endMs: number;
  sequence: number;
  seriesRule?: SeriesRule | null;
}

/**
 * The times of a series of `count` occurrences, the first at [startMs, endMs), then every week or
 * two at the same wall-clock time in `zone` (10:00 in Berlin stays 10:00 across the change to and
 * from summer time), each as long in real time as the first. A wall time that a spring-forward
 * skips on some date moves forward by the gap, as luxon resolves it.
 */
export function seriesTimes(startMs: number, endMs: number, zone: string, interval: RecurrenceInterval, count: number): { startMs: number; endMs: number }[] {
  const first = DateTime.fromMillis(startMs, { zone });
  const length = endMs - startMs;
  return Array.from({ length: count }, (_, i) => {
    const start = i === 0 ? startMs : first.plus({ weeks: i * weeksOf(interval) }).toMillis();
    return { startMs: start, endMs: start + length };
  });
}

/** The time an occurrence has in its series' pattern (where it was booked, whether or not it moved since). */
export function patternStartMs(rule: SeriesRule, index = rule.index): number {
  return index === 0
    ? rule.firstStartMs
    : DateTime.fromMillis(rule.firstStartMs, { zone: rule.zone })
        .plus({ weeks: index * weeksOf(rule.interval) })
        .toMillis();
}

/** The whole series as its recurring invite says it (see invites/series.ts). */
export interface SeriesPicture {
  rule: SeriesRule;
  /** Length of each occurrence in the pattern, in ms. */
  durationMs: number;
  /** Raised by every change of any occurrence: the sum of their sequences. */
  sequence: number;
  /** Pattern times of the occurrences cancelled. */
  exdatesMs: number[];
  /** Occurrences standing at another time than their pattern's: moved. */
  moved: { patternMs: number; startMs: number; endMs: number }[];
  /** Occurrences still standing; none: the series is over (cancelled whole). */
  standing: number;
}

/**
 * The series of `self` as it stands with `self`'s own change applied: `others` are the rest of its
 * occurrences as read when the change began. Null for a reservation of no series.
 */
export function seriesPicture(self: SeriesMember, others: readonly SeriesMember[]): SeriesPicture | null {
  const rule = self.seriesRule;
  if (!rule) return null;
  const all = [self, ...others.filter((o) => o.uuid !== self.uuid)];
  const picture: SeriesPicture = {
    rule,
    durationMs: self.endMs - self.startMs,
    sequence: 0,
    exdatesMs: [],
    moved: [],
    standing: 0,
  };
  for (const o of all) {
    picture.sequence += o.sequence;
    const patternMs = patternStartMs(rule, o.seriesRule?.index ?? 0);
    if (o.status === "cancelled" || o.status === "expired") picture.exdatesMs.push(patternMs);
    else {
      picture.standing++;
      if (o.startMs !== patternMs) picture.moved.push({ patternMs, startMs: o.startMs, endMs: o.endMs });
    }
  }
  picture.exdatesMs.sort((a, b) => a - b);
  picture.moved.sort((a, b) => a.patternMs - b.patternMs);
  return picture;
}
