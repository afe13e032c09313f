import {
  test,
  expect,
  bookThroughApi,
  chooseFirstTime,
  continueToPayment,
  createEventType,
  firstFreeSlot,
  mountCalendar,
  PAID,
  payWithCard,
  recordApiCalls,
  reservationsOf,
  routeStripeJs,
} from "./fixtures.ts";

/** A day `offset` days from today (UTC, the page's zone), YYYY-MM-DD. */
const dayFrom = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

// Flows of several steps against the real server: room for a machine shared by many test runs.
test.describe.configure({ timeout: 90_000 });

const noWeeklyHours = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };

test.describe("the time zone, always in view", () => {
  test("lists zones by region with their UTC offset and local time, narrows by search, and switches 12h/24h for the visit", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-US" });
    const zone = page.getByRole("combobox", { name: "Time zone" });
    // Shown without opening anything.
    await expect(zone).toBeVisible();
    await expect(zone).toHaveValue("UTC");
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    // Until the visitor reaches for the list it holds the chosen zone only; then every zone.
    await expect(zone.locator("option")).toHaveCount(1);
    await zone.focus();
    const tokyo = zone.locator('optgroup[label="Asia"] option[value="Asia/Tokyo"]');
    await expect(tokyo).toHaveCount(1);
    // Tokyo is UTC+9 all year; its local time is the page's UTC time plus nine hours, on a 12-hour clock in en-US.
    // Offsets are learnt in batches after the first paint: the label gains them shortly.
    // Named by its city and its generic name in the visitor's language.
    await expect(tokyo).toHaveText(/^Tokyo – Japan Standard Time · UTC\+09:00 · \d{1,2}:\d{2}\s[AP]M$/);
    const label = (await tokyo.textContent())!;
    const utcNow = new Date(Date.now() + 9 * 3_600_000);
    const hour = utcNow.getUTCHours() % 12 || 12;
    expect([hour, (hour % 12) + 1]).toContain(Number(label.split(" · ")[2]!.split(":")[0]));
    await expect(zone.locator('optgroup[label="Europe"] option[value="Europe/Prague"]')).toHaveCount(1);

    await page.getByLabel("Search time zones").fill("+09:00");
    const left = await zone.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(left).toContain("Asia/Tokyo");
    expect(left).not.toContain("Europe/Prague");
    await page.getByLabel("Search time zones").fill("");
    expect(await zone.locator("option").count()).toBeGreaterThan(300);

    // The locale's clock first (en-US: 12 hours), then the visitor's choice, kept across a reload.
    const twelve = page.getByRole("button", { name: "12h" });
    const twentyFour = page.getByRole("button", { name: "24h" });
    await expect(twelve).toHaveAttribute("aria-pressed", "true");
    await page.locator('button[part~="day-free"]').first().click();
    await expect(page.locator('button[part="slot"]').first()).toContainText(/[AP]M/);
    await twentyFour.click();
    await expect(twentyFour).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator('button[part="slot"]').first()).not.toContainText(/[AP]M/);
    await expect(page.locator('button[part="slot"]').first()).toContainText(/\d{2}:\d{2}/);
    await page.reload();
    await expect(page.getByRole("button", { name: "24h" })).toHaveAttribute("aria-pressed", "true");
    await page.locator('button[part~="day-free"]').first().click();
    await expect(page.locator('button[part="slot"]').first()).not.toContainText(/[AP]M/);
  });

  test("a 24-hour locale starts on the 24-hour clock", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-GB" });
    await expect(page.getByRole("button", { name: "24h" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("button", { name: "12h" })).toHaveAttribute("aria-pressed", "false");
  });

  test("sends the language and the clock the visitor chose with the booking, for its emails", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-GB" });
    await page.getByRole("button", { name: "12h" }).click();
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("clock@example.com");
    const sent = page.waitForRequest((r) => r.url().endsWith("/reservations") && r.method() === "POST");
    await page.getByRole("button", { name: "Book" }).click();
    expect((await sent).postDataJSON().locale).toBe("en-GB-u-hc-h12");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  });

  test("replaces a clock the locale attribute names with the visitor's choice, so the emails read one clock", async ({ page, request }) => {
    const { token, id } = await createEventType(request);
    await mountCalendar(page, { token, locale: "de-DE-u-hc-h12" });
    await expect(page.getByRole("button", { name: "12 Std." })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: "24 Std." }).click();
    await chooseFirstTime(page);
    await page.getByLabel("E-Mail").fill("uhr@example.com");
    const answered = page.waitForResponse((r) => r.url().endsWith("/reservations") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Buchen" }).click();
    const response = await answered;
    expect(response.request().postDataJSON().locale).toBe("de-DE-u-hc-h23");
    // Taken as a well-formed tag and stored: the booking stands.
    expect(response.status()).toBe(200);
    await expect.poll(async () => (await reservationsOf(request, id)).length).toBe(1);
  });
});

test.describe("details beside a summary", () => {
  test("shows the host from the configuration and a summary pane beside a narrow form, stacked on a phone", async ({ page, request }) => {
    const { token } = await createEventType(request, {
      ...PAID,
      hostName: "Jana Nováková",
      locations: [{ type: "address", value: "Main Street 1, Prague" }],
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await mountCalendar(page, { token });
    const header = page.locator('[part="header"]');
    await expect(header).toContainText("Jana Nováková");
    // No image configured: the initials stand in as the avatar.
    await expect(header.locator('[part="avatar"]')).toHaveText("JN");
    await chooseFirstTime(page);
    const summary = page.locator('aside[part="summary"]');
    await expect(summary).toContainText("Test call");
    await expect(summary).toContainText("Jana Nováková");
    await expect(summary).toContainText("Time zone: UTC");
    await expect(summary).toContainText("In person: Main Street 1, Prague");
    await expect(summary).toContainText("Price: €50.00");
    const form = page.locator('form[part="form"]');
    const [side, main] = [(await summary.boundingBox())!, (await form.boundingBox())!];
    expect(side.x + side.width).toBeLessThanOrEqual(main.x);
    expect(main.width).toBeLessThanOrEqual(24 * 16 + 1);
    await page.setViewportSize({ width: 390, height: 844 });
    const [top, below] = [(await summary.boundingBox())!, (await form.boundingBox())!];
    expect(top.y + top.height).toBeLessThanOrEqual(below.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  test("shows the configured avatar image", async ({ page, request }) => {
    const { token } = await createEventType(request, { hostName: "Jana", profileImage: "https://example.com/jana.png" });
    await page.route("https://example.com/jana.png", (route) =>
      route.fulfill({ contentType: "image/svg+xml", body: '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>' }),
    );
    await mountCalendar(page, { token });
    await expect(page.locator('[part="header"] img[part="avatar"]')).toHaveAttribute("src", "https://example.com/jana.png");
  });

  test("a phone call asks for one phone number, sent as the place and the visitor's phone", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { locations: [{ type: "phone", value: null }] });
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    await expect(page.locator('input[type="tel"]')).toHaveCount(1);
    await expect(page.getByLabel("Phone", { exact: true })).toHaveCount(0);
    await page.getByLabel("Email").fill("call@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByLabel("Your phone number")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("This field is required.")).toBeVisible();
    await page.getByLabel("Your phone number").fill("+420 777 000 111");
    const sent = page.waitForRequest((r) => r.url().endsWith("/reservations") && r.method() === "POST");
    await page.getByRole("button", { name: "Book" }).click();
    const body = (await sent).postDataJSON();
    expect(body.location).toEqual({ type: "phone", value: "+420 777 000 111" });
    expect(body.phone).toBe("+420 777 000 111");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ phone: "+420 777 000 111", location: { type: "phone", value: "+420 777 000 111" } });
  });
});

test.describe("the success screen", () => {
  test("marks the booking, names the host and the amount paid, and adds it to Google, Outlook or a file", async ({ page, request }) => {
    const { token } = await createEventType(request, { ...PAID, hostName: "Jana Nováková", theme: { mode: "light", colors: { primary: "#6d28d9" } } });
    await routeStripeJs(page);
    await mountCalendar(page, { token });
    const start = await continueToPayment(page, "paid@example.com");
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(page.locator('svg[part="success-mark"]')).toBeVisible();
    const confirmation = page.locator('[part="confirmation"]');
    await expect(confirmation).toContainText("Host: Jana Nováková");
    await expect(confirmation.locator('[part="amount-paid"]')).toHaveText("Paid: €50.00");
    const stamp = (iso: string) =>
      new Date(iso)
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d{3}/, "");
    const end = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    const google = new URL((await page.getByRole("link", { name: "Google Calendar" }).getAttribute("href"))!);
    expect(google.origin + google.pathname).toBe("https://calendar.google.com/calendar/render");
    expect(google.searchParams.get("action")).toBe("TEMPLATE");
    expect(google.searchParams.get("dates")).toBe(`${stamp(start)}/${stamp(end)}`);
    expect(google.searchParams.get("text")).toBe("Test call (Jana Nováková)");
    const outlook = new URL((await page.getByRole("link", { name: "Outlook" }).getAttribute("href"))!);
    expect(outlook.hostname).toBe("outlook.live.com");
    expect(outlook.searchParams.get("startdt")).toBe(new Date(start).toISOString().replace(/\.\d{3}Z$/, "Z"));
    expect(outlook.searchParams.get("enddt")).toBe(end.replace(/\.\d{3}Z$/, "Z"));
    const ics = decodeURIComponent((await page.getByRole("link", { name: "Download .ics" }).getAttribute("href"))!);
    expect(ics).toContain(`DTSTART:${stamp(start)}`);
    // Links take the theme's colour.
    await expect(page.getByRole("link", { name: "Google Calendar" })).toHaveCSS("color", "rgb(109, 40, 217)");
  });
});

test.describe("cancelling", () => {
  test("asks for an optional reason with a danger button, sends it, then offers to book another time", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { theme: { mode: "light", colors: { danger: "#b42318" } } });
    const { uuid } = await bookThroughApi(request, token, await firstFreeSlot(request, token), "leave@example.com");
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await page.getByRole("button", { name: "Cancel booking" }).click();
    const confirm = page.getByRole("button", { name: "Yes, cancel it" });
    await expect(confirm).toHaveCSS("background-color", "rgb(180, 35, 24)");
    await page.getByLabel("Reason for cancelling (optional)").fill("My flight moved.");
    const sent = page.waitForRequest((r) => r.method() === "DELETE");
    await confirm.click();
    expect((await sent).postDataJSON()).toEqual({ reason: "My flight moved." });
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ uuid, status: "cancelled", cancelReason: "My flight moved." });
    await page.getByRole("button", { name: "Book another time" }).click();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your booking" })).toHaveCount(0);
    await chooseFirstTime(page);
    await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
    // The form starts from the cancelled booking's contact details.
    await expect(page.getByLabel("Email")).toHaveValue("leave@example.com");
  });

  test("cancels without a body when no reason is given", async ({ page, request }) => {
    const { id, token } = await createEventType(request);
    const { uuid } = await bookThroughApi(request, token, await firstFreeSlot(request, token));
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await page.getByRole("button", { name: "Cancel booking" }).click();
    const sent = page.waitForRequest((r) => r.method() === "DELETE");
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    expect((await sent).postData()).toBeNull();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "cancelled", cancelReason: null });
  });
});

test.describe("an empty month", () => {
  test("offers the next free day from the server and jumps to it", async ({ page, request }) => {
    // Free only three days ahead and seventy days ahead: the month after the first is empty.
    const [near, far] = [dayFrom(3), dayFrom(70)];
    const { token } = await createEventType(request, {
      availability: {
        weekly: noWeeklyHours,
        overrides: [
          { date: near, ranges: [{ start: "09:00", end: "10:00" }] },
          { date: far, ranges: [{ start: "09:00", end: "10:00" }] },
        ],
      },
    });
    await mountCalendar(page, { token, locale: "en-GB" });
    await expect(page.locator(`button[data-date="${near}"]`)).toHaveAttribute("part", /day-free/);
    const calls = recordApiCalls(page);
    await page.getByRole("button", { name: "Next month" }).click();
    await expect(page.getByText("No free times this month.")).toBeVisible();
    const offer = page.locator('button[part="next-available"]');
    const farText = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(
      new Date(`${far}T00:00:00Z`),
    );
    await expect(offer).toHaveText(`Next available: ${farText}`);
    // One question to the server, not a scan of the months between.
    expect(calls).toEqual(["GET /time-slots", "GET /time-slots/first-free"]);
    await offer.click();
    await expect(page.locator(`button[data-date="${far}"]`)).toHaveAttribute("aria-pressed", "true");
    await expect(page.locator('button[part="slot"]').first()).toBeVisible();
    expect(calls).toEqual(["GET /time-slots", "GET /time-slots/first-free", "GET /time-slots"]);
  });

  test("says so when nothing is free after the month", async ({ page, request }) => {
    const near = dayFrom(3);
    const { token } = await createEventType(request, {
      availability: { weekly: noWeeklyHours, overrides: [{ date: near, ranges: [{ start: "09:00", end: "10:00" }] }] },
    });
    await mountCalendar(page, { token });
    await expect(page.locator(`button[data-date="${near}"]`)).toHaveAttribute("part", /day-free/);
    await page.getByRole("button", { name: "Next month" }).click();
    await expect(page.getByText("No free times after this month.")).toBeVisible();
    await expect(page.locator('button[part="next-available"]')).toHaveCount(0);
  });
});

test.describe("loading", () => {
  test("shows a skeleton of the calendar while the event type loads", async ({ page, request }) => {
    const { token } = await createEventType(request);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/event-types/init", async (route) => {
      await held;
      await route.continue();
    });
    await mountCalendar(page, { token });
    const skeleton = page.locator('[part="skeleton"]');
    await expect(skeleton).toBeVisible();
    await expect(skeleton).toHaveAttribute("role", "status");
    await expect(skeleton).toHaveAttribute("aria-busy", "true");
    release();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expect(skeleton).toHaveCount(0);
  });
});
