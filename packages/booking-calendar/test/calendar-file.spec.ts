import ICAL from "ical.js";
import { calendarFileUrl } from "../src/views/ics.ts";
import { test, expect, chooseTime, createEventType, firstFreeSlot, mountCalendar } from "./fixtures.ts";

// Text that tries every way out of an iCalendar value: each kind of line break (CR alone, CRLF, LF,
// NEL, LS, PS) followed by what would be a property of its own or a second event, a NUL, the
// characters TEXT escapes, an emoji and long text (folding, several octets per character).
const TRAPS =
  "One\rATTENDEE:mailto:cr@attacker.example\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:crlf@attacker\nLF\u0085NEL:x\u2028LS:y\u2029PS:z\u0000NUL\tTAB; semi, comma \\ back";
const LONG = ` 🎉${"é".repeat(30)}${"🗓".repeat(30)}${"x".repeat(59)}🎉 end`;
// What a calendar reads back: every line break one LF, the NUL gone, everything else as written.
const READ = "One\nATTENDEE:mailto:cr@attacker.example\nEND:VEVENT\nBEGIN:VEVENT\nUID:crlf@attacker\nLF\nNEL:x\nLS:y\nPS:zNUL\tTAB; semi, comma \\ back";

/** The calendar file behind a data URL, its content lines checked: CRLF only, at most 75 octets, whole characters. */
function readCalendarFile(href: string): { file: string; event: ICAL.Component } {
  const prefix = "data:text/calendar;charset=utf-8,";
  expect(href.startsWith(prefix)).toBe(true);
  const file = decodeURIComponent(href.slice(prefix.length));
  expect(file.endsWith("\r\n")).toBe(true);
  for (const line of file.slice(0, -2).split("\r\n")) {
    // No line break of any kind inside a content line, nor another control character but TAB.
    expect(line, JSON.stringify(line)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(new TextEncoder().encode(line).byteLength, line).toBeLessThanOrEqual(75);
    // A fold never cuts a surrogate pair (a lone surrogate would not survive UTF-8 either).
    expect(line, JSON.stringify(line)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  }
  const calendar = new ICAL.Component(ICAL.parse(file));
  const events = calendar.getAllSubcomponents("vevent");
  expect(events).toHaveLength(1);
  expect(calendar.getAllSubcomponents().map((c) => c.name)).toEqual(["vevent"]);
  expect(
    calendar
      .getAllProperties()
      .map((p) => p.name)
      .sort(),
  ).toEqual(["method", "prodid", "version"]);
  return { file, event: events[0]! };
}

test.describe("the calendar file (Download .ics)", () => {
  test("escapes every line break, drops control characters and folds whole characters: one event, texts read back as written", () => {
    const href = calendarFileUrl(
      {
        uid: "4f1c2d3e-0000-4000-8000-000000000001",
        startIso: "2030-01-02T10:00:00.000Z",
        endIso: "2030-01-02T10:30:00.000Z",
        title: `Title ${TRAPS}${LONG}`,
        description: `Description ${TRAPS}${LONG}`,
        location: `Location ${TRAPS}${LONG}`,
        url: "https://meet.example/room?a=1\r\nATTENDEE:mailto:x@attacker.example\u0085\u2028\u2029 b\u0000\t🎉",
      },
      Date.parse("2030-01-01T00:00:00Z"),
    );
    const { event } = readCalendarFile(href);
    expect(
      event
        .getAllProperties()
        .map((p) => p.name)
        .sort(),
    ).toEqual(["description", "dtend", "dtstamp", "dtstart", "location", "summary", "uid", "url"]);
    expect(event.getFirstPropertyValue("summary")).toBe(`Title ${READ}${LONG}`);
    expect(event.getFirstPropertyValue("description")).toBe(`Description ${READ}${LONG}`);
    expect(event.getFirstPropertyValue("location")).toBe(`Location ${READ}${LONG}`);
    // A URI has no escapes: control characters, spaces and line separators are percent-encoded.
    expect(event.getFirstPropertyValue("url")).toBe(
      "https://meet.example/room?a=1%0D%0AATTENDEE:mailto:x@attacker.example%C2%85%E2%80%A8%E2%80%A9%20b%00%09🎉",
    );
    expect(event.getFirstPropertyValue("uid")).toBe("4f1c2d3e-0000-4000-8000-000000000001@booking-calendar");
    expect(event.getFirstPropertyValue("dtstart")!.toString()).toBe("2030-01-02T10:00:00Z");
  });

  test("the element's file for a booking whose title, host, description and address hold line breaks, a NUL and long text", async ({ page, request }) => {
    const { linkToken } = await createEventType(request, {
      title: `Title ${TRAPS}`,
      hostName: `Host${LONG}`,
      description: `Description ${TRAPS}${LONG}`,
      locations: [{ type: "address", value: `Location ${TRAPS}` }],
    });
    await mountCalendar(page, { token: linkToken });
    await chooseTime(page, (await firstFreeSlot(request, linkToken)).startIso8601);
    await page.getByLabel("Email").fill("ics@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const { event } = readCalendarFile((await page.getByRole("link", { name: "Download .ics" }).getAttribute("href"))!);
    expect(
      event
        .getAllProperties()
        .map((p) => p.name)
        .sort(),
    ).toEqual(["description", "dtend", "dtstamp", "dtstart", "location", "summary", "uid"]);
    expect(event.getFirstPropertyValue("summary")).toBe(`Title ${READ} (Host${LONG})`);
    expect(event.getFirstPropertyValue("description")).toBe(`Description ${READ}${LONG}`);
    expect(event.getFirstPropertyValue("location")).toBe(`Location ${READ}`);
  });
});
