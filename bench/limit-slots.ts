/**
 * What booking limits cost a slot page. Two event types open 08:00-20:00 Prague every day on a
 * 15-minute grid, each with a host of its own and 500 confirmed bookings in the next 31 days (16 a
 * day, every third grid slot, as `bench/time-slots.ts` seeds them): a plain one, and one with every
 * limit set on the event type and on its host (bookings per day, week and month, minutes per day
 * and week) high enough that no day is full, so both pages list the same slots and the difference
 * is what reading and counting the limited periods costs. Measures, in process through
 * `app.handle`, the wall time of `GET /time-slots` for 31 days: cold (a fresh app per request, so
 * its slot cache is empty and the bookings are read from the store) and cached (the same app asked
 * five times more, their median; a full garbage collection before each measure, so neither pays
 * for the other's garbage), the two event types interleaved so drift hits both; reports each as a speed ratio to the
 * plain page (plain time / limited time, 1.00 = as fast). Median of BENCH_RUNS runs (default 21).
 * Engine: SQLite, or PostgreSQL with BENCH_ENGINE=postgres. Run: `npm run bench:limits`.
 */
import { DateTime } from "luxon";
import { createApp } from "../packages/server/src/app.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { MemoryRateLimiter } from "../packages/server/src/store/rate-limiter.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";
import { engine, scratch } from "./lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 21);
const BOOKINGS = 500;
const zone = "Europe/Prague";
const { open, cleanup } = await scratch();
const store = await open();

/** `BOOKINGS` confirmed 15-minute bookings of the event type from tomorrow, every third grid slot of each day. */
function bookings(eventTypeId: number, hostId: number, first: DateTime): ReservationRecord[] {
  const records: ReservationRecord[] = [];
  for (let i = 0; records.length < BOOKINGS; i++) {
    const start = first
      .plus({ days: Math.floor(i / 16) })
      .set({ hour: 8 })
      .plus({ minutes: (i % 16) * 45 });
    records.push({
      uuid: crypto.randomUUID(),
      eventTypeId,
      hostIds: [hostId],
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
  return records;
}

try {
  const everyDay = [{ start: "08:00", end: "20:00" }];
  const settings = {
    timezone: zone,
    durationMinutes: 15,
    slotIntervalMinutes: 15,
    minNoticeMinutes: 0,
    horizonDays: 90,
    availability: {
      weekly: { monday: everyDay, tuesday: everyDay, wednesday: everyDay, thursday: everyDay, friday: everyDay, saturday: everyDay, sunday: everyDay },
      overrides: [],
    },
  };
  const host = async (name: string, limits?: Record<string, number>) =>
    (
      await store.hosts.create(
        { name, email: null, timezone: zone, avatarUrl: null, feedToken: `bcf_${crypto.randomUUID().replaceAll("-", "")}`, ...(limits ? { limits } : {}) },
        Date.now(),
      )
    ).id;
  const plainHost = await host("Plain");
  // 16 bookings a day, 112 a week, about 490 a month, 240 minutes a day: every limit above them.
  const limitedHost = await host("Limited", { bookingsPerDay: 40, bookingsPerWeek: 200, bookingsPerMonth: 800, minutesPerDay: 720, minutesPerWeek: 4000 });
  const admin = new EventTypeAdmin(store, Date.now);
  const plain = await admin.create({ title: "Plain", ...settings, hosts: [{ hostId: plainHost }] });
  const limited = await admin.create({
    title: "Limited",
    ...settings,
    hosts: [{ hostId: limitedHost }],
    limits: { bookingsPerDay: 30, bookingsPerWeek: 150, bookingsPerMonth: 600, minutesPerDay: 600, minutesPerWeek: 3000 },
  });
  const first = DateTime.now().setZone(zone).startOf("day").plus({ days: 1 });
  await store.reservations.insertMany([...bookings(plain.id, plainHost, first), ...bookings(limited.id, limitedHost, first)]);

  const config = { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } };
  const path = `/time-slots?from=${first.toISODate()}&until=${first.plus({ days: 30 }).toISODate()}`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  async function request(app: ReturnType<typeof createApp>, token: string): Promise<{ ms: number; slots: number }> {
    const t = performance.now();
    const response = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
    const body = (await response.json()) as { data: unknown[] };
    const ms = performance.now() - t;
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return { ms, slots: body.data.length };
  }

  const figures = {
    plain: { cold: [] as number[], cached: [] as number[], slots: 0 },
    limited: { cold: [] as number[], cached: [] as number[], slots: 0 },
  };
  for (let i = 0; i < runs + 2; i++) {
    // Which goes first alternates, so neither always meets a warmer cache of the database.
    const order = i % 2 === 0 ? (["plain", "limited"] as const) : (["limited", "plain"] as const);
    for (const key of order) {
      const et = key === "plain" ? plain : limited;
      const app = createApp({ store, config, rateLimiter: new MemoryRateLimiter(1_000_000_000, 60), log: () => {} });
      // A full collection before each measure, so neither pays for the other's garbage (a cold page with limits leaves more).
      Bun.gc(true);
      const cold = await request(app, et.token);
      Bun.gc(true);
      // Cached: the median of five asks after the cold one.
      const asks = [];
      for (let k = 0; k < 5; k++) asks.push((await request(app, et.token)).ms);
      const cached = { ms: median(asks) };
      // The first two rounds warm the JIT and luxon's formatters.
      if (i < 2) continue;
      figures[key].cold.push(cold.ms);
      figures[key].cached.push(cached.ms);
      figures[key].slots = cold.slots;
    }
  }
  if (figures.plain.slots !== figures.limited.slots) throw new Error(`the pages differ: ${figures.plain.slots} and ${figures.limited.slots} slots`);
  const p = { cold: median(figures.plain.cold), cached: median(figures.plain.cached) };
  const l = { cold: median(figures.limited.cold), cached: median(figures.limited.cached) };
  console.log(
    `Engine: ${engine}; ${BOOKINGS} bookings per event type; GET /time-slots for 31 days; median of ${runs} runs; ratio = plain time / this time (1.00 = as fast)`,
  );
  console.log("| Page | Slots | Cold | Cold ratio | Cached | Cached ratio |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(`| no limits | ${figures.plain.slots} | ${p.cold.toFixed(2)} ms | 1.00 | ${p.cached.toFixed(3)} ms | 1.00 |`);
  console.log(
    `| every limit, on the event type and its host | ${figures.limited.slots} | ${l.cold.toFixed(2)} ms | ${(p.cold / l.cold).toFixed(2)} | ${l.cached.toFixed(3)} ms | ${(p.cached / l.cached).toFixed(2)} |`,
  );
} finally {
  await store.close();
  await cleanup();
}
