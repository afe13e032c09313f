import ICAL from "ical.js";
import { expect } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import { renderMail } from "../src/modules/mail/render.ts";
import type { MailPayload } from "../src/modules/mail/events.ts";
import { setup } from "./utils.ts";

// What the tests of recurring bookings share: an event type that allows series, and how to read its invites.

export const HOOK = "http://127.0.0.1:9/booking-events";
export const RECURRENCE = { maxOccurrences: 10, intervals: ["weekly", "biweekly"] as ("weekly" | "biweekly")[] };
/** Tuesday 2026-12-01 10:00 Berlin. */
export const TUE_1000 = { start: "2026-12-01T10:00:00+01:00", end: "2026-12-01T10:30:00+01:00" };

export async function world(settings: Partial<EventTypeCreate> = {}, now?: string, databasePath?: string) {
  const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } }, ...(now ? { now } : {}), ...(databasePath ? { databasePath } : {}) });
  const et = await env.eventType({
    timezone: "Europe/Berlin",
    slug: `coaching-${crypto.randomUUID().slice(0, 8)}`,
    webhookUrl: HOOK,
    recurrence: RECURRENCE,
    horizonDays: 365,
    cancelNoticeMinutes: 0,
    rescheduleNoticeMinutes: 0,
    ...settings,
  });
  const book = (slot: { start: string; end: string }, recurrence?: { interval: string; count: number }, email = "ada@example.com") =>
    env.call("POST", "/reservations", { token: et.token, body: { ...slot, email, firstname: "Ada", ...(recurrence ? { recurrence } : {}) } });
  /** Every outbox event of the event type, oldest first. */
  const outbox = async () => (await env.store.outbox.recent(et.id, 1000)).reverse();
  /** The visitor's confirmation emails (not reminders), rendered as they would be sent. */
  const visitorMails = async () =>
    (await outbox())
      .filter((e) => e.channel === "email")
      .map((e) => JSON.parse(e.payload) as MailPayload)
      .filter((m) => m.role === "visitor")
      .map((m) => ({ payload: m, mail: renderMail(m) }));
  return { ...env, et, book, outbox, visitorMails };
}

export const vevents = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents("vevent");

/**
 * The instants a recurring invite's entry stands at, as a calendar expands it: its VTIMEZONE
 * registered, its RRULE walked, its EXDATEs left out. Checks the entry is written in `zone`.
 */
export function invitedStarts(ics: string, zone: string): string[] {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  ICAL.TimezoneService.register(calendar.getFirstSubcomponent("vtimezone")!);
  const master = calendar.getAllSubcomponents("vevent").find((e) => !e.hasProperty("recurrence-id"))!;
  expect(master.getFirstProperty("dtstart")!.getParameter("tzid")).toBe(zone);
  const event = new ICAL.Event(master);
  const starts: string[] = [];
  const walk = event.iterator();
  for (let next = walk.next(); next && starts.length < 60; next = walk.next()) starts.push(next.toJSDate().toISOString());
  const excluded = new Set(master.getAllProperties("exdate").map((p) => (p.getFirstValue() as ICAL.Time).toJSDate().toISOString()));
  return starts.filter((s) => !excluded.has(s));
}
