import ICAL from "ical.js";

/**
 * The most instances of one series' rules (RRULE) that start in the window, however old the series
 * (its rules are iterated from just before the window, see ruleInstances). Only a rule of seconds or
 * minutes reaches it in a window of days; the series then ends there, so one pathological rule costs
 * a bounded amount of work (some tenths of a second) and the rest of the calendar still counts.
 */
export const MAX_INSTANCES_PER_SERIES = 5_000;

/**
 * The most candidate times the rules of one series may test against their BY-parts, from where their
 * iteration starts (just before the window, or DTSTART for a COUNT or BYSETPOS rule). A rule that
 * matches nothing (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30) or almost nothing (FREQ=SECONDLY;BYMONTH=12
 * asked in November) would otherwise search without end inside one step of ical.js's iterator, and a
 * COUNT rule would be counted through all of its past; the series ends with the instances found until then.
 */
export const MAX_RULE_STEPS_PER_SERIES = 50_000;

/** Thrown inside a rule's iteration when it has used up MAX_RULE_STEPS_PER_SERIES. */
class RuleStepsExhausted extends Error {}

/** A time as epoch ms. */
export function epochMs(time: ICAL.Time): number {
  return time.toUnixTime() * 1000;
}

/** One instance of a series: its start, and an RDATE period's own end. */
export interface Instance {
  start: ICAL.Time;
  /** An RDATE period's own end; other instances last as long as the series. */
  end?: ICAL.Time;
}

/**
 * Where a series' instances are wanted, in epoch ms: those starting in [lowMs, stopMs), `lowMs` early
 * enough for any instance that reaches the window at `fromMs`.
 */
export interface SeriesBounds {
  lowMs: number;
  fromMs: number;
  stopMs: number;
}

/**
 * The series' instances that start in [lowMs, stopMs), by start (epoch ms), and DTSTART always
 * (RFC 5545 makes it the first instance). Only instances from just before `lowMs` on are computed,
 * however old the series: see ruleInstances.
 */
export function seriesInstances(event: ICAL.Event, bounds: SeriesBounds): Map<number, Instance> {
  const instances = new Map<number, Instance>();
  const start = event.startDate;
  instances.set(epochMs(start), { start });
  const used = { instances: 0, steps: 0 };
  for (const property of event.component.getAllProperties("rrule")) {
    const recur = property.getFirstValue();
    if (recur instanceof ICAL.Recur) ruleInstances(recur, start, bounds, instances, used);
  }

  for (const property of event.component.getAllProperties("rdate")) {
    for (const value of property.getValues()) {
      const instance: Instance | null =
        value instanceof ICAL.Period ? { start: value.start, end: value.getEnd() } : value instanceof ICAL.Time ? { start: value } : null;
      if (instance && epochMs(instance.start) < bounds.stopMs) instances.set(epochMs(instance.start), instance);
    }
  }
  return instances;
}

const HOUR_MS = 3_600_000;
/**
 * How far the wall time of an instant may stray from its neighbours' offset: one DST change (two
 * hours at most, as in double summer time). Wall times this far beyond a bound are surely beyond it.
 */
const WALL_SLACK_MS = 2 * HOUR_MS;

/**
 * Adds the instances of one rule that start in [lowMs, stopMs) to `instances`.
 *
 * ical.js iterates a rule in wall time (it adds to the fields of the time), asking the zone for an
 * offset only to compare; so the rule is iterated on DTSTART's wall time labelled UTC, which spares
 * the zone lookups, and only instances near the window are turned back into their zone.
 *
 * A rule without COUNT or BYSETPOS starts from a stand-in DTSTART (jumpedStart) a whole number of
 * its periods after the real one and just before the window, with the same fields the rule takes
 * from DTSTART, so it yields the same instances from there on (and UNTIL still ends it): a daily
 * series of 2001 costs what one of last week does. A COUNT rule must be counted from its real
 * DTSTART, and a BYSETPOS one picks among the whole period's candidates: both are iterated from
 * DTSTART, which MAX_RULE_STEPS_PER_SERIES bounds. MAX_INSTANCES_PER_SERIES counts the instances
 * from the window's start on; both count over all the rules of the series (`used`).
 *
 * Iterating wall times, two that a spring-forward gap makes one instant (an HOURLY rule's 02:00 and
 * 03:00 in Berlin) are two instances to COUNT and one in the answer.
 */
function ruleInstances(
  recur: ICAL.Recur,
  start: ICAL.Time,
  { lowMs, fromMs, stopMs }: SeriesBounds,
  instances: Map<number, Instance>,
  used: { instances: number; steps: number },
): void {
  const zone = start.zone;
  const rule = recur.clone();
  // The clone reads UNTIL back from text: give it the original's instant as a wall time of the zone.
  if (recur.until) rule.until = recur.until.isDate ? wallTime(wallMs(recur.until), true) : wallTime(wallMsAt(epochMs(recur.until), zone), false);
  const lowWall = wallMsAt(lowMs, zone) - WALL_SLACK_MS;
  const stopWall = wallMsAt(stopMs, zone) + WALL_SLACK_MS;
  const wallStart = wallTime(wallMs(start), start.isDate);
  const iterationStart = (!rule.count && !rule.parts.BYSETPOS && jumpedStart(wallStart, rule, lowWall)) || wallStart;

  const iterator = rule.iterator(iterationStart) as ICAL.RecurIterator & { check_contracting_rules(): boolean };
  // ical.js tests each candidate time against the rule's BY-parts here, in a loop it does not bound;
  // counting the tests is the one way to stop a rule that matches (almost) nothing.
  const check = iterator.check_contracting_rules.bind(iterator);
  iterator.check_contracting_rules = () => {
    if (++used.steps > MAX_RULE_STEPS_PER_SERIES) throw new RuleStepsExhausted();
    return check();
  };
  try {
    for (let next = iterator.next(); next; next = iterator.next()) {
      const wall = wallMs(next);
      if (wall >= stopWall) break;
      if (wall < lowWall) continue;
      const instance = new ICAL.Time(fieldsOf(next), zone);
      const startMs = epochMs(instance);
      // A wall time can sort before its neighbour's by a DST change: decide by the instant.
      if (startMs < lowMs || startMs >= stopMs) continue;
      if (startMs >= fromMs && ++used.instances > MAX_INSTANCES_PER_SERIES) break;
      if (!instances.has(startMs)) instances.set(startMs, { start: instance });
    }
  } catch (error) {
    if (!(error instanceof RuleStepsExhausted)) throw error;
  }
}

/** Periods of a fixed length in wall time, by frequency. */
const PERIOD_MS: Partial<Record<string, number>> = { SECONDLY: 1000, MINUTELY: 60_000, HOURLY: HOUR_MS, DAILY: 24 * HOUR_MS, WEEKLY: 7 * 24 * HOUR_MS };

/**
 * A stand-in DTSTART for `rule` (which has neither COUNT nor BYSETPOS), or null to start from the real
 * one: the real start moved on by a whole number of the rule's intervals, at least a whole interval
 * before `beforeWall`. Being a multiple of the interval away, its periods are the rule's own; keeping
 * every field finer than the frequency (a MONTHLY rule's day, a DAILY one's time of day, a WEEKLY
 * one's weekday), it gives the rule the same defaults. So the instances from it on are the rule's,
 * and those it misses are in the interval before it, before `beforeWall`. A month that lacks the
 * day (the 31st, February 29th) is passed over for an earlier interval that has it.
 */
function jumpedStart(start: ICAL.Time, rule: ICAL.Recur, beforeWall: number): ICAL.Time | null {
  const interval = Math.max(1, rule.interval || 1);
  const startWall = wallMs(start);
  const period = rule.freq ? PERIOD_MS[rule.freq] : undefined;
  if (period !== undefined) {
    if (start.isDate && period < PERIOD_MS.DAILY!) return null;
    const k = Math.floor((beforeWall - startWall) / (period * interval)) - 1;
    return k >= 1 ? wallTime(startWall + k * period * interval, start.isDate) : null;
  }
  const months = rule.freq === "MONTHLY" ? interval : rule.freq === "YEARLY" ? 12 * interval : 0;
  if (months === 0) return null;
  const before = new Date(beforeWall);
  const startMonth = start.year * 12 + start.month - 1;
  for (let k = Math.floor((before.getUTCFullYear() * 12 + before.getUTCMonth() - startMonth) / months) - 1; k >= 1; k--) {
    const month = startMonth + k * months;
    const [year, monthOfYear] = [Math.floor(month / 12), (month % 12) + 1];
    if (start.day <= ICAL.Time.daysInMonth(monthOfYear, year))
      return new ICAL.Time({ ...fieldsOf(start), year, month: monthOfYear }, ICAL.Timezone.utcTimezone);
  }
  return null;
}

/** The fields of a time, without its zone. */
function fieldsOf(time: ICAL.Time): { year: number; month: number; day: number; hour: number; minute: number; second: number; isDate: boolean } {
  return { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second, isDate: time.isDate };
}

/** A time's wall clock (its fields) as if it were UTC, in ms: wall times compared and added without a zone. */
function wallMs(time: ICAL.Time): number {
  return Date.UTC(time.year, time.month - 1, time.day, time.isDate ? 0 : time.hour, time.isDate ? 0 : time.minute, time.isDate ? 0 : time.second);
}

/** The wall time `ms` (see wallMs) as an ICAL.Time labelled UTC. */
function wallTime(ms: number, isDate: boolean): ICAL.Time {
  const d = new Date(ms);
  const time = {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
  return new ICAL.Time(isDate ? { ...time, hour: 0, minute: 0, second: 0, isDate } : { ...time, isDate }, ICAL.Timezone.utcTimezone);
}

/** The wall time (see wallMs) of the instant `ms` in `zone`; in a DST change it may be off by the change. */
function wallMsAt(ms: number, zone: ICAL.Timezone | null): number {
  if (!zone || zone === ICAL.Timezone.utcTimezone) return ms;
  let wall = ms;
  // The offset at the wall time, which the first guess may have taken across a DST change.
  for (let i = 0; i < 2; i++) wall = ms + zone.utcOffset(wallTime(wall, false)) * 1000;
  return wall;
}
