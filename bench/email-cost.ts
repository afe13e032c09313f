/**
 * What one email costs the server, in the parts the mail worker runs: building the payload the
 * outbox stores (with the booking's transaction), and rendering it when it is sent (subject, HTML
 * and text in the visitor's language, and the invite with ical.js), per language; with the stored
 * payload's size. In one process, no database or SMTP: those are measured by `bench/bookings.ts`
 * (`BENCH_MAIL=1`). Run: `bun bench/email-cost.ts`.
 */
import { emailEvents, type MailPayload } from "../packages/server/src/modules/mail/events.ts";
import { render, renderMail } from "../packages/server/src/modules/mail/render.ts";
import type { MailLanguage } from "../packages/server/src/modules/mail/locales/catalog.ts";
import { MAIL_CATALOGS } from "../packages/server/src/modules/mail/locales/index.ts";
import { DEFAULT_SETTINGS } from "../packages/server/src/domain/event-type.ts";
import type { EventTypeRecord } from "../packages/server/src/store/event-types.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);
const start = Date.UTC(2026, 11, 2, 9);
const eventType = {
  id: 1,
  hosts: [],
  settings: {
    ...DEFAULT_SETTINGS,
    title: "Intro call",
    description: "A first talk about your project.",
    timezone: "Europe/Prague",
    organizerEmail: "jana@example.test",
    hostName: "Jana Nováková",
    theme: { mode: "light", borderRadius: "8px", colors: { primary: "#0f766e" } },
  },
} as unknown as EventTypeRecord;
const reservation = (locale: string): ReservationRecord =>
  ({
    uuid: crypto.randomUUID(),
    eventTypeId: 1,
    hostIds: [],
    status: "confirmed",
    startMs: start,
    endMs: start + 1_800_000,
    heldUntilMs: null,
    email: "ada@example.com",
    firstname: "Ada",
    lastname: "Lovelace",
    phone: "",
    timezone: "Europe/Prague",
    locale,
    location: { type: "video-meet", value: null },
    guests: [],
    customFields: [],
    meetLink: "https://meet.jit.si/booking-0123456789abcdef",
    sequence: 0,
    payment: null,
    confirmedAtMs: start - 86_400_000,
    cancelledAtMs: null,
    createdAtMs: start - 86_400_000,
    updatedAtMs: start - 86_400_000,
  }) as ReservationRecord;
const policy = { writes: true, sends: true, from: "Bookings <bookings@example.test>" };

function timeUs(work: () => unknown): number {
  for (let i = 0; i < ROUNDS / 10; i++) work();
  const began = performance.now();
  for (let i = 0; i < ROUNDS; i++) work();
  return ((performance.now() - began) * 1000) / ROUNDS;
}

const r = reservation("de-u-hc-h23");
const build = timeUs(() => emailEvents(policy, eventType, "reservation.created", r, start - 86_400_000, "https://book.example.test/book/intro?reservation=x"));
const [visitor] = emailEvents(policy, eventType, "reservation.created", r, start - 86_400_000, "https://book.example.test/book/intro?reservation=x");
console.log(`Payload of one visitor email (stored in the outbox): ${Buffer.byteLength(visitor!.payload)} bytes`);
console.log(`Building a booking's email events (visitor and organizer copy, JSON): ${build.toFixed(1)} µs`);
console.log(`Rendering one email when it is sent (subject, HTML, text, invite), ${ROUNDS} rounds each:`);
for (const language of Object.keys(MAIL_CATALOGS) as MailLanguage[]) {
  const payload = JSON.parse(
    emailEvents(
      policy,
      eventType,
      "reservation.created",
      reservation(`${language}-u-hc-h23`),
      start - 86_400_000,
      "https://book.example.test/book/intro?reservation=x",
    )[0]!.payload,
  ) as MailPayload;
  const rendered = renderMail(payload);
  const whole = timeUs(() => renderMail(payload));
  const texts = timeUs(() => render(payload));
  console.log(
    `  ${language}: ${whole.toFixed(1)} µs, of which texts, dates and HTML ${texts.toFixed(1)} µs and the invite (ical.js) the rest (HTML ${Buffer.byteLength(rendered.html)} B, text ${Buffer.byteLength(rendered.text)} B)`,
  );
}
