import type { Page } from "@playwright/test";
import { ADMIN_KEY, createEventType, expect, expectAccessible, test } from "../support/fixtures.ts";

// "Why is this time not offered?" in the console: a greyed-out day of an event type's live preview,
// and a day of the bookings' week, each open the availability check and word its reasons.

async function signIn(page: Page): Promise<void> {
  await page.goto("/console");
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
}

/** The next Tuesday after today (UTC, as the browser's zone here), YYYY-MM-DD. */
function nextTuesday(): string {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + ((2 - day.getUTCDay() + 7) % 7 || 7));
  return day.toISOString().slice(0, 10);
}

test.describe("why a time is not offered, in the console", () => {
  test("a greyed-out day of the preview opens the check with its reasons in words", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Monday call", availability: { weekly: { monday: [{ start: "09:00", end: "12:00" }] } } });
    await signIn(page);
    await page.goto(`/console#/event-types/${et.id}`);
    const calendar = page.locator("console-calendar-preview booking-calendar");
    await expect(calendar.getByRole("heading", { name: "Choose a day" })).toBeVisible();
    const tuesday = nextTuesday();
    // The Tuesday may be in the next month: the grid shows it after "Next month".
    const day = calendar.locator(`button[data-date="${tuesday}"]`);
    if ((await day.count()) === 0) await calendar.locator('[part~="month-nav"]').last().click();
    await expect(day).toHaveAttribute("aria-disabled", "true");
    // aria-disabled, not disabled: a pointer still clicks it.
    await day.click({ force: true });
    const dialog = page.getByRole("dialog", { name: "Why is this time not offered?" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Day", { exact: true })).toHaveValue(tuesday);
    await expect(dialog.getByText("Not offered to visitors:")).toBeVisible();
    await expect(dialog.locator('li[data-code="outside_hours"]')).toContainText("Outside the opening hours (Its own hours, Europe/Prague)");
    await expectAccessible(page, "the availability check of a greyed-out preview day");
    // Another time of a Monday, far enough ahead: bookable.
    const monday = new Date(`${tuesday}T00:00:00Z`);
    monday.setUTCDate(monday.getUTCDate() + 6);
    await dialog.getByLabel("Day", { exact: true }).fill(monday.toISOString().slice(0, 10));
    await dialog.getByLabel("Time", { exact: true }).fill("10:00");
    await dialog.getByRole("button", { name: "Check" }).click();
    await expect(dialog.getByText("Bookable: visitors can book this time.")).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
  });

  test("the bookings' week checks a day of an event type", async ({ page, request }) => {
    await createEventType(request, { title: "Week call", availability: { weekly: { monday: [{ start: "09:00", end: "12:00" }] } } });
    await signIn(page);
    await page.getByRole("button", { name: "Week" }).click();
    await page.getByRole("button", { name: /^Why not bookable\? Sunday/ }).click();
    const dialog = page.getByRole("dialog", { name: "Why is this time not offered?" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Event type").selectOption({ label: "Week call" });
    await dialog.getByRole("button", { name: "Check" }).click();
    await expect(dialog.getByRole("region", { name: "Week call" }).locator("li").first()).toBeVisible();
    await expect(dialog.getByRole("region", { name: "Week call" })).toContainText("Not offered to visitors:");
    await expectAccessible(page, "the availability check of the bookings' week");
  });
});
