import type { Page } from "@playwright/test";
import {
  test,
  expect,
  bookThroughApi,
  chooseFirstTime,
  createEventType,
  expectAccessible,
  firstFreeSlot,
  reservationsOf,
  saveScreenshot,
} from "../support/fixtures.ts";
import { LANGUAGES } from "../../packages/booking-calendar/src/i18n/catalog.ts";

/**
 * The server's booking page as a visitor sees it, in light and dark at 1280 and 390 pixels: the
 * card centred, the times column offering the first free day, the organizer's brand colour kept in
 * dark mode, the smaller header after booking; the manage screens of a booking (from its manage
 * link) before and past the event type's reschedule and cancel notices (the cancelled screen with the
 * smaller header too), and the demo page's preview of every built-in language, in dark, and at 390
 * pixels. Each screen is checked with axe (0 serious or critical) and saved
 * under e2e/artifacts/screenshots/ (looks-*.png).
 */
const SIZES = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const BRAND = "#6d28d9";

/** The colour the element shows as its accent, as the browser paints it (`rgb(…)`). */
const accent = (page: Page) =>
  page.locator("booking-calendar").evaluate((el) => {
    const probe = document.createElement("span");
    probe.style.color = getComputedStyle(el).getPropertyValue("--bc-primary");
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });

for (const mode of ["light", "dark"] as const) {
  for (const size of SIZES) {
    const prefix = `looks-${mode}-${size.name}`;

    test(`booking page ${mode} ${size.name}: centred card, the first free day offered, brand colour, times in view, smaller header on success`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: mode });
      const slug = `${prefix}-${Date.now().toString(36)}`;
      await createEventType(request, {
        slug,
        title: "Design review",
        hostName: "Jana Nováková",
        description: "Forty-five minutes on your designs.",
        theme: { mode, borderRadius: "10px", colors: { primary: BRAND } },
      });
      await page.goto(`/book/${slug}`);
      const card = page.locator("booking-calendar");
      await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
      // Centred under the page's title, whatever the window's width.
      const box = (await card.boundingBox())!;
      expect(Math.abs(box.x + box.width / 2 - size.width / 2)).toBeLessThan(2);
      // The times column offers the first free day rather than sitting blank.
      await expect(page.locator('button[part="next-available"]')).toBeVisible();
      // Dark mode keeps the brand (lightened to read on the dark background), never the default blue.
      expect(await accent(page)).not.toBe("rgb(96, 165, 250)");
      if (mode === "light") expect(await accent(page)).toBe("rgb(109, 40, 217)");
      await expectAccessible(page, `${prefix} booking page`);
      await saveScreenshot(page, `${prefix}-1-booking-page`);

      await page.locator('button[part~="day-free"]').last().click();
      await expect(page.locator('button[part="slot"]').first()).toBeInViewport();
      await expectAccessible(page, `${prefix} times`);
      await saveScreenshot(page, `${prefix}-2-times`);

      const headerHeight = (await page.locator('[part="header"]').boundingBox())!.height;
      await chooseFirstTime(page);
      await page.getByLabel("Email").fill("looks@example.com");
      await page.getByRole("button", { name: "Book" }).click();
      await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
      expect((await page.locator('[part="header"]').boundingBox())!.height).toBeLessThan(headerHeight);
      await expectAccessible(page, `${prefix} success`);
      await saveScreenshot(page, `${prefix}-3-success`);
    });

    test(`manage screens ${mode} ${size.name}: the rules before the notice, whom to ask past it, cancelled`, async ({ page, request }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: mode });
      const theme = { mode, borderRadius: "10px", colors: { primary: BRAND } };
      const stamp = Date.now().toString(36);

      // Before the notices: until when, the cancel button and the new times.
      const open = await createEventType(request, {
        slug: `${prefix}-open-${stamp}`,
        title: "Design review",
        hostName: "Jana Nováková",
        theme,
        rescheduleNoticeMinutes: 30,
        cancelNoticeMinutes: 30,
      });
      const booking = await bookThroughApi(request, open.token, await firstFreeSlot(request, open.token), "early@example.com");
      // The booking page's full header, which the manage and cancelled screens trade for a smaller one.
      await page.goto(`/book/${prefix}-open-${stamp}`);
      await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
      const fullHeader = (await page.locator('[part="header"]').boundingBox())!.height;
      await page.goto(booking.manageUrl);
      await expect(page.locator('[part="change-rules"]')).toContainText("You can reschedule or cancel online until");
      await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
      await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
      await expectAccessible(page, `${prefix} manage before the notice`);
      await saveScreenshot(page, `${prefix}-4-manage-open`);

      await page.getByRole("button", { name: "Cancel booking" }).click();
      await page.getByLabel("Reason for cancelling (optional)").fill("Plans changed.");
      await page.getByRole("button", { name: "Yes, cancel it" }).click();
      await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Book another time" })).toBeVisible();
      expect((await page.locator('[part="header"]').boundingBox())!.height).toBeLessThan(fullHeader);
      await expectAccessible(page, `${prefix} cancelled`);
      await saveScreenshot(page, `${prefix}-5-cancelled`);
      expect((await reservationsOf(request, open.id))[0]).toMatchObject({ uuid: booking.uuid, status: "cancelled" });

      // Past the notices: since when and how to reach the organizer, and nothing to press that would fail.
      const late = await createEventType(request, {
        slug: `${prefix}-late-${stamp}`,
        title: "Design review",
        hostName: "Jana Nováková",
        theme,
        rescheduleNoticeMinutes: 1440,
        cancelNoticeMinutes: 1440,
        contact: "studio@example.com",
      });
      const held = await bookThroughApi(request, late.token, await firstFreeSlot(request, late.token), "late@example.com");
      await page.goto(held.manageUrl);
      const rules = page.locator('[part="change-rules"]');
      await expect(rules).toContainText("Rescheduling and cancelling online closed on");
      await expect(rules.getByRole("link", { name: "studio@example.com" })).toHaveAttribute("href", "mailto:studio@example.com");
      for (const name of ["Cancel booking", "Try again"]) await expect(page.getByRole("button", { name })).toHaveCount(0);
      await expect(page.locator('button[part~="day"]')).toHaveCount(0);
      await expectAccessible(page, `${prefix} manage past the notice`);
      await saveScreenshot(page, `${prefix}-6-manage-closed`);
      expect((await reservationsOf(request, late.id))[0]).toMatchObject({ uuid: held.uuid, status: "confirmed" });
    });
  }
}

test("the demo page previews every built-in language", async ({ page, request }) => {
  test.setTimeout(120_000);
  await createEventType(request, { slug: `demo-languages-${Date.now().toString(36)}`, title: "Demo call" });
  await page.goto("/");
  await expect(page.locator("booking-calendar h3").first()).toBeVisible();
  await page.getByText("Preview a language or theme").click();
  const select = page.getByLabel("Language");
  const offered = await select.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  for (const language of LANGUAGES)
    expect(
      offered.map((tag) => tag.split("-")[0]),
      language,
    ).toContain(language);
  for (const tag of offered) {
    const language = tag.split("-")[0]!;
    const catalog =
      language === "en" ? { chooseDate: "Choose a day" } : (await import(`../../packages/booking-calendar/src/i18n/locales/${language}.ts`)).default;
    await select.selectOption(tag);
    await expect(page.locator("booking-calendar h3").first(), tag).toHaveText(catalog.chooseDate);
  }
  await expectAccessible(page, "demo page");
  await saveScreenshot(page, "looks-demo-page-ja");

  // Dark (the system's and the preview's theme), then on a phone, in dark and light.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.getByLabel("Theme").selectOption("dark");
  await expect(page.locator("booking-calendar")).toHaveAttribute("data-mode", "dark");
  await expect(page.locator("booking-calendar h3").first()).toBeVisible();
  await expectAccessible(page, "demo page dark");
  await saveScreenshot(page, "looks-demo-page-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page, "demo page dark 390 px");
  await saveScreenshot(page, "looks-demo-page-dark-phone");
  await page.emulateMedia({ colorScheme: "light" });
  await page.getByLabel("Theme").selectOption("light");
  await expect(page.locator("booking-calendar")).toHaveAttribute("data-mode", "light");
  await expectAccessible(page, "demo page 390 px");
  await saveScreenshot(page, "looks-demo-page-phone");
});
