import { ADMIN_KEY, test, expect, bookThroughApi, chooseTime, createEventType, expectAccessible, openSite } from "../support/fixtures.ts";

/**
 * The repeat choice of a booking (event types that allow a series) as a visitor meets it: every date
 * listed with the taken ones said in words, accessible in light and dark themes and on a phone.
 */

for (const [mode, width] of [
  ["light", 1280],
  ["dark", 390],
] as const) {
  test(`the repeat choice with a taken date passes axe, ${mode} at ${width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const { token, linkToken } = await createEventType(request, { recurrence: { maxOccurrences: 6, intervals: ["weekly", "biweekly"] }, theme: { mode } });
    const free = await request.get(
      `/time-slots?from=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}&until=${new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10)}`,
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    );
    const slot = (await free.json()).data[0] as { start: string; end: string; startIso8601: string };
    const dates = await request.get(`/time-slots/series?${new URLSearchParams({ start: slot.start, interval: "weekly", count: "4" })}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    await bookThroughApi(request, token, (await dates.json()).data[1], "other@example.com");
    await openSite(page, { token: linkToken }, { dark: mode === "dark" });
    await chooseTime(page, slot.startIso8601);
    await page.getByRole("checkbox", { name: "Repeat this booking" }).check();
    await expect(page.getByRole("list", { name: "Dates of the series" }).getByRole("listitem")).toHaveCount(4);
    await expect(page.getByText("(taken)")).toBeVisible();
    await expectAccessible(page, `repeat choice, ${mode}, ${width} px`);
  });
}

test("the organizer allows series in the console: the setting is saved, and a refused one is said at its field", async ({ page, request }) => {
  const et = await createEventType(request, { title: "Coaching" });
  await page.goto("/console");
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
  await page.goto(`/console#/event-types/${et.id}`);
  await page.getByLabel("Visitors may repeat a booking as a series").check();
  await page.getByLabel("Dates in a series at most").fill("1");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByLabel("Dates in a series at most")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Dates in a series at most").fill("6");
  await page.getByLabel("Every two weeks").uncheck();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByLabel("Dates in a series at most")).toHaveAttribute("aria-invalid", "false");
  await expect
    .poll(async () => (await (await request.get(`/admin/event-types/${et.id}`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).json()).data.recurrence)
    .toEqual({ maxOccurrences: 6, intervals: ["weekly"] });
  await expectAccessible(page, "event type form with recurring bookings");
});
