import { addDays } from "../src/dates.ts";
import { test, expect, createEventType, mountCalendar } from "./fixtures.ts";

test.describe("keyboard navigation of the month grid", () => {
  test("moves focus by day and week with the arrows, to the week's edges with Home and End", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-GB" });
    const tabbable = page.locator('button[part~="day"][tabindex="0"]');
    await expect(tabbable).toHaveCount(1);
    const start = (await tabbable.getAttribute("data-date"))!;
    await tabbable.focus();
    const focused = (date: string) => expect(page.locator(`button[data-date="${date}"]`)).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await focused(addDays(start, 1));
    await page.keyboard.press("ArrowDown");
    await focused(addDays(start, 8));
    await page.keyboard.press("ArrowLeft");
    await focused(addDays(start, 7));
    await page.keyboard.press("ArrowUp");
    await focused(start);
    // A week on, so the start of the week is bookable too.
    await page.keyboard.press("ArrowDown");
    const weekday = (new Date(`${start}T00:00:00Z`).getUTCDay() + 6) % 7;
    await page.keyboard.press("Home");
    await focused(addDays(start, 7 - weekday));
    await page.keyboard.press("End");
    await focused(addDays(start, 13 - weekday));
  });

  test("PageDown and PageUp change the month, announced in a live region", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-GB" });
    const title = page.locator('[part="month-title"]');
    const before = (await title.textContent())!;
    await page.locator('button[part~="day"][tabindex="0"]').focus();
    await page.keyboard.press("PageDown");
    await expect(title).not.toHaveText(before);
    const after = (await title.textContent())!;
    await expect(page.locator('[role="status"][aria-live="polite"]')).toHaveText(`${after} shown`);
    // Focus follows into the new month.
    await expect(page.locator('button[part~="day"][tabindex="0"]')).toBeFocused();
    await page.keyboard.press("PageUp");
    await expect(title).toHaveText(before);
  });

  test("days carry full-date names with how many times are free, and Enter picks one", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-GB", timezone: "Europe/Prague" });
    const free = page.locator('button[part~="day-free"]').first();
    await expect(free).toHaveAttribute("aria-label", /^[A-Z][a-z]+day, \d{1,2} [A-Z][a-z]+ \d{4}, (today, )?\d+ free times$/);
    await free.focus();
    await page.keyboard.press("Enter");
    await expect(free).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator("#times")).toBeFocused();
    await expect(page.locator('button[part="slot"]').first()).toBeVisible();
  });

  test("a visitor books with the keyboard alone", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token });
    // Once the free days are known, the first of them is the grid's stop in the tab order.
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await page.locator('button[part~="day"][tabindex="0"]').focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await expect(page.locator('button[part="slot"]').first()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Your details" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.type("kim@example.com");
    await expect(page.getByLabel("Email")).toHaveValue("kim@example.com");
    await page.getByLabel("Email").press("Enter");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
  });
});
