import type { APIRequestContext } from "@playwright/test";
import { ADMIN_KEY, chooseFirstTime, createEventType, createHost, expect, mountCalendar, reservationsOf, test } from "./fixtures.ts";

// A personal event type whose host is away: the calendar says until when and whose times it offers
// meanwhile (the colleague's, who then gets the booking), or shows the host's note.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function timeOff(request: APIRequestContext, hostId: number, data: Record<string, unknown>): Promise<void> {
  const response = await request.post(`/admin/hosts/${hostId}/time-off`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` }, data });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe("a host away", () => {
  test("names the colleague whose times are offered meanwhile, and a booking made then goes to the colleague", async ({ page, request }) => {
    const alex = await createHost(request, { name: "Alex Away" });
    const sam = await createHost(request, { name: "Sam Standin" });
    const { id, token } = await createEventType(request, { hosts: [{ hostId: alex }] });
    // Yesterday to the day after tomorrow in the host's zone (UTC, as the visitor's here).
    await timeOff(request, alex, { startDate: day(-1), endDate: day(2), note: "Skiing in the Alps.", colleagueHostId: sam });
    await mountCalendar(page, { token });
    const notice = page.locator('[part="away-notice"]');
    await expect(notice).toContainText(/Alex Away is away until .+\. Meanwhile, book with Sam Standin\./);
    await expect(notice).toContainText("Skiing in the Alps.");
    await expect(notice).toHaveAttribute("role", "note");

    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("away@example.com");
    await page.getByLabel("First name").fill("Pat");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [booked] = await reservationsOf(request, id);
    const sams = await request.get(`/admin/hosts/${sam}/reservations?from=${day(-2)}&until=${day(95)}`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
    expect((await sams.json()).data).toMatchObject([{ uuid: booked?.uuid, eventTypeId: id, hostIds: [sam] }]);
  });

  test("without a colleague shows the note in the visitor's language, and no notice once the host is back", async ({ page, request }) => {
    const alex = await createHost(request, { name: "Alex Weg" });
    const { token } = await createEventType(request, { hosts: [{ hostId: alex }] });
    await timeOff(request, alex, { startDate: day(0), endDate: day(1), note: "Ab Donnerstag wieder da." });
    await mountCalendar(page, { token, locale: "de" });
    const notice = page.locator('[part="away-notice"]');
    await expect(notice).toContainText(/Alex Weg ist bis .+ abwesend\./);
    await expect(notice).toContainText("Ab Donnerstag wieder da.");
    await expect(notice).not.toContainText("Zwischenzeit");

    const back = await createHost(request, { name: "Alex Back" });
    const other = await createEventType(request, { hosts: [{ hostId: back }] });
    await mountCalendar(page, { token: other.token });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expect(page.locator('[part="away-notice"]')).toHaveCount(0);
  });
});
