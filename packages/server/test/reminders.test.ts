import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import { ReminderWorker } from "../src/modules/mail/reminder-worker.ts";
import { staleReminder, type ReminderPayload } from "../src/modules/mail/reminders.ts";
import { createApp } from "../src/app.ts";
import type { Store } from "../src/store/store.ts";
import { startSmtp as startSmtpServer, type Received, type Smtp } from "./smtp.ts";
import { ADMIN_KEY, dataOf, ENGINE, openTestStoreBeside, setup } from "./utils.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague; it moves only when
// a test moves it. Event types offer 30-minute slots on weekdays 09:00-17:00 in Prague. Reminders
// go over SMTP to a real SMTP server (test/smtp.ts) on loopback, parsed as a mail client would.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Tuesday 2026-11-24 09:00-09:30 Prague = 08:00Z-08:30Z. */
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const TUE_0900_MS = Date.parse("2026-11-24T08:00:00Z");
/** Thursday 2026-11-26 10:00-10:30 Prague = 09:00Z-09:30Z. */
const THU_1000 = { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" };
const THU_1000_MS = Date.parse("2026-11-26T09:00:00Z");
const FROM = "Bookings <bookings@example.test>";
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startSmtp(): Promise<Smtp> {
  const smtp = await startSmtpServer();
  cleanups.push(() => smtp.stop());
  return smtp;
}

/**
 * A fresh app whose mail goes to `smtp`, one event type with a booking page (so manage links
 * exist) and no change notice, and a reminder worker on the app's store and clock.
 */
async function world(smtp: Smtp, settings: Partial<EventTypeCreate> = {}, databasePath?: string) {
  const mail = { smtpUrl: smtp.url, from: FROM };
  const env = await setup({ config: { ...NO_RATE_LIMIT, mail }, ...(databasePath ? { databasePath } : {}) });
  const created = await env.admin("POST", "/admin/event-types", {
    title: "Intro call",
    timezone: "Europe/Prague",
    slug: "intro",
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    ...settings,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const et = { id: created.body.data.id as number, token: created.body.data.token as string };
  const workerOn = (store: Store) => new ReminderWorker(store, env.clock, { mail }, (e) => env.logs.push(e));
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  return {
    ...env,
    et,
    worker: workerOn(env.store),
    workerOn,
    book: (body: unknown) => call("POST", "/reservations", body),
    reschedule: (uuid: string, body: unknown) => call("PUT", `/reservations/${uuid}`, body),
    cancel: (uuid: string) => call("DELETE", `/reservations/${uuid}`),
    /** The event type's reminder events (the outbox's `remind_` messages), newest first. */
    reminders: async (): Promise<any[]> => {
      const r = await env.admin("GET", `/admin/event-types/${et.id}/deliveries`);
      expect(r.status).toBe(200);
      return (r.body.data as any[]).filter((d) => d.webhookId.startsWith("remind_"));
    },
    at: (ms: number) => env.clock.set(new Date(ms).toISOString()),
  };
}

let visitors = 0;
function input(slot: { start: string; end: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  visitors++;
  return { ...slot, email: `visitor${visitors}@example.com`, firstname: "Ada", lastname: "Lovelace", ...extra };
}

/** Runs a worker until it finds nothing due: the count of attempts made. */
async function runUntilIdle(worker: ReminderWorker): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < 100; pass++) {
    const made = await worker.runOnce();
    if (made === 0) return total;
    total += made;
  }
  throw new Error("the worker never went idle");
}

const subjects = (received: Received[]) => received.map((m) => m.mail.subject);

describe("reminder emails", () => {
  it("sends the default reminders a day and an hour before the start, to the visitor and guests, and not a moment earlier", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp);
    expect(dataOf(await w.admin("GET", `/admin/event-types/${w.et.id}`)).reminderMinutes).toEqual([1440, 60]);
    const visitor = input(TUE_0900, { guests: ["guest@example.com"] });
    const booked = dataOf(await w.book(visitor));

    expect(await runUntilIdle(w.worker)).toBe(0);
    w.at(TUE_0900_MS - 24 * HOUR - 1);
    expect(await runUntilIdle(w.worker)).toBe(0);
    w.at(TUE_0900_MS - 24 * HOUR);
    expect(await runUntilIdle(w.worker)).toBe(2);
    expect(smtp.received.map((m) => m.to)).toEqual([[visitor.email], ["guest@example.com"]]);
    expect(subjects(smtp.received)).toEqual([
      "Reminder: Intro call, Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)",
      "Reminder: Intro call, Tuesday, November 24, 2026, 9:00 AM–9:30 AM (Central European Standard Time)",
    ]);
    const [toVisitor, toGuest] = smtp.received;
    expect(toVisitor!.mail.text).toContain("Hello Ada,\n\nYour booking starts in 1 day.");
    expect(toVisitor!.mail.text).toContain(`Reschedule: ${booked.manageUrl}&action=reschedule`);
    expect(toVisitor!.mail.html).toContain(`<a href="${booked.manageUrl}&#38;action=cancel"`);
    // The manage link is the visitor's: a guest's reminder has none, and does not greet them as the visitor.
    expect(toGuest!.mail.text).not.toContain(booked.uuid);
    expect(toGuest!.mail.text).not.toContain("Ada");
    // The calendar has the booking from the confirmation: a reminder carries no second invite.
    expect(smtp.received.every((m) => m.mail.attachments.length === 0)).toBe(true);

    w.at(TUE_0900_MS - HOUR - 1);
    expect(await runUntilIdle(w.worker)).toBe(0);
    w.at(TUE_0900_MS - HOUR);
    expect(await runUntilIdle(w.worker)).toBe(2);
    expect(smtp.received[2]!.mail.text).toContain("Your booking starts in 1 hour.");
    expect(smtp.received.length).toBe(4);
    const log = await w.reminders();
    expect(log.map((d) => [d.url, d.status])).toEqual([
      ["mailto:guest@example.com", "delivered"],
      [`mailto:${visitor.email}`, "delivered"],
      ["mailto:guest@example.com", "delivered"],
      [`mailto:${visitor.email}`, "delivered"],
    ]);
    // Each message's id is its outbox event's.
    expect(smtp.received.map((m) => m.mail.messageId)).toEqual(log.reverse().map((d) => `<${d.webhookId}@booking-calendar>`));
  });

  it("moves the reminders with a reschedule: the old times send nothing, the new times send", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp);
    const booked = dataOf(await w.book(input(TUE_0900)));
    dataOf(await w.reschedule(booked.uuid, THU_1000));

    for (const ms of [TUE_0900_MS - 24 * HOUR, TUE_0900_MS - HOUR, TUE_0900_MS + HOUR, THU_1000_MS - 24 * HOUR - 1]) {
      w.at(ms);
      expect(await runUntilIdle(w.worker)).toBe(0);
    }
    expect(smtp.received).toEqual([]);
    w.at(THU_1000_MS - 24 * HOUR);
    expect(await runUntilIdle(w.worker)).toBe(1);
    w.at(THU_1000_MS - HOUR);
    expect(await runUntilIdle(w.worker)).toBe(1);
    expect(subjects(smtp.received)).toEqual([
      "Reminder: Intro call, Thursday, November 26, 2026, 10:00 AM–10:30 AM (Central European Standard Time)",
      "Reminder: Intro call, Thursday, November 26, 2026, 10:00 AM–10:30 AM (Central European Standard Time)",
    ]);
    // The first time's reminder (which carried the rest) was withdrawn by the reschedule, in its transaction, never tried.
    const log = await w.reminders();
    expect(log.map((d) => [d.status, d.attempts, d.lastError])).toEqual([
      ["delivered", 1, null],
      ["delivered", 1, null],
      ["failed", 0, "withdrawn: the booking changed before the reminder was due"],
    ]);
  });

  it("sends no reminder after a cancel", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp);
    const booked = dataOf(await w.book(input(TUE_0900)));
    dataOf(await w.cancel(booked.uuid));
    for (const ms of [TUE_0900_MS - 24 * HOUR, TUE_0900_MS - HOUR]) {
      w.at(ms);
      expect(await runUntilIdle(w.worker)).toBe(0);
    }
    expect(smtp.received).toEqual([]);
    // The booking's one reminder row, withdrawn, never wrote the rest.
    expect((await w.reminders()).map((d) => d.status)).toEqual(["failed"]);
  });

  it("checks the booking again when a reminder falls due, and sends none for a booking cancelled without withdrawing it", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp);
    const booked = dataOf(await w.book(input(TUE_0900)));
    // A cancel that wrote no events (as a race between a claim and a cancel would leave it).
    const record = (await w.store.reservations.byUuid(w.et.id, booked.uuid))!;
    expect(
      await w.store.reservations.save({ ...record, status: "cancelled", cancelledAtMs: w.clock.now(), updatedAtMs: w.clock.now() }, record.updatedAtMs),
    ).toBe(true);
    w.at(TUE_0900_MS - 24 * HOUR);
    expect(await runUntilIdle(w.worker)).toBe(1);
    expect(smtp.received).toEqual([]);
    // Not sent, and the later reminders it carried are not written.
    expect((await w.reminders()).map((d) => [d.status, d.lastError])).toEqual([["failed", "not sent: the booking is cancelled"]]);
  });

  it("judges a due reminder stale once its booking is gone, no longer confirmed, moved or begun", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp);
    const booked = dataOf(await w.book(input(TUE_0900)));
    const current = (await w.store.reservations.byUuid(w.et.id, booked.uuid))!;
    const reminder = { reservation: { startMs: TUE_0900_MS } } as ReminderPayload;
    const dueMs = TUE_0900_MS - HOUR;
    expect(staleReminder(reminder, current, dueMs)).toBeNull();
    expect(staleReminder(reminder, null, dueMs)).toBe("the booking no longer exists");
    expect(staleReminder(reminder, { ...current, status: "cancelled" }, dueMs)).toBe("the booking is cancelled");
    expect(staleReminder(reminder, { ...current, startMs: THU_1000_MS, endMs: THU_1000_MS + 30 * MINUTE }, dueMs)).toBe("the booking has moved");
    expect(staleReminder(reminder, current, TUE_0900_MS)).toBe("the meeting has begun");
  });

  it("leaves out the reminders already due when the booking is made: only the later ones go, and none inside the last", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp, { minNoticeMinutes: 0 });
    // Booked 22 hours ahead: the day-before reminder's time has passed, the hour-before one's not.
    w.at(TUE_0900_MS - 22 * HOUR);
    dataOf(await w.book(input(TUE_0900)));
    expect(await runUntilIdle(w.worker)).toBe(0);
    w.at(TUE_0900_MS - HOUR);
    expect(await runUntilIdle(w.worker)).toBe(1);
    expect(smtp.received.map((m) => (m.mail.text ?? "").includes("starts in 1 hour."))).toEqual([true]);
    // Booked 30 minutes ahead: both have passed, nothing is scheduled.
    w.at(TUE_0900_MS - 30 * MINUTE);
    dataOf(await w.book(input({ start: "2026-11-24T09:30:00+01:00", end: "2026-11-24T10:00:00+01:00" })));
    for (const ms of [TUE_0900_MS - 30 * MINUTE, TUE_0900_MS, TUE_0900_MS + HOUR]) {
      w.at(ms);
      expect(await runUntilIdle(w.worker)).toBe(0);
    }
    expect(smtp.received.length).toBe(1);
    expect((await w.reminders()).length).toBe(1);
  });

  it("sends none with reminders turned off ([]), and takes offsets of the organizer's choosing, latest last", async () => {
    const smtp = await startSmtp();
    const off = await world(smtp, { reminderMinutes: [] });
    dataOf(await off.book(input(TUE_0900)));
    off.at(TUE_0900_MS - HOUR);
    expect(await runUntilIdle(off.worker)).toBe(0);
    expect(await off.reminders()).toEqual([]);

    const custom = await world(smtp);
    const patched = dataOf(await custom.admin("PATCH", `/admin/event-types/${custom.et.id}`, { reminderMinutes: [30, 2880] }));
    expect(patched.reminderMinutes).toEqual([2880, 30]);
    dataOf(await custom.book(input(TUE_0900)));
    custom.at(TUE_0900_MS - 24 * HOUR);
    // Two days before had passed when booked (25 hours ahead); the 24-hour default no longer applies.
    expect(await runUntilIdle(custom.worker)).toBe(0);
    custom.at(TUE_0900_MS - 30 * MINUTE);
    expect(await runUntilIdle(custom.worker)).toBe(1);
    expect(smtp.received.map((m) => (m.mail.text ?? "").includes("starts in 30 minutes."))).toEqual([true]);
  });

  it("answers 422 on reminder offsets out of range, repeated or too many", async () => {
    const smtp = await startSmtp();
    const w = await world(smtp);
    for (const reminderMinutes of [[4], [43_201], [60, 60], [5, 10, 15, 20, 25, 30], [1.5], "60", null]) {
      const r = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { reminderMinutes });
      expect(r.status, JSON.stringify(reminderMinutes)).toBe(422);
      expect(r.body.success).toBe(false);
      expect(JSON.stringify(r.body)).toContain("reminderMinutes");
    }
    expect(dataOf(await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { reminderMinutes: [5, 43_200] })).reminderMinutes).toEqual([43_200, 5]);
  });

  it("writes one reminder row with the booking, and the rest once when the worker takes it, even when its send is tried again", async () => {
    let tries = 0;
    const smtp = await startSmtpServer((n) => {
      tries = n;
      return n === 1 ? 451 : null;
    });
    cleanups.push(() => smtp.stop());
    const w = await world(smtp);
    const visitor = input(TUE_0900, { guests: ["one@example.com", "two@example.com"] });
    const booked = dataOf(await w.book(visitor));
    // Two offsets, a visitor and two guests: six reminders, one row of them in the booking's transaction.
    const written = await w.reminders();
    expect(written.map((d) => [d.url, d.status])).toEqual([[`mailto:${visitor.email}`, "pending"]]);

    w.at(TUE_0900_MS - 24 * HOUR);
    // The visitor's is refused for now (451); the rest is written all the same, behind it (one reservation's reminders go in order).
    expect(await runUntilIdle(w.worker)).toBe(1);
    expect(smtp.received).toEqual([]);
    const rows = async () => (await w.reminders()).reverse().map((d) => [d.url, d.status, d.attempts]);
    expect(await rows()).toEqual([
      [`mailto:${visitor.email}`, "pending", 1],
      ["mailto:one@example.com", "pending", 0],
      ["mailto:two@example.com", "pending", 0],
      [`mailto:${visitor.email}`, "pending", 0],
      ["mailto:one@example.com", "pending", 0],
      ["mailto:two@example.com", "pending", 0],
    ]);
    // Its retry sends it, then the guests', and writes nothing more.
    w.at(TUE_0900_MS - 24 * HOUR + 10 * MINUTE);
    expect(await runUntilIdle(w.worker)).toBe(3);
    expect(smtp.received.map((m) => m.to[0])).toEqual([visitor.email, "one@example.com", "two@example.com"]);
    expect((await w.reminders()).length).toBe(6);

    // A reschedule now withdraws the hour-before reminders the worker wrote, and schedules the new time's.
    dataOf(await w.reschedule(booked.uuid, THU_1000));
    w.at(TUE_0900_MS - HOUR);
    expect(await runUntilIdle(w.worker)).toBe(0);
    expect((await rows()).slice(3)).toEqual([
      [`mailto:${visitor.email}`, "failed", 0],
      ["mailto:one@example.com", "failed", 0],
      ["mailto:two@example.com", "failed", 0],
      [`mailto:${visitor.email}`, "pending", 0],
    ]);
    w.at(THU_1000_MS - HOUR);
    expect(await runUntilIdle(w.worker)).toBe(6);
    expect(tries).toBe(10);
    expect(smtp.received.slice(3).map((m) => [m.to[0], (m.mail.text ?? "").includes("Thursday, November 26")])).toEqual([
      [visitor.email, true],
      ["one@example.com", true],
      ["two@example.com", true],
      [visitor.email, true],
      ["one@example.com", true],
      ["two@example.com", true],
    ]);
  });

  it("sends each reminder once when two instances' workers on one database claim at the same time", async () => {
    const smtp = await startSmtp();
    // SQLite needs a file to be opened twice; PostgreSQL opens the test's schema again.
    const dir = ENGINE === "sqlite" ? mkdtempSync(join(tmpdir(), "reminders-")) : null;
    if (dir) cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const w = await world(smtp, { seats: 20 }, dir ? join(dir, "booking.db") : undefined);
    const other = await openTestStoreBeside(w.store);
    const booked = [];
    for (let n = 0; n < 12; n++) booked.push(dataOf(await w.book(input(TUE_0900))));
    const first = w.worker;
    const second = w.workerOn(other);

    w.at(TUE_0900_MS - HOUR);
    let attempts = 0;
    for (let pass = 0; pass < 100; pass++) {
      const made = await Promise.all([first.runOnce(), second.runOnce(), first.runOnce(), second.runOnce()]);
      const sum = made.reduce((a, b) => a + b, 0);
      if (sum === 0) break;
      attempts += sum;
    }
    // 12 bookings, a day and an hour before each: 24 reminders, each sent once.
    expect(attempts).toBe(24);
    expect(smtp.received.length).toBe(24);
    expect(new Set(smtp.received.map((m) => m.mail.messageId)).size).toBe(24);
    const perVisitor = new Map<string, number>();
    for (const m of smtp.received) perVisitor.set(m.to[0]!, (perVisitor.get(m.to[0]!) ?? 0) + 1);
    expect([...perVisitor.values()]).toEqual(booked.map(() => 2));
    expect((await w.reminders()).every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    // The other instance's app sees the same outbox.
    const otherApp = createApp({ store: other, clock: w.clock, config: { adminKey: ADMIN_KEY }, log: () => undefined });
    const listed = await otherApp.handle(
      new Request(`http://localhost/admin/event-types/${w.et.id}/deliveries`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }),
    );
    expect(((await listed.json()) as any).data.filter((d: any) => d.webhookId.startsWith("remind_")).length).toBe(24);
  });
});
