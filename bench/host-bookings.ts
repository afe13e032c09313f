/**
 * Load benchmark of one host's bookings through several event types at once, against one event type.
 *
 * Seeds a fresh database (SQLite, or a PostgreSQL schema with BENCH_ENGINE=postgres) with one event
 * type of the default host, as every install had before hosts, and five event types of a second host
 * (all open around the clock on a five-minute grid, five-minute meetings, one seat, two years ahead),
 * starts `src/main.ts` on it as its own process and drives it with wrk over loopback. First the single
 * event type: each request books the next free slot. Then the five event types of the one host at once:
 * each request books the next slot through the next event type's token in turn, so every booking is
 * a claim on the same host's time (its lock and its bookings of the other four event types read in
 * the transaction) on a slot no other request takes. Counts the answers with `success: true` and
 * prints confirmed bookings per second of each and their ratio (five event types / one; goal: at
 * least 0.8). Run: `npm run bench:host-bookings` (needs `wrk`). Options: BENCH_ENGINE (sqlite or
 * postgres), BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PORT, BENCH_PROFILE, BENCH_DEBUG.
 */
import { DateTime } from "luxon";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { HostAdmin } from "../packages/server/src/modules/hosts/service.ts";
import { bookingScript, connections, engine, line, load, scratch, seconds, startServer } from "./lib.ts";

const port = Number(process.env.BENCH_PORT ?? 3928);
const db = await scratch();

const store = await db.open();
const allDay = [{ start: "00:00", end: "24:00" }];
const settings = {
  timezone: "UTC",
  durationMinutes: 5,
  slotIntervalMinutes: 5,
  minNoticeMinutes: 0,
  horizonDays: 730,
  availability: {
    weekly: { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay },
    overrides: [],
  },
};
const admin = new EventTypeAdmin(store, Date.now);
const single = await admin.create({ title: "One event type", ...settings });
const host = await new HostAdmin(store, Date.now).create({ name: "Busy host", email: "host@example.com" });
const five = [];
for (let i = 1; i <= 5; i++) five.push(await admin.create({ title: `Event type ${i} of one host`, ...settings, hosts: [{ hostId: host.id }] }));
await store.close();

const SLOT_SECONDS = 300;
const firstSlot = DateTime.utc().startOf("day").plus({ days: 1 }).toSeconds();
/** Each request books the next slot from `offsetSlots`, through the tokens in turn. */
const lua = (offsetSlots: number, tokens: string[]) => bookingScript(firstSlot + offsetSlots * SLOT_SECONDS, SLOT_SECONDS, tokens);

// Production mode without SMTP_URL: the bare booking path, as bench/bookings.ts measures it.
const server = await startServer(db.env, port, { BOOKING_ENV: "production", BOOKING_PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: "" });
try {
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/reservations`;
  const fiveTokens = five.map((et) => et.token);
  // Warm-ups on the far end of the two years, so the measured runs (from the start) never reach them.
  await load(url, {}, { lua: lua(180_000, [single.token]), warmUp: false, seconds: 2 }).catch(() => undefined);
  await load(url, {}, { lua: lua(180_000, fiveTokens), warmUp: false, seconds: 2 }).catch(() => undefined);
  const one = await load(url, {}, { lua: lua(0, [single.token]), warmUp: false });
  const many = await load(url, {}, { lua: lua(0, fiveTokens), warmUp: false });
  const oneRate = (one.counted.ok ?? 0) / seconds;
  const manyRate = (many.counted.ok ?? 0) / seconds;
  console.log(
    `POST /reservations on distinct five-minute slots on ${engine === "postgres" ? "PostgreSQL" : "a SQLite (WAL) file"}, ${connections} connections, ${seconds} s, wrk (1 thread) on loopback`,
  );
  console.log(line("one event type (confirmed)", one, one, oneRate).replace(/ratio [\d.]+/, "ratio 1.00"));
  console.log(
    `  ${"5 event types, 1 host (confirmed)".padEnd(38)} ${manyRate.toFixed(0).padStart(7)} /s   ratio ${(manyRate / oneRate).toFixed(2)}   p50 ${many.p50.toFixed(2)} ms   p99 ${many.p99.toFixed(2)} ms`,
  );
  console.log(
    `  answers other than a confirmed booking: one ${one.counted.other ?? 0}, five ${many.counted.other ?? 0} (slot_locked: ${one.counted.locked ?? 0}, ${many.counted.locked ?? 0})`,
  );
  console.log("  ratio = confirmed bookings/s of the five event types of one host / of one event type (goal: at least 0.8)");
} finally {
  await server.stop();
  await db.cleanup();
}
