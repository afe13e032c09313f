import { test, expect, createEventType, mountCalendar, recordApiCalls, recordEvents } from "./fixtures.ts";

test.describe("a greyed-out day", () => {
  test("picked, says so in booking-unavailable-selected and changes nothing; a free day still opens its times", async ({ page, request }) => {
    const { token } = await createEventType(request, { availability: { weekly: { monday: [{ start: "09:00", end: "17:00" }] } } });
    const events = await recordEvents(page);
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token, locale: "en-GB", timezone: "Europe/Prague" });
    const free = page.locator('button[part~="day-free"]').first();
    await expect(free).toBeVisible();
    // A Tuesday of the shown month: the hours are Mondays only.
    const greyed = page.locator('button[part~="day"][aria-disabled="true"]');
    const date = (await greyed.nth(1).getAttribute("data-date"))!;
    // aria-disabled, not disabled: a pointer still clicks it (Playwright waits for "enabled" unless forced).
    await greyed.nth(1).click({ force: true });
    await expect.poll(async () => (await events()).map((e) => e.type)).toContain("booking-unavailable-selected");
    const seen = await events();
    expect(seen.filter((e) => e.type !== "booking-ready")).toEqual([{ type: "booking-unavailable-selected", detail: { date, timezone: "Europe/Prague" } }]);
    await expect(page.locator(`button[data-date="${date}"]`)).toHaveAttribute("aria-pressed", "false");
    const slotCalls = calls.filter((c) => c === "GET /time-slots").length;
    // Enter on a greyed day says the same, from the keyboard.
    await page.locator(`button[data-date="${date}"]`).focus();
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await events()).filter((e) => e.type === "booking-unavailable-selected").length).toBe(2);
    expect(calls.filter((c) => c === "GET /time-slots").length).toBe(slotCalls);
    await free.click();
    await expect.poll(async () => (await events()).map((e) => e.type)).toContain("booking-date-selected");
  });
});
