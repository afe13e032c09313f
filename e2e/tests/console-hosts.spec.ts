import { request as requests, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ADMIN_KEY, bookThroughApi, createEventType, expect, expectAccessible, freeSlots, saveScreenshot, test } from "../support/fixtures.ts";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";
import { startSmtp, type Smtp } from "../../packages/server/test/smtp.ts";
import { startRadicale } from "../../packages/server/test/radicale.ts";

// A host signs in to the console through the link the organizer has emailed them: a server of this
// file's own, started as `npm start` starts it but with SMTP_URL set to a real SMTP server on
// loopback, whose messages the test reads as a mail client would.

const repo = resolve(import.meta.dirname, "../..");
let smtp: Smtp;
let server: ChildProcess;
let origin = "";
const database = join(tmpdir(), `booking-e2e-hosts-${Date.now()}-${process.pid}.sqlite`);

test.beforeAll(async () => {
  smtp = await startSmtp();
  const smtpPort = smtp.port;
  const [port] = freePorts(1);
  origin = `http://127.0.0.1:${port}`;
  server = spawn(join(repo, "node_modules/.bin/bun"), ["packages/server/src/main.ts"], {
    cwd: repo,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: port!,
      BOOKING_DB: database,
      BOOKING_ADMIN_KEY: ADMIN_KEY,
      RATE_LIMIT_PER_MINUTE: "100000",
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?tls=ignore`,
      MAIL_FROM: "Bookings <bookings@example.test>",
    },
  });
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server with SMTP did not start");
});

test.afterAll(async () => {
  server?.kill();
  await smtp?.stop();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
});

test("a host signs in with the emailed link once and sees only their own bookings and schedules", async ({ page, browser, request }) => {
  // Three browsers, eight pages and five accessibility audits: longer than one page's flow.
  test.setTimeout(90_000);
  const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
  const hostOf = async (name: string) => {
    const r = await request.post(`${origin}/admin/hosts`, { headers: admin, data: { name, email: `${name.toLowerCase()}@example.com`, timezone: "UTC" } });
    expect(r.status(), await r.text()).toBe(200);
    return (await r.json()).data.id as number;
  };
  const ana = await hostOf("Ana");
  const bea = await hostOf("Bea");
  const api = await requests.newContext({ baseURL: origin });
  const anaCall = await createEventType(api, { title: "Ana's call", hosts: [{ hostId: ana }], minNoticeMinutes: 0 });
  const beaCall = await createEventType(api, { title: "Bea's call", hosts: [{ hostId: bea }], minNoticeMinutes: 0 });
  await bookThroughApi(api, anaCall.token, (await freeSlots(api, anaCall.token)).at(-1)!, "visitor-of-ana@example.com");
  await bookThroughApi(api, beaCall.token, (await freeSlots(api, beaCall.token)).at(-1)!, "visitor-of-bea@example.com");
  await api.dispose();

  // The organizer emails Ana a sign-in link from the hosts view.
  await page.goto(`${origin}/console`);
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("link", { name: "Hosts" }).click();
  await expect(page.getByRole("heading", { name: "Ana", level: 3 })).toBeVisible();
  await expectAccessible(page, "console hosts");
  // The organizer's bookings filter by host.
  await page.getByRole("link", { name: "Bookings" }).click();
  await page.getByLabel("Host").selectOption({ label: "Bea" });
  await page.locator("form[aria-label] button[type=submit]").first().click();
  await expect(page.getByText("visitor-of-bea@example.com")).toBeVisible();
  await expect(page.getByText("visitor-of-ana@example.com")).toHaveCount(0);
  await page.getByRole("link", { name: "Hosts" }).click();
  await page.getByRole("button", { name: "Email a sign-in link: Ana" }).click();
  await expect(page.locator("#console-status")).toContainText("ana@example.com");
  // Ana also gets her copy of her booking's confirmation; the sign-in email is one of its own.
  const signInMail = () => smtp.received.filter((m) => m.to.includes("ana@example.com") && /sign-in link/.test(m.mail.subject ?? ""));
  await expect.poll(() => signInMail().length).toBe(1);
  const link = /https?:\/\/\S+\/console#link=bcsl_[A-Za-z0-9_-]+/.exec(signInMail()[0]!.mail.text ?? "")![0];

  // Ana opens it in a browser of her own: her bookings only, and only the sections a host can use.
  const hers = await browser.newContext({ timezoneId: "UTC" });
  const host = await hers.newPage();
  await host.goto(link);
  await expect(host.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
  await expect(host.getByText("visitor-of-ana@example.com")).toBeVisible();
  await expect(host.getByText("visitor-of-bea@example.com")).toHaveCount(0);
  await expect(host.getByRole("navigation").getByRole("link")).toHaveText(["Bookings", "Availability", "Calendars", "My schedules"]);
  await expectAccessible(host, "console bookings of a host");
  await saveScreenshot(host, "console-host-bookings");
  await host.getByRole("link", { name: "My schedules" }).click();
  await expect(host.getByRole("heading", { name: "Ana", level: 3 })).toBeVisible();
  await expect(host.getByRole("heading", { name: "Bea", level: 3 })).toHaveCount(0);
  await host.getByLabel("Schedule name").fill("Mornings");
  await host.getByRole("button", { name: "Add schedule" }).click();
  await expect(host.getByRole("link", { name: "Mornings" })).toBeVisible();
  await expectAccessible(host, "console schedules of a host");
  await saveScreenshot(host, "console-host-schedules");
  await host.getByRole("link", { name: "Mornings" }).click();
  await expect(host.getByLabel("Hours of")).toHaveValue(/^schedule-\d+$/);
  await expectAccessible(host, "console availability of a host");
  await saveScreenshot(host, "console-host-availability");
  expect((await host.request.get(`${origin}/admin/event-types`)).status()).toBe(403);
  await hers.close();

  // The organizer has Ana's call use her new schedule instead of its own hours.
  await page.goto(`${origin}/console#/event-types/${anaCall.id}`);
  await page.getByLabel("Hours of Ana").selectOption({ label: "Mornings" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("#console-status")).toContainText("Saved");
  const saved = (await (await request.get(`${origin}/admin/event-types/${anaCall.id}`, { headers: admin })).json()).data;
  expect(saved.hosts).toEqual([expect.objectContaining({ hostId: ana, scheduleId: expect.any(Number) })]);
  await expectAccessible(page, "console event type with a host's schedule");

  // The link worked once.
  const again = await browser.newContext();
  const late = await again.newPage();
  await late.goto(link);
  await expect(late.getByLabel("Admin key")).toBeVisible();
  await expect(late.locator("#console-status")).toContainText("not valid");
  await again.close();
  // Said in the console's language: a German browser reads it in German.
  const german = await browser.newContext({ locale: "de-DE" });
  const spat = await german.newPage();
  await spat.goto(link);
  await expect(spat.locator("#console-status")).toContainText("Dieser Anmeldelink gilt nicht");
  await german.close();
});

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** A host of this file's server with an email address; answers its id. */
async function newHost(request: APIRequestContext, name: string): Promise<number> {
  const r = await request.post(`${origin}/admin/hosts`, {
    headers: admin,
    data: { name, email: `${name.toLowerCase().replace(/\W+/g, "-")}@example.com`, timezone: "UTC" },
  });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).data.id as number;
}

/** Has the organizer email the host a sign-in link (through the API) and opens it in a browser of the host's own. */
async function signInAsHost(request: APIRequestContext, browser: Browser, hostId: number, email: string): Promise<Page> {
  const before = smtp.received.length;
  const sent = await request.post(`${origin}/admin/hosts/${hostId}/sign-in-link`, { headers: admin });
  expect(sent.status(), await sent.text()).toBe(200);
  await expect.poll(() => smtp.received.slice(before).some((m) => m.to.includes(email) && /sign-in link/.test(m.mail.subject ?? ""))).toBe(true);
  const mail = smtp.received.slice(before).find((m) => m.to.includes(email) && /sign-in link/.test(m.mail.subject ?? ""))!;
  const link = /https?:\/\/\S+\/console#link=bcsl_[A-Za-z0-9_-]+/.exec(mail.mail.text ?? "")![0];
  const context = await browser.newContext({ timezoneId: "UTC" });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
  return page;
}

test("a host reads their own booking feed on the Calendars page, with their visitors and no other host's, and gives it a new address", async ({
  browser,
  request,
}) => {
  const [gil, hal] = [await newHost(request, "Gil"), await newHost(request, "Hal")];
  const api = await requests.newContext({ baseURL: origin });
  const team = await createEventType(api, { title: "Gil and Hal", assignment: "round-robin", hosts: [{ hostId: gil }, { hostId: hal }], minNoticeMinutes: 0 });
  // Two visitors at one time: round robin gives one to each.
  const time = (await freeSlots(api, team.token)).at(-1)!;
  await bookThroughApi(api, team.token, time, "first-of-team@example.com");
  await bookThroughApi(api, team.token, time, "second-of-team@example.com");
  await api.dispose();
  const hers = (await (await request.get(`${origin}/admin/hosts/${gil}/reservations?from=2000-01-01&until=2100-01-01`, { headers: admin })).json()).data as {
    email: string;
  }[];
  expect(hers).toHaveLength(1);
  const other = hers[0]!.email === "first-of-team@example.com" ? "second-of-team@example.com" : "first-of-team@example.com";

  const page = await signInAsHost(request, browser, gil, "gil@example.com");
  await page.getByRole("link", { name: "Calendars" }).click();
  const feed = page.getByLabel("Booking feed", { exact: true });
  await expect(feed).toHaveValue(/\/feeds\/bcf_[A-Za-z0-9_-]+\.ics$/);
  const feedUrl = await feed.inputValue();
  const text = await (await page.request.get(feedUrl)).text();
  expect(text).toContain(hers[0]!.email);
  expect(text).not.toContain(other);
  await expectAccessible(page, "console calendars of a host with the booking feed");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "New feed address" }).click();
  await expect(feed).not.toHaveValue(feedUrl);
  expect((await page.request.get(feedUrl)).status()).toBe(404);
  expect((await page.request.get(await feed.inputValue())).status()).toBe(200);
  await page.context().close();
});

test("a host connects their own CalDAV calendar (Radicale) after testing it, sees its sync state, and chooses it for their bookings; another host's calendars stay out of reach", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const radicale = await startRadicale();
  try {
    const stamp = (d: Date) =>
      d
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d{3}/, "");
    const busyStart = new Date(Date.now() + 3 * 86_400_000);
    const calendarUrl = await radicale.makeCalendar("work");
    await radicale.put(
      calendarUrl,
      "busy-1.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//e2e//EN",
        "BEGIN:VEVENT",
        "UID:busy-1",
        "DTSTAMP:20260101T000000Z",
        `DTSTART:${stamp(busyStart)}`,
        `DTEND:${stamp(new Date(busyStart.getTime() + 3_600_000))}`,
        "SUMMARY:Busy",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    const cara = await newHost(request, "Cara");
    const dana = await newHost(request, "Dana");
    const danaSource = await request.post(`${origin}/admin/hosts/${dana}/busy-sources`, {
      headers: admin,
      data: { kind: "ical", url: "http://127.0.0.1:9/dana.ics" },
    });
    expect(danaSource.status(), await danaSource.text()).toBe(200);
    const danaSourceId = (await danaSource.json()).data.id as number;

    const page = await signInAsHost(request, browser, cara, "cara@example.com");
    await page.getByRole("link", { name: "Calendars" }).click();
    await expect(page.getByRole("heading", { name: "Calendars", level: 2 })).toBeVisible();
    // Their own calendars only: no host to pick, none of Dana's.
    await expect(page.getByLabel("Host")).toHaveCount(0);
    await expect(page.getByText("No calendars connected yet.")).toBeVisible();
    await expect(page.getByText("dana.ics")).toHaveCount(0);
    await expectAccessible(page, "calendars of a host, none yet");

    await page.getByLabel("URL").fill(calendarUrl);
    await page.getByLabel("Username").fill(radicale.user);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#cal-url-error")).toContainText("could not be read");
    await expectAccessible(page, "calendars of a host, a test failed");
    await saveScreenshot(page, "console-host-calendars-test-failed");
    await page.getByLabel("Password").fill(radicale.password);
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByRole("form", { name: "Connect a calendar" }).getByText("The connection works. Calendar entries found: 1")).toBeVisible();
    expect((await (await request.get(`${origin}/admin/hosts/${cara}/busy-sources`, { headers: admin })).json()).data).toEqual([]);
    await page.getByRole("button", { name: "Test and save" }).click();
    const row = page.getByRole("row").filter({ hasText: calendarUrl });
    await expect(row).toContainText("In sync");
    await expect(row).toContainText("Busy times: 1");
    await page.getByLabel("Write bookings into").selectOption({ label: "work" });
    await page.getByRole("form", { name: "Where bookings are written" }).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("row").filter({ hasText: calendarUrl })).toContainText(`Bookings are written here: ${calendarUrl}`);
    await page
      .getByRole("row")
      .filter({ hasText: calendarUrl })
      .getByRole("button", { name: /^Sync now/ })
      .click();
    await expect(page.locator("#console-status")).toContainText("Busy times: 1");
    const hers = (await (await request.get(`${origin}/admin/hosts/${cara}/busy-sources`, { headers: admin })).json()).data;
    expect(hers).toEqual([expect.objectContaining({ url: calendarUrl, status: "ok", busyIntervals: 1, writeBookings: true, writeCalendar: calendarUrl })]);

    // Every scheme and width passes axe with the calendar shown.
    for (const width of [1280, 390]) {
      for (const scheme of ["light", "dark"] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await expect(page.getByRole("row").filter({ hasText: calendarUrl })).toContainText("In sync");
        await expectAccessible(page, `calendars of a host ${scheme} ${width}`);
        await saveScreenshot(page, `console-host-calendars-${scheme}-${width}`);
      }
    }

    // The session cannot reach Dana's calendars, by her host or by the calendar's id.
    expect((await page.request.get(`${origin}/admin/hosts/${dana}/busy-sources`)).status()).toBe(403);
    const sync = await page.request.post(`${origin}/admin/busy-sources/${danaSourceId}/sync`, { headers: { origin } });
    expect(sync.status()).toBe(404);
    expect(await sync.json()).toMatchObject({ success: false, code: "not_found" });
    expect((await page.request.put(`${origin}/admin/busy-sources/${danaSourceId}/write-bookings`, { headers: { origin }, data: {} })).status()).toBe(404);
    await page.context().close();
  } finally {
    await radicale.stop();
  }
});

test("a host moves their own booking from the console to a time only the organizer's rules allow", async ({ browser, request }) => {
  const erin = await newHost(request, "Erin");
  const api = await requests.newContext({ baseURL: origin });
  // Two days' notice for visitors: tomorrow is not offered to them.
  const call = await createEventType(api, { title: "Erin's call", hosts: [{ hostId: erin }], minNoticeMinutes: 2880 });
  const slots = await freeSlots(api, call.linkToken);
  const email = "visitor-of-erin@example.com";
  await bookThroughApi(api, call.token, slots.at(-1)!, email);
  await api.dispose();
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const target = `${tomorrow}T12:00:00Z`;
  expect(
    slots.some((s) => s.startIso8601 === target),
    "visitors are not offered tomorrow",
  ).toBe(false);

  const page = await signInAsHost(request, browser, erin, "erin@example.com");
  await page.getByRole("row").filter({ hasText: email }).getByRole("button", { name: /^Open/ }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Day").fill(tomorrow);
  const times = dialog.getByRole("group", { name: "Free times" });
  await expect(times.getByRole("button", { name: "12:00", exact: true })).toBeVisible();
  await expectAccessible(page, "a host's booking dialog with free times");
  await saveScreenshot(page, "console-host-move-booking");
  await times.getByRole("button", { name: "12:00", exact: true }).click();
  await expect(page.locator("#console-status")).toContainText("Reschedule");
  const moved = (await (await request.get(`${origin}/admin/reservations?q=${encodeURIComponent(email)}`, { headers: admin })).json()).data.items[0];
  expect(moved.startIso8601).toBe(target);
  // The event type's link token never reached the host's page: the free times came from the admin API.
  expect(await page.content()).not.toContain(call.linkToken);
  await page.context().close();
});
