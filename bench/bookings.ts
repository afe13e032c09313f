/**
 * Load benchmark of one-step bookings (`POST /reservations`) on distinct slots, against the bare
 * `GET /health` route of the same server.
 *
 * Seeds a fresh database (SQLite, or a PostgreSQL schema with BENCH_ENGINE=postgres) with one event
 * type open around the clock on a five-minute grid (five-minute meetings, one seat, two years ahead), starts `src/main.ts` on it as its own process, and
 * drives it with wrk over loopback; a Lua script gives every request the next free slot, so each
 * booking takes a seat in its own write transaction. Counts the answers with `success: true` and
 * prints confirmed bookings per second, their ratio to the bare route, and p50/p99 latency. On
 * PostgreSQL it then starts a second server process on the same database and loads both at once
 * (two instances of one event type), and on either engine sends 200 bookings of distinct free
 * slots at once and counts the refused ones.
 * Run: `npm run bench:bookings` (needs `wrk`). Options: BENCH_ENGINE (sqlite or postgres),
 * BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PORT, BENCH_PROFILE, BENCH_DEBUG, BENCH_MAIL=1 (also
 * measure bookings on a development server, which writes a confirmation email and the default two reminders per booking,
 * in turns with the bare booking path, and print the ratio of the two), BENCH_SMTP=1 with it (the server with emails is a
 * production server like the bare one, sending each email over SMTP to a local SMTP server that accepts and drops it,
 * instead of a development server logging it). What one email costs: `bun bench/email-cost.ts`.
 */
import type { AddressInfo } from "node:net";
import { DateTime } from "luxon";
import { SMTPServer } from "smtp-server";
import { AdminService } from "../packages/server/src/modules/admin/service.ts";
import { bookingScript, connections, emailsPending, engine, line, load, scratch, seconds, startServer } from "./lib.ts";

const port = Number(process.env.BENCH_PORT ?? 3918);
const db = await scratch();

const store = await db.open();
const allDay = [{ start: "00:00", end: "24:00" }];
const et = await new AdminService(store, Date.now).create({
  title: "Bookings benchmark",
  timezone: "UTC",
  durationMinutes: 5,
  slotIntervalMinutes: 5,
  minNoticeMinutes: 0,
  horizonDays: 730,
  availability: { weekly: { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay }, overrides: [] },
});
// Its twin takes only the burst of 200 simultaneous bookings, on slots nobody else books.
const burstEt = await new AdminService(store, Date.now).create({
  title: "Bookings benchmark (burst)",
  timezone: "UTC",
  durationMinutes: 5,
  slotIntervalMinutes: 5,
  minNoticeMinutes: 0,
  horizonDays: 730,
  availability: { weekly: { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay }, overrides: [] },
});
await store.close();
// The comparison with emails (BENCH_MAIL=1) books a twin on a database of its own, so the two
// servers it loads in turns never wait for each other's writes.
const mailDb = process.env.BENCH_MAIL === "1" ? await scratch() : null;
const mailStore = await (mailDb ?? db).open();
const mailEt = await new AdminService(mailStore, Date.now).create({
  title: "Bookings benchmark (emails)",
  timezone: "UTC",
  durationMinutes: 5,
  slotIntervalMinutes: 5,
  minNoticeMinutes: 0,
  horizonDays: 730,
  availability: { weekly: { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay }, overrides: [] },
});
await mailStore.close();

// Bookings start tomorrow; the warm-up and the measured run take different ranges of slots.
const SLOT_SECONDS = 300;
const firstSlot = DateTime.utc().startOf("day").plus({ days: 1 }).toSeconds();
const lua = (offsetSlots: number) => bookingScript(firstSlot + offsetSlots * SLOT_SECONDS, SLOT_SECONDS);

/** 200 bookings of distinct free slots sent at once, alternating between the servers: how many are refused, and why. */
async function burst(bases: string[], token: string, offsetSlots: number): Promise<{ confirmed: number; refused: Record<string, number> }> {
  const answers = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const start = (firstSlot + (offsetSlots + i) * SLOT_SECONDS) * 1000;
      const r = await fetch(`${bases[i % bases.length]}/reservations`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ start: new Date(start).toISOString(), end: new Date(start + SLOT_SECONDS * 1000).toISOString(), email: `burst${i}@example.com` }),
      });
      return (await r.json()) as { success: boolean; code?: string };
    }),
  );
  const refused: Record<string, number> = {};
  for (const a of answers) if (!a.success) refused[a.code ?? "?"] = (refused[a.code ?? "?"] ?? 0) + 1;
  return { confirmed: answers.filter((a) => a.success).length, refused };
}

// Production mode without SMTP_URL, as a server that sends no confirmation emails runs: the bare booking
// path (development would write an email to the outbox for each booking and log it; BENCH_MAIL=1 measures that too).
const production = (p: number) => ({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: `http://127.0.0.1:${p}`, SMTP_URL: "" });
const server = await startServer(db.env, port, production(port));
// On PostgreSQL a second server process on the same database: two instances behind a load balancer.
const second = engine === "postgres" ? await startServer(db.env, port + 1, production(port + 1)) : null;
try {
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${et.token}`, "content-type": "application/json" };
  const bare = await load(`${base}/health`, headers);
  // Warm-up on the far end of the two years, so the measured run (from the start) never reaches it.
  await load(`${base}/reservations`, headers, { lua: lua(180_000), warmUp: false, seconds: 2 }).catch(() => undefined);
  const bookings = await load(`${base}/reservations`, headers, { lua: lua(0), warmUp: false });
  const confirmed = (bookings.counted.ok ?? 0) / seconds;
  console.log(`POST /reservations on distinct five-minute slots, one seat each, on ${engine === "postgres" ? "PostgreSQL" : "a SQLite (WAL) file"}`);
  console.log(`${connections} connections, ${seconds} s, load from wrk (1 thread) on loopback; ratio = per second against GET /health`);
  console.log(line("GET /health (req)", bare, bare));
  console.log(line("POST /reservations (confirmed)", bookings, bare, confirmed));
  console.log(`  answers other than a confirmed booking: ${bookings.counted.other ?? 0} (slot_locked: ${bookings.counted.locked ?? 0})`);
  if (second) {
    // Both instances at once, one wrk each on its own range of slots, all of one event type.
    const bases = [base, `http://127.0.0.1:${port + 1}`];
    await Promise.all(bases.map((b, i) => load(`${b}/reservations`, headers, { lua: lua(100_000 + i * 10_000), warmUp: false, seconds: 2 }).catch(() => undefined)));
    const both = await Promise.all(bases.map((b, i) => load(`${b}/reservations`, headers, { lua: lua(40_000 + i * 30_000), warmUp: false })));
    const ok = both.reduce((sum, r) => sum + (r.counted.ok ?? 0), 0) / seconds;
    const other = both.reduce((sum, r) => sum + (r.counted.other ?? 0), 0);
    const locked = both.reduce((sum, r) => sum + (r.counted.locked ?? 0), 0);
    console.log(`Two server processes on the same database, ${connections} connections to each (two wrk processes at once):`);
    both.forEach((r, i) => console.log(line(`  instance ${i + 1} (confirmed)`, r, bare, (r.counted.ok ?? 0) / seconds)));
    console.log(`  together ${ok.toFixed(0)} confirmed bookings/s of one event type; answers other than a confirmed booking: ${other} (slot_locked: ${locked})`);
    const b200 = await burst(bases, burstEt.token, 0);
    console.log(`  200 simultaneous bookings of distinct free slots through both: ${b200.confirmed} confirmed, refused ${JSON.stringify(b200.refused)}`);
  } else {
    const b200 = await burst([base], burstEt.token, 0);
    console.log(`  200 simultaneous bookings of distinct free slots: ${b200.confirmed} confirmed, refused ${JSON.stringify(b200.refused)}`);
  }
  if (process.env.BENCH_MAIL === "1") {
    // The same bookings with emails: a development server (no SMTP_URL) writes the visitor's
    // confirmation email and the default two reminders to the outbox in each booking's transaction,
    // and its mail worker renders each email and logs it, as `npm start` does. It runs beside the
    // production server, each on a database of its own with a twin event type, and the two are
    // loaded in turns, so a machine whose speed drifts during the run (other work on it) weighs on
    // both sides alike: the ratio is of the sums. A turn with emails lasts until its mail worker has
    // sent the last of its emails (the booking's own answer does not wait for it): bookings a second
    // counts them over that whole time, so an outbox that falls behind costs the rate, and no email
    // work spills into the next bare turn.
    await second?.stop();
    // BENCH_SMTP=1: a local SMTP server (in this process) that reads each message and drops it.
    const sink = process.env.BENCH_SMTP === "1" ? await smtpSink() : null;
    const dev = sink
      ? await startServer(mailDb!.env, port + 2, { ...production(port + 2), SMTP_URL: sink.url }, true)
      : await startServer(mailDb!.env, port + 2, { SMTP_URL: "" }, true);
    try {
      const devBase = `http://127.0.0.1:${port + 2}`;
      const mailHeaders = { ...headers, authorization: `Bearer ${mailEt.token}` };
      const ROUNDS = 4;
      const turn = Math.max(1, Math.round(seconds / ROUNDS));
      await load(`${devBase}/reservations`, mailHeaders, { lua: lua(190_000), warmUp: false, seconds: 2 }).catch(() => undefined);
      const bareHeaders = { ...headers, authorization: `Bearer ${burstEt.token}` };
      await load(`${base}/reservations`, bareHeaders, { lua: lua(200_000), warmUp: false, seconds: 2 }).catch(() => undefined);
      const sums = { bare: 0, mail: 0, other: 0, mailSeconds: 0 };
      /** Waits until the dev server's emails are all sent; answers how long that took, in seconds. */
      const drain = async (): Promise<number> => {
        const began = performance.now();
        while ((await emailsPending(mailDb!.env)) > 0) await Bun.sleep(20);
        return (performance.now() - began) / 1000;
      };
      await drain();
      for (let round = 0; round < ROUNDS; round++) {
        // The bare side books the burst's twin (after the burst's 200 slots), alone on its database.
        const bareTurn = await load(`${base}/reservations`, bareHeaders, { lua: lua(1_000 + round * 25_000), warmUp: false, seconds: turn });
        const mailTurn = await load(`${devBase}/reservations`, mailHeaders, { lua: lua(100_000 + round * 15_000), warmUp: false, seconds: turn });
        const lag = await drain();
        sums.bare += bareTurn.counted.ok ?? 0;
        sums.mail += mailTurn.counted.ok ?? 0;
        sums.mailSeconds += turn + lag;
        sums.other += (bareTurn.counted.other ?? 0) + (mailTurn.counted.other ?? 0);
        console.log(`  turn ${round + 1}: bare ${((bareTurn.counted.ok ?? 0) / turn).toFixed(0)}/s, with emails and reminders ${((mailTurn.counted.ok ?? 0) / (turn + lag)).toFixed(0)}/s (last email sent ${lag.toFixed(2)} s after the load)`);
      }
      console.log(`With emails and reminders (${sink ? "a production server sending each email over SMTP" : "a development server logging each email"}), in ${ROUNDS} turns of ${turn} s against the bare booking path in turns between them:`);
      const bareRate = sums.bare / (ROUNDS * turn);
      const whileBooking = sums.mail / (ROUNDS * turn);
      const mailRate = sums.mail / sums.mailSeconds;
      console.log(`  bare ${bareRate.toFixed(0)} confirmed/s; with emails ${whileBooking.toFixed(0)} confirmed/s while booking (ratio ${(whileBooking / bareRate).toFixed(2)}), ${mailRate.toFixed(0)}/s counted until the last email was sent (ratio ${(mailRate / bareRate).toFixed(2)}); answers other than a confirmed booking: ${sums.other}`);
    } finally {
      await dev.stop();
      await sink?.stop();
    }
  }
} finally {
  await second?.stop();
  await server.stop();
  await db.cleanup();
  await mailDb?.cleanup();
}

/** An SMTP server on loopback that accepts every message, reads it and keeps nothing: where the bench's emails go with BENCH_SMTP=1. */
async function smtpSink(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const bound = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${bound}?tls=ignore`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
