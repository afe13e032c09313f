import { test, expect, chooseFirstTime, createEventType, expectAccessible, openSite, PAID, payWithCard, routeStripeJs, saveScreenshot } from "../support/fixtures.ts";

/**
 * The main screens of a paid booking and of managing it, in light and in dark mode: each checked
 * with axe (contrast differs by mode) and saved as a screenshot under e2e/artifacts/screenshots/
 * for a reviewer to look at. They are not compared pixel by pixel. Then the free flow on a phone-sized
 * screen.
 */
for (const mode of ["light", "dark"] as const) {
  test(`screens in ${mode} mode: calendar, times, details, payment, success, reschedule, cancel question`, async ({ page, request }) => {
    // Seven screens, each checked with axe and saved.
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.emulateMedia({ colorScheme: mode });
    const slug = `screens-${mode}-${Date.now().toString(36)}`;
    const { token } = await createEventType(request, {
      ...PAID,
      slug,
      title: "Portfolio review",
      description: "Forty-five minutes on your work, with written notes afterwards.",
      durationMinutes: 45,
      theme: { mode, borderRadius: "10px", colors: {} },
      customFields: [{ label: "Link to your portfolio", name: "portfolio", type: "text", required: false }],
    });
    await routeStripeJs(page);
    await openSite(page, { token }, { dark: mode === "dark" });
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
  await page.setViewportSize({ width: 360, height: 740 });
  const { token } = await createEventType(request, {
    title: "Quick question",
    customFields: [{ label: "What is it about?", name: "about", type: "textarea", required: false }],
  });
  await openSite(page, { token });
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
