import { test, expect, createEventType, mountCalendar, showDay } from "./fixtures.ts";

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

test.describe("a month with more times than one answer of the server holds", () => {
  test("asks again from the day the server names until the month is whole, and shows its last day's times", async ({ page, request }) => {
    // Five overlapping 5-minute grids around the clock: a time every minute, 1 440 a day, so a
    // month is several answers of at most 10 000 slots.
    const ranges = [0, 1, 2, 3, 4].map((m) => ({ start: `00:0${m}`, end: "24:00" }));
    const { token } = await createEventType(request, {
      timezone: "UTC",
      durationMinutes: 5,
      slotIntervalMinutes: 5,
      availability: { weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, ranges])), overrides: [] },
    });
    const asked: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === "/time-slots" && r.method() === "GET") asked.push(`${url.searchParams.get("from")}..${url.searchParams.get("until")}`);
    });
    await mountCalendar(page, { token, locale: "en-GB" });
    // Next month, whole whatever today's date; the page's zone is UTC like the event type's.
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0)).toISOString().slice(0, 10);
    await (await showDay(page, last)).click();
    await expect(page.locator('button[part="slot"]')).toHaveCount(1440);
    await expect(page.locator(`button[part="slot"][data-start="${last}T23:59:00Z"]`)).toBeAttached();
    const month = asked.filter((q) => q.endsWith(`..${last}`));
    expect(month[0]).toBe(`${first}..${last}`);
    expect(month.length).toBeGreaterThan(1);
    const froms = month.map((q) => q.slice(0, 10));
    expect([...froms].sort()).toEqual(froms);
    expect(new Set(froms).size).toBe(froms.length);
  });
});
