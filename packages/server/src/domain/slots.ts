import { DateTime } from "luxon";
import { WEEKDAYS, type TimeRange } from "@booking/wire";
import type { AvailabilityRules } from "./event-type.ts";

/** The parts of an event type's settings that decide which slots exist. */
export interface SlotRules {
  timezone: string;
  availability: AvailabilityRules;
  durationMinutes: number;
  slotIntervalMinutes: number;
  seats: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
}

/** A reservation that takes a seat now (confirmed, or held and not yet expired), in epoch ms. */
export interface BusyInterval {
  startMs: number;
  endMs: number;
}

/** A candidate slot with its seat count, in epoch ms. */
export interface Slot {
  startMs: number;
  endMs: number;
  seats: number;
  freeSeats: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Open intervals (epoch ms, sorted, merged when overlapping or touching) of the organizer's hours
 * for every local day that meets [fromMs, untilMs). Wall-clock hours are turned into instants by
 * luxon in the organizer's zone, so a day that skips or repeats an hour has exactly as much real time
 * as it has. A range ending 24:00 and the next day's range from 00:00 become one interval.
 */
export function openIntervals(rules: Pick<SlotRules, "timezone" | "availability">, fromMs: number, untilMs: number): [number, number][] {
  const intervals: [number, number][] = [];
  const lastDate = localDate(untilMs, rules.timezone) + DAY;
  for (let date = localDate(fromMs, rules.timezone) - DAY; date <= lastDate; date += DAY) {
    for (const [start, end] of hoursOfDay(rules, date)) {
      if (end > fromMs && start < untilMs) intervals.push([start, end]);
    }
  }
  return merge(intervals);
}

/** Intervals sorted by start, those that overlap or touch joined into one. */
function merge(intervals: [number, number][]): [number, number][] {
  intervals.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const iv of intervals) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([iv[0], iv[1]]);
  }
  return merged;
}

/** The calendar date (its UTC midnight as a day number) of an instant in `zone`. */
function localDate(ms: number, zone: string): number {
  const d = DateTime.fromMillis(ms, { zone });
  return Date.UTC(d.year, d.month - 1, d.day);
}

const DAY = 24 * 60 * MINUTE;

// Per settings object (a new one comes with every settings change), the instants of each day's hours.
const hoursMemo = new WeakMap<object, Map<number, [number, number][]>>();

/** The open hours of one calendar date (its UTC midnight as a day number) as instants, memoized. */
function hoursOfDay(rules: Pick<SlotRules, "timezone" | "availability">, date: number): [number, number][] {
  let memo = hoursMemo.get(rules);
  if (!memo) {
    memo = new Map();
    hoursMemo.set(rules, memo);
  }
  let hours = memo.get(date);
  if (hours === undefined) {
    const d = new Date(date);
    const day = DateTime.fromObject({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, { zone: rules.timezone });
    const iso = d.toISOString().slice(0, 10);
    const ranges: TimeRange[] = rules.availability.overrides.find((o) => o.date === iso)?.ranges ?? rules.availability.weekly[WEEKDAYS[day.weekday - 1]!] ?? [];
    hours = ranges
      .map((range): [number, number] => [wallClock(day, range.start).toMillis(), wallClock(day, range.end).toMillis()])
      .filter(([start, end]) => end > start);
    // Bounded: a settings object lives as long as its revision; a long-running one sees a few years of days at most.
    if (memo.size > 5000) memo.clear();
    memo.set(date, hours);
  }
  return hours;
}

/** "HH:MM" of a local day as a zoned DateTime; "24:00" is the next midnight. */
function wallClock(day: DateTime, hhmm: string): DateTime {
  const [hour, minute] = hhmm.split(":").map(Number) as [number, number];
  if (hour === 24) return day.plus({ days: 1 }).startOf("day");
  // luxon takes the earlier of two instants for a repeated (fall-back) wall time.
  const at = day.set({ hour, minute, second: 0, millisecond: 0 });
  if (at.hour === hour && at.minute === minute) return at;
  // The wall time falls in a spring-forward gap, so no instant shows it. luxon moves it forward by
  // the gap (02:30 becomes 03:30), which would open real time past the organizer's hours; the
  // instants at or after a skipped wall time begin where the clock jumps, so use that instant.
  return clockJumpBefore(at);
}

/** The instant, within the day before `at`, from which the zone's offset is the one `at` has. */
function clockJumpBefore(at: DateTime): DateTime {
  let before = at.toMillis() - 24 * 60 * MINUTE;
  let after = at.toMillis();
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (at.zone.offset(mid) === at.offset) after = mid;
    else before = mid;
  }
  return DateTime.fromMillis(after, { zone: at.zone });
}

/**
 * Every slot whose start lies in [fromMs, untilMs), sorted by start, with its free seats given the
 * busy reservations.
 *
 * The grid is anchored to each range of the organizer's hours on its own local day (the day's
 * override, else its weekday), as the instants luxon makes of it: a range's slots start at the
 * range's start and step by the slot interval in real minutes while the start lies inside the range
 * (before its end), so across a DST change they stay evenly spaced in real time. A start is a slot
 * when the whole meeting lies in the open hours, ranges that overlap or touch counting as one
 * stretch: a meeting may run past the end of its own range into an adjoining one (across midnight
 * from a range ending 24:00 into the next day's range from 00:00). A start that several ranges
 * produce is listed once. Neither the grid nor the fit depends on the asked window, so every window
 * containing a slot's start lists it, and `isOffered` agrees.
 *
 * A slot is offered only after the minimum notice from `nowMs` and on a day no later than the
 * horizon (days from today in the organizer's zone). A reservation at exactly the slot's times takes
 * one of its seats; any other reservation whose buffered span overlaps the slot's buffered span
 * blocks the slot entirely, since the organizer cannot be in two different meetings at once.
 */
export function slotsBetween(
  rules: SlotRules,
  fromMs: number,
  untilMs: number,
  busy: BusyInterval[],
  nowMs: number,
  options: { ignoreNoticeAndHorizon?: boolean } = {},
): Slot[] {
  const durationMs = rules.durationMinutes * MINUTE;
  const stepMs = rules.slotIntervalMinutes * MINUTE;
  const before = rules.bufferBeforeMinutes * MINUTE;
  const after = rules.bufferAfterMinutes * MINUTE;
  // The notice and horizon steps bound the grid here; the availability check asks the same bounds (domain/exclusions.ts).
  const earliest = options.ignoreNoticeAndHorizon ? Number.NEGATIVE_INFINITY : noticeEnd(rules, nowMs);
  const latestStart = options.ignoreNoticeAndHorizon ? Number.POSITIVE_INFINITY : horizonEnd(rules, nowMs);
  const sorted = [...busy].sort((a, b) => a.startMs - b.startMs);
  const longest = sorted.reduce((m, b) => Math.max(m, b.endMs - b.startMs), 0);

  // A day's ranges lie between its midnight and the next, so a start in [fromMs, untilMs) comes from
  // a range of a day from the one before fromMs's day through untilMs's day.
  const firstDate = localDate(fromMs, rules.timezone) - DAY;
  const lastDate = localDate(untilMs, rules.timezone);
  // The meeting ends before that day's next midnight plus the meeting length, and no day is shorter
  // than 21 hours (no zone shifts its clock by 3 or more), so the open stretches are built from the
  // ranges of every candidate day and of `fitDays` days after the last: enough to decide any fit.
  const fitDays = Math.max(1, Math.ceil(durationMs / (DAY - 3 * HOUR)));
  const open: [number, number][] = [];
  for (let date = firstDate; date <= lastDate + fitDays * DAY; date += DAY) open.push(...hoursOfDay(rules, date));
  const stretches = merge(open);

  const lo = Math.max(fromMs, earliest);
  const hi = Math.min(untilMs, latestStart);
  const starts: number[] = [];
  for (let date = firstDate; date <= lastDate; date += DAY) {
    for (const [rangeStart, rangeEnd] of hoursOfDay(rules, date)) {
      const stop = Math.min(rangeEnd, hi);
      let start = rangeStart < lo ? rangeStart + Math.ceil((lo - rangeStart) / stepMs) * stepMs : rangeStart;
      for (; start < stop; start += stepMs) if (fits(stretches, start, start + durationMs)) starts.push(start);
    }
  }
  starts.sort((a, b) => a - b);

  const slots: Slot[] = [];
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    if (i > 0 && start === starts[i - 1]) continue;
    const end = start + durationMs;
    slots.push({ startMs: start, endMs: end, seats: rules.seats, freeSeats: freeSeatsOf(sorted, longest, start, end, before, after, rules.seats) });
  }
  return slots;
}

/** True when [start, end) lies in one of the merged open `stretches`. */
function fits(stretches: [number, number][], start: number, end: number): boolean {
  // The last stretch starting at or before `start`.
  let lo = 0;
  let hi = stretches.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stretches[mid]![0] <= start) lo = mid + 1;
    else hi = mid;
  }
  const stretch = stretches[lo - 1];
  return stretch !== undefined && start < stretch[1] && end <= stretch[1];
}

/**
 * True when [startMs, endMs) is a slot the calendar offers: on the grid of one of the organizer's
 * ranges with the whole meeting inside the hours, and (unless the organizer overrides) after the
 * minimum notice and within the horizon; exactly when `slotsBetween` lists it for any window
 * containing `startMs`. Seats are not considered; they are counted where they are taken.
 */
export function isOffered(rules: SlotRules, startMs: number, endMs: number, nowMs: number, options: { ignoreNoticeAndHorizon?: boolean } = {}): boolean {
  return slotsBetween(rules, startMs, startMs + 1, [], nowMs, options).some((s) => s.startMs === startMs && s.endMs === endMs);
}

/** Seats still free in the slot [startMs, endMs) given the reservations that hold seats, by the same rule as `slotsBetween`. */
export function seatsLeft(rules: SlotRules, startMs: number, endMs: number, busy: BusyInterval[]): number {
  const sorted = [...busy].sort((a, b) => a.startMs - b.startMs);
  const longest = sorted.reduce((m, b) => Math.max(m, b.endMs - b.startMs), 0);
  return freeSeatsOf(sorted, longest, startMs, endMs, rules.bufferBeforeMinutes * MINUTE, rules.bufferAfterMinutes * MINUTE, rules.seats);
}

/**
 * `seatsLeft` for many slots against the same reservations: sorted once, each slot then answered by a
 * binary search (the same rule as `slotsBetween`'s free seats).
 */
export function seatCounter(rules: SlotRules, busy: readonly BusyInterval[]): (startMs: number, endMs: number) => number {
  if (busy.length === 0) return () => rules.seats;
  const sorted = [...busy].sort((a, b) => a.startMs - b.startMs);
  const longest = sorted.reduce((m, b) => Math.max(m, b.endMs - b.startMs), 0);
  const before = rules.bufferBeforeMinutes * MINUTE;
  const after = rules.bufferAfterMinutes * MINUTE;
  return (startMs, endMs) => freeSeatsOf(sorted, longest, startMs, endMs, before, after, rules.seats);
}

/**
 * Whether a reservation whose hold lapsed may take its seat [startMs, endMs) again at `nowMs`: a seat
 * is free and the organizer still offers the time (hours, not notice: the visitor started booking
 * before the notice closed).
 */
export function retakable(rules: SlotRules, startMs: number, endMs: number, busy: BusyInterval[], nowMs: number): boolean {
  return seatsLeft(rules, startMs, endMs, busy) > 0 && isOffered(rules, startMs, endMs, nowMs, { ignoreNoticeAndHorizon: true });
}

/**
 * The span in which reservations can affect slots starting in [fromMs, untilMs): widened by the
 * meeting length and both buffers, since buffered spans may overlap across them.
 */
export function busyWindow(rules: SlotRules, fromMs: number, untilMs: number): { fromMs: number; untilMs: number } {
  const pad = (rules.bufferBeforeMinutes + rules.bufferAfterMinutes) * MINUTE;
  return { fromMs: fromMs - pad, untilMs: untilMs + rules.durationMinutes * MINUTE + pad };
}

/**
 * The span whose reservations can conflict with a meeting [startMs, endMs): widened by both buffers,
 * since buffered spans conflict when they overlap. Exactly that span, so a claim reads (and on
 * PostgreSQL locks) nothing of a neighbouring slot that only touches it.
 */
export function conflictWindow(rules: SlotRules, startMs: number, endMs: number): { fromMs: number; untilMs: number } {
  const pad = (rules.bufferBeforeMinutes + rules.bufferAfterMinutes) * MINUTE;
  return { fromMs: startMs - pad, untilMs: endMs + pad };
}

/** The first instant a slot may start at `nowMs` by the minimum notice (the notice step of the slot page and the check). */
export function noticeEnd(rules: Pick<SlotRules, "minNoticeMinutes">, nowMs: number): number {
  return nowMs + rules.minNoticeMinutes * MINUTE;
}

/** horizonEnd per zone and horizon, with the local day it holds for: luxon once a day, not on every booking. */
const horizons = new Map<string, { fromMs: number; untilMs: number; endMs: number }>();

/** First instant after the last bookable day (today plus `horizonDays`, organizer's zone). */
export function horizonEnd(rules: Pick<SlotRules, "timezone" | "horizonDays">, nowMs: number): number {
  const key = `${rules.timezone} ${rules.horizonDays}`;
  const hit = horizons.get(key);
  if (hit && nowMs >= hit.fromMs && nowMs < hit.untilMs) return hit.endMs;
  const today = DateTime.fromMillis(nowMs, { zone: rules.timezone }).startOf("day");
  const endMs = today.plus({ days: rules.horizonDays + 1 }).toMillis();
  // Bounded: one entry per zone and horizon in use.
  if (horizons.size >= 1000) horizons.clear();
  horizons.set(key, { fromMs: today.toMillis(), untilMs: today.plus({ days: 1 }).toMillis(), endMs });
  return endMs;
}

/**
 * The seat step: seats left in [start, end) among the `sorted` seat holders. With `blockers`, it does
 * not stop at the first holder that blocks the slot whole but collects every one (the availability
 * check's answer); the count is the same.
 */
export function freeSeatsOf<B extends BusyInterval>(
  sorted: readonly B[],
  longest: number,
  start: number,
  end: number,
  before: number,
  after: number,
  seats: number,
  blockers?: B[],
): number {
  // Buffered spans overlap when busy.start - before < end + after and busy.end + after > start - before.
  let hi = upperBound(sorted, end + after + before);
  let taken = 0;
  let blocked = false;
  while (hi-- > 0) {
    const b = sorted[hi]!;
    if (b.startMs + longest + after + before <= start) break;
    if (b.endMs + after + before <= start) continue;
    if (b.startMs === start && b.endMs === end) taken++;
    else if (!blockers) return 0;
    else {
      blocked = true;
      blockers.push(b);
    }
  }
  return blocked ? 0 : Math.max(0, seats - taken);
}

/** Index of the first busy interval starting at or after `ms`. */
function upperBound(sorted: readonly BusyInterval[], ms: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.startMs < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
