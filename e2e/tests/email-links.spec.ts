import { request as requests, type APIRequestContext } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ADMIN_KEY, bookThroughApi, createEventType, expect, expectAccessible, firstFreeSlot, reservationsOf, test } from "../support/fixtures.ts";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";
import { startSmtp, type Received, type Smtp } from "../../packages/server/test/smtp.ts";

// The visitor follows the buttons of their confirmation email: a server of this file's own, started
// as `npm start` starts it but with SMTP_URL set to a real SMTP server on loopback, whose messages
// the test reads as a mail client would.

const repo = resolve(import.meta.dirname, "../..");
let smtp: Smtp;
let server: ChildProcess;
let origin = "";
let api: APIRequestContext;
const database = join(tmpdir(), `booking-e2e-email-links-${Date.now()}-${process.pid}.sqlite`);

test.beforeAll(async () => {
  smtp = await startSmtp();
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
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}?tls=ignore`,
      MAIL_FROM: "Bookings <bookings@example.test>",
    },
  });
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      api = await requests.newContext({ baseURL: origin });
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server with SMTP did not start");
});

test.afterAll(async () => {
  await api?.dispose();
  server?.kill();
  await smtp?.stop();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
});

/** A booking of a new event type with a booking page, and the visitor's confirmation email once it arrived. */
async function bookedWithEmail(email: string): Promise<{ id: number; uuid: string; manageUrl: string; confirmation: Received }> {
  const slug = `mail-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const { id, token } = await createEventType(api, { slug, title: "Planning session", rescheduleNoticeMinutes: 0, cancelNoticeMinutes: 0 });
  const { uuid, manageUrl } = await bookThroughApi(api, token, await firstFreeSlot(api, token), email);
  await expect.poll(() => smtp.received.some((m) => m.to.includes(email)), { timeout: 20_000 }).toBe(true);
  return { id, uuid, manageUrl, confirmation: smtp.received.find((m) => m.to.includes(email))! };
}

/** Where the email's button `label` leads, as a mail client reads its HTML. */
function buttonHref(m: Received, label: string): string {
  const html = m.mail.html as string;
  const anchor = [...html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].find((a) => a[2] === label);
  expect(anchor, `a "${label}" button in "${m.mail.subject}"`).toBeDefined();
  return anchor![1]!.replaceAll("&#38;", "&").replaceAll("&amp;", "&");
}

test.describe("the confirmation email's buttons", () => {
  test("Cancel opens the booking with the question to cancel already asked, and cancels it", async ({ page }) => {
    const { id, uuid, manageUrl, confirmation } = await bookedWithEmail("cancel-by-mail@example.com");
    const cancel = buttonHref(confirmation, "Cancel");
    const reschedule = buttonHref(confirmation, "Reschedule");
    expect(cancel).toBe(`${manageUrl}&action=cancel`);
    expect(reschedule).toBe(`${manageUrl}&action=reschedule`);
    // The plain text part offers the same links.
    expect(confirmation.mail.text).toContain(`Cancel: ${cancel}`);

    await page.goto(cancel);
    await expect(page.getByText("Cancel this booking? This cannot be undone.")).toBeVisible();
    await expect(page.locator("booking-calendar").locator('[part="cancel-reason"]')).toBeFocused();
    await expectAccessible(page, "cancel from the email");
    await page.keyboard.type("Something came up");
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    expect((await reservationsOf(api, id))[0]).toMatchObject({ uuid, status: "cancelled" });
  });

  test("Reschedule opens the booking at its new times, in view on a phone", async ({ page }) => {
    const { id, uuid, confirmation } = await bookedWithEmail("move-by-mail@example.com");
    await page.setViewportSize({ width: 390, height: 700 });
    await page.goto(buttonHref(confirmation, "Reschedule"));
    const heading = page.getByRole("heading", { name: "Choose a new time" });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expect(page.getByRole("button", { name: "Yes, cancel it" })).toHaveCount(0);
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    expect((await reservationsOf(api, id))[0]).toMatchObject({ uuid, status: "confirmed" });
  });
});
