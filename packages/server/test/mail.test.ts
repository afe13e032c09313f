import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import type { ServerConfig } from "../src/config.ts";
import { EmailWorker } from "../src/modules/mail/deliverer.ts";
import { organizerBookingUid } from "../src/modules/invites/ics.ts";
import { WebhookWorker } from "../src/modules/webhooks/worker.ts";
import { startServerProcess } from "./server-process.ts";
import { startSmtp as startSmtpServer, type Received, type Smtp } from "./smtp.ts";
import { ADMIN_KEY, dataOf, setup, waitFor } from "./utils.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague. The event types
// offer 30-minute slots on weekdays 09:00-17:00 in Prague with no reschedule or cancel notice.
// Mail goes over SMTP to a real SMTP server (the `smtp-server` package) on loopback; what it
// receives is parsed with `mailparser`, and the invites with `ical.js`, as a mail client would.

const SECOND = 1000;
const HOUR = 3_600_000;
/** Tuesday 2026-11-24 09:00-09:30 Prague = 08:00Z-08:30Z. */
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
/** Thursday 2026-11-26 10:00-10:30 Prague = 09:00Z-09:30Z. */
const THU_1000 = { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" };
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const FROM = "Bookings <bookings@example.test>";
const ORGANIZER = "organizer@example.test";
const ADDRESS = "Václavské náměstí 1, 110 00 Praha";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A real SMTP server on loopback (test/smtp.ts), stopped after the test. */
async function startSmtp(refuse?: (n: number) => number | null, port?: number): Promise<Smtp> {
  const smtp = await startSmtpServer(refuse, port);
  cleanups.push(() => smtp.stop());
  return smtp;
}

/** A port nothing listens on. */
function closedPort(): number {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

/**
 * A fresh app whose mail goes to `smtp` (none without it), one event type with a booking page (so
 * manage links exist), an email worker on the app's store and clock, and the public routes.
 */
async function world(options: { smtp?: Smtp; settings?: Partial<EventTypeCreate>; config?: Partial<ServerConfig> } = {}) {
  const env = await setup({ config: { ...NO_RATE_LIMIT, mail: { smtpUrl: options.smtp?.url ?? null, from: FROM }, ...options.config } });
  const created = await env.admin("POST", "/admin/event-types", {
    title: "Intro call",
    timezone: "Europe/Prague",
    slug: "intro",
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    organizerEmail: ORGANIZER,
    // The confirmations alone: reminders have their own tests (reminders.test.ts).
    reminderMinutes: [],
    ...options.settings,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const et = { id: created.body.data.id as number, token: created.body.data.token as string };
  const worker = new EmailWorker(env.store, env.clock, { mail: { smtpUrl: options.smtp?.url ?? null, from: FROM } }, (e) => env.logs.push(e));
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  return {
    ...env,
    et,
    worker,
    book: (body: unknown) => call("POST", "/reservations", body),
    prepare: (body: unknown) => call("POST", "/reservations/prepare", body),
    confirm: (uuid: string, body?: unknown) => call("POST", `/reservations/${uuid}/confirm`, body),
    reschedule: (uuid: string, body: unknown) => call("PUT", `/reservations/${uuid}`, body),
    cancel: (uuid: string) => call("DELETE", `/reservations/${uuid}`),
    configuration: () => call("GET", "/configuration"),
    /** Every outbox event of the event type (all channels), newest first, as the organizer sees them. */
    deliveries: async (): Promise<any[]> => {
      const r = await env.admin("GET", `/admin/event-types/${et.id}/deliveries`);
      expect(r.status).toBe(200);
      return r.body.data;
    },
    at: (ms: number) => env.clock.set(new Date(ms).toISOString()),
  };
}

let visitors = 0;
function input(slot: { start: string; end: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  visitors++;
  return { ...slot, email: `visitor${visitors}@example.com`, firstname: "Ada", lastname: "Lovelace", ...extra };
}

async function runUntilIdle(worker: EmailWorker): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < 50; pass++) {
    const made = await worker.runOnce();
    if (made === 0) return total;
    total += made;
  }
  throw new Error("the worker never went idle");
}

/** The calendar invite of a message, as a mail client reads it: the text/calendar part, parsed by ical.js. */
function inviteOf(m: Received) {
  const part = m.mail.attachments.find((a) => a.contentType === "text/calendar");
  expect(part, `no text/calendar part in "${m.mail.subject}"`).toBeDefined();
  const contentType = m.mail.attachments.find((a) => a.contentType === "text/calendar")!.headers.get("content-type") as {
    value: string;
    params: Record<string, string>;
  };
  const calendar = new ICAL.Component(ICAL.parse(part!.content.toString("utf8")));
  const event = calendar.getFirstSubcomponent("vevent")!;
  const prop = (name: string) => event.getFirstPropertyValue(name);
  return {
    partMethod: contentType.params.method,
    method: calendar.getFirstPropertyValue("method"),
    uid: prop("uid"),
    sequence: Number(prop("sequence")),
    start: (prop("dtstart") as ICAL.Time).toJSDate().toISOString(),
    end: (prop("dtend") as ICAL.Time).toJSDate().toISOString(),
    startIsUtc: (prop("dtstart") as ICAL.Time).zone?.tzid === "UTC",
    location: prop("location"),
    description: String(prop("description") ?? ""),
    url: prop("url"),
    status: prop("status"),
    organizer: prop("organizer"),
    attendee: prop("attendee"),
    summary: prop("summary"),
  };
}

describe("confirmation emails with calendar invites", () => {
  it("emails the visitor and the organizer on booking, rescheduling and cancelling, each with an invite of one UID and a rising SEQUENCE", async () => {
    const smtp = await startSmtp();
    const w = await world({ smtp });
    const visitor = input(TUE_0900);
    const booked = dataOf(await w.book(visitor));
    expect(booked.meetLink).toMatch(/^https:\/\/meet\.jit\.si\/booking-/);
    expect(booked.manageUrl).toBe(`http://localhost/book/intro?reservation=${booked.uuid}`);
    expect(await runUntilIdle(w.worker)).toBe(2);

    const moved = dataOf(await w.reschedule(booked.uuid, THU_1000));
    // The meeting stays: the moved answer carries the same link and place.
    expect(moved.meetLink).toBe(booked.meetLink);
    expect(moved.location).toEqual({ type: "video-meet", value: null });
    expect(await runUntilIdle(w.worker)).toBe(2);

    const cancelled = await w.cancel(booked.uuid);
    expect([cancelled.status, cancelled.body.success]).toEqual([200, true]);
    expect(await runUntilIdle(w.worker)).toBe(2);

    expect(smtp.received.map((m) => m.to)).toEqual([[visitor.email], [ORGANIZER], [visitor.email], [ORGANIZER], [visitor.email], [ORGANIZER]]);
    expect(smtp.received.every((m) => m.from === "bookings@example.test" && m.mail.from?.text === `"Bookings" <bookings@example.test>`)).toBe(true);
    const toVisitor = smtp.received.filter((m) => m.to[0] === visitor.email);
    expect(toVisitor.map((m) => m.mail.subject)).toEqual([
      "Confirmed: Intro call, Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)",
      "Moved: Intro call, Thursday, November 26, 2026, 10:00 AM–10:30 AM (Central European Standard Time)",
      "Cancelled: Intro call, Thursday, November 26, 2026, 10:00 AM–10:30 AM (Central European Standard Time)",
    ]);
    expect(smtp.received.filter((m) => m.to[0] === ORGANIZER).map((m) => m.mail.subject)).toEqual([
      "Confirmed: Intro call with Ada Lovelace, Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)",
      "Moved: Intro call with Ada Lovelace, Thursday, November 26, 2026, 10:00 AM–10:30 AM (Central European Standard Time)",
      "Cancelled: Intro call with Ada Lovelace, Thursday, November 26, 2026, 10:00 AM–10:30 AM (Central European Standard Time)",
    ]);
    // The plain text part writes out the links the HTML has behind buttons.
    expect(toVisitor[0]!.mail.text).toContain(`Join the meeting: ${booked.meetLink}`);
    // Reschedule and Cancel each open their own step of the manage link.
    expect(toVisitor[0]!.mail.text).toContain(`Reschedule: ${booked.manageUrl}&action=reschedule\n`);
    expect(toVisitor[0]!.mail.text).toContain(`Cancel: ${booked.manageUrl}&action=cancel\n`);
    expect(toVisitor[0]!.mail.html).toContain(`<a href="${booked.manageUrl}&#38;action=reschedule"`);
    expect(toVisitor[0]!.mail.html).toContain(`<a href="${booked.manageUrl}&#38;action=cancel"`);
    expect(toVisitor[0]!.mail.html).toContain(`<a href="${booked.meetLink}"`);
    expect(toVisitor[0]!.mail.html).not.toContain(`>${booked.meetLink}<`);
    // The organizer's copies hand out nothing that cancels the booking: no manage link, the uuid nowhere.
    for (const m of smtp.received.filter((m) => m.to[0] === ORGANIZER)) {
      const whole = [m.mail.subject, m.mail.text, m.mail.html, ...m.mail.attachments.map((a) => a.content.toString("utf8"))].join("\n");
      expect(whole).toContain("Ada Lovelace");
      expect(whole).not.toContain(booked.uuid);
    }
    expect(toVisitor[1]!.mail.text).toContain("Before: Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)");

    const invites = smtp.received.map(inviteOf);
    // The organizer's copies only inform (PUBLISH): no invitation to their own meeting.
    expect(invites.map((i) => [i.method, i.partMethod, i.status, i.sequence])).toEqual([
      ["REQUEST", "REQUEST", "CONFIRMED", 0],
      ["PUBLISH", "PUBLISH", "CONFIRMED", 0],
      ["REQUEST", "REQUEST", "CONFIRMED", 1],
      ["PUBLISH", "PUBLISH", "CONFIRMED", 1],
      ["CANCEL", "CANCEL", "CANCELLED", 2],
      ["PUBLISH", "PUBLISH", "CANCELLED", 2],
    ]);
    // The visitor's invites name the booking by its uuid; the organizer's copies by a key derived from it, which does not reveal it.
    expect(invites.map((i) => i.uid)).toEqual(
      [0, 1, 2, 3, 4, 5].map((n) => (n % 2 === 0 ? `${booked.uuid}@booking-calendar` : organizerBookingUid(booked.uuid))),
    );
    expect(organizerBookingUid(booked.uuid)).toMatch(/^[0-9a-f]{40}@booking-calendar$/);
    expect(invites.map((i) => [i.start, i.end])).toEqual([
      ["2026-11-24T08:00:00.000Z", "2026-11-24T08:30:00.000Z"],
      ["2026-11-24T08:00:00.000Z", "2026-11-24T08:30:00.000Z"],
      ["2026-11-26T09:00:00.000Z", "2026-11-26T09:30:00.000Z"],
      ["2026-11-26T09:00:00.000Z", "2026-11-26T09:30:00.000Z"],
      ["2026-11-26T09:00:00.000Z", "2026-11-26T09:30:00.000Z"],
      ["2026-11-26T09:00:00.000Z", "2026-11-26T09:30:00.000Z"],
    ]);
    expect(invites.every((i) => i.startIsUtc)).toBe(true);
    for (const [n, i] of invites.entries()) {
      expect(i.location).toBe(booked.meetLink);
      expect(i.url).toBe(booked.meetLink);
      if (n % 2 === 0) expect(i.description).toContain(booked.manageUrl);
      else expect(i.description).not.toContain(booked.uuid);
      expect(i.organizer).toBe(`mailto:${ORGANIZER}`);
      // The visitor's invite names them as ATTENDEE; the organizer's PUBLISH copy has none (RFC 5546 3.2.1) and names them in its text.
      if (n % 2 === 0) expect(i.attendee).toBe(`mailto:${visitor.email}`);
      else expect([i.attendee, i.description.includes(`Guests: Ada Lovelace <${visitor.email}>`)]).toEqual([null, true]);
      // The visitor's entry is not titled with their own name; the organizer's names the visitor.
      expect(i.summary).toBe(n % 2 === 0 ? "Intro call" : "Intro call with Ada Lovelace");
    }

    // The organizer's log shows each email with its channel and where it went.
    const log = await w.deliveries();
    expect(log.map((d) => [d.channel, d.kind, d.url, d.status])).toEqual([
      ["email", "reservation.cancelled", `mailto:${ORGANIZER}`, "delivered"],
      ["email", "reservation.cancelled", `mailto:${visitor.email}`, "delivered"],
      ["email", "reservation.rescheduled", `mailto:${ORGANIZER}`, "delivered"],
      ["email", "reservation.rescheduled", `mailto:${visitor.email}`, "delivered"],
      ["email", "reservation.created", `mailto:${ORGANIZER}`, "delivered"],
      ["email", "reservation.created", `mailto:${visitor.email}`, "delivered"],
    ]);
    // Each message's id is its outbox event's, the same on every try.
    expect(smtp.received.map((m) => m.mail.messageId).reverse()).toEqual(log.map((d) => `<${d.webhookId}@booking-calendar>`));
  });

  it("puts the organizer's address in the answers and the invite of an in-person meeting, and sends no copy without an organizer email", async () => {
    const smtp = await startSmtp();
    const w = await world({ smtp, settings: { locations: [{ type: "address", value: ADDRESS }], organizerEmail: null } });
    const visitor = input(TUE_0900, { location: { type: "address" } });
    const booked = dataOf(await w.book(visitor));
    expect(booked.location).toEqual({ type: "address", value: ADDRESS });
    expect(booked.meetLink).toBeNull();
    const moved = dataOf(await w.reschedule(booked.uuid, THU_1000));
    expect(moved.location).toEqual({ type: "address", value: ADDRESS });
    await runUntilIdle(w.worker);

    expect(smtp.received.map((m) => m.to)).toEqual([[visitor.email], [visitor.email]]);
    const [first, second] = smtp.received.map(inviteOf);
    expect(first!.location).toBe(ADDRESS);
    expect(second!.location).toBe(ADDRESS);
    expect([first!.sequence, second!.sequence]).toEqual([0, 1]);
    // Without an organizer email the invite is from the sender.
    expect(first!.organizer).toBe("mailto:bookings@example.test");
    // No meeting link: the invite links to the visitor's manage page.
    expect(first!.url).toBe(booked.manageUrl);
    expect(smtp.received[0]!.mail.text).toContain(`Where: ${ADDRESS}`);
  });

  it("emails nothing for a hold until it is confirmed, and confirms with the meeting's place in the answer", async () => {
    const smtp = await startSmtp();
    const w = await world({ smtp, settings: { locations: [{ type: "phone", value: "+420 123 456 789" }] } });
    const held = dataOf(await w.prepare(input(TUE_0900)));
    dataOf(await w.reschedule(held.uuid, THU_1000));
    expect(await runUntilIdle(w.worker)).toBe(0);
    const confirmed = dataOf(await w.confirm(held.uuid));
    expect(confirmed.location).toEqual({ type: "phone", value: "+420 123 456 789" });
    expect(await runUntilIdle(w.worker)).toBe(2);
    const invite = inviteOf(smtp.received[0]!);
    expect([invite.method, invite.location, invite.start]).toEqual(["REQUEST", "Phone: +420 123 456 789", "2026-11-26T09:00:00.000Z"]);
  });

  it("tries again when the SMTP server answers 451, and has the message accepted exactly once", async () => {
    const smtp = await startSmtp((n) => (n === 1 ? 451 : null));
    const w = await world({ smtp, settings: { organizerEmail: null } });
    const booked = dataOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(0);
    let [event] = await w.deliveries();
    expect(event).toMatchObject({ channel: "email", status: "pending", attempts: 1, lastStatusCode: 451 });
    expect(event.lastError).toMatch(/try again later/);
    // Not before the backoff's 5 s.
    expect(await w.worker.runOnce()).toBe(0);
    w.at(Date.parse("2026-11-23T07:00:00Z") + 5 * SECOND);
    expect(await runUntilIdle(w.worker)).toBe(1);
    expect(smtp.tries).toBe(2);
    expect(smtp.received).toHaveLength(1);
    expect(inviteOf(smtp.received[0]!).uid).toBe(`${booked.uuid}@booking-calendar`);
    [event] = await w.deliveries();
    expect(event).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 250 });
    expect(event.attemptLog.map((a: any) => a.statusCode)).toEqual([451, 250]);
    w.at(Date.parse("2026-11-23T07:00:00Z") + 10 * HOUR);
    expect(await runUntilIdle(w.worker)).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("gives up at once when the SMTP server refuses the message for good (5xx)", async () => {
    const smtp = await startSmtp(() => 550);
    const w = await world({ smtp, settings: { organizerEmail: null } });
    dataOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    const [event] = await w.deliveries();
    expect(event).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 550, nextAttemptAt: null });
    w.at(Date.parse("2026-11-23T07:00:00Z") + 10 * HOUR);
    expect(await runUntilIdle(w.worker)).toBe(0);
    expect(smtp.tries).toBe(1);
  });

  it("does not hold an email back behind a failing webhook of the same reservation, nor the webhook behind the email", async () => {
    const smtp = await startSmtp((n) => (n === 1 ? 451 : null));
    const w = await world({ smtp, settings: { organizerEmail: null, webhookUrl: `http://127.0.0.1:${closedPort()}/hooks` } });
    const booked = dataOf(await w.book(input(TUE_0900)));
    dataOf(await w.reschedule(booked.uuid, THU_1000));
    const webhooks = new WebhookWorker(w.store, w.clock, { allowPrivateAddresses: true }, () => undefined);
    // Each channel keeps the order of one reservation's events on its own.
    expect(await webhooks.runOnce()).toBe(1);
    expect(await w.worker.runOnce()).toBe(1);
    w.at(Date.parse("2026-11-23T07:00:00Z") + 5 * SECOND);
    expect(await runUntilIdle(w.worker)).toBe(2);
    expect(smtp.received.map((m) => m.mail.subject!.split(":")[0])).toEqual(["Confirmed", "Moved"]);
    const log = await w.deliveries();
    expect(log.filter((d) => d.channel === "webhook").map((d) => [d.kind, d.status, d.attempts])).toEqual([
      ["reservation.rescheduled", "pending", 0],
      ["reservation.created", "pending", 1],
    ]);
    // The webhook log stays the webhooks' own.
    const hooks = (await w.admin("GET", `/admin/event-types/${w.et.id}/webhook-deliveries`)).body.data as any[];
    expect(hooks.map((d) => d.kind)).toEqual(["reservation.rescheduled", "reservation.created"]);
  });

  it("says in the configuration whether the visitor will be emailed", async () => {
    const smtp = await startSmtp();
    const sending = await world({ smtp });
    expect(dataOf(await sending.configuration()).configuration.emailConfirmation).toBe(true);
    const silent = await world();
    expect(dataOf(await silent.configuration()).configuration.emailConfirmation).toBe(false);
  });

  it("logs where each mail would go in development without SMTP_URL, marking it done, and writes no email in production without it", async () => {
    const dev = await world();
    const visitor = input(TUE_0900);
    dataOf(await dev.book(visitor));
    expect(await runUntilIdle(dev.worker)).toBe(2);
    const lines = dev.logs.filter((e) => /mail not sent/.test(e.message)).map((e) => e.message);
    expect(lines).toEqual([
      `mail not sent (no SMTP_URL): would go to ${visitor.email}: "Confirmed: Intro call, Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)" with a REQUEST invite`,
      `mail not sent (no SMTP_URL): would go to ${ORGANIZER}: "Confirmed: Intro call with Ada Lovelace, Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)" with a PUBLISH invite`,
    ]);
    expect((await dev.deliveries()).map((d) => [d.channel, d.status])).toEqual([
      ["email", "delivered"],
      ["email", "delivered"],
    ]);

    const prod = await world({ config: { environment: "production", publicUrl: "https://book.example.test" } });
    const booked = dataOf(await prod.book(input(TUE_0900)));
    expect((await prod.cancel(booked.uuid)).body.success).toBe(true);
    expect(await prod.deliveries()).toEqual([]);
    expect(await runUntilIdle(prod.worker)).toBe(0);
  });

  it("emails a visitor whose address is not ASCII, which the form and the API take", async () => {
    const smtp = await startSmtp();
    const w = await world({ smtp });
    dataOf(await w.book(input(TUE_0900, { email: "jürgen@exämple.de" })));
    expect(await runUntilIdle(w.worker)).toBe(2);
    expect(smtp.received.map((m) => m.to).sort()).toEqual([["jürgen@exämple.de"], [ORGANIZER]].sort());
  });

  it("refuses an organizer email that is not an address with the JSON validation error", async () => {
    const w = await world();
    const r = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { organizerEmail: "not an address" });
    expect(r.status).toBe(422);
    expect(r.body.success).toBe(false);
    expect(JSON.stringify(r.body)).toContain("organizerEmail");
    const ok = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { organizerEmail: "boss@example.test" });
    expect(ok.status).toBe(200);
    expect(ok.body.data.organizerEmail).toBe("boss@example.test");
  });
});

describe("durability of emails", () => {
  it("sends the email of a booking made before a crash once a new server process runs on the same database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-mail-crash-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const port = closedPort();
    const env = {
      BOOKING_DB: join(dir, "booking.sqlite"),
      RATE_LIMIT_PER_MINUTE: "100000",
      STRIPE_STANDIN: "0",
      BOOKING_ADMIN_KEY: ADMIN_KEY,
      SMTP_URL: `smtp://127.0.0.1:${port}?tls=ignore`,
      MAIL_FROM: FROM,
    };
    const first = await startServerProcess(env);
    cleanups.push(() => first.kill("SIGKILL"));
    const http = httpClient(first.base);
    const everyDay = Object.fromEntries(
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start: "00:00", end: "24:00" }]]),
    );
    const created = await http.admin("POST", "/admin/event-types", {
      title: "Crash test",
      timezone: "UTC",
      minNoticeMinutes: 60,
      availability: { weekly: everyDay },
      reminderMinutes: [],
    });
    expect(created.status).toBe(200);
    const { id, token } = created.body.data;
    const today = new Date().toISOString().slice(0, 10);
    const later = new Date(Date.now() + 2 * 24 * HOUR).toISOString().slice(0, 10);
    const slot = (await http.call("GET", `/time-slots?from=${today}&until=${later}`, token)).body.data[0];
    const booked = await http.call("POST", "/reservations", token, { start: slot.startIso8601, end: slot.endIso8601, email: "crash@example.com" });
    expect(booked.body.success, JSON.stringify(booked.body)).toBe(true);

    // The running worker finds no SMTP server; once the failure is written down, the process dies
    // without any shutdown code running.
    await waitFor(
      async () => {
        // The visitor's email (the demo's default host, which has an address, gets the organizer's copy beside it).
        const log = ((await http.admin("GET", `/admin/event-types/${id}/deliveries`)).body.data as any[]).filter((d) => d.url === "mailto:crash@example.com");
        return log.length === 1 && log[0].status === "pending" && log[0].attempts === 1 && /^unreachable/.test(log[0].lastError);
      },
      10_000,
      "the first attempt's failure written down",
    );
    await first.kill("SIGKILL");

    const smtp = await startSmtp(() => null, port);
    const second = await startServerProcess(env);
    cleanups.push(() => second.stop());
    const toVisitor = () => smtp.received.filter((m) => m.to.includes("crash@example.com"));
    await waitFor(async () => toVisitor().length >= 1, 20_000, "the restarted server to send the confirmation");
    expect(toVisitor().map((m) => m.to)).toEqual([["crash@example.com"]]);
    expect(inviteOf(toVisitor()[0]!).uid).toBe(`${booked.body.data.uuid}@booking-calendar`);
    // The server has the message before its answer reaches the sender, which then writes the delivery down.
    const deliveries = async () =>
      ((await httpClient(second.base).admin("GET", `/admin/event-types/${id}/deliveries`)).body.data as any[]).filter(
        (d) => d.url === "mailto:crash@example.com",
      );
    await waitFor(async () => (await deliveries()).every((d) => d.status !== "pending"), 5_000, "the delivery written down");
    expect((await deliveries()).map((d) => [d.channel, d.status, d.attempts])).toEqual([["email", "delivered", 2]]);
  }, 45_000);
});

function httpClient(base: string) {
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { call, admin: (method: string, path: string, body?: unknown) => call(method, path, ADMIN_KEY, body) };
}
