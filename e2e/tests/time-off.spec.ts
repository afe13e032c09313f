import type { APIRequestContext } from "@playwright/test";
import { ADMIN_KEY, createEventType, expect, expectAccessible, openSite, saveScreenshot, test } from "../support/fixtures.ts";

// Time off as visitors and organizers see it: the booking calendar's notice of a host away (light
// and dark, on a phone), and the console's hosts page adding and removing a host's time off.

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const unique = () => Date.now().toString(36) + Math.random().toString(36).slice(2, 6);

async function host(request: APIRequestContext, name: string): Promise<number> {
  const r = await request.post("/admin/hosts", { headers: admin, data: { name, email: `${unique()}@example.com` } });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).data.id;
}

for (const mode of ["light", "dark"] as const) {
  test(`the notice of a host away, naming the colleague, passes axe in ${mode} mode at 390 px`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: mode });
    const alex = await host(request, "Alex Holiday");
    const sam = await host(request, "Sam Cover");
    const away = await request.post(`/admin/hosts/${alex}/time-off`, {
      headers: admin,
      data: { startDate: day(-1), endDate: day(3), note: "Hiking in the Tatras, back next week.", colleagueHostId: sam },
    });
    expect(away.status(), await away.text()).toBe(200);
    const { linkToken } = await createEventType(request, { title: "Coaching", hosts: [{ hostId: alex }], theme: { mode, borderRadius: "8px", colors: {} } });
    await openSite(page, { token: linkToken }, { dark: mode === "dark" });
    const notice = page.locator('[part="away-notice"]');
    await expect(notice).toContainText("Alex Holiday is away until");
    await expect(notice).toContainText("Meanwhile, book with Sam Cover.");
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expectAccessible(page, `${mode} away notice`);
    await saveScreenshot(page, `${mode}-away-notice-390`);
  });
}

test("the console's hosts page adds a host's time off with a colleague, and its schedule's hours show and remove it", async ({ page, request }) => {
  test.setTimeout(120_000);
  const name = `Tia Away ${unique()}`;
  const tia = await host(request, name);
  const colleague = `Colin Cover ${unique()}`;
  await host(request, colleague);
  await page.goto("/console");
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
  await page.goto("/console#/hosts");
  const section = page.getByRole("region", { name });
  await expect(section.getByText("No time off planned.")).toBeVisible();
  await section.getByLabel("First day away").fill(day(10));
  await section.getByLabel("Last day away").fill(day(9));
  await section.getByLabel("Note for visitors").fill("Parental leave");
  await section.getByLabel("Colleague who takes the bookings").selectOption({ label: colleague });
  await section.getByRole("button", { name: "Add time off" }).click();
  // The last day before the first: refused on its field.
  await expect(section.getByText("Must not be before startDate.").first()).toBeVisible();
  await section.getByLabel("Last day away").fill(day(12));
  await section.getByRole("button", { name: "Add time off" }).click();
  await expect(section.getByText(`bookings go to ${colleague}`)).toBeVisible();
  await expect(section.getByText("Parental leave")).toBeVisible();
  const listed = await request.get(`/admin/hosts/${tia}/time-off`, { headers: admin });
  expect((await listed.json()).data).toMatchObject([{ startDate: day(10), endDate: day(12), note: "Parental leave", colleagueName: colleague }]);
  await expectAccessible(page, "hosts page with time off");
  // Beside the hours of a schedule of the host, on the availability page, and removed there.
  const schedule = await request.post(`/admin/hosts/${tia}/schedules`, { headers: admin, data: { name: "Tia's hours", availability: { weekly: {} } } });
  expect(schedule.status(), await schedule.text()).toBe(200);
  await page.goto(`/console#/availability/schedule-${(await schedule.json()).data.id}`);
  await page.reload();
  await expect(page.getByLabel("Hours of")).toHaveValue(`schedule-${(await schedule.json()).data.id}`);
  const beside = page.locator("console-time-off");
  await expect(beside.getByText(`bookings go to ${colleague}`)).toBeVisible();
  await expectAccessible(page, "availability with time off");
  await beside.getByRole("button", { name: /^Remove:/ }).click();
  await expect(beside.getByText("No time off planned.")).toBeVisible();
  expect((await (await request.get(`/admin/hosts/${tia}/time-off`, { headers: admin })).json()).data).toEqual([]);
});
