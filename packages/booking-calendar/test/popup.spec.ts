// The script tag's `window.BookingCalendar` type, declared by the entry.
import type {} from "../src/embed.ts";
import { test, expect, chooseFirstTime, createEventType, openPopupSite, reservationsOf } from "./fixtures.ts";

test.describe("popup", () => {
  test("a trigger opens the calendar in a labelled modal dialog; Esc closes it and focus returns to the trigger", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Garden consultation" });
    await openPopupSite(page, { tokens: [token] });
    const trigger = page.getByRole("button", { name: "Book service 1" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Garden consultation" });
    await expect(dialog).toBeVisible();
    await expect(page.getByRole("heading", { name: "Garden consultation" })).toBeVisible();
    // Modal: the page behind is inert, so focus stays in the dialog.
    expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
    const inPopup = () => page.evaluate(() => document.activeElement?.closest("bc-booking-popup") !== null);
    test.setTimeout(60_000);
    // The popup opens with the close button focused.
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    // Round the dialog more than once: the close button, the month's buttons, a day, the zone.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      expect(await inPopup(), `Tab ${i + 1}`).toBe(true);
    }
    await dialog.getByRole("button", { name: "Close" }).focus();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await inPopup(), `Shift+Tab ${i + 1}`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test("the close button closes it; several triggers on one page each open their own event type", async ({ page, request }) => {
    const first = await createEventType(request, { title: "First service" });
    const second = await createEventType(request, { title: "Second service" });
    await openPopupSite(page, { tokens: [first.token, second.token] });
    await page.getByRole("button", { name: "Book service 2" }).click();
    const dialog = page.getByRole("dialog");
    await expect(page.getByRole("heading", { name: "Second service" })).toBeVisible();
    await expect(dialog).toHaveAccessibleName("Second service");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Book service 2" })).toBeFocused();
    await page.getByRole("button", { name: "Book service 1" }).click();
    await expect(page.getByRole("heading", { name: "First service" })).toBeVisible();
    await expect(page.locator("booking-calendar")).toHaveCount(1);
    await page.keyboard.press("Escape");
    // A link trigger opens the popup instead of leaving the page.
    const before = page.url();
    await page.getByRole("link", { name: "Book by link" }).click();
    await expect(page.getByRole("heading", { name: "First service" })).toBeVisible();
    expect(page.url()).toBe(before);
  });

  test("BookingCalendar.open from the page's own code, booked through in the popup; reopening keeps the visitor's step", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { title: "Scripted call" });
    await openPopupSite(page, { tokens: [] });
    await page.getByLabel("Notes").focus();
    await page.evaluate((token) => window.BookingCalendar!.open({ token, email: "popup@example.com" }), token);
    const dialog = page.getByRole("dialog", { name: "Scripted call" });
    await expect(dialog).toBeVisible();
    await chooseFirstTime(page);
    await expect(page.getByLabel("Email")).toHaveValue("popup@example.com");
    await page.evaluate(() => window.BookingCalendar!.close());
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel("Notes")).toBeFocused();
    await page.evaluate((token) => window.BookingCalendar!.open({ token, email: "popup@example.com" }), token);
    await expect(page.getByLabel("Email")).toBeVisible();
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ email: "popup@example.com", status: "confirmed" });
  });

  test("BookingCalendar.open without a token is refused", async ({ page }) => {
    await openPopupSite(page, { tokens: [] });
    const error = await page.evaluate(() =>
      window.BookingCalendar!.open({} as never).then(
        () => "opened",
        (e: Error) => e.message,
      ),
    );
    expect(error).toBe("BookingCalendar.open needs { token }.");
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("the script tag's floating button opens the popup, and so does BookingCalendar.floatingButton", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Floating call" });
    await openPopupSite(page, { tokens: [], floating: token });
    const button = page.getByRole("button", { name: "Book a call" });
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    const viewport = page.viewportSize()!;
    // Fixed to the lower right corner.
    expect(viewport.width - (box.x + box.width)).toBeLessThan(40);
    expect(viewport.height - (box.y + box.height)).toBeLessThan(40);
    await button.click();
    const dialog = page.getByRole("dialog", { name: "Floating call" });
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(button).toBeFocused();
    await page.evaluate((token) => (window.BookingCalendar!.floatingButton({ token, text: "Second button" }).style.bottom = "5rem"), token);
    await page.getByRole("button", { name: "Second button" }).click();
    await expect(dialog).toBeVisible();
  });
});

test.describe("the popup is one box", () => {
  test("on a wide screen the calendar's frame is the card: the dialog around it draws no box of its own", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const { token } = await createEventType(request, { title: "One box" });
    await openPopupSite(page, { tokens: [token] });
    await page.getByRole("button", { name: "Book service 1" }).click();
    const dialog = page.locator("bc-booking-popup dialog");
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expect(dialog).toHaveCSS("background-color", "rgba(0, 0, 0, 0)");
    await expect(dialog).toHaveCSS("box-shadow", "none");
    await expect(dialog).toHaveCSS("border-top-width", "0px");
    // The frame is the one card, with the shadow, reaching the dialog's sides (no padding around it).
    await expect(page.locator("booking-calendar")).not.toHaveCSS("box-shadow", "none");
    const [outer, frame] = [(await dialog.boundingBox())!, (await page.locator('[part="frame"]').boundingBox())!];
    expect(Math.abs(outer.x - frame.x)).toBeLessThan(1);
    expect(Math.abs(outer.width - frame.width)).toBeLessThan(1);
  });

  test("on a phone the dialog is the screen, in the calendar's colours", async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const { token } = await createEventType(request, { title: "One box" });
    await openPopupSite(page, { tokens: [token] });
    await page.getByRole("button", { name: "Book service 1" }).click();
    const dialog = page.locator("bc-booking-popup dialog");
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expect(dialog).toHaveCSS("background-color", "rgb(255, 255, 255)");
    expect((await dialog.boundingBox())!.width).toBe(390);
  });
});

test.describe("theme.mode auto on the page and in the widget", () => {
  const DARK = "rgb(15, 23, 42)";
  const LIGHT = "rgb(255, 255, 255)";

  for (const system of ["light", "dark"] as const) {
    test(`follows the system (${system}) where the page leaves it open, in the element and the popup's chrome`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme: system });
      const { token } = await createEventType(request, { title: "Auto call", theme: { mode: "auto", borderRadius: "8px", colors: {} } });
      await openPopupSite(page, { tokens: [token] });
      await page.getByRole("button", { name: "Book service 1" }).click();
      const frame = page.locator('[part="frame"]');
      await expect(frame).toHaveCSS("background-color", system === "dark" ? DARK : LIGHT);
      await expect(page.locator("bc-booking-popup dialog")).toHaveAttribute("data-scheme", system);
      // The system switches while the popup is open: both follow.
      const other = system === "dark" ? "light" : "dark";
      await page.emulateMedia({ colorScheme: other });
      await expect(frame).toHaveCSS("background-color", other === "dark" ? DARK : LIGHT);
      await expect(page.locator("bc-booking-popup dialog")).toHaveAttribute("data-scheme", other);
    });
  }

  test("follows the page's own color-scheme when it names only one, whatever the system says", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Auto call", theme: { mode: "auto", borderRadius: "8px", colors: {} } });
    const frame = page.locator('[part="frame"]');
    await page.emulateMedia({ colorScheme: "light" });
    await openPopupSite(page, { tokens: [token], scheme: "dark" });
    await page.getByRole("button", { name: "Book service 1" }).click();
    await expect(frame).toHaveCSS("background-color", DARK);
    await expect(page.locator("bc-booking-popup dialog")).toHaveAttribute("data-scheme", "dark");
    await page.emulateMedia({ colorScheme: "dark" });
    await openPopupSite(page, { tokens: [token], scheme: "light" });
    await page.getByRole("button", { name: "Book service 1" }).click();
    await expect(frame).toHaveCSS("background-color", LIGHT);
    // The page switches its scheme on the fly (a class on <html>): the element follows.
    await page.evaluate(() => {
      const style = document.createElement("style");
      style.textContent = ":root.night { color-scheme: dark; }";
      document.head.append(style);
      document.documentElement.classList.add("night");
    });
    await expect(frame).toHaveCSS("background-color", DARK);
  });

  test("a fixed theme.mode stays as set whatever the page or system", async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    const { token } = await createEventType(request, { title: "Light call", theme: { mode: "light", borderRadius: "8px", colors: {} } });
    await openPopupSite(page, { tokens: [token], scheme: "dark" });
    await page.getByRole("button", { name: "Book service 1" }).click();
    await expect(page.locator('[part="frame"]')).toHaveCSS("background-color", LIGHT);
    await expect(page.locator("bc-booking-popup dialog")).toHaveAttribute("data-scheme", "light");
  });
});
