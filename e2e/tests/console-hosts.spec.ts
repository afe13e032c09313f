import { request as requests } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ADMIN_KEY, bookThroughApi, createEventType, expect, expectAccessible, freeSlots, test } from "../support/fixtures.ts";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";
import { startSmtp, type Smtp } from "../../packages/server/test/smtp.ts";

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
    env: { ...process.env, PORT: port!, BOOKING_DB: database, BOOKING_ADMIN_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: "100000", SMTP_URL: `smtp://127.0.0.1:${smtpPort}?tls=ignore`, MAIL_FROM: "Bookings <bookings@example.test>" },
  });
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${origin}/health`).then((r) => r.ok, () => false)) return;
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
  await expect(host.getByRole("navigation").getByRole("link")).toHaveText(["Bookings", "Availability", "My schedules"]);
  await expectAccessible(host, "console bookings of a host");
  await host.getByRole("link", { name: "My schedules" }).click();
  await expect(host.getByRole("heading", { name: "Ana", level: 3 })).toBeVisible();
  await expect(host.getByRole("heading", { name: "Bea", level: 3 })).toHaveCount(0);
  await host.getByLabel("Schedule name").fill("Mornings");
  await host.getByRole("button", { name: "Add schedule" }).click();
  await expect(host.getByRole("link", { name: "Mornings" })).toBeVisible();
  await expectAccessible(host, "console schedules of a host");
  await host.getByRole("link", { name: "Mornings" }).click();
  await expect(host.getByLabel("Hours of")).toHaveValue(/^schedule-\d+$/);
  await expectAccessible(host, "console availability of a host");
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
});
