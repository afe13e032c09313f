/**
 * What time off costs a slot page. Three hosts with the same hours, each with 500 confirmed bookings
 * (of another event type of theirs, in the 31 days asked for): one without time off, one away on two
 * whole days and three afternoons of those days, and one away on the same days with a colleague
 * standing in (the colleague with 500 bookings of their own). Each host's personal event type is
 * listed in process through `app.handle`: `GET /time-slots` for 31 days, cold (a fresh app per
 * request: empty caches, everything read from the store) and cached (the same app asked again), each
 * timed until the answer's bytes are read. The ratio is the page without time off over the other:
 * 1 means time off costs nothing. Measured interleaved, median of BENCH_RUNS runs (default 15).
 * Engine: SQLite, or PostgreSQL with BENCH_ENGINE=postgres. Run: `npm run bench:time-off`.
 */
import { DateTime } from "luxon";
import { createApp } from "../packages/server/src/app.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { HostAdmin } from "../packages/server/src/modules/hosts/service.ts";
import { TimeOffAdmin } from "../packages/server/src/modules/time-off/service.ts";
import { MemoryRateLimiter } from "../packages/server/src/store/rate-limiter.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";
import { engine, scratch } from "./lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const BOOKINGS = 500;
const DAYS = 31;
const zone = "Europe/Prague";
const { open, cleanup } = await scratch();
const store = await open();

/** A pseudo-random sequence from a seed, so runs compare. */
function randoms(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

try {
  const everyDay = [{ start: "08:00", end: "20:00" }];
  const settings = {
    timezone: zone,
    durationMinutes: 30,
    slotIntervalMinutes: 15,
    minNoticeMinutes: 0,
    horizonDays: 60,
    availability: {
      weekly: Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, everyDay])),
      overrides: [],
    },
  };
  const admin = new EventTypeAdmin(store, Date.now);
  const hostAdmin = new HostAdmin(store, Date.now);
  const timeOff = new TimeOffAdmin(store, Date.now);
  const first = DateTime.now().setZone(zone).startOf("day").plus({ days: 1 });
  const hosts: number[] = [];
  for (const [h, name] of ["Plain", "Away", "Away with colleague", "Colleague"].entries()) {
    const host = await hostAdmin.create({ name, email: `host${h}@example.com`, timezone: zone });
    hosts.push(host.id);
    const other = await admin.create({ title: `${name}'s other call`, ...settings, hosts: [{ hostId: host.id }] });
    const random = randoms(1000 + h);
    const records: ReservationRecord[] = [];
    for (let i = 0; i < BOOKINGS; i++) {
      const start = first
        .plus({ days: Math.floor(random() * DAYS) })
        .set({ hour: 8 })
        .plus({ minutes: Math.floor(random() * 24) * 30 });
      records.push({
        uuid: crypto.randomUUID(),
        eventTypeId: other.id,
        hostIds: [host.id],
        status: "confirmed",
        startMs: start.toMillis(),
        endMs: start.plus({ minutes: 30 }).toMillis(),
        heldUntilMs: null,
        email: `v${h}-${i}@example.com`,
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
  }
  const [plain, away, covered, colleague] = hosts as [number, number, number, number];
  for (const [hostId, colleagueHostId] of [
    [away, null],
    [covered, colleague],
  ] as const) {
    for (const days of [3, 17]) {
      const date = first.plus({ days }).toISODate()!;
      await timeOff.create(hostId, { startDate: date, endDate: date, note: "Away", colleagueHostId });
    }
    for (const days of [5, 11, 23]) {
      const day = first.plus({ days });
      await timeOff.create(hostId, { start: day.set({ hour: 13 }).toISO()!, end: day.set({ hour: 17 }).toISO()!, colleagueHostId });
    }
  }
  const pages = {
    "no time off": await admin.create({ title: "Plain", ...settings, hosts: [{ hostId: plain }] }),
    "time off": await admin.create({ title: "Away", ...settings, hosts: [{ hostId: away }] }),
    "time off, colleague standing in": await admin.create({ title: "Covered", ...settings, hosts: [{ hostId: covered }] }),
  };

  const config = { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } };
  const path = `/time-slots?from=${first.toISODate()}&until=${first.plus({ days: DAYS - 1 }).toISODate()}`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  async function request(app: ReturnType<typeof createApp>, token: string): Promise<{ ms: number; slots: number }> {
    const t = performance.now();
    const response = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
    const bytes = await response.arrayBuffer();
    const ms = performance.now() - t;
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { data: unknown[] };
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
    return { ms, slots: body.data.length };
  }
  const figures = Object.fromEntries(Object.keys(pages).map((k) => [k, { cold: [] as number[], cached: [] as number[], slots: 0 }]));
  for (let i = 0; i < runs + 2; i++) {
    for (const [key, et] of Object.entries(pages)) {
      const app = createApp({ store, config, rateLimiter: new MemoryRateLimiter(1_000_000_000, 60), log: () => {} });
      const cold = await request(app, et.token);
      const cached = await request(app, et.token);
      // The first two rounds warm the JIT and luxon's formatters.
      if (i < 2) continue;
      figures[key]!.cold.push(cold.ms);
      figures[key]!.cached.push(cached.ms);
      figures[key]!.slots = cold.slots;
    }
  }
  const base = { cold: median(figures["no time off"]!.cold), cached: median(figures["no time off"]!.cached) };
  console.log(`Engine: ${engine}; three hosts, each with ${BOOKINGS} bookings in the ${DAYS} days; GET /time-slots for ${DAYS} days; median of ${runs} runs`);
  console.log("| Page | Slots | Cold | Cold ratio | Cached | Cached ratio |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const [key, f] of Object.entries(figures)) {
    const cold = median(f.cold);
    const cached = median(f.cached);
    console.log(
      `| ${key} | ${f.slots} | ${cold.toFixed(2)} ms | ${(base.cold / cold).toFixed(2)} | ${cached.toFixed(3)} ms | ${(base.cached / cached).toFixed(2)} |`,
    );
  }
  console.log("  ratio = the page without time off / this page (1: time off costs nothing)");
} finally {
  await store.close();
  await cleanup();
}
