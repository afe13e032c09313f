import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { WEEKDAYS, type TimeRange, type Weekday } from "@booking/wire";
import { horizonEnd, isOffered, openIntervals, slotsBetween, type BusyInterval, type Slot, type SlotRules } from "../src/domain/slots.ts";
import { ZonedIsoWriter } from "../src/lib/zoned-iso.ts";

// Expected instants below are written out by hand from the zones' published DST rules
// (US: 2nd Sunday of March / 1st Sunday of November at 02:00 local; EU: last Sunday of March /
// October at 01:00 UTC; New South Wales: 1st Sunday of October / April at 02:00 / 03:00 local).

const MINUTE = 60_000;
const ms = (iso: string): number => {
  const value = Date.parse(iso);
  if (Number.isNaN(value)) throw new Error(`bad instant in test: ${iso}`);
  return value;
};
const utc = (value: number): string => new Date(value).toISOString().replace(".000Z", "Z");
const local = (value: number, zone: string): string => DateTime.fromMillis(value, { zone }).toISO({ suppressMilliseconds: true })!;
const startsUtc = (slots: Slot[]): string[] => slots.map((s) => utc(s.startMs));
const startsLocal = (slots: Slot[], zone: string): string[] => slots.map((s) => local(s.startMs, zone));
const intervalsUtc = (intervals: [number, number][]): string[][] => intervals.map(([a, b]) => [utc(a), utc(b)]);

/** Rules with no opening hours unless given, no notice, and a horizon far beyond every test date. */
function rulesOf(
  partial: Partial<Omit<SlotRules, "availability">> & {
    weekly?: Partial<Record<Weekday, TimeRange[]>>;
    overrides?: { date: string; ranges: TimeRange[] }[];
  } = {},
): SlotRules {
  const { weekly = {}, overrides = [], ...rest } = partial;
  return {
    timezone: "UTC",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    seats: 1,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minNoticeMinutes: 0,
    horizonDays: 730,
    ...rest,
    availability: { weekly, overrides },
  };
}

const range = (start: string, end: string): TimeRange => ({ start, end });
const LONG_AGO = ms("2025-01-01T00:00:00Z");
/** A wide instant window around a calendar date, so only the opening hours decide what is listed. */
const around = (date: string): [number, number] => [ms(`${date}T00:00:00Z`) - 2 * 86_400_000, ms(`${date}T00:00:00Z`) + 3 * 86_400_000];

function expectEvenlySpaced(slots: Slot[], stepMinutes: number): void {
  for (let i = 1; i < slots.length; i++) expect(slots[i]!.startMs - slots[i - 1]!.startMs).toBe(stepMinutes * MINUTE);
}

interface DstCase {
  name: string;
  zone: string;
  date: string;
  hourly: { utc: string[]; local: string[] };
  halfHourlyWall: string[];
  wholeDay: { count: number; first: string; last: string };
  officeHours: { dayBefore: string; dayBeforeFirst: string; first: string; last: string };
}

const DST_CASES: DstCase[] = [
  {
    name: "America/New_York springing forward on 2026-03-08",
    zone: "America/New_York",
    date: "2026-03-08",
    hourly: {
      utc: ["2026-03-08T05:00:00Z", "2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z"],
      local: ["2026-03-08T00:00:00-05:00", "2026-03-08T01:00:00-05:00", "2026-03-08T03:00:00-04:00"],
    },
    halfHourlyWall: ["00:00", "00:30", "01:00", "01:30", "03:00", "03:30"],
    wholeDay: { count: 23, first: "2026-03-08T05:00:00Z", last: "2026-03-09T03:00:00Z" },
    officeHours: { dayBefore: "2026-03-07", dayBeforeFirst: "2026-03-07T14:00:00Z", first: "2026-03-08T13:00:00Z", last: "2026-03-08T20:30:00Z" },
  },
  {
    name: "America/New_York falling back on 2026-11-01",
    zone: "America/New_York",
    date: "2026-11-01",
    hourly: {
      utc: ["2026-11-01T04:00:00Z", "2026-11-01T05:00:00Z", "2026-11-01T06:00:00Z", "2026-11-01T07:00:00Z", "2026-11-01T08:00:00Z"],
      local: ["2026-11-01T00:00:00-04:00", "2026-11-01T01:00:00-04:00", "2026-11-01T01:00:00-05:00", "2026-11-01T02:00:00-05:00", "2026-11-01T03:00:00-05:00"],
    },
    halfHourlyWall: ["00:00", "00:30", "01:00", "01:30", "01:00", "01:30", "02:00", "02:30", "03:00", "03:30"],
    wholeDay: { count: 25, first: "2026-11-01T04:00:00Z", last: "2026-11-02T04:00:00Z" },
    officeHours: { dayBefore: "2026-10-31", dayBeforeFirst: "2026-10-31T13:00:00Z", first: "2026-11-01T14:00:00Z", last: "2026-11-01T21:30:00Z" },
  },
  {
    name: "Europe/Berlin springing forward on 2026-03-29",
    zone: "Europe/Berlin",
    date: "2026-03-29",
    hourly: {
      utc: ["2026-03-28T23:00:00Z", "2026-03-29T00:00:00Z", "2026-03-29T01:00:00Z"],
      local: ["2026-03-29T00:00:00+01:00", "2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00"],
    },
    halfHourlyWall: ["00:00", "00:30", "01:00", "01:30", "03:00", "03:30"],
    wholeDay: { count: 23, first: "2026-03-28T23:00:00Z", last: "2026-03-29T21:00:00Z" },
    officeHours: { dayBefore: "2026-03-28", dayBeforeFirst: "2026-03-28T08:00:00Z", first: "2026-03-29T07:00:00Z", last: "2026-03-29T14:30:00Z" },
  },
  {
    name: "Europe/Berlin falling back on 2026-10-25",
    zone: "Europe/Berlin",
    date: "2026-10-25",
    hourly: {
      utc: ["2026-10-24T22:00:00Z", "2026-10-24T23:00:00Z", "2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z", "2026-10-25T02:00:00Z"],
      local: ["2026-10-25T00:00:00+02:00", "2026-10-25T01:00:00+02:00", "2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"],
    },
    halfHourlyWall: ["00:00", "00:30", "01:00", "01:30", "02:00", "02:30", "02:00", "02:30", "03:00", "03:30"],
    wholeDay: { count: 25, first: "2026-10-24T22:00:00Z", last: "2026-10-25T22:00:00Z" },
    officeHours: { dayBefore: "2026-10-24", dayBeforeFirst: "2026-10-24T07:00:00Z", first: "2026-10-25T08:00:00Z", last: "2026-10-25T15:30:00Z" },
  },
  {
    name: "Australia/Sydney leaving DST on 2026-04-05",
    zone: "Australia/Sydney",
    date: "2026-04-05",
    hourly: {
      utc: ["2026-04-04T13:00:00Z", "2026-04-04T14:00:00Z", "2026-04-04T15:00:00Z", "2026-04-04T16:00:00Z", "2026-04-04T17:00:00Z"],
      local: ["2026-04-05T00:00:00+11:00", "2026-04-05T01:00:00+11:00", "2026-04-05T02:00:00+11:00", "2026-04-05T02:00:00+10:00", "2026-04-05T03:00:00+10:00"],
    },
    halfHourlyWall: ["00:00", "00:30", "01:00", "01:30", "02:00", "02:30", "02:00", "02:30", "03:00", "03:30"],
    wholeDay: { count: 25, first: "2026-04-04T13:00:00Z", last: "2026-04-05T13:00:00Z" },
    officeHours: { dayBefore: "2026-04-04", dayBeforeFirst: "2026-04-03T22:00:00Z", first: "2026-04-04T23:00:00Z", last: "2026-04-05T06:30:00Z" },
  },
  {
    name: "Australia/Sydney entering DST on 2026-10-04",
    zone: "Australia/Sydney",
    date: "2026-10-04",
    hourly: {
      utc: ["2026-10-03T14:00:00Z", "2026-10-03T15:00:00Z", "2026-10-03T16:00:00Z"],
      local: ["2026-10-04T00:00:00+10:00", "2026-10-04T01:00:00+10:00", "2026-10-04T03:00:00+11:00"],
    },
    halfHourlyWall: ["00:00", "00:30", "01:00", "01:30", "03:00", "03:30"],
    wholeDay: { count: 23, first: "2026-10-03T14:00:00Z", last: "2026-10-04T12:00:00Z" },
    officeHours: { dayBefore: "2026-10-03", dayBeforeFirst: "2026-10-02T23:00:00Z", first: "2026-10-03T22:00:00Z", last: "2026-10-04T05:30:00Z" },
  },
];

describe("slotsBetween across DST changes", () => {
  describe.each(DST_CASES)("$name", (c) => {
    const [fromMs, untilMs] = around(c.date);
    const nightHours = (minutes: number) =>
      rulesOf({ timezone: c.zone, durationMinutes: minutes, slotIntervalMinutes: minutes, overrides: [{ date: c.date, ranges: [range("00:00", "04:00")] }] });

    it("offers hourly slots from 00:00 to 04:00 at exactly the real hours the night has", () => {
      const slots = slotsBetween(nightHours(60), fromMs, untilMs, [], LONG_AGO);
      expect(startsUtc(slots)).toEqual(c.hourly.utc);
      expect(startsLocal(slots, c.zone)).toEqual(c.hourly.local);
      for (const s of slots) expect(s.endMs - s.startMs).toBe(60 * MINUTE);
    });

    it("keeps half-hourly slots evenly spaced in real time with no instant listed twice", () => {
      const slots = slotsBetween(nightHours(30), fromMs, untilMs, [], LONG_AGO);
      expect(slots).toHaveLength(c.halfHourlyWall.length);
      expectEvenlySpaced(slots, 30);
      expect(new Set(slots.map((s) => s.startMs)).size).toBe(slots.length);
      expect(utc(slots[0]!.startMs)).toBe(c.hourly.utc[0]);
    });

    it("shows each wall time the night really has, none from a skipped hour and a repeated hour twice", () => {
      const slots = slotsBetween(nightHours(30), fromMs, untilMs, [], LONG_AGO);
      expect(slots.map((s) => DateTime.fromMillis(s.startMs, { zone: c.zone }).toFormat("HH:mm"))).toEqual(c.halfHourlyWall);
    });

    it("fits as many hourly slots into a 00:00-24:00 day as the day has hours", () => {
      const rules = rulesOf({
        timezone: c.zone,
        durationMinutes: 60,
        slotIntervalMinutes: 60,
        overrides: [{ date: c.date, ranges: [range("00:00", "24:00")] }],
      });
      const slots = slotsBetween(rules, fromMs, untilMs, [], LONG_AGO);
      expect(slots).toHaveLength(c.wholeDay.count);
      expect(utc(slots[0]!.startMs)).toBe(c.wholeDay.first);
      expect(utc(slots.at(-1)!.startMs)).toBe(c.wholeDay.last);
      expectEvenlySpaced(slots, 60);
    });

    it("places ordinary 09:00-17:00 hours at the usual wall times with the day's own offset", () => {
      const rules = rulesOf({
        timezone: c.zone,
        overrides: [
          { date: c.officeHours.dayBefore, ranges: [range("09:00", "17:00")] },
          { date: c.date, ranges: [range("09:00", "17:00")] },
        ],
      });
      const slots = slotsBetween(rules, fromMs, untilMs, [], LONG_AGO);
      expect(slots).toHaveLength(32);
      const dayBefore = slots.slice(0, 16);
      const dstDay = slots.slice(16);
      expect(utc(dayBefore[0]!.startMs)).toBe(c.officeHours.dayBeforeFirst);
      expect(utc(dstDay[0]!.startMs)).toBe(c.officeHours.first);
      expect(utc(dstDay.at(-1)!.startMs)).toBe(c.officeHours.last);
      expect(DateTime.fromMillis(dstDay[0]!.startMs, { zone: c.zone }).toFormat("yyyy-MM-dd HH:mm")).toBe(`${c.date} 09:00`);
      expect(DateTime.fromMillis(dstDay.at(-1)!.endMs, { zone: c.zone }).toFormat("yyyy-MM-dd HH:mm")).toBe(`${c.date} 17:00`);
    });
  });

  it("opens no time at all for a range lying wholly inside the skipped hour", () => {
    for (const [zone, date] of [
      ["America/New_York", "2026-03-08"],
      ["Europe/Berlin", "2026-03-29"],
      ["Australia/Sydney", "2026-10-04"],
    ] as const) {
      const rules = rulesOf({ timezone: zone, overrides: [{ date, ranges: [range("02:15", "02:45"), range("02:00", "03:00")] }] });
      const [fromMs, untilMs] = around(date);
      expect(slotsBetween(rules, fromMs, untilMs, [], LONG_AGO), `${zone} ${date}`).toEqual([]);
    }
  });

  it("ends a range that ends inside the skipped hour where the clock jumps", () => {
    const rules = rulesOf({ timezone: "America/New_York", overrides: [{ date: "2026-03-08", ranges: [range("01:00", "02:30")] }] });
    const slots = slotsBetween(rules, ...around("2026-03-08"), [], LONG_AGO);
    expect(startsLocal(slots, "America/New_York")).toEqual(["2026-03-08T01:00:00-05:00", "2026-03-08T01:30:00-05:00"]);
  });

  it("starts a range that starts inside the skipped hour where the clock jumps", () => {
    const rules = rulesOf({ timezone: "Europe/Berlin", overrides: [{ date: "2026-03-29", ranges: [range("02:30", "04:00")] }] });
    const slots = slotsBetween(rules, ...around("2026-03-29"), [], LONG_AGO);
    expect(startsUtc(slots)).toEqual(["2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z"]);
    expect(startsLocal(slots, "Europe/Berlin")).toEqual(["2026-03-29T03:00:00+02:00", "2026-03-29T03:30:00+02:00"]);
  });
});

describe("openIntervals", () => {
  it("turns several ranges of one weekday into separate sorted intervals", () => {
    const rules = rulesOf({ weekly: { monday: [range("14:00", "16:00"), range("09:00", "12:00")] } });
    const intervals = openIntervals(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-24T00:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([
      ["2026-11-23T09:00:00Z", "2026-11-23T12:00:00Z"],
      ["2026-11-23T14:00:00Z", "2026-11-23T16:00:00Z"],
    ]);
  });

  it("merges ranges of one day that overlap or touch", () => {
    const rules = rulesOf({ weekly: { monday: [range("09:00", "11:00"), range("10:00", "12:00"), range("12:00", "13:00"), range("15:00", "16:00")] } });
    const intervals = openIntervals(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-24T00:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([
      ["2026-11-23T09:00:00Z", "2026-11-23T13:00:00Z"],
      ["2026-11-23T15:00:00Z", "2026-11-23T16:00:00Z"],
    ]);
  });

  it("joins a range ending at 24:00 with the next day's range from 00:00 into one interval", () => {
    const rules = rulesOf({ timezone: "Europe/Prague", weekly: { monday: [range("22:00", "24:00")], tuesday: [range("00:00", "01:00")] } });
    const intervals = openIntervals(rules, ms("2026-11-22T23:00:00Z"), ms("2026-11-24T23:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([["2026-11-23T21:00:00Z", "2026-11-24T00:00:00Z"]]);
  });

  it("closes a day whose override has no ranges while the weekly hours hold on other days", () => {
    const rules = rulesOf({
      weekly: { monday: [range("09:00", "10:00")], tuesday: [range("09:00", "10:00")] },
      overrides: [{ date: "2026-11-23", ranges: [] }],
    });
    const intervals = openIntervals(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-25T00:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([["2026-11-24T09:00:00Z", "2026-11-24T10:00:00Z"]]);
  });

  it("replaces the weekly hours of a day with the override's special hours", () => {
    const rules = rulesOf({
      weekly: { monday: [range("09:00", "17:00")] },
      overrides: [{ date: "2026-11-23", ranges: [range("07:00", "08:00"), range("18:00", "19:30")] }],
    });
    const intervals = openIntervals(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-24T00:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([
      ["2026-11-23T07:00:00Z", "2026-11-23T08:00:00Z"],
      ["2026-11-23T18:00:00Z", "2026-11-23T19:30:00Z"],
    ]);
  });

  it("reads override dates as calendar days in the organizer's zone, not in UTC", () => {
    // Sunday 2026-04-05 in Sydney runs from 2026-04-04T13:00Z (AEDT) to 2026-04-05T14:00Z (AEST).
    const rules = rulesOf({ timezone: "Australia/Sydney", overrides: [{ date: "2026-04-05", ranges: [range("00:00", "24:00")] }] });
    const intervals = openIntervals(rules, ms("2026-04-03T00:00:00Z"), ms("2026-04-07T00:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([["2026-04-04T13:00:00Z", "2026-04-05T14:00:00Z"]]);
  });

  it("gives a wall-clock range over the repeated hour all the real time it covers", () => {
    // 01:00 EDT is 05:00Z; 02:00 EST, after the hour repeats, is 07:00Z.
    const rules = rulesOf({ timezone: "America/New_York", overrides: [{ date: "2026-11-01", ranges: [range("01:00", "02:00")] }] });
    expect(intervalsUtc(openIntervals(rules, ...around("2026-11-01")))).toEqual([["2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z"]]);
  });

  it("cuts a range that straddles the skipped hour at the jump instead of stretching it", () => {
    // 01:30 EST is 06:30Z; wall times up to 02:30 exist only until the clock jumps at 07:00Z.
    const rules = rulesOf({ timezone: "America/New_York", overrides: [{ date: "2026-03-08", ranges: [range("01:30", "02:30"), range("02:15", "02:45")] }] });
    expect(intervalsUtc(openIntervals(rules, ...around("2026-03-08")))).toEqual([["2026-03-08T06:30:00Z", "2026-03-08T07:00:00Z"]]);
  });

  it("leaves out intervals that end before the window or start after it", () => {
    const rules = rulesOf({ weekly: { monday: [range("08:00", "09:00"), range("10:00", "11:00"), range("12:00", "13:00")] } });
    const intervals = openIntervals(rules, ms("2026-11-23T09:00:00Z"), ms("2026-11-23T12:00:00Z"));
    expect(intervalsUtc(intervals)).toEqual([["2026-11-23T10:00:00Z", "2026-11-23T11:00:00Z"]]);
  });
});

describe("slotsBetween", () => {
  const monday = { weekly: { monday: [range("09:00", "17:00")] } };
  const mondayWindow: [number, number] = [ms("2026-11-23T00:00:00Z"), ms("2026-11-24T00:00:00Z")];

  it("offers every slot of each of several ranges of a day, and none in between", () => {
    const rules = rulesOf({ weekly: { monday: [range("09:00", "10:00"), range("13:00", "14:30")] } });
    const slots = slotsBetween(rules, ...mondayWindow, [], LONG_AGO);
    expect(startsUtc(slots)).toEqual(["2026-11-23T09:00:00Z", "2026-11-23T09:30:00Z", "2026-11-23T13:00:00Z", "2026-11-23T13:30:00Z", "2026-11-23T14:00:00Z"]);
    for (const s of slots) expect(s).toMatchObject({ seats: 1, freeSeats: 1, endMs: s.startMs + 30 * MINUTE });
  });

  it("offers a slot across midnight when a 24:00 range adjoins the next day's 00:00 range", () => {
    const rules = rulesOf({ durationMinutes: 60, slotIntervalMinutes: 30, weekly: { monday: [range("22:00", "24:00")], tuesday: [range("00:00", "01:00")] } });
    const slots = slotsBetween(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-25T00:00:00Z"), [], LONG_AGO);
    expect(startsUtc(slots)).toEqual(["2026-11-23T22:00:00Z", "2026-11-23T22:30:00Z", "2026-11-23T23:00:00Z", "2026-11-23T23:30:00Z", "2026-11-24T00:00:00Z"]);
  });

  it("offers nothing on a day closed by an override and special hours where one replaces the week", () => {
    const rules = rulesOf({
      weekly: { monday: [range("09:00", "17:00")], tuesday: [range("09:00", "17:00")] },
      overrides: [
        { date: "2026-11-23", ranges: [] },
        { date: "2026-11-24", ranges: [range("18:00", "19:00")] },
      ],
    });
    const slots = slotsBetween(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-25T00:00:00Z"), [], LONG_AGO);
    expect(startsUtc(slots)).toEqual(["2026-11-24T18:00:00Z", "2026-11-24T18:30:00Z"]);
  });

  it("steps by the slot interval when it is shorter than the meeting, and keeps every meeting inside the hours", () => {
    const rules = rulesOf({ durationMinutes: 60, slotIntervalMinutes: 15, weekly: { monday: [range("09:00", "11:00")] } });
    const slots = slotsBetween(rules, ...mondayWindow, [], LONG_AGO);
    expect(startsUtc(slots)).toEqual(["2026-11-23T09:00:00Z", "2026-11-23T09:15:00Z", "2026-11-23T09:30:00Z", "2026-11-23T09:45:00Z", "2026-11-23T10:00:00Z"]);
    for (const s of slots) expect(s.endMs - s.startMs).toBe(60 * MINUTE);
  });

  it("drops a trailing slot that would run past the end of the hours", () => {
    const rules = rulesOf({ weekly: { monday: [range("09:00", "10:45")] } });
    expect(startsUtc(slotsBetween(rules, ...mondayWindow, [], LONG_AGO))).toEqual(["2026-11-23T09:00:00Z", "2026-11-23T09:30:00Z", "2026-11-23T10:00:00Z"]);
  });

  it("aligns slots to the start of the hours, not to the start of the asked window", () => {
    const slots = slotsBetween(rulesOf(monday), ms("2026-11-23T09:10:00Z"), ms("2026-11-23T10:30:00Z"), [], LONG_AGO);
    expect(startsUtc(slots)).toEqual(["2026-11-23T09:30:00Z", "2026-11-23T10:00:00Z"]);
  });

  describe("with existing reservations", () => {
    const busy = (startIso: string, minutes: number): BusyInterval => ({ startMs: ms(startIso), endMs: ms(startIso) + minutes * MINUTE });
    const freeStarts = (rules: SlotRules, reservations: BusyInterval[]) =>
      startsUtc(slotsBetween(rules, ...mondayWindow, reservations, LONG_AGO).filter((s) => s.freeSeats > 0));

    it("blocks the reserved slot and every slot overlapping it, but not slots that only touch it", () => {
      const rules = rulesOf({ durationMinutes: 30, slotIntervalMinutes: 15, weekly: { monday: [range("09:00", "11:00")] } });
      expect(freeStarts(rules, [busy("2026-11-23T09:45:00Z", 30)])).toEqual([
        "2026-11-23T09:00:00Z",
        "2026-11-23T09:15:00Z",
        "2026-11-23T10:15:00Z",
        "2026-11-23T10:30:00Z",
      ]);
    });

    it("keeps the before and after buffers of both meetings free around a reservation", () => {
      // Buffered spans: the reservation [09:50, 10:50), a slot at s [s - 10, s + 30 + 20).
      // Free when s + 50 <= 09:50 (s <= 09:00) or s - 10 >= 10:50 (s >= 11:00).
      const rules = rulesOf({ slotIntervalMinutes: 5, bufferBeforeMinutes: 10, bufferAfterMinutes: 20, weekly: { monday: [range("08:30", "12:00")] } });
      const free = freeStarts(rules, [busy("2026-11-23T10:00:00Z", 30)]);
      expect(free).toContain("2026-11-23T09:00:00Z");
      expect(free).not.toContain("2026-11-23T09:05:00Z");
      expect(free).not.toContain("2026-11-23T10:00:00Z");
      expect(free).not.toContain("2026-11-23T10:55:00Z");
      expect(free).toContain("2026-11-23T11:00:00Z");
      expect(free.filter((s) => s > "2026-11-23T09:00:00Z" && s < "2026-11-23T11:00:00Z")).toEqual([]);
    });

    it("lets a reservation before the opening hours push the first slot back by the buffers", () => {
      const rules = rulesOf({ bufferAfterMinutes: 30, weekly: { monday: [range("09:00", "11:00")] } });
      expect(freeStarts(rules, [busy("2026-11-23T08:15:00Z", 30)])).toEqual(["2026-11-23T09:30:00Z", "2026-11-23T10:00:00Z", "2026-11-23T10:30:00Z"]);
    });

    it("still blocks later slots with a long reservation when a shorter one starts after it", () => {
      // Scanning back from a slot must not stop at the short 08:30 reservation, which ended long before.
      const reservations = [busy("2026-11-23T14:00:00Z", 30), busy("2026-11-23T08:30:00Z", 30), busy("2026-11-23T08:00:00Z", 240)];
      expect(freeStarts(rulesOf(monday), reservations)).toEqual([
        "2026-11-23T12:00:00Z",
        "2026-11-23T12:30:00Z",
        "2026-11-23T13:00:00Z",
        "2026-11-23T13:30:00Z",
        "2026-11-23T14:30:00Z",
        "2026-11-23T15:00:00Z",
        "2026-11-23T15:30:00Z",
        "2026-11-23T16:00:00Z",
        "2026-11-23T16:30:00Z",
      ]);
    });

    it("counts a reservation at exactly the slot's times as one taken seat of a seated slot", () => {
      const rules = rulesOf({ ...monday, seats: 3 });
      const one = slotsBetween(rules, ...mondayWindow, [busy("2026-11-23T10:00:00Z", 30)], LONG_AGO);
      expect(one.find((s) => utc(s.startMs) === "2026-11-23T10:00:00Z")).toMatchObject({ seats: 3, freeSeats: 2 });
      expect(one.find((s) => utc(s.startMs) === "2026-11-23T10:30:00Z")).toMatchObject({ seats: 3, freeSeats: 3 });
      expect(one.find((s) => utc(s.startMs) === "2026-11-23T09:30:00Z")).toMatchObject({ seats: 3, freeSeats: 3 });

      const three = slotsBetween(
        rules,
        ...mondayWindow,
        [busy("2026-11-23T10:00:00Z", 30), busy("2026-11-23T10:00:00Z", 30), busy("2026-11-23T10:00:00Z", 30)],
        LONG_AGO,
      );
      expect(three.find((s) => utc(s.startMs) === "2026-11-23T10:00:00Z")).toMatchObject({ freeSeats: 0 });
    });

    it("blocks every seat of a slot that a reservation at a different time overlaps", () => {
      const rules = rulesOf({ ...monday, seats: 3 });
      const slots = slotsBetween(rules, ...mondayWindow, [busy("2026-11-23T10:15:00Z", 30)], LONG_AGO);
      expect(slots.find((s) => utc(s.startMs) === "2026-11-23T10:00:00Z")).toMatchObject({ freeSeats: 0 });
      expect(slots.find((s) => utc(s.startMs) === "2026-11-23T10:30:00Z")).toMatchObject({ freeSeats: 0 });
      expect(slots.find((s) => utc(s.startMs) === "2026-11-23T11:00:00Z")).toMatchObject({ freeSeats: 3 });
    });

    it("blocks a seated slot when a longer reservation starts with it but ends later", () => {
      const rules = rulesOf({ ...monday, seats: 3 });
      const slots = slotsBetween(rules, ...mondayWindow, [busy("2026-11-23T10:00:00Z", 60)], LONG_AGO);
      expect(slots.find((s) => utc(s.startMs) === "2026-11-23T10:00:00Z")).toMatchObject({ freeSeats: 0 });
    });
  });

  describe("minimum notice", () => {
    it("offers the first slot that starts exactly at now plus the notice and none before it", () => {
      const rules = rulesOf({ ...monday, minNoticeMinutes: 90 });
      const slots = slotsBetween(rules, ...mondayWindow, [], ms("2026-11-23T08:00:00Z"));
      expect(utc(slots[0]!.startMs)).toBe("2026-11-23T09:30:00Z");
      expect(slots).toHaveLength(15);
    });

    it("drops a slot as soon as less than the notice is left before it", () => {
      const rules = rulesOf({ ...monday, minNoticeMinutes: 90 });
      const slots = slotsBetween(rules, ...mondayWindow, [], ms("2026-11-23T08:00:00.001Z"));
      expect(utc(slots[0]!.startMs)).toBe("2026-11-23T10:00:00Z");
    });
  });

  describe("horizon", () => {
    it("offers slots through the last bookable day and none after it", () => {
      // Now is Monday 2026-11-23 08:00 in Prague; two days ahead is Wednesday the 25th.
      const weekdays = {
        monday: [range("09:00", "10:00")],
        tuesday: [range("09:00", "10:00")],
        wednesday: [range("09:00", "10:00")],
        thursday: [range("09:00", "10:00")],
      };
      const rules = rulesOf({ timezone: "Europe/Prague", horizonDays: 2, weekly: weekdays });
      const slots = slotsBetween(rules, ms("2026-11-22T23:00:00Z"), ms("2026-11-27T23:00:00Z"), [], ms("2026-11-23T07:00:00Z"));
      expect(startsLocal(slots, "Europe/Prague")).toEqual([
        "2026-11-23T09:00:00+01:00",
        "2026-11-23T09:30:00+01:00",
        "2026-11-24T09:00:00+01:00",
        "2026-11-24T09:30:00+01:00",
        "2026-11-25T09:00:00+01:00",
        "2026-11-25T09:30:00+01:00",
      ]);
    });

    it("counts horizon days from today in the organizer's zone, not from the UTC date", () => {
      // 2026-11-23T23:30Z is already Tuesday 00:30 in Prague, so a zero-day horizon means Tuesday only.
      const rules = rulesOf({
        timezone: "Europe/Prague",
        horizonDays: 0,
        weekly: { tuesday: [range("09:00", "10:00")], wednesday: [range("09:00", "10:00")] },
      });
      const slots = slotsBetween(rules, ms("2026-11-22T23:00:00Z"), ms("2026-11-27T23:00:00Z"), [], ms("2026-11-23T23:30:00Z"));
      expect(startsUtc(slots)).toEqual(["2026-11-24T08:00:00Z", "2026-11-24T08:30:00Z"]);
    });
  });
});

describe("the slot grid", () => {
  const DAY_MS = 86_400_000;
  const everyDay = (...ranges: TimeRange[]): Partial<Record<Weekday, TimeRange[]>> => Object.fromEntries(WEEKDAYS.map((d) => [d, ranges]));
  const within = (slots: Slot[], fromMs: number, untilMs: number): Slot[] => slots.filter((s) => s.startMs >= fromMs && s.startMs < untilMs);
  const spans = (slots: Slot[]): string[] => slots.map((s) => `${utc(s.startMs)}/${utc(s.endMs)}`);

  describe("is anchored to each day's own ranges, whatever the asked window", () => {
    const allWeek = (zone: string) => rulesOf({ timezone: zone, durationMinutes: 50, slotIntervalMinutes: 50, weekly: everyDay(range("00:00", "24:00")) });

    it("lists the same slots for a day of 24/7 hours alone or within a wider window, and offers exactly those", () => {
      const rules = allWeek("UTC");
      const wide = slotsBetween(rules, ms("2026-11-24T00:00:00Z"), ms("2026-11-29T00:00:00Z"), [], LONG_AGO);
      const day: [number, number] = [ms("2026-11-27T00:00:00Z"), ms("2026-11-28T00:00:00Z")];
      const narrow = slotsBetween(rules, ...day, [], LONG_AGO);
      expect(spans(narrow)).toEqual(spans(within(wide, ...day)));
      // 00:00, 00:50, ... 23:20: 29 slots a day, the last running 10 minutes into the next day's hours.
      expect(narrow).toHaveLength(29);
      expect(utc(narrow[0]!.startMs)).toBe("2026-11-27T00:00:00Z");
      expect(startsUtc(narrow.slice(-2))).toEqual(["2026-11-27T22:30:00Z", "2026-11-27T23:20:00Z"]);
      expect(utc(narrow.at(-1)!.endMs)).toBe("2026-11-28T00:10:00Z");
      expect(startsUtc(wide)).not.toContain("2026-11-27T00:30:00Z");
      expect(isOffered(rules, ms("2026-11-27T00:00:00Z"), ms("2026-11-27T00:50:00Z"), LONG_AGO)).toBe(true);
      expect(isOffered(rules, ms("2026-11-27T00:30:00Z"), ms("2026-11-27T01:20:00Z"), LONG_AGO)).toBe(false);
      expect(isOffered(rules, ms("2026-11-27T23:20:00Z"), ms("2026-11-28T00:10:00Z"), LONG_AGO)).toBe(true);
      for (const s of wide) expect(isOffered(rules, s.startMs, s.endMs, LONG_AGO), utc(s.startMs)).toBe(true);
    });

    it.each([
      { name: "a 25-hour day", date: "2026-10-25", midnight: "2026-10-24T22:00:00Z", next: "2026-10-25T23:00:00Z", count: 30, last: "2026-10-25T22:10:00Z" },
      { name: "a 23-hour day", date: "2026-03-29", midnight: "2026-03-28T23:00:00Z", next: "2026-03-29T22:00:00Z", count: 28, last: "2026-03-29T21:30:00Z" },
    ])("restarts the grid at local midnight after $name of 24/7 hours in Berlin", (c) => {
      const rules = allWeek("Europe/Berlin");
      const day: [number, number] = [ms(c.midnight), ms(c.next)];
      const wide = slotsBetween(rules, ms(c.midnight) - 3 * DAY_MS, ms(c.next) + 3 * DAY_MS, [], LONG_AGO);
      const narrow = slotsBetween(rules, ...day, [], LONG_AGO);
      expect(spans(narrow)).toEqual(spans(within(wide, ...day)));
      expect(narrow).toHaveLength(c.count);
      expect(utc(narrow[0]!.startMs)).toBe(c.midnight);
      expect(utc(narrow.at(-1)!.startMs)).toBe(c.last);
      expectEvenlySpaced(narrow, 50);
      expect(startsUtc(wide)).toContain(c.next);
      for (const s of wide) expect(isOffered(rules, s.startMs, s.endMs, LONG_AGO), utc(s.startMs)).toBe(true);
    });

    it("anchors each of two overlapping ranges of a day separately and lists a start they share once", () => {
      const rules = rulesOf({ durationMinutes: 30, slotIntervalMinutes: 45, weekly: { monday: [range("09:00", "11:00"), range("09:45", "10:45")] } });
      const slots = slotsBetween(rules, ms("2026-11-23T00:00:00Z"), ms("2026-11-24T00:00:00Z"), [], LONG_AGO);
      // 09:00-11:00 gives 09:00, 09:45, 10:30; 09:45-10:45 gives 09:45 (again) and 10:30 (again).
      expect(startsUtc(slots)).toEqual(["2026-11-23T09:00:00Z", "2026-11-23T09:45:00Z", "2026-11-23T10:30:00Z"]);
    });

    it("fits a day-long meeting from one day's hours into the next day's, across a 25-hour day", () => {
      const rules = rulesOf({
        timezone: "Europe/Berlin",
        durationMinutes: 1440,
        slotIntervalMinutes: 600,
        weekly: everyDay(range("00:00", "24:00")),
        overrides: [{ date: "2026-10-27", ranges: [range("00:00", "18:00")] }],
      });
      // Berlin's 2026-10-24 has 24 hours from 22:00Z, 2026-10-25 has 25 from 22:00Z and 2026-10-26 has 24 from 23:00Z;
      // on 2026-10-27 the hours end at 18:00 (17:00Z), so a meeting from 19:00Z on the 26th does not fit.
      const slots = slotsBetween(rules, ms("2026-10-23T22:00:00Z"), ms("2026-10-26T23:00:00Z"), [], LONG_AGO);
      expect(startsUtc(slots)).toEqual([
        "2026-10-23T22:00:00Z",
        "2026-10-24T08:00:00Z",
        "2026-10-24T18:00:00Z",
        "2026-10-24T22:00:00Z",
        "2026-10-25T08:00:00Z",
        "2026-10-25T18:00:00Z",
        "2026-10-25T23:00:00Z",
        "2026-10-26T09:00:00Z",
      ]);
      for (const s of slots) expect(slotsBetween(rules, s.startMs, s.startMs + 1, [], LONG_AGO)).toEqual([s]);
      expect(isOffered(rules, ms("2026-10-26T19:00:00Z"), ms("2026-10-27T19:00:00Z"), LONG_AGO)).toBe(false);
    });
  });

  describe("gives every slot independently of the window and agrees with isOffered", () => {
    const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Australia/Lord_Howe"];
    const SCHEDULES = [
      { name: "24/7, 50-minute meetings every 50 minutes", ranges: [range("00:00", "24:00")], durationMinutes: 50, slotIntervalMinutes: 50 },
      {
        name: "22:00-24:00 and 00:00-02:00, 70-minute meetings every 25 minutes",
        ranges: [range("22:00", "24:00"), range("00:00", "02:00")],
        durationMinutes: 70,
        slotIntervalMinutes: 25,
      },
      { name: "09:00-17:00, 60-minute meetings every 45 minutes", ranges: [range("09:00", "17:00")], durationMinutes: 60, slotIntervalMinutes: 45 },
      { name: "24/7, day-long meetings every 7 hours", ranges: [range("00:00", "24:00")], durationMinutes: 1440, slotIntervalMinutes: 420 },
    ];
    // Days on which New York, Berlin, Sydney or Lord Howe (half-hour shifts) change their clocks in 2026.
    const CHANGE_DAYS = ["2026-03-08", "2026-03-29", "2026-04-05", "2026-10-04", "2026-10-25", "2026-11-01"];
    const CASES = ZONES.flatMap((zone) => SCHEDULES.map((schedule) => ({ zone, schedule })));

    it.each(CASES)("$zone, $schedule.name", ({ zone, schedule }) => {
      const rules = rulesOf({
        timezone: zone,
        durationMinutes: schedule.durationMinutes,
        slotIntervalMinutes: schedule.slotIntervalMinutes,
        weekly: everyDay(...schedule.ranges),
      });
      const durationMs = schedule.durationMinutes * MINUTE;
      for (const changeDay of CHANGE_DAYS) {
        const center = ms(`${changeDay}T00:00:00Z`);
        const [wideFrom, wideUntil] = [center - 4 * DAY_MS, center + 4 * DAY_MS];
        const wide = slotsBetween(rules, wideFrom, wideUntil, [], LONG_AGO);
        expect(wide.length).toBeGreaterThan(0);
        expect(wide.every((s, i) => i === 0 || s.startMs > wide[i - 1]!.startMs)).toBe(true);

        // (a) Narrower windows: the zone's local days, UTC days, and windows of odd lengths at odd offsets.
        const windows: [number, number][] = [];
        for (
          let d = DateTime.fromMillis(wideFrom, { zone }).startOf("day").plus({ days: 1 });
          d.plus({ days: 1 }).toMillis() <= wideUntil;
          d = d.plus({ days: 1 })
        ) {
          windows.push([d.toMillis(), d.plus({ days: 1 }).toMillis()]);
        }
        for (let t = wideFrom; t + DAY_MS <= wideUntil; t += DAY_MS) windows.push([t, t + DAY_MS]);
        const lengths = [1, 5 * MINUTE, 50 * MINUTE, 5 * 60 * MINUTE, 23 * 60 * MINUTE, 49 * 60 * MINUTE];
        for (let t = wideFrom + 1, i = 0; t < wideUntil; t += 317 * MINUTE, i++) windows.push([t, Math.min(wideUntil, t + lengths[i % lengths.length]!)]);
        for (const [from, until] of windows) {
          expect(spans(slotsBetween(rules, from, until, [], LONG_AGO)), `${zone} ${utc(from)}..${utc(until)}`).toEqual(spans(within(wide, from, until)));
        }

        // (b) isOffered at every 5 minutes across three days around the change says yes exactly for the listed slots.
        const [sampleFrom, sampleUntil] = [center - DAY_MS, center + 2 * DAY_MS];
        const offered: string[] = [];
        for (let t = sampleFrom; t < sampleUntil; t += 5 * MINUTE) {
          if (!isOffered(rules, t, t + durationMs, LONG_AGO)) continue;
          offered.push(utc(t));
          expect(isOffered(rules, t, t + durationMs + 5 * MINUTE, LONG_AGO)).toBe(false);
        }
        expect(offered, `${zone} around ${changeDay}`).toEqual(startsUtc(within(wide, sampleFrom, sampleUntil)));
      }
    });
  });
});

describe("horizonEnd", () => {
  it("is midnight after the last bookable day in the organizer's zone", () => {
    expect(utc(horizonEnd({ timezone: "Europe/Prague", horizonDays: 2 }, ms("2026-11-23T07:00:00Z")))).toBe("2026-11-25T23:00:00Z");
  });

  it("takes today from the organizer's zone when the UTC date differs", () => {
    // 03:00Z on the 24th is still the evening of the 23rd in New York.
    expect(utc(horizonEnd({ timezone: "America/New_York", horizonDays: 1 }, ms("2026-11-24T03:00:00Z")))).toBe("2026-11-25T05:00:00Z");
    expect(utc(horizonEnd({ timezone: "Europe/Prague", horizonDays: 0 }, ms("2026-11-23T23:30:00Z")))).toBe("2026-11-24T23:00:00Z");
  });

  it("lands on local midnight with the new offset when the horizon crosses a DST change", () => {
    // Saturday 2026-03-07 07:00 EST; the horizon ends at Monday 00:00 EDT (04:00Z), not 05:00Z.
    expect(utc(horizonEnd({ timezone: "America/New_York", horizonDays: 1 }, ms("2026-03-07T12:00:00Z")))).toBe("2026-03-09T04:00:00Z");
    // Saturday 2026-10-24 in Berlin; Monday 00:00 CET is 23:00Z, not 22:00Z.
    expect(utc(horizonEnd({ timezone: "Europe/Berlin", horizonDays: 1 }, ms("2026-10-24T10:00:00Z")))).toBe("2026-10-25T23:00:00Z");
  });
});

const luxonIso = (t: number, zone: string) => DateTime.fromMillis(t, { zone }).toISO({ suppressMilliseconds: true });
const luxonDayStart = (t: number, zone: string) => new Date(DateTime.fromMillis(t, { zone }).startOf("day").toMillis()).toISOString().replace(".000Z", "Z");

// How the slot list writes its times: the same text as luxon, with luxon asked once a day.
describe("ZonedIsoWriter", () => {
  // Zones with clock changes at odd times and by odd amounts, fixed UTC written as Z and as +00:00,
  // quarter-hour offsets, a day skipped at midnight (Santiago) and a half-hour DST (Lord Howe).
  const zones = [
    "Europe/Prague",
    "UTC",
    "Etc/UTC",
    "America/New_York",
    "America/Santiago",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "Pacific/Chatham",
    "America/St_Johns",
    "Africa/Casablanca",
    "America/Havana",
    "Antarctica/Troll",
  ];

  it("writes every instant as luxon does, across two years of clock changes", () => {
    for (const zone of zones) {
      const writer = new ZonedIsoWriter(zone);
      const wrong: string[] = [];
      // 97 minutes is no divisor of an hour or a day, so the samples fall at every minute of the clock.
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 97 * 60_000) {
        if (writer.iso(t) !== luxonIso(t, zone) || writer.dayStartUtc(t) !== luxonDayStart(t, zone)) wrong.push(`${zone} ${new Date(t).toISOString()}`);
      }
      expect(wrong).toEqual([]);
    }
  });

  it("writes the minutes around each clock change and instants with milliseconds as luxon does", () => {
    for (const zone of zones) {
      const writer = new ZonedIsoWriter(zone);
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 3_600_000) {
        if (DateTime.fromMillis(t, { zone }).offset === DateTime.fromMillis(t + 3_600_000, { zone }).offset) continue;
        for (let at = t - 5 * 60_000; at <= t + 2 * 3_600_000; at += 60_000) {
          expect(writer.iso(at)).toBe(luxonIso(at, zone));
          expect(writer.dayStartUtc(at)).toBe(luxonDayStart(at, zone));
        }
      }
      expect(writer.iso(Date.UTC(2026, 5, 1, 10, 0, 0, 250))).toBe(luxonIso(Date.UTC(2026, 5, 1, 10, 0, 0, 250), zone));
    }
  });
});
