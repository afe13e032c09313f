import { DateTime } from "luxon";
import type { BookingLimits, WeekStart } from "@booking/wire";

/**
 * Booking limits (docs/admin.md#limits): at most N bookings per calendar day, week or month and at
 * most N minutes of bookings per day or week, of one event type or of one host across all of their
 * event types. A booking counts in the periods its start falls in, in the limit's zone (the event
 * type's or the host's); held and confirmed bookings count, as they count for seats, cancelled and
 * expired ones do not. A booking passes when, with it, no period exceeds its limit.
 */

/** Limits with the calendar they count in. */
export interface LimitFrame {
  limits: BookingLimits;
  /** IANA zone of the calendar days, weeks and months. */
  zone: string;
  /** The first day of a week: Monday (ISO) unless the event type's calendar starts weeks on Sunday. */
  weekStart: WeekStart;
}

/** A booking as limits count it. */
export interface CountedBooking {
  startMs: number;
  endMs: number;
}

type Unit = "day" | "week" | "month";

/** The units of period `frame` has a limit for, each with its booking and minute limits. */
function unitsOf(limits: BookingLimits): { unit: Unit; bookings: number | null; minutes: number | null }[] {
  const out: { unit: Unit; bookings: number | null; minutes: number | null }[] = [];
  const day = { bookings: limits.bookingsPerDay ?? null, minutes: limits.minutesPerDay ?? null };
  const week = { bookings: limits.bookingsPerWeek ?? null, minutes: limits.minutesPerWeek ?? null };
  if (day.bookings !== null || day.minutes !== null) out.push({ unit: "day", ...day });
  if (week.bookings !== null || week.minutes !== null) out.push({ unit: "week", ...week });
  if (limits.bookingsPerMonth != null) out.push({ unit: "month", bookings: limits.bookingsPerMonth, minutes: null });
  return out;
}

/** The local start of the period of `unit` holding instant `ms` (luxon moves a missing midnight to the first real instant). */
function periodStart(ms: number, unit: Unit, frame: Pick<LimitFrame, "zone" | "weekStart">): DateTime {
  const at = DateTime.fromMillis(ms, { zone: frame.zone });
  if (unit !== "week") return at.startOf(unit);
  // luxon's weeks start on Monday; a Sunday week starts the day before, or on this day when it is a Sunday.
  if (frame.weekStart === "sunday") return at.weekday === 7 ? at.startOf("day") : at.startOf("week").minus({ days: 1 });
  return at.startOf("week");
}

const nextPeriod = (start: DateTime, unit: Unit): DateTime => start.plus(unit === "day" ? { days: 1 } : unit === "week" ? { weeks: 1 } : { months: 1 });

const DAY_MS = 86_400_000;

/** Period bounds already worked out, by zone, unit, week start and span: slot pages of one event type ask for the same ones again and again. */
const boundsMemo = new Map<string, number[]>();

/**
 * The starts of the periods of `unit` from the one holding `fromMs` until the first at or after
 * `untilMs` (that one included, as the end of the last). Local midnights are found by the zone's
 * offset (one look-up or two a day, where luxon would take a hundred times as long) and checked:
 * a midnight the zone skips is left to luxon, which moves it to the first real instant.
 */
function periodBounds(unit: Unit, frame: Pick<LimitFrame, "zone" | "weekStart">, fromMs: number, untilMs: number): number[] {
  const key = `${frame.zone}|${unit}|${frame.weekStart}|${fromMs}|${untilMs}`;
  const hit = boundsMemo.get(key);
  if (hit) return hit;
  const first = periodStart(fromMs, unit, frame);
  const zone = first.zone;
  let date = Date.UTC(first.year, first.month - 1, first.day);
  let ms = first.toMillis();
  const bounds: number[] = [];
  for (;;) {
    const local = new Date(date);
    const starts =
      unit === "day" || (unit === "week" && local.getUTCDay() === (frame.weekStart === "sunday" ? 0 : 1)) || (unit === "month" && local.getUTCDate() === 1);
    if (starts || bounds.length === 0) {
      bounds.push(ms);
      if (ms >= untilMs) break;
    }
    date += DAY_MS;
    // The next local midnight: the date's UTC midnight less the zone's offset there, checked.
    let next = date - zone.offset(ms + DAY_MS) * 60_000;
    if (next + zone.offset(next) * 60_000 !== date) next = date - zone.offset(next) * 60_000;
    if (next + zone.offset(next) * 60_000 !== date) {
      const d = new Date(date);
      next = DateTime.fromObject({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, { zone }).toMillis();
    }
    ms = next;
  }
  if (boundsMemo.size >= 1000) boundsMemo.clear();
  boundsMemo.set(key, bounds);
  return bounds;
}

/**
 * The span whose bookings decide whether bookings starting in [fromMs, untilMs) pass `frame`'s
 * limits: from the start of the first period meeting `fromMs` to the end of the last meeting
 * `untilMs`. Null when the frame sets no limit.
 */
export function limitSpan(frame: LimitFrame, fromMs: number, untilMs: number): { fromMs: number; untilMs: number } | null {
  const units = unitsOf(frame.limits);
  if (units.length === 0) return null;
  const key = `${frame.zone}|${frame.weekStart}|${units.map((u) => u.unit).join(",")}|${fromMs}|${untilMs}`;
  const hit = spanMemo.get(key);
  if (hit) return hit;
  let from = fromMs;
  let until = untilMs;
  for (const { unit } of units) {
    from = Math.min(from, periodStart(fromMs, unit, frame).toMillis());
    until = Math.max(until, nextPeriod(periodStart(Math.max(fromMs, untilMs - 1), unit, frame), unit).toMillis());
  }
  if (spanMemo.size >= 1000) spanMemo.clear();
  const span = { fromMs: from, untilMs: until };
  spanMemo.set(key, span);
  return span;
}

/** Spans already worked out (luxon takes tens of microseconds a step): by zone, week start, units and window. */
const spanMemo = new Map<string, { fromMs: number; untilMs: number }>();

/** The periods of one unit over a span: their starts (ascending, with the end of the last) and what is booked in each. */
interface Tally {
  bounds: number[];
  bookings: number[];
  minutes: number[];
  maxBookings: number | null;
  maxMinutes: number | null;
}

/** Index of the period of `bounds` holding `ms`, or -1 outside them. */
function periodIndex(bounds: readonly number[], ms: number): number {
  if (ms < bounds[0]! || ms >= bounds[bounds.length - 1]!) return -1;
  let lo = 0;
  let hi = bounds.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (bounds[mid]! <= ms) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether a booking of [startMs, endMs) would pass one of `frame`'s limits, given the bookings that
 * count (the booking itself not among them), for bookings starting in [fromMs, untilMs): true when
 * it is refused. The periods are built once (a few luxon steps per day of the span) and each booking
 * and question answered by binary search, so a page of slots costs little more than its bookings.
 * Null when the frame sets no limit.
 */
export function limitChecker(
  frame: LimitFrame,
  counted: readonly CountedBooking[],
  fromMs: number,
  untilMs: number,
): ((startMs: number, endMs: number) => boolean) | null {
  const span = limitSpan(frame, fromMs, untilMs);
  if (!span) return null;
  const tallies: Tally[] = unitsOf(frame.limits).map(({ unit, bookings, minutes }) => {
    const bounds = periodBounds(unit, frame, span.fromMs, span.untilMs);
    return {
      bounds,
      bookings: new Array(bounds.length - 1).fill(0),
      minutes: new Array(bounds.length - 1).fill(0),
      maxBookings: bookings,
      maxMinutes: minutes,
    };
  });
  for (const b of counted) {
    for (const t of tallies) {
      const i = periodIndex(t.bounds, b.startMs);
      if (i < 0) continue;
      t.bookings[i]!++;
      t.minutes[i]! += (b.endMs - b.startMs) / 60_000;
    }
  }
  return (startMs, endMs) => {
    for (const t of tallies) {
      const i = periodIndex(t.bounds, startMs);
      // Outside the span read nothing is known: such a question is a caller's mistake, refused.
      if (i < 0) return true;
      if (t.maxBookings !== null && t.bookings[i]! + 1 > t.maxBookings) return true;
      if (t.maxMinutes !== null && t.minutes[i]! + (endMs - startMs) / 60_000 > t.maxMinutes) return true;
    }
    return false;
  };
}
