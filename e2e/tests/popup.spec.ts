import { test, expect, chooseFirstTime, createEventType, expectAccessible, reservationsOf, saveScreenshot, SITE } from "../support/fixtures.ts";

/**
 * The popup and the floating button on a customer's site (another origin, one script tag), in
 * light and dark (the event type's `theme.mode: auto` and the page both follow the system), on a
 * desktop and a phone: each screen checked with axe (0 serious or critical) and saved under
 * e2e/artifacts/screenshots/.
 */
const SCREENS = { desktop: { width: 1200, height: 900 }, phone: { width: 390, height: 800 } } as const;
const BACKGROUND = { light: "rgb(255, 255, 255)", dark: "rgb(15, 23, 42)" } as const;

for (const [device, viewport] of Object.entries(SCREENS)) {
  for (const mode of ["light", "dark"] as const) {
    test(`popup and floating button, ${device}, ${mode}: accessible, in the page's mode, and booked through`, async ({ page, request }) => {
      test.setTimeout(90_000);
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: mode });
      const { id, linkToken } = await createEventType(request, {
        title: "Studio session",
        description: "Two hours in the big room with an engineer.",
        theme: { mode: "auto", borderRadius: "10px", colors: {} },
      });
      await page.goto(`${SITE}/popup?${new URLSearchParams({ token: linkToken })}`);
      const floating = page.getByRole("button", { name: "Book a session" });
      await expect(floating).toBeVisible();
      await expectAccessible(page, `${device} ${mode} page with floating button`);
      await saveScreenshot(page, `popup-${device}-${mode}-1-floating-button`);

      const trigger = page.getByRole("button", { name: "Book a studio session" });
      await trigger.click();
      const dialog = page.getByRole("dialog", { name: "Studio session" });
      await expect(dialog).toBeVisible();
      await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
      // The widget and its popup show the page's (the system's) light or dark.
      await expect(page.locator('[part="frame"]')).toHaveCSS("background-color", BACKGROUND[mode]);
      // One box: on a wide screen the calendar's own frame is the popup's card (the dialog around it
      // draws nothing); on a phone the dialog is the whole screen, in the calendar's colours.
      await expect(page.locator("bc-booking-popup dialog")).toHaveCSS("background-color", device === "phone" ? BACKGROUND[mode] : "rgba(0, 0, 0, 0)");
      if (device === "desktop") await expect(page.locator("booking-calendar")).not.toHaveCSS("box-shadow", "none");
      if (device === "phone") {
        // On a phone the popup takes the whole screen, without sideways scrolling.
        const box = (await page.locator("bc-booking-popup dialog").boundingBox())!;
        expect(box.width).toBe(viewport.width);
        expect(await page.locator("booking-calendar").evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      }
      await expectAccessible(page, `${device} ${mode} popup dialog`);
      await saveScreenshot(page, `popup-${device}-${mode}-2-dialog`);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(trigger).toBeFocused();

      // The floating button opens the same calendar; the visitor books through.
      await floating.click();
      await expect(dialog).toBeVisible();
      await chooseFirstTime(page);
      await page.getByLabel("Email").fill(`popup-${device}-${mode}@example.com`);
      await expectAccessible(page, `${device} ${mode} popup details`);
      await saveScreenshot(page, `popup-${device}-${mode}-3-details`);
      await page.getByRole("button", { name: "Book", exact: true }).click();
      await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
      await expect(page.getByRole("dialog")).toBeVisible();
      const [reservation] = await reservationsOf(request, id);
      expect(reservation).toMatchObject({ email: `popup-${device}-${mode}@example.com`, status: "confirmed" });
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(floating).toBeFocused();
    });
  }
}
