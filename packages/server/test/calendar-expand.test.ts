import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BusyInterval } from "../src/domain/slots.ts";
import {
  busyFromICalendar,
  CalendarFormatError,
  MAX_INSTANCES_PER_SERIES,
  mergeBusy,
  type BusyWindow,
} from "../src/modules/calendars/expand.ts";

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
    expect(busy(google, "2026-10-30T00:00:00Z", "2026-10-30T12:00:00Z", "America/New_York")).toEqual([
      ["2026-10-30T04:00:00Z", "2026-10-31T04:00:00Z"],
    ]);
  });

  it("answers only what meets the window, unclipped, and an interval touching its start does not meet it", () => {
    expect(busy(google, "2026-10-12T07:40:00Z", "2026-10-26T08:30:00Z", "Europe/Berlin")).toEqual([
      ["2026-10-12T07:30:00Z", "2026-10-12T07:45:00Z"],
    ]);
    expect(busy(google, "2026-10-12T07:45:00Z", "2026-10-26T08:31:00Z", "Europe/Berlin")).toEqual([
      ["2026-10-26T08:30:00Z", "2026-10-26T08:45:00Z"],
    ]);
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
    expect(busy(icloud, "2026-11-04T00:00:00Z", "2026-11-05T00:00:00Z", "Europe/London")).toEqual([
      ["2026-11-04T18:00:00Z", "2026-11-04T19:30:00Z"],
    ]);
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
    expect(busy(edges, "2026-11-08T00:00:00Z", "2026-11-30T00:00:00Z", "Europe/Berlin")).toEqual([
      ["2026-11-08T07:00:00Z", "2026-11-08T07:30:00Z"],
    ]);
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

describe("busyFromICalendar against pathological rules", () => {
  const intervals = busyFromICalendar(fixture("pathological.ics"), windowOf("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"), "UTC");

  it("expands a series only up to the instance cap and still reads the rest of the calendar", () => {
    const minutely = intervals.filter((i) => i.endMs - i.startMs === 60_000);
    expect(minutely).toHaveLength(MAX_INSTANCES_PER_SERIES);
    // 5,000 one-minute instances from 00:00: the last one starts 4,999 minutes (3 days 11:19) later.
    expect(MAX_INSTANCES_PER_SERIES).toBe(5_000);
    expect(pairs(mergeBusy(minutely))).toEqual([["2026-11-01T00:00:00Z", "2026-11-04T11:20:00Z"]]);
    expect(pairs(intervals.filter((i) => i.endMs - i.startMs !== 60_000))).toEqual([
      ["2026-11-10T08:00:00Z", "2026-11-10T09:00:00Z"], // February 30th: only DTSTART, the rule matches nothing
      ["2026-11-20T10:00:00Z", "2026-11-20T11:00:00Z"],
    ]);
  });

  it("ends a rule that matches almost nothing instead of searching for it", () => {
    // Every second of December from a January start: the step cap ends the search long before December.
    const december = busyFromICalendar(fixture("pathological.ics"), windowOf("2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), "UTC");
    expect(december).toEqual([]);
  });
});

describe("busyFromICalendar on text it cannot read", () => {
  const cases: Record<string, string> = {
    "text that is not iCalendar": "<html><body>Sign in to continue</body></html>",
    "an empty text": "",
    "a VCALENDAR never ended": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nDTSTART:20261102T080000Z\r\n",
    "a VEVENT outside any VCALENDAR": "BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261102T080000Z\r\nEND:VEVENT\r\n",
    "a rule of an unknown frequency": "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20261102T080000Z\r\nDTEND:20261102T090000Z\r\nRRULE:FREQ=SOMETIMES\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
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
