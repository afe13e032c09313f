import {
  test,
  expect,
  chooseFirstTime,
  createEventType,
  expectAccessible,
  openSite,
  PAID,
  payWithCard,
  routeStripeJs,
  saveScreenshot,
} from "../support/fixtures.ts";

/**
 * The main screens of a paid booking and of managing it, in light and in dark mode: each checked
 * with axe (contrast differs by mode) and saved as a screenshot under e2e/artifacts/screenshots/
 * for a reviewer to look at. They are not compared pixel by pixel. Then the free flow on a phone-sized
 * screen.
 */
for (const mode of ["light", "dark"] as const) {
  test(`screens in ${mode} mode: calendar, times, details, payment, success, reschedule, cancel question`, async ({ page, request }) => {
    // Seven screens, each checked with axe (seconds each on a busy machine) and saved.
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: mode });
    const slug = `screens-${mode}-${Date.now().toString(36)}`;
    const { linkToken } = await createEventType(request, {
      ...PAID,
      slug,
      title: "Portfolio review",
      hostName: "Jana Nováková",
      description: "Forty-five minutes on your work, with written notes afterwards.",
      durationMinutes: 45,
      theme: { mode, borderRadius: "10px", colors: {} },
      customFields: [{ label: "Link to your portfolio", name: "portfolio", type: "text", required: false }],
    });
    await routeStripeJs(page);
    await openSite(page, { token: linkToken }, { dark: mode === "dark" });
    const screen = async (name: string) => {
      await expectAccessible(page, `${mode} ${name}`);
      await saveScreenshot(page, `${mode}-${name}`);
    };

    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await screen("1-calendar");
    await page.locator('button[part~="day-free"]').first().click();
    await expect(page.locator('button[part="slot"]').first()).toBeVisible();
    await screen("2-times");
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("pat@example.com");
    await page.getByLabel("First name").fill("Pat");
    await page.getByLabel("Link to your portfolio").fill("https://example.com/pat");
    await screen("3-details");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    // The element asks the Payment Element for the matching look (Stripe's "night" theme in dark mode).
    await expect(page.getByLabel("Card number")).toHaveCSS("background-color", mode === "dark" ? "rgb(48, 49, 61)" : "rgb(255, 255, 255)");
    await expect(page.getByLabel("Card number")).toHaveCSS("border-radius", "10px");
    await screen("4-payment");
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(page.locator('[part="amount-paid"]')).toHaveText("Paid: €50.00");
    await screen("5-success");
    await page.goto((await page.getByRole("link", { name: "Reschedule or cancel" }).getAttribute("href"))!);
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await screen("6-reschedule");
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await expect(page.getByText("Cancel this booking? This cannot be undone.")).toBeVisible();
    await screen("7-cancel-question");
  });
}

test("phone-sized screen: the whole free booking fits 360 pixels without sideways scrolling, and is booked through", async ({ page, request }) => {
  // Each axe run takes seconds on a busy machine.
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const { linkToken } = await createEventType(request, {
    title: "Quick question",
    customFields: [{ label: "What is it about?", name: "about", type: "textarea", required: false }],
  });
  await openSite(page, { token: linkToken });
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
  expect(await fits()).toBe(true);
  await expectAccessible(page, "phone calendar");
  await saveScreenshot(page, "phone-1-calendar");
  await page.locator('button[part~="day-free"]').first().click();
  await expect(page.locator('button[part="slot"]').first()).toBeVisible();
  expect(await fits()).toBe(true);
  await saveScreenshot(page, "phone-2-times");
  await chooseFirstTime(page);
  await page.getByLabel("Email").fill("phone@example.com");
  expect(await fits()).toBe(true);
  await expectAccessible(page, "phone details");
  await saveScreenshot(page, "phone-3-details");
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  expect(await fits()).toBe(true);
  await saveScreenshot(page, "phone-4-success");
});

/** A day `offset` days from today (UTC, the page's zone), YYYY-MM-DD. */
const dayFrom = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const closedWeek = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };

const SIZES = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const mode of ["light", "dark"] as const) {
  for (const size of SIZES) {
    test(`booker screens in ${mode} mode on a ${size.name}: loading, zone and clock, empty month, a call's details, success, cancel with a reason, cancelled`, async ({
      page,
      request,
    }) => {
      test.setTimeout(300_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: mode });
      // Free three days ahead and seventy days ahead only, so the month after the first is empty.
      const [near, far] = [dayFrom(3), dayFrom(70)];
      const { linkToken } = await createEventType(request, {
        slug: `booker-${mode}-${size.name}-${Date.now().toString(36)}`,
        title: "Intro call",
        hostName: "Jana Nováková",
        description: "Thirty minutes to see whether we fit.",
        theme: { mode, borderRadius: "10px", colors: {} },
        locations: [{ type: "phone", value: null }],
        availability: {
          weekly: closedWeek,
          overrides: [
            { date: near, ranges: [{ start: "09:00", end: "11:00" }] },
            { date: far, ranges: [{ start: "09:00", end: "11:00" }] },
          ],
        },
      });
      const prefix = `${mode}-${size.name}`;
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      const screen = async (name: string) => {
        expect(await fits(), `${prefix} ${name} fits the width`).toBe(true);
        await expectAccessible(page, `${prefix} ${name}`);
        await saveScreenshot(page, `booker-${prefix}-${name}`);
      };

      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/event-types/init", async (route) => {
        await held;
        await route.continue();
      });
      await openSite(page, { token: linkToken }, { dark: mode === "dark" });
      await expect(page.locator('[part="skeleton"]')).toBeVisible();
      await screen("1-loading");
      release();

      await expect(page.locator(`button[data-date="${near}"]`)).toHaveAttribute("part", /day-free/);
      await page.getByLabel("Search time zones").fill("new york");
      await page.getByRole("button", { name: "12h" }).click();
      await expect(page.locator('option[value="America/New_York"]')).toHaveText(/UTC-0[45]:00 · \d{1,2}:\d{2}\s[AP]M/);
      await screen("2-zone-and-clock");
      await page.getByLabel("Search time zones").fill("");

      await page.getByRole("button", { name: "Next month" }).click();
      await expect(page.locator('button[part="next-available"]')).toBeVisible();
      await screen("3-empty-month");
      await page.locator('button[part="next-available"]').click();
      await expect(page.locator(`button[data-date="${far}"]`)).toHaveAttribute("aria-pressed", "true");
      await page.locator('button[part="slot"]').first().click();

      await page.getByLabel("Email").fill("sam@example.com");
      await page.getByLabel("Your phone number").fill("+420 777 123 456");
      await screen("4-details-call");
      await page.getByRole("button", { name: "Book" }).click();
      await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Google Calendar" })).toBeVisible();
      await screen("5-success");

      await page.goto((await page.getByRole("link", { name: "Reschedule or cancel" }).getAttribute("href"))!);
      await page.getByRole("button", { name: "Cancel booking" }).click();
      await page.getByLabel("Reason for cancelling (optional)").fill("Something came up.");
      await screen("6-cancel-with-reason");
      await page.getByRole("button", { name: "Yes, cancel it" }).click();
      await expect(page.getByRole("button", { name: "Book another time" })).toBeVisible();
      await screen("7-cancelled");
    });
  }
}
