import { readFileSync } from "node:fs";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import type { BusyInterval } from "../src/domain/slots.ts";
import { busyFromICalendar, CalendarFormatError, MAX_INSTANCES_PER_SERIES, mergeBusy, type BusyWindow } from "../src/modules/calendars/expand.ts";

// Every expected instant below is worked out by hand from the zones' rules, not taken from the
// function: EU summer time runs from the last Sunday of March to the last Sunday of October (2026:
// March 29 and October 25, at 01:00 UTC), so Berlin is UTC+2 between and UTC+1 outside; US daylight
// time runs from the second Sunday of March to the first Sunday of November (2026: March 8 and
// November 1, at 02:00 local), so New York is UTC-4 / UTC-5, Chicago UTC-5 / UTC-6, Los Angeles
// UTC-7 / UTC-8; Tokyo is UTC+9 all year.

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/calendars/${name}`, import.meta.url), "utf8");
const windowOf = (from: string, until: string): BusyWindow => ({ fromMs: Date.parse(from), untilMs: Date.parse(until) });
const utc = (value: number): string => new Date(value).toISOString().replace(".000Z", "Z");
const pairs = (intervals: BusyInterval[]): string[][] => intervals.map((i) => [utc(i.startMs), utc(i.endMs)]);
const busy = (ics: string, from: string, until: string, zone: string): string[][] => pairs(busyFromICalendar(ics, windowOf(from, until), zone));

describe("busyFromICalendar on a Google Calendar export", () => {
  const google = fixture("google.ics");

  it("keeps the weekly 09:30 Berlin standup at 09:30 local across the October change, without its EXDATE and with its moved instance", () => {
    expect(busy(google, "2026-10-01T00:00:00Z", "2026-11-10T00:00:00Z", "Europe/Berlin")).toEqual([
      ["2026-10-05T07:30:00Z", "2026-10-05T07:45:00Z"], // CEST
      ["2026-10-12T07:30:00Z", "2026-10-12T07:45:00Z"],
      // October 19 is an EXDATE
      ["2026-10-26T08:30:00Z", "2026-10-26T08:45:00Z"], // CET from October 25 on
      ["2026-10-29T23:00:00Z", "2026-10-30T23:00:00Z"], // the all-day offsite, a whole Berlin day
      // October 28's lunch talk is TRANSP:TRANSPARENT
      // November 2's instance moved to Tuesday 14:00
      ["2026-11-03T13:00:00Z", "2026-11-03T13:15:00Z"],
      ["2026-11-09T08:30:00Z", "2026-11-09T08:45:00Z"],
    ]);
  });

  it("reads an all-day date as a whole day of the floating zone it is given", () => {
    expect(busy(google, "2026-10-30T00:00:00Z", "2026-10-30T12:00:00Z", "America/New_York")).toEqual([["2026-10-30T04:00:00Z", "2026-10-31T04:00:00Z"]]);
  });

  it("answers only what meets the window, unclipped, and an interval touching its start does not meet it", () => {
    expect(busy(google, "2026-10-12T07:40:00Z", "2026-10-26T08:30:00Z", "Europe/Berlin")).toEqual([["2026-10-12T07:30:00Z", "2026-10-12T07:45:00Z"]]);
    expect(busy(google, "2026-10-12T07:45:00Z", "2026-10-26T08:31:00Z", "Europe/Berlin")).toEqual([["2026-10-26T08:30:00Z", "2026-10-26T08:45:00Z"]]);
  });
});

describe("busyFromICalendar on an Outlook export", () => {
  const outlook = fixture("outlook.ics");

  it("reads Windows zone names with and without their VTIMEZONE, drops the cancelled instance and the free event, keeps the tentative one", () => {
    expect(busy(outlook, "2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z", "Europe/Berlin")).toEqual([
      ["2026-10-14T08:00:00Z", "2026-10-14T09:00:00Z"], // W. Europe, CEST
      ["2026-10-21T08:00:00Z", "2026-10-21T09:00:00Z"],
      // October 28 is STATUS:CANCELLED; October 29's focus time is TRANSPARENT and BUSYSTATUS FREE
      ["2026-10-30T13:00:00Z", "2026-10-30T13:30:00Z"], // Eastern Standard Time = New York, EDT
      ["2026-11-02T14:00:00Z", "2026-11-02T14:30:00Z"], // EST; UNTIL is exactly this start, so it counts
      ["2026-11-04T09:00:00Z", "2026-11-04T10:00:00Z"], // W. Europe, CET
      ["2026-11-11T09:00:00Z", "2026-11-11T10:00:00Z"], // COUNT=5 ends here
    ]);
  });
});

describe("busyFromICalendar on an iCloud export", () => {
  const icloud = fixture("icloud.ics");

  it("reads floating times and multi-day all-day events in the floating zone, and a VTIMEZONE written after its events", () => {
    expect(busy(icloud, "2026-10-25T00:00:00Z", "2026-12-01T00:00:00Z", "America/New_York")).toEqual([
      ["2026-10-30T11:00:00Z", "2026-10-30T11:30:00Z"], // 07:00 floating, EDT
      ["2026-10-31T11:00:00Z", "2026-10-31T11:30:00Z"],
      ["2026-11-01T12:00:00Z", "2026-11-01T12:30:00Z"], // still 07:00 local, now EST
      ["2026-11-02T12:00:00Z", "2026-11-02T12:30:00Z"], // COUNT=4 ends here
      ["2026-11-04T23:00:00Z", "2026-11-05T00:30:00Z"],
      ["2026-11-06T19:00:00Z", "2026-11-06T20:00:00Z"], // Los Angeles, PST
      ["2026-11-12T05:00:00Z", "2026-11-15T05:00:00Z"], // three whole days
    ]);
  });

  it("moves floating times with the zone the caller gives", () => {
    expect(busy(icloud, "2026-11-04T00:00:00Z", "2026-11-05T00:00:00Z", "Europe/London")).toEqual([["2026-11-04T18:00:00Z", "2026-11-04T19:30:00Z"]]);
  });
});

describe("busyFromICalendar on a Nextcloud export", () => {
  const nextcloud = fixture("nextcloud.ics");

  it("reads DURATION, RDATE and a biweekly series across the March change that ends by UNTIL, and ignores tasks", () => {
    expect(busy(nextcloud, "2026-03-01T00:00:00Z", "2026-05-01T00:00:00Z", "Europe/Berlin")).toEqual([
      ["2026-03-05T13:00:00Z", "2026-03-05T14:30:00Z"], // 14:00 CET for 90 minutes
      ["2026-03-09T08:00:00Z", "2026-03-09T09:00:00Z"], // 09:00 CET
      ["2026-03-12T15:00:00Z", "2026-03-12T16:30:00Z"], // RDATE 16:00 CET
      ["2026-03-23T08:00:00Z", "2026-03-23T09:00:00Z"],
      ["2026-04-02T14:00:00Z", "2026-04-02T15:30:00Z"], // RDATE 16:00 CEST
      ["2026-04-06T07:00:00Z", "2026-04-06T08:00:00Z"], // 09:00 CEST
      ["2026-04-20T07:00:00Z", "2026-04-20T08:00:00Z"], // UNTIL is exactly this start, so it counts
    ]);
  });
});

describe("busyFromICalendar on edge cases", () => {
  const edges = fixture("edge-cases.ics");

  it("leaves out a cancelled series and events of no length, and reads the zones of every kind of TZID", () => {
    expect(busy(edges, "2026-11-02T00:00:00Z", "2026-11-04T12:00:00Z", "Europe/Berlin")).toEqual([
      ["2026-11-02T15:00:00Z", "2026-11-02T16:00:00Z"], // the daily review, before its override
      ["2026-11-02T17:00:00Z", "2026-11-02T18:00:00Z"], // 18:00 Berlin evening course
      ["2026-11-03T01:00:00Z", "2026-11-03T02:00:00Z"], // Asia/Tokyo without a VTIMEZONE
      ["2026-11-03T14:00:00Z", "2026-11-03T15:00:00Z"], // an unknown zone is read as floating (Berlin)
      ["2026-11-03T15:00:00Z", "2026-11-03T15:30:00Z"], // /mozilla.org/.../America/Chicago, CST
      ["2026-11-03T15:00:00Z", "2026-11-03T16:00:00Z"],
      // November 3's evening course is removed by an EXDATE written in UTC
      ["2026-11-03T23:00:00Z", "2026-11-04T23:00:00Z"], // a date without DTEND lasts one Berlin day
    ]);
  });

  it("applies a THISANDFUTURE override to its instance and every later one", () => {
    const review = busyFromICalendar(edges, windowOf("2026-11-04T00:00:00Z", "2026-11-07T00:00:00Z"), "Europe/Berlin").filter(
      (i) => new Date(i.startMs).getUTCHours() === 16,
    );
    expect(pairs(review)).toEqual([
      ["2026-11-04T16:30:00Z", "2026-11-04T17:00:00Z"],
      ["2026-11-05T16:30:00Z", "2026-11-05T17:00:00Z"],
      ["2026-11-06T16:30:00Z", "2026-11-06T17:00:00Z"],
    ]);
  });

  it("counts an instance moved into the window from beyond it, and not at its old place", () => {
    expect(busy(edges, "2026-11-05T00:00:00Z", "2026-11-06T00:00:00Z", "Europe/Berlin")).toContainEqual(["2026-11-05T20:00:00Z", "2026-11-05T20:30:00Z"]);
    expect(busy(edges, "2026-11-08T00:00:00Z", "2026-11-30T00:00:00Z", "Europe/Berlin")).toEqual([["2026-11-08T07:00:00Z", "2026-11-08T07:30:00Z"]]);
  });

  it("ignores a zero-length event even at its exact instant", () => {
    expect(busy(edges, "2026-11-02T11:59:00Z", "2026-11-02T13:01:00Z", "Europe/Berlin")).toEqual([]);
  });
});

describe("busyFromICalendar on VFREEBUSY", () => {
  it("takes the busy periods of every BUSY type, given as end or duration, and leaves out FREE ones", () => {
    expect(busy(fixture("freebusy.ics"), "2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z", "Europe/Berlin")).toEqual([
      ["2026-11-05T09:00:00Z", "2026-11-05T10:00:00Z"],
      ["2026-11-05T14:00:00Z", "2026-11-05T14:30:00Z"],
      ["2026-11-06T08:00:00Z", "2026-11-06T08:30:00Z"],
      ["2026-11-07T00:00:00Z", "2026-11-08T00:00:00Z"],
    ]);
  });
});

/** One VEVENT (its lines) in a VCALENDAR, with the VTIMEZONE of Europe/Berlin that `withZone` asks for. */
const calendarOf = (lines: string[], withZone = false): string =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Booking Calendar//Tests//EN",
    ...(withZone ? BERLIN_VTIMEZONE : []),
    "BEGIN:VEVENT",
    "UID:series@example.test",
    "DTSTAMP:20261101T000000Z",
    ...lines,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");

const BERLIN_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Berlin",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];

describe("busyFromICalendar on series begun long before the window", () => {
  const daily2001 = ["DTSTART;TZID=Europe/Berlin:20010101T090000", "DTEND;TZID=Europe/Berlin:20010101T093000", "RRULE:FREQ=DAILY"];

  it("blocks today with a daily series of 2001, at 09:00 Berlin on both sides of the October change", () => {
    expect(busy(calendarOf(daily2001), "2026-10-23T00:00:00Z", "2026-10-28T00:00:00Z", "UTC")).toEqual([
      ["2026-10-23T07:00:00Z", "2026-10-23T07:30:00Z"], // CEST
      ["2026-10-24T07:00:00Z", "2026-10-24T07:30:00Z"],
      ["2026-10-25T08:00:00Z", "2026-10-25T08:30:00Z"], // CET from October 25, 01:00 UTC
      ["2026-10-26T08:00:00Z", "2026-10-26T08:30:00Z"],
      ["2026-10-27T08:00:00Z", "2026-10-27T08:30:00Z"],
    ]);
  });

  it("blocks with an hourly series begun a year ago", () => {
    const hourly = calendarOf(["DTSTART;TZID=Europe/Berlin:20251124T091500", "DURATION:PT30M", "RRULE:FREQ=HOURLY"]);
    // A year of hours (8,760) lies before the window; Berlin is UTC+1 on both days.
    expect(busy(hourly, "2026-11-24T08:00:00Z", "2026-11-24T11:00:00Z", "UTC")).toEqual([
      ["2026-11-24T08:15:00Z", "2026-11-24T08:45:00Z"],
      ["2026-11-24T09:15:00Z", "2026-11-24T09:45:00Z"],
      ["2026-11-24T10:15:00Z", "2026-11-24T10:45:00Z"],
    ]);
  });

  it("blocks with a weekly series on three weekdays begun in 1990", () => {
    // January 1st, 1990 was a Monday; New York is on EST (UTC-5) from November 1st, 2026.
    const weekly = calendarOf([
      "DTSTART;TZID=America/New_York:19900101T140000",
      "DTEND;TZID=America/New_York:19900101T150000",
      "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR",
    ]);
    expect(busy(weekly, "2026-11-02T00:00:00Z", "2026-11-09T00:00:00Z", "UTC")).toEqual([
      ["2026-11-02T19:00:00Z", "2026-11-02T20:00:00Z"],
      ["2026-11-04T19:00:00Z", "2026-11-04T20:00:00Z"],
      ["2026-11-06T19:00:00Z", "2026-11-06T20:00:00Z"],
    ]);
  });

  it("blocks with a monthly series on the 31st begun in 2000, only in months that have one", () => {
    const monthly = calendarOf(["DTSTART;TZID=Europe/Berlin:20000131T100000", "DTEND;TZID=Europe/Berlin:20000131T110000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=31"]);
    expect(busy(monthly, "2026-09-01T00:00:00Z", "2027-01-01T00:00:00Z", "UTC")).toEqual([
      ["2026-10-31T09:00:00Z", "2026-10-31T10:00:00Z"], // CET; September and November have 30 days
      ["2026-12-31T09:00:00Z", "2026-12-31T10:00:00Z"],
    ]);
  });

  it("ends a COUNT series of 2001 after its COUNT instances counted from DTSTART", () => {
    // 2001-01-01 plus 8,999 days is 2025-08-22 (8,766 days to 2025 with six leap days, then 233):
    // the 9,000th instance. The one of 10,000 instances runs to 2028-05-18.
    const ended = calendarOf([...daily2001.slice(0, 2), "RRULE:FREQ=DAILY;COUNT=9000"]);
    expect(busy(ended, "2025-08-21T00:00:00Z", "2025-08-25T00:00:00Z", "UTC")).toEqual([
      ["2025-08-21T07:00:00Z", "2025-08-21T07:30:00Z"],
      ["2025-08-22T07:00:00Z", "2025-08-22T07:30:00Z"],
    ]);
    expect(busy(ended, "2026-11-23T00:00:00Z", "2026-11-28T00:00:00Z", "UTC")).toEqual([]);
    const running = calendarOf([...daily2001.slice(0, 2), "RRULE:FREQ=DAILY;COUNT=10000"]);
    expect(busy(running, "2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z", "UTC")).toEqual([
      ["2026-11-23T08:00:00Z", "2026-11-23T08:30:00Z"],
      ["2026-11-24T08:00:00Z", "2026-11-24T08:30:00Z"],
    ]);
  });

  it("ends an old series at its UNTIL", () => {
    const until = calendarOf([...daily2001.slice(0, 2), "RRULE:FREQ=DAILY;UNTIL=20261125T080000Z"]);
    expect(busy(until, "2026-11-23T00:00:00Z", "2026-11-28T00:00:00Z", "UTC")).toEqual([
      ["2026-11-23T08:00:00Z", "2026-11-23T08:30:00Z"],
      ["2026-11-24T08:00:00Z", "2026-11-24T08:30:00Z"],
      ["2026-11-25T08:00:00Z", "2026-11-25T08:30:00Z"], // UNTIL is exactly this start
    ]);
  });

  it("applies the EXDATE and the overrides of an old series inside the window", () => {
    const overridden = [
      calendarOf([...daily2001, "EXDATE;TZID=Europe/Berlin:20261124T090000"]).replace(/END:VEVENT\r\nEND:VCALENDAR\r\n$/, ""),
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:series@example.test",
      "DTSTAMP:20261101T000000Z",
      "RECURRENCE-ID;TZID=Europe/Berlin:20261125T090000",
      "DTSTART;TZID=Europe/Berlin:20261125T140000",
      "DTEND;TZID=Europe/Berlin:20261125T150000",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:series@example.test",
      "DTSTAMP:20261101T000000Z",
      "RECURRENCE-ID;TZID=Europe/Berlin:20261126T090000",
      "DTSTART;TZID=Europe/Berlin:20261126T090000",
      "DTEND;TZID=Europe/Berlin:20261126T093000",
      "STATUS:CANCELLED",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    expect(busy(overridden, "2026-11-23T00:00:00Z", "2026-11-28T00:00:00Z", "UTC")).toEqual([
      ["2026-11-23T08:00:00Z", "2026-11-23T08:30:00Z"],
      // November 24th is an EXDATE
      ["2026-11-25T13:00:00Z", "2026-11-25T14:00:00Z"], // moved to 14:00
      // November 26th is cancelled
      ["2026-11-27T08:00:00Z", "2026-11-27T08:30:00Z"],
    ]);
  });

  // ical.js iterating every rule from its real DTSTART, without caps, is the reference: the window's
  // instances must be the same when the expansion starts from just before the window.
  const october = "2026-10-20T00:00:00Z/2026-11-06T00:00:00Z";
  const rules: [string, string, string?][] = [
    ["20230102T090000", "FREQ=DAILY;INTERVAL=3"],
    ["20230103T090000", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;WKST=SU"],
    ["20260801T071500", "FREQ=HOURLY;INTERVAL=5;BYHOUR=8,9,10,11,12,13,14,15,16,17"],
    ["20261001T000700", "FREQ=MINUTELY;INTERVAL=45"],
    ["20230110T090000", "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30;BYDAY=MO,TU,WE,TH,FR"],
    ["20200114T090000", "FREQ=MONTHLY;BYDAY=2TU,-1FR"],
    ["20200131T090000", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=31", "2026-01-01T00:00:00Z/2027-06-01T00:00:00Z"],
    ["20200131T090000", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"],
    ["19960229T090000", "FREQ=YEARLY", "2027-06-01T00:00:00Z/2028-06-01T00:00:00Z"],
    ["20000103T090000", "FREQ=YEARLY;BYWEEKNO=1,44;BYDAY=MO,SU"],
    ["20200106T090000", "FREQ=WEEKLY;UNTIL=20261105T080000Z"],
  ];
  for (const [start, rule, span = october] of rules) {
    it(`gives the instances ical.js gives from DTSTART for ${rule} begun ${start.slice(0, 8)}`, () => {
      const text = calendarOf([`DTSTART;TZID=Europe/Berlin:${start}`, "DURATION:PT30M", `RRULE:${rule}`], true);
      const [from, until] = span.split("/") as [string, string];
      const window = windowOf(from, until);
      const expected = referenceInstances(text, window);
      expect(expected.length).toBeGreaterThan(0);
      // Starts only: ical.js gives an instance crossing the October change its DURATION in wall time.
      const startsOf = (intervals: BusyInterval[]) => intervals.map((i) => utc(i.startMs));
      expect(startsOf(busyFromICalendar(text, window, "UTC"))).toEqual(startsOf(expected));
    });
  }
});

/** The instances of the text's one rule (lasting 30 minutes) meeting `window`, by ical.js alone from DTSTART. */
function referenceInstances(text: string, window: BusyWindow): BusyInterval[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const zone = new ICAL.Timezone(calendar.getFirstSubcomponent("vtimezone")!);
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const start = vevent.getFirstPropertyValue("dtstart") as ICAL.Time;
  start.zone = zone;
  const rule = vevent.getFirstPropertyValue("rrule") as ICAL.Recur;
  if (rule.until) rule.until.zone = ICAL.Timezone.utcTimezone;
  const iterator = rule.iterator(start);
  const found: BusyInterval[] = [];
  for (let next = iterator.next(); next; next = iterator.next()) {
    const startMs = next.clone().toUnixTime() * 1000;
    if (startMs >= window.untilMs) break;
    if (startMs + 1_800_000 > window.fromMs) found.push({ startMs, endMs: startMs + 1_800_000 });
  }
  return found;
}

describe("busyFromICalendar against pathological rules", () => {
  const intervals = busyFromICalendar(fixture("pathological.ics"), windowOf("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"), "UTC");

  it("expands a series only up to the instance cap, counted from the window, and still reads the rest of the calendar", () => {
    expect(MAX_INSTANCES_PER_SERIES).toBe(5_000);
    // 5,000 one-minute instances from 00:00: the last one starts 4,999 minutes (3 days 11:19) later.
    const minutely = intervals.filter((i) => i.endMs - i.startMs === 60_000);
    expect(minutely).toHaveLength(MAX_INSTANCES_PER_SERIES);
    expect(pairs(mergeBusy(minutely))).toEqual([["2026-11-01T00:00:00Z", "2026-11-04T11:20:00Z"]]);
    // Every second since 2020: 5,000 seconds from the window's start (1 h 23 min 20 s), not from 2020.
    const secondly = intervals.filter((i) => i.endMs - i.startMs === 1_000);
    expect(secondly).toHaveLength(MAX_INSTANCES_PER_SERIES);
    expect(pairs(mergeBusy(secondly))).toEqual([["2026-11-01T00:00:00Z", "2026-11-01T01:23:20Z"]]);
    expect(pairs(intervals.filter((i) => i.endMs - i.startMs !== 60_000 && i.endMs - i.startMs !== 1_000))).toEqual([
      ["2026-11-10T08:00:00Z", "2026-11-10T09:00:00Z"], // February 30th: only DTSTART, the rule matches nothing
      ["2026-11-20T10:00:00Z", "2026-11-20T11:00:00Z"],
    ]);
  });

  it("ends a rule that matches almost nothing instead of searching for it", () => {
    // Every second of December, asked from November 10th on: the step cap ends the search long
    // before December (the other series stop at their instance cap within days).
    const late = busyFromICalendar(fixture("pathological.ics"), windowOf("2026-11-10T00:00:00Z", "2026-12-02T00:00:00Z"), "UTC");
    expect(late.filter((i) => i.startMs >= Date.parse("2026-12-01T00:00:00Z"))).toEqual([]);
    expect(late.length).toBeGreaterThan(0);
  });

  it("counts a COUNT rule from its real DTSTART however far from the window, and blocks with it as long as it lasts", () => {
    // The million-minute series of November 1st still runs in December: 43,200 minutes of November
    // are counted (not blocking), then the cap's 5,000 from December 1st.
    const december = busyFromICalendar(fixture("pathological.ics"), windowOf("2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), "UTC");
    expect(pairs(mergeBusy(december.filter((i) => i.endMs - i.startMs === 60_000)))).toEqual([["2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"]]);
  });
});

describe("busyFromICalendar on text it cannot read", () => {
  const cases: Record<string, string> = {
    "text that is not iCalendar": "<html><body>Sign in to continue</body></html>",
    "an empty text": "",
    "a VCALENDAR never ended": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:20261102T080000Z\r\n",
    "a VEVENT outside any VCALENDAR": "BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261102T080000Z\r\nEND:VEVENT\r\n",
    "a rule of an unknown frequency":
      "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261102T080000Z\r\nDTEND:20261102T090000Z\r\nRRULE:FREQ=SOMETIMES\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    "an event without DTSTART": "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTEND:20261102T090000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    "a date-time that is not one": "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:tomorrow morning\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
  };
  for (const [what, text] of Object.entries(cases)) {
    it(`throws CalendarFormatError on ${what}`, () => {
      expect(() => busyFromICalendar(text, windowOf("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"), "UTC")).toThrow(CalendarFormatError);
    });
  }

  it("refuses a floating zone that is not an IANA zone, as the caller's mistake", () => {
    expect(() => busyFromICalendar(fixture("google.ics"), windowOf("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"), "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("busyFromICalendar on several calendars in one text", () => {
  it("reads each VCALENDAR with its own zone definitions", () => {
    const text = fixture("google.ics") + fixture("nextcloud.ics");
    expect(busy(text, "2026-03-05T00:00:00Z", "2026-03-06T00:00:00Z", "Europe/Berlin")).toEqual([["2026-03-05T13:00:00Z", "2026-03-05T14:30:00Z"]]);
    expect(busy(text, "2026-10-05T00:00:00Z", "2026-10-06T00:00:00Z", "Europe/Berlin")).toEqual([["2026-10-05T07:30:00Z", "2026-10-05T07:45:00Z"]]);
  });
});

describe("mergeBusy", () => {
  it("sorts, joins overlapping and touching intervals, keeps apart ones, and leaves its input unchanged", () => {
    const input = [
      { startMs: 50, endMs: 60 },
      { startMs: 10, endMs: 20 },
      { startMs: 15, endMs: 30 },
      { startMs: 30, endMs: 35 },
      { startMs: 12, endMs: 14 },
    ];
    const copy = structuredClone(input);
    expect(mergeBusy(input)).toEqual([
      { startMs: 10, endMs: 35 },
      { startMs: 50, endMs: 60 },
    ]);
    expect(input).toEqual(copy);
    expect(mergeBusy([])).toEqual([]);
  });
});
