/**
 * Calendars built to cost a reader as much as possible while staying small or valid iCalendar: each
 * froze the whole server once (issue 23), when their parsing and expansion ran on the thread that
 * answers requests. Times are in late November 2026, the tests' clock.
 */

const HEAD = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-calendar tests//hostile//EN"];
const TAIL = ["END:VCALENDAR", ""];

function calendar(lines: string[]): string {
  return [...HEAD, ...lines, ...TAIL].join("\r\n");
}

/** One meeting on 25 November 2026 in a zone whose only rule repeats at `freq` from 1601: ical.js would expand every change up to 2031. */
export function zoneRepeating(freq: "HOURLY" | "MINUTELY" | "SECONDLY"): string {
  return calendar([
    "BEGIN:VTIMEZONE",
    "TZID:Europe/Hostile",
    "BEGIN:STANDARD",
    "DTSTART:16010101T000000",
    `RRULE:FREQ=${freq}`,
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0100",
    "END:STANDARD",
    "END:VTIMEZONE",
    "BEGIN:VEVENT",
    "UID:zone-bomb@hostile.example",
    "DTSTAMP:20261101T000000Z",
    "DTSTART;TZID=Europe/Hostile:20261125T090000",
    "DTEND;TZID=Europe/Hostile:20261125T100000",
    "END:VEVENT",
  ]);
}

/** One event repeated by `count` RDATE values, an hour apart from 2020 on, in one property. */
export function manyRdates(count: number): string {
  const values: string[] = [];
  const fromMs = Date.UTC(2020, 0, 1, 9);
  for (let i = 0; i < count; i++) values.push(`${new Date(fromMs + i * 3_600_000).toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`);
  return calendar([
    "BEGIN:VEVENT",
    "UID:rdates@hostile.example",
    "DTSTAMP:20261101T000000Z",
    "DTSTART:20200101T090000Z",
    "DURATION:PT30M",
    `RDATE:${values.join(",")}`,
    "END:VEVENT",
  ]);
}

/** `count` one-hour meetings, one a minute apart from `fromMs` (24 November 2026, 09:00Z). */
export function manyEvents(count: number, fromMs = Date.UTC(2026, 10, 24, 9)): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const start = new Date(fromMs + i * 60_000).toISOString().replace(/[-:]/g, "").slice(0, 15);
    lines.push("BEGIN:VEVENT", `UID:event-${i}@hostile.example`, "DTSTAMP:20261101T000000Z", `DTSTART:${start}Z`, "DURATION:PT1H", "END:VEVENT");
  }
  return calendar(lines);
}

/** `count` series repeating every second, each started a day apart in 2025. */
export function secondlySeries(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const start = new Date(Date.UTC(2025, 0, 1 + (i % 300), 9)).toISOString().replace(/[-:]/g, "").slice(0, 15);
    lines.push(
      "BEGIN:VEVENT",
      `UID:secondly-${i}@hostile.example`,
      "DTSTAMP:20261101T000000Z",
      `DTSTART:${start}Z`,
      "DURATION:PT1S",
      "RRULE:FREQ=SECONDLY",
      "END:VEVENT",
    );
  }
  return calendar(lines);
}
