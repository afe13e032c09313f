import type { Page } from "@playwright/test";
import {
  test,
  expect,
  ADMIN_KEY,
  bookThroughApi,
  createEventType,
  createHost,
  firstFreeSlot,
  mountCalendar,
  recordApiCalls,
  reservationsOf,
} from "./fixtures.ts";

/**
 * The manage screens of a booking (opened with `reservation-uuid`) against the real server: they say
 * up front until when the booking can be moved and cancelled online (the event type's notices, which
 * the configuration tells), in the visitor's language and zone; past a notice they say since when and
 * how to reach the organizer, and offer no button the server can only refuse.
 */

/** Books the first free time (90 minutes ahead or more) of an event type with these settings; answers what the test needs. */
async function booked(request: Parameters<typeof createEventType>[0], settings: Record<string, unknown>) {
  const { id, token } = await createEventType(request, settings);
  const slot = await firstFreeSlot(request, token);
  const { uuid } = await bookThroughApi(request, token, slot, "keeper@example.com");
  return { id, token, uuid, start: Date.parse(slot.startIso8601) };
}

/** "Thursday, 26 November 2026, 14:30" as the element writes an instant in `locale` on the clocks of `zone`. */
function when(page: Page, instant: number, locale: string, zone: string): Promise<string> {
  return page.evaluate(
    ([instant, locale, zone]) => {
      const date = new Intl.DateTimeFormat(locale, { timeZone: zone, weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(instant);
      const time = new Intl.DateTimeFormat(locale, { timeZone: zone, timeStyle: "short" }).format(instant);
      return `${date}, ${time}`;
    },
    [instant, locale, zone] as const,
  );
}

const grid = (page: Page) => page.locator('button[part~="day"]');
const rules = (page: Page) => page.locator('[part="change-rules"]');

test.describe("the manage screens tell the change rules up front", () => {
  test("before the notices: until when, in the visitor's zone, with the cancel button and the new times", async ({ page, request }) => {
    const { uuid, token, start } = await booked(request, { rescheduleNoticeMinutes: 30, cancelNoticeMinutes: 30 });
    const parts: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/embed/parts/")) parts.push(new URL(r.url()).pathname.split("/").pop()!);
    });
    await mountCalendar(page, { token, "reservation-uuid": uuid, locale: "en-GB", timezone: "America/New_York" });
    const until = await when(page, start - 30 * 60_000, "en-GB", "America/New_York");
    await expect(rules(page)).toHaveText(`You can reschedule or cancel online until ${until}.`);
    await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Choose a new time" })).toBeVisible();
    await expect(grid(page).first()).toBeVisible();
    // The manage screens came as their own part, once.
    expect(parts).toEqual(["manage.js"]);
  });

  test("different notices are told one by one; past the reschedule notice only cancelling is offered, and whom to ask", async ({ page, request }) => {
    const { uuid, token, start } = await booked(request, { rescheduleNoticeMinutes: 1440, cancelNoticeMinutes: 30, organizerEmail: "host@example.com" });
    await mountCalendar(page, { token, "reservation-uuid": uuid, locale: "en-GB", timezone: "Asia/Tokyo" });
    const moveClosed = await when(page, start - 1440 * 60_000, "en-GB", "Asia/Tokyo");
    const cancelUntil = await when(page, start - 30 * 60_000, "en-GB", "Asia/Tokyo");
    await expect(rules(page)).toContainText(`Rescheduling online closed on ${moveClosed}.`);
    await expect(rules(page)).toContainText(`You can cancel online until ${cancelUntil}.`);
    // Without a contact of its own, the organizer email is the way to ask.
    await expect(rules(page).getByRole("link", { name: "host@example.com" })).toHaveAttribute("href", "mailto:host@example.com");
    await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Choose a new time" })).toHaveCount(0);
    await expect(grid(page)).toHaveCount(0);
  });

  test("past the cancel notice only: the new times stay, the cancel button goes, the contact link is the configured one", async ({ page, request }) => {
    const { uuid, token } = await booked(request, {
      rescheduleNoticeMinutes: 30,
      cancelNoticeMinutes: 1440,
      organizerEmail: "host@example.com",
      contact: "https://example.com/help",
    });
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(rules(page)).toContainText("Cancelling online closed on");
    await expect(rules(page)).toContainText("You can reschedule online until");
    await expect(rules(page).getByRole("link", { name: "https://example.com/help" })).toHaveAttribute("href", "https://example.com/help");
    await expect(grid(page).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel booking" })).toHaveCount(0);
  });

  test("past both notices: since when and how to reach the organizer, no buttons, no times, nothing sent", async ({ page, request }) => {
    const { id, uuid, token, start } = await booked(request, {
      rescheduleNoticeMinutes: 1440,
      cancelNoticeMinutes: 1440,
      contact: "Call us on +420 123 456 789",
    });
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token, "reservation-uuid": uuid, locale: "en-GB", timezone: "UTC" });
    const closed = await when(page, start - 1440 * 60_000, "en-GB", "UTC");
    await expect(rules(page)).toHaveText(
      `Rescheduling and cancelling online closed on ${closed}. For changes now, contact the organizer: Call us on +420 123 456 789`,
    );
    await expect(page.getByText("Status: confirmed")).toBeVisible();
    for (const name of ["Cancel booking", "Try again", "Move booking"]) await expect(page.getByRole("button", { name })).toHaveCount(0);
    await expect(grid(page)).toHaveCount(0);
    expect(calls.filter((c) => !c.startsWith("POST /event-types/init") && !c.startsWith("GET /"))).toEqual([]);
    expect((await reservationsOf(request, id))[0]).toMatchObject({ uuid, status: "confirmed" });
  });

  test("without a contact or an organizer email, the host's address is whom to ask", async ({ page, request }) => {
    const hostId = await createHost(request, { email: `only-host@example.com` });
    const { uuid, token } = await booked(request, { rescheduleNoticeMinutes: 1440, cancelNoticeMinutes: 1440, hosts: [{ hostId }] });
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(rules(page).getByRole("link", { name: "only-host@example.com" })).toHaveAttribute("href", "mailto:only-host@example.com");
  });

  test("without any contact, the visitor is told to contact the organizer", async ({ page, request }) => {
    const { uuid, token } = await booked(request, { rescheduleNoticeMinutes: 1440, cancelNoticeMinutes: 1440 });
    // Hosts made through the admin API always have an address; only an event type of a host without
    // one (as upgraded installations may have) has no contact: its configuration is played here.
    await page.route("**/event-types/init", async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.configuration.contact = null;
      await route.fulfill({ response, json: body });
    });
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(rules(page)).toContainText("For changes now, please contact the organizer.");
    await expect(rules(page).getByRole("link")).toHaveCount(0);
  });

  test("in the visitor's language: German rules and contact", async ({ page, request }) => {
    const { uuid, token, start } = await booked(request, { rescheduleNoticeMinutes: 1440, cancelNoticeMinutes: 30, contact: "hilfe@example.com" });
    await mountCalendar(page, { token, "reservation-uuid": uuid, locale: "de", timezone: "Europe/Berlin" });
    const cancelUntil = await when(page, start - 30 * 60_000, "de", "Europe/Berlin");
    await expect(rules(page)).toContainText(`Sie können online bis ${cancelUntil} stornieren.`);
    await expect(rules(page)).toContainText("Umbuchen online war bis");
    await expect(rules(page)).toContainText("Für Änderungen wenden Sie sich jetzt an den Veranstalter: hilfe@example.com");
    await expect(page.getByRole("button", { name: "Buchung stornieren" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Ihre Buchung" })).toBeVisible();
  });

  test("a notice that closes while the visitor looks: the refusal shows the rules and whom to ask, with no retry", async ({ page, request }) => {
    const { id, uuid, token } = await booked(request, { rescheduleNoticeMinutes: 30, cancelNoticeMinutes: 30, contact: "help@example.com" });
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
    // The organizer lengthens the notices meanwhile: the booking is now inside them.
    const patched = await request.patch(`/admin/event-types/${id}`, {
      headers: { Authorization: `Bearer ${ADMIN_KEY}` },
      data: { rescheduleNoticeMinutes: 1440, cancelNoticeMinutes: 1440 },
    });
    expect(patched.status()).toBe(200);
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("alert")).toContainText("This change is no longer possible online. Please contact the organizer.");
    await expect(rules(page)).toContainText("Rescheduling and cancelling online closed on");
    await expect(rules(page).getByRole("link", { name: "help@example.com" })).toBeVisible();
    for (const name of ["Try again", "Cancel booking", "Yes, cancel it"]) await expect(page.getByRole("button", { name })).toHaveCount(0);
    await expect(grid(page)).toHaveCount(0);
    expect((await reservationsOf(request, id))[0]).toMatchObject({ uuid, status: "confirmed" });
  });

  test("manage-action cancel opens the question to cancel at once, focused on the reason; the booking is cancelled from there", async ({ page, request }) => {
    const { id, uuid, token } = await booked(request, { rescheduleNoticeMinutes: 30, cancelNoticeMinutes: 30 });
    await mountCalendar(page, { token, "reservation-uuid": uuid, "manage-action": "cancel" });
    await expect(page.getByText("Cancel this booking? This cannot be undone.")).toBeVisible();
    await expect(page.locator('[part="cancel-reason"]')).toBeFocused();
    await page.keyboard.type("Plans changed");
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ uuid, status: "cancelled" });
  });

  test("manage-action reschedule takes the visitor to the new times; without an action neither opens", async ({ page, request }) => {
    const { uuid, token } = await booked(request, { rescheduleNoticeMinutes: 30, cancelNoticeMinutes: 30 });
    await page.setViewportSize({ width: 390, height: 500 });
    await mountCalendar(page, { token, "reservation-uuid": uuid, "manage-action": "reschedule" });
    const heading = page.getByRole("heading", { name: "Choose a new time" });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expect(page.getByRole("button", { name: "Yes, cancel it" })).toHaveCount(0);
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Yes, cancel it" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Choose a new time" })).not.toBeFocused();
  });

  test("a manage part that cannot be fetched says so with a retry, which then shows the booking", async ({ page, request }) => {
    const { uuid, token } = await booked(request, { rescheduleNoticeMinutes: 30, cancelNoticeMinutes: 30 });
    let refuse = true;
    await page.route("**/embed/parts/manage.js", (route) => (refuse ? route.abort() : route.continue()));
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(page.getByRole("alert")).toContainText("could not be reached");
    refuse = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    await expect(rules(page)).toContainText("You can reschedule or cancel online until");
  });
});
