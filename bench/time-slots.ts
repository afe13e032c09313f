/**
 * Load benchmark of `GET /time-slots` against the bare `GET /health` route of the same server.
 *
 * Seeds a fresh database (SQLite, or a PostgreSQL schema with BENCH_ENGINE=postgres) with one event
 * type (open 08:00-20:00 every day, 15-minute grid) and 500 confirmed reservations in the next 31 days, starts `src/main.ts` on it as its own process, and
 * drives both routes in turn with wrk over loopback (one thread, 50 connections; wrk is a C load
 * generator, so the client is not the bottleneck the way a JavaScript one would be on two cores).
 * Runs the slot route twice: with the Accept-Encoding Chrome sends (the server answers zstd) and with
 * gzip only. Prints requests/s of each, their ratio to the bare route and p50/p99 latency.
 * Run: `npm run bench` (needs `wrk`, e.g. `apt-get install -y wrk`). Options: BENCH_ENGINE (sqlite or
 * postgres), BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PORT, BENCH_DAYS, BENCH_PROFILE
 * (write a CPU profile of the server into that folder), BENCH_DEBUG (print wrk's reports).
 */
import { DateTime } from "luxon";
import { connections, engine, line, load, scratch, seconds, startServer } from "./lib.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";

const port = Number(process.env.BENCH_PORT ?? 3917);
const zone = "Europe/Prague";
const days = Number(process.env.BENCH_DAYS ?? 31);
const db = await scratch();

async function seed(): Promise<{ token: string; from: string; until: string; reservations: number }> {
  const store = await db.open();
  const everyDay = [{ start: "08:00", end: "20:00" }];
  const et = await new EventTypeAdmin(store, Date.now).create({
    title: "Benchmark",
    timezone: zone,
    durationMinutes: 15,
    slotIntervalMinutes: 15,
    minNoticeMinutes: 0,
    horizonDays: 90,
    availability: {
      weekly: { monday: everyDay, tuesday: everyDay, wednesday: everyDay, thursday: everyDay, friday: everyDay, saturday: everyDay, sunday: everyDay },
      overrides: [],
    },
  });
  const first = DateTime.now().setZone(zone).startOf("day").plus({ days: 1 });
  // Every third grid slot of each day, until 500: deterministic, spread over the whole range.
  const records: ReservationRecord[] = [];
  for (let i = 0; records.length < 500; i++) {
    const day = first.plus({ days: Math.floor(i / 16) });
    const start = day.set({ hour: 8 }).plus({ minutes: (i % 16) * 45 });
    records.push({
      uuid: crypto.randomUUID(),
      eventTypeId: et.id,
      hostIds: [1],
      status: "confirmed",
      startMs: start.toMillis(),
      endMs: start.plus({ minutes: 15 }).toMillis(),
      heldUntilMs: null,
      email: `v${i}@example.com`,
      firstname: "Bench",
      lastname: String(i),
      phone: "",
      timezone: zone,
      location: { type: "video-meet", value: null },
      guests: [],
      customFields: [],
      meetLink: null,
      sequence: 0,
      payment: null,
      confirmedAtMs: Date.now(),
      cancelledAtMs: null,
      createdAtMs: Date.now(),
      updatedAtMs: Date.now(),
    });
  }
  await store.reservations.insertMany(records);
  await store.close();
  return { token: et.token, from: first.toISODate()!, until: first.plus({ days: days - 1 }).toISODate()!, reservations: records.length };
}

const setup = await seed();
const server = await startServer(db.env, port);
try {
  // What Chrome sends; the server answers the slot list with zstd to it.
  const headers = { authorization: `Bearer ${setup.token}`, "accept-encoding": "gzip, deflate, br, zstd" };
  const slotsPath = `/time-slots?from=${setup.from}&until=${setup.until}`;
  const probe = await fetch(`http://127.0.0.1:${port}${slotsPath}`, { headers: { authorization: headers.authorization } });
  const probeBody = (await probe.json()) as { data?: unknown[] };
  if (!probe.ok || !probeBody.data) throw new Error(`time-slots answered ${probe.status}: ${JSON.stringify(probeBody)}`);
  const slotCount = probeBody.data.length;

  const base = `http://127.0.0.1:${port}`;
  const bare = await load(`${base}/health`, headers);
  const slots = await load(`${base}${slotsPath}`, headers);
  const gzipOnly = await load(`${base}${slotsPath}`, { ...headers, "accept-encoding": "gzip" });
  console.log(
    `[${engine}] GET /time-slots: ${days} days (${setup.from}..${setup.until}), 15-minute grid, ${setup.reservations} reservations, ${slotCount} free slots`,
  );
  console.log(`${connections} connections, ${seconds} s per run after a 2 s warm-up, load from wrk (1 thread) on loopback; ratio = req/s against GET /health`);
  console.log(line("GET /health (req)", bare, bare));
  console.log(line("GET /time-slots, browser coding (req)", slots, bare));
  console.log(line("GET /time-slots, gzip only (req)", gzipOnly, bare));
  console.log(`  targets: ratio >= 0.5 and p99 < 10 ms at ${connections} connections`);
} finally {
  await server.stop();
  await db.cleanup();
}
