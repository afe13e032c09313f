import type { Page } from "@playwright/test";
import {
  API,
  ADMIN_KEY,
  SITE,
  bookThroughApi,
  chooseFirstTime,
  createEventType,
  expect,
  expectAccessible,
  freeSlots,
  saveScreenshot,
  test,
} from "../support/fixtures.ts";
import { startRadicale } from "../../packages/server/test/radicale.ts";

/** Signs in to the console with the admin key; the bookings page is then shown. */
async function signIn(page: Page): Promise<void> {
  await page.goto("/console");
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
}

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** The API on PostgreSQL: the console's flows where the store matters run on both engines. */
const PG_API = `http://127.0.0.1:${process.env.E2E_PG_API_PORT}`;

for (const [engine, origin] of [
  ["SQLite", API],
  ["PostgreSQL", PG_API],
] as const) {
  test.describe(`the organizer console on ${engine}`, () => {
    test.use({ baseURL: origin });

    test("signs in with the admin key; a wrong key is the key field's error", async ({ page }) => {
      await page.goto("/console");
      await page.getByLabel("Admin key").fill("not-the-key");
      await page.getByRole("button", { name: "Sign in" }).click();
      const key = page.getByLabel("Admin key");
      await expect(key).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator("#admin-key-error")).toContainText("not the admin key");
      await expect(key).toBeFocused();
      await key.fill(ADMIN_KEY);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
      const cookie = (await page.context().cookies()).find((c) => c.name === "booking_console")!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
      // Reloaded, the session is still there; signed out, it is gone.
      await page.reload();
      await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page.getByLabel("Admin key")).toBeVisible();
      expect((await page.request.get("/console/session")).status()).toBe(401);
    });

    test("refuses a change sent with its session from another origin, and shows the sign-in once the session is revoked", async ({
      page,
      request,
      baseURL,
    }) => {
      await signIn(page);
      // The customer's site is the same site (127.0.0.1) on another port: SameSite lets the cookie go, the Origin check does not.
      await page.goto(`${SITE}/?attrs={}`);
      const status = await page.evaluate(async (api) => {
        const response = await fetch(`${api}/admin/event-types`, {
          method: "POST",
          mode: "no-cors",
          credentials: "include",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ title: "Forged by another origin" }),
        });
        return response.type;
      }, baseURL!);
      expect(status).toBe("opaque");
      const list = await (await request.get("/admin/event-types", { headers: admin })).json();
      expect(list.data.map((et: { title: string }) => et.title)).not.toContain("Forged by another origin");
      // The same change from the console's own page goes through.
      await page.goto("/console#/event-types");
      const made = await page.evaluate(
        async () =>
          (
            await fetch("/admin/event-types", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ title: "Made in the console's page" }),
            })
          ).status,
      );
      expect(made).toBe(200);

      // This browser's session revoked (as with the key from a script; other tests' sessions stay): the console asks to sign in again.
      const mine = (await (await page.request.get("/console/session")).json()).data.id as string;
      const sessions = (await (await request.get("/admin/sessions", { headers: admin })).json()).data as { id: string }[];
      expect(sessions.map((s) => s.id)).toContain(mine);
      expect((await request.delete(`/admin/sessions/${mine}`, { headers: admin })).status()).toBe(200);
      await page.getByRole("link", { name: "Bookings" }).click();
      await expect(page.getByLabel("Admin key")).toBeVisible();
    });

    test("creates an event type, previews unsaved colours, books from the preview, and cancels the booking from the list", async ({ page }) => {
      await signIn(page);
      await page.getByRole("link", { name: "Event types" }).click();
      await page.getByRole("link", { name: "New event type" }).click();
      await page.getByLabel("Title", { exact: true }).fill("Console call");
      await page.getByLabel("Minimum notice (min)").fill("0");
      await page.getByRole("button", { name: "Create" }).click();
      await expect(page.locator("main h2[tabindex='-1']")).toHaveText("Console call");
      const preview = page.locator("console-calendar-preview booking-calendar");
      await expect(preview.locator('button[part~="day-free"]').first()).toBeVisible();

      // An unsaved colour is shown at once by the real calendar.
      await page.getByLabel("Colour: primary").fill("#7c3aed");
      await expect
        .poll(() => page.locator("console-calendar-preview booking-calendar").evaluate((el) => getComputedStyle(el).getPropertyValue("--bc-primary").trim()))
        .toBe("#7c3aed");
      // Leaving with it unsaved asks first.
      page.once("dialog", (dialog) => dialog.dismiss());
      await page.getByRole("link", { name: "Bookings" }).click();
      await expect(page).toHaveURL(/#\/event-types\/\d+$/);
      await expect(page.getByLabel("Colour: primary")).toHaveValue("#7c3aed");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.locator("#console-status")).toContainText("Saved.");

      // A booking made in the preview is a real one (once the preview shows what was saved).
      await expect(page.locator("console-calendar-preview:not([data-pending])")).toHaveCount(1);
      await chooseFirstTime(page);
      const calendar = page.locator("console-calendar-preview booking-calendar");
      await calendar.getByLabel("Email").fill("preview@example.com");
      await calendar.getByLabel("First name").fill("Pre");
      await calendar.getByLabel("Last name").fill("View");
      await calendar.getByRole("button", { name: "Book" }).click();
      await expect(calendar.getByRole("heading", { name: "You are booked" })).toBeVisible();

      await page.getByRole("link", { name: "Bookings" }).click();
      await page.getByLabel("Name or email").fill("preview@");
      await page.getByRole("button", { name: "Filters" }).click();
      const row = page.getByRole("row").filter({ hasText: "preview@example.com" });
      await expect(row).toContainText("Console call");
      await expect(row).toContainText("confirmed");
      await row.getByRole("button", { name: /^Open/ }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: /Pre View/ })).toBeVisible();
      await expect(dialog).toContainText("reservation.created");
      await dialog.getByLabel("Reason (sent to the visitor)").fill("The organizer is ill");
      await dialog.getByRole("button", { name: "Cancel booking" }).click();
      await expect(page.locator("#console-status")).toContainText("cancelled");
      await expect(page.getByRole("row").filter({ hasText: "preview@example.com" })).toContainText("cancelled");
    });

    test("connects a Radicale calendar to a host after testing it, keeps none whose password is wrong, and writes bookings into the calendar chosen", async ({
      page,
      request,
    }) => {
      const radicale = await startRadicale();
      try {
        const made = await request.post("/admin/hosts", {
          headers: admin,
          data: { name: `Radicale host ${Date.now()}`, email: `radicale-${Date.now()}@example.com`, timezone: "UTC" },
        });
        expect(made.status(), await made.text()).toBe(200);
        const hostId = (await made.json()).data.id as number;
        const start = new Date(Date.now() + 2 * 86_400_000);
        const stamp = (d: Date) =>
          d
            .toISOString()
            .replace(/[-:]/g, "")
            .replace(/\.\d{3}/, "");
        const calendarUrl = await radicale.makeCalendar("work");
        const busy = [
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//e2e//EN",
          "BEGIN:VEVENT",
          "UID:busy-1",
          "DTSTAMP:20260101T000000Z",
          `DTSTART:${stamp(start)}`,
          `DTEND:${stamp(new Date(start.getTime() + 3_600_000))}`,
          "SUMMARY:Busy",
          "END:VEVENT",
          "END:VCALENDAR",
          "",
        ];
        await radicale.put(calendarUrl, "busy-1.ics", busy.join("\r\n"));
        await signIn(page);
        await page.getByRole("link", { name: "Calendars" }).click();
        // The default host comes first; the organizer picks another.
        await expect(page.getByLabel("Host")).toHaveValue(
          String((await (await request.get("/admin/hosts", { headers: admin })).json()).data.find((h: { isDefault: boolean }) => h.isDefault).id),
        );
        await page.getByLabel("Host").selectOption(String(hostId));
        await expect(page.getByText("No calendars connected yet.")).toBeVisible();
        await page.getByLabel("URL").fill(calendarUrl);
        await page.getByLabel("Username").fill(radicale.user);
        await page.getByLabel("Password").fill("wrong-password");
        await page.getByRole("button", { name: "Test connection" }).click();
        await expect(page.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
        await page.getByRole("button", { name: "Test and save" }).click();
        await expect(page.locator("#console-status")).toContainText("validation_failed");
        expect((await (await request.get(`/admin/hosts/${hostId}/busy-sources`, { headers: admin })).json()).data).toEqual([]);

        await page.getByLabel("Password").fill(radicale.password);
        await page.getByRole("button", { name: "Test connection" }).click();
        await expect(page.getByRole("form", { name: "Connect a calendar" }).getByText("The connection works. Calendar entries found: 1")).toBeVisible();
        await expect(page.getByLabel("URL")).toHaveAttribute("aria-invalid", "false");
        expect((await (await request.get(`/admin/hosts/${hostId}/busy-sources`, { headers: admin })).json()).data).toEqual([]);
        await page.getByRole("button", { name: "Test and save" }).click();
        const row = page.getByRole("row").filter({ hasText: calendarUrl });
        await expect(row).toContainText("In sync");
        await expect(row).toContainText("Busy times: 1");
        await page.getByLabel("Write bookings into").selectOption({ label: "work" });
        await page.getByRole("form", { name: "Where bookings are written" }).getByRole("button", { name: "Save" }).click();
        await expect(page.getByRole("row").filter({ hasText: calendarUrl })).toContainText(`Bookings are written here: ${calendarUrl}`);
        const sources = (await (await request.get(`/admin/hosts/${hostId}/busy-sources`, { headers: admin })).json()).data;
        expect(sources).toEqual([expect.objectContaining({ url: calendarUrl, writeBookings: true, writeCalendar: calendarUrl, status: "ok" })]);
        await page
          .getByRole("row")
          .filter({ hasText: calendarUrl })
          .getByRole("button", { name: /^Sync now/ })
          .click();
        // Sync now says what the sync found: the calendar's one busy time.
        await expect(page.locator("#console-status")).toContainText("Busy times: 1");
        await expectAccessible(page, "calendars of a host with one connected");
      } finally {
        await radicale.stop();
      }
    });
  });
}

test.describe("the organizer console", () => {
  test("moves a booking to a free time from its dialog, and retries a delivery now", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Move call", webhookUrl: "http://127.0.0.1:9/unreachable" });
    const slots = await freeSlots(request, et.linkToken);
    const email = `move-${Date.now()}@example.com`;
    await bookThroughApi(request, et.linkToken, slots[0]!, email);
    const later = slots.find((slot) => slot.startIso8601.slice(0, 10) > slots[0]!.startIso8601.slice(0, 10))!;
    await signIn(page);
    await page.getByLabel("Name or email").fill(email);
    await page.getByRole("button", { name: "Filters" }).click();
    await page.getByRole("row").filter({ hasText: email }).getByRole("button", { name: /^Open/ }).click();
    const dialog = page.getByRole("dialog");
    await expectAccessible(page, "booking dialog");
    await saveScreenshot(page, "console-booking-dialog-light-1280");
    await dialog.getByLabel("Day").fill(later.startIso8601.slice(0, 10));
    await dialog
      .getByRole("group", { name: "Free times" })
      .getByRole("button", { name: later.startIso8601.slice(11, 16), exact: true })
      .click();
    await expect(page.locator("#console-status")).toContainText("Reschedule");
    const moved = (await (await request.get(`/admin/reservations?q=${encodeURIComponent(email)}`, { headers: admin })).json()).data.items[0];
    expect(moved.startIso8601).toBe(later.startIso8601);

    await page.getByRole("link", { name: "Deliveries" }).click();
    await page.getByLabel("Event type").selectOption(String(et.id));
    const row = page.getByRole("row").filter({ hasText: "webhook · reservation.rescheduled" });
    await expect(row).toContainText("127.0.0.1:9");
    await row.getByRole("button", { name: /^Retry now/ }).click();
    await expect(page.locator("#console-status")).toContainText("due now");
  });

  test("shows the API's errors at their fields, unsaved texts in the preview, and saves custom fields", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Fields call" });
    await signIn(page);
    await page.goto(`/console#/event-types/${et.id}`);
    await page.getByLabel("Duration (min)").fill("2");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByLabel("Duration (min)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Duration (min)")).toBeFocused();
    await expect(page.locator("#et-durationMinutes-error")).toHaveText("At least 5.");
    await expect(page.getByRole("alert")).toContainText("Some fields need attention.");
    await page.getByLabel("Duration (min)").fill("45");
    await page.getByLabel("Colour: primary").fill("url(x)");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#et-color-primary-error")).toContainText("CSS colour");
    await expect(page.getByLabel("Duration (min)")).toHaveAttribute("aria-invalid", "false");
    await page.getByLabel("Colour: primary").fill("");
    await page.getByLabel("Texts (one key=value a line)").fill("chooseDate=Pick your day");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByLabel("Label").fill("Company");
    await page.getByLabel("Name", { exact: true }).fill("company");
    await page.getByLabel("Required").check();
    const calendar = page.locator("console-calendar-preview booking-calendar");
    await expect(calendar.getByRole("heading", { name: "Pick your day" })).toBeVisible();
    // The unsaved field is in the preview's booking form.
    await calendar.locator('button[part~="day-free"]').first().click();
    await calendar.locator('button[part="slot"]').first().click();
    await expect(calendar.getByLabel(/^Company/)).toBeVisible();
    // The same draft behind the floating button a site would show, and in the popup.
    await page.getByLabel("Floating button").check();
    await expect(calendar).toHaveCount(0);
    const floating = page.getByRole("button", { name: "Fields call" });
    await floating.click();
    const popup = page.getByRole("dialog", { name: "Fields call" });
    await expect(popup).toBeVisible();
    // The popup's calendar is slotted into its dialog: found in the page, the only calendar there now.
    await expect(page.getByRole("heading", { name: "Pick your day" })).toBeVisible();
    await expectAccessible(page, "event type preview in the floating button's popup");
    await page.keyboard.press("Escape");
    await expect(popup).toHaveCount(0);
    await page.getByLabel("Popup button").check();
    await expect(floating).toHaveCount(0);
    await page.getByRole("button", { name: "Open the popup" }).click();
    await expect(popup).toBeVisible();
    await expect(page.getByRole("heading", { name: "Pick your day" })).toBeVisible();
    await page.keyboard.press("Escape");
    await page.getByLabel("In the page").check();
    await expect(calendar.getByRole("heading", { name: "Pick your day" })).toBeVisible();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#console-status")).toContainText("Saved.");
    const saved = (await (await request.get(`/admin/event-types/${et.id}`, { headers: admin })).json()).data;
    expect(saved).toMatchObject({
      durationMinutes: 45,
      locale: { texts: { chooseDate: "Pick your day" } },
      customFields: [{ label: "Company", name: "company", required: true }],
    });
  });

  test("works by keyboard alone, in German", async ({ page, request }) => {
    await createEventType(request, { title: "Keyboard call" });
    await page.goto("/console");
    await page.getByLabel("Language").focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByLabel("Sprache")).toBeVisible();
    await page.getByLabel("Admin-Schlüssel").focus();
    await page.keyboard.type(ADMIN_KEY);
    await page.keyboard.press("Enter");
    await expect(page.locator("main h2[tabindex='-1']")).toHaveText("Buchungen");
    await expect(page.locator("main h2[tabindex='-1']")).toBeFocused();
    // Loaded afresh (still signed in), the skip link is the first stop, then the sections.
    await page.reload();
    await expect(page.locator("main h2[tabindex='-1']")).toHaveText("Buchungen");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Zum Inhalt springen" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Terminarten" })).toBeFocused();
    await page.keyboard.press("Enter");
    // The new page's heading takes the focus, so a screen reader announces it.
    await expect(page.locator("main h2[tabindex='-1']")).toHaveText("Terminarten");
    await expect(page.locator("main h2[tabindex='-1']")).toBeFocused();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.getByRole("link", { name: "Neue Terminart" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Dauer (Min.)")).toBeVisible();
  });

  test("edits weekly hours with several ranges and a date override from the month", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Hours call" });
    await signIn(page);
    await page.getByRole("link", { name: "Availability" }).click();
    await page.getByLabel("Hours of").selectOption(`event-type-${et.id}`);
    await page.getByRole("button", { name: "Add range: Monday" }).click();
    await page.getByRole("button", { name: "Copy to other days: Monday" }).click();
    await page.getByRole("group", { name: "Copy the hours of Monday" }).getByRole("button", { name: "Copy", exact: true }).click();
    const next = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 15)).toISOString().slice(0, 10);
    await page.getByRole("button", { name: "Date overrides: +1" }).click();
    await page.getByRole("button", { name: next, exact: true }).click();
    await expect(page.getByRole("button", { name: `${next} (Date overrides)` })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#console-status")).toContainText("Saved.");
    const saved = (await (await request.get(`/admin/event-types/${et.id}`, { headers: admin })).json()).data.availability;
    expect(saved.weekly.sunday.length).toBe(2);
    expect(saved.overrides).toEqual([{ date: next, ranges: [] }]);

    // Open until the end of the day: midnight in the time input, 24:00 saved, and shown as midnight again.
    await page.getByLabel("Monday 2 until").fill("00:00");
    await page.getByLabel("Monday 2 until").dispatchEvent("change");
    await page.getByRole("button", { name: "Save" }).click();
    const lastEnd = async () =>
      (await (await request.get(`/admin/event-types/${et.id}`, { headers: admin })).json()).data.availability.weekly.monday.at(-1).end;
    await expect.poll(lastEnd).toBe("24:00");
    await page.reload();
    await page.getByLabel("Hours of").selectOption(`event-type-${et.id}`);
    await expect(page.getByLabel("Monday 2 until")).toHaveValue("00:00");
  });

  test("issues a new API token after asking, and the old one stops working", async ({ page, request }) => {
    const et = await createEventType(request, { title: `Token call ${Date.now()}` });
    const configuration = (token: string) => request.get("/configuration", { headers: { Authorization: `Bearer ${token}` } });
    expect((await configuration(et.token)).status()).toBe(200);
    await signIn(page);
    await page.getByRole("link", { name: "Event types" }).click();
    const row = page.getByRole("row").filter({ hasText: "Token call" }).last();
    await row.locator("summary").click();
    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: /^New API token/ }).click();
    const shown = page.getByRole("region", { name: "New token (shown once):" });
    await expect(shown).toContainText("token: bk_");
    const fresh = /token: (bk_\S+)/.exec((await shown.textContent())!)![1]!;
    expect((await configuration(et.token)).status()).toBe(401);
    expect((await configuration(fresh)).status()).toBe(200);
  });

  for (const width of [1280, 390]) {
    for (const scheme of ["light", "dark"] as const) {
      test(`every page passes axe (no serious or critical findings), ${scheme} at ${width} px, with screenshots`, async ({ page, request }) => {
        test.setTimeout(150_000);
        const et = await createEventType(request, { title: "Axe call", slug: `axe-${scheme}-${width}-${Date.now()}` });
        const pages: [string, string][] = [
          ["bookings", "Bookings"],
          ["event-types", "Event types"],
          [`event-types/${et.id}`, "Axe call"],
          ["event-types/new", "New event type"],
          ["availability", "Availability"],
          ["hosts", "Hosts"],
          ["calendars", "Calendars"],
          ["deliveries", "Deliveries"],
          ["embed", "Embed"],
          ["sessions", "Sessions"],
        ];
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto("/console");
        await expect(page.getByLabel("Admin key")).toBeVisible();
        await expectAccessible(page, `sign-in ${scheme} ${width}`);
        await saveScreenshot(page, `console-sign-in-${scheme}-${width}`);
        await page.getByLabel("Admin key").fill(ADMIN_KEY);
        await page.getByRole("button", { name: "Sign in" }).click();
        await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
        for (const [route, heading] of pages) {
          await page.goto(`/console#/${route}`);
          await expect(page.locator("main h2[tabindex='-1']")).toHaveText(heading);
          await expect(page.getByText("Loading…")).toHaveCount(0);
          await expectAccessible(page, `${route} ${scheme} ${width}`);
          await saveScreenshot(page, `console-${route.replace("/", "-").replace(/\d+/, "edit")}-${scheme}-${width}`);
          if (route === "bookings") {
            await page.getByRole("button", { name: "Week", exact: true }).click();
            await expect(page.getByRole("button", { name: "Week", exact: true })).toHaveAttribute("aria-pressed", "true");
            await expect(page.getByText("Loading…")).toHaveCount(0);
            await expectAccessible(page, `bookings week ${scheme} ${width}`);
            await saveScreenshot(page, `console-bookings-week-${scheme}-${width}`);
          }
        }
      });
    }
  }
});
