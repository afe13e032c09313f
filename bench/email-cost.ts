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
import { SAMPLE_START, sampleEventType, sampleReservation } from "./mail-samples.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);
const start = SAMPLE_START;
const eventType = sampleEventType({ mode: "light", borderRadius: "8px", colors: { primary: "#0f766e" } });
const reservation = sampleReservation;
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
