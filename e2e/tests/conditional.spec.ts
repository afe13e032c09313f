import { test, expect, chooseFirstTime, createEventType, expectAccessible, openSite, saveScreenshot } from "../support/fixtures.ts";

/**
 * Conditional questions on a phone-sized screen (390 px), in light and in dark mode: the form before
 * the answer that shows more questions, and after it with the new questions and an error in one,
 * each checked with axe and saved as a screenshot for a reviewer.
 */
for (const mode of ["light", "dark"] as const) {
  test(`conditional questions in ${mode} mode at 390 px: hidden, then shown with a problem, and booked`, async ({ page, request }) => {
    // Two axe runs, seconds each on a busy machine.
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: mode });
    const { linkToken } = await createEventType(request, {
      title: "Advice call",
      theme: { mode, borderRadius: "10px", colors: {} },
      customFields: [
        { label: "Who is it for?", name: "audience", type: "select", options: ["Me", "My company"], required: true },
        {
          label: "Company size",
          name: "companySize",
          type: "select",
          options: ["1-10", "11-50", "51+"],
          required: true,
          showIf: { field: "audience", equals: ["My company"] },
        },
        { label: "I am already a client", name: "client", type: "checkbox" },
        { label: "Client number", name: "clientNo", type: "text", required: true, showIf: { field: "client", checked: true } },
      ],
    });
    await openSite(page, { token: linkToken }, { dark: mode === "dark" });
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("sam@example.com");
    await expect(page.getByLabel("Company size")).toHaveCount(0);
    await expect(page.getByLabel("Client number")).toHaveCount(0);
    expect(await fits()).toBe(true);
    await expectAccessible(page, `${mode} 390 conditional questions hidden`);
    await saveScreenshot(page, `conditional-${mode}-390-1-hidden`);

    await page.getByLabel("Who is it for?").selectOption("My company");
    await page.getByLabel("I am already a client").check();
    await expect(page.getByLabel("Company size")).toBeVisible();
    await page.getByLabel("Company size").selectOption("11-50");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByLabel("Client number")).toHaveAttribute("aria-invalid", "true");
    expect(await fits()).toBe(true);
    await expectAccessible(page, `${mode} 390 conditional questions shown, one required`);
    await saveScreenshot(page, `conditional-${mode}-390-2-shown`);

    await page.getByLabel("Client number").fill("C-42");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  });
}
