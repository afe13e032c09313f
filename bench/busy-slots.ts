/**
 * What the organizer's calendars cost a slot page. One event type reads 3 iCalendar sources of 2 000
 * events each (30-60 minute meetings at random times from a year back to a year ahead, as a calendar
 * in use holds them, so about a twelfth falls into the 60-day horizon; served by a local HTTP
 * server and synced through the real sync: fetch, ical.js expansion, store); an identical event type
 * reads none. Measures, in process through `app.handle`, the wall time of `GET /time-slots` for the
 * element's month: cold (a fresh app per request, so its slot cache is empty and the busy intervals
 * are read from the store) and cached (the same app asked again), each as a ratio to the plain
 * event type's page. A third event type reads 3 calendars of 2 000 events that all lie outside its
 * opening hours: the same slots as the plain page, so its ratio is what reading and checking the
 * intervals costs alone. Also times the first (full) sync and an unchanged one (ETag, 304).
 * Median of BENCH_RUNS runs (default 15). Engine: SQLite, or PostgreSQL with BENCH_ENGINE=postgres.
 * Run: `npm run bench:busy`.
 */
import { DateTime } from "luxon";
import { createApp } from "../packages/server/src/app.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { CalendarSync } from "../packages/server/src/modules/calendars/sync.ts";
import { busyFromICalendarSteps } from "../packages/server/src/modules/calendars/expand.ts";
import { MemoryRateLimiter } from "../packages/server/src/store/rate-limiter.ts";
import { engine, scratch } from "./lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const SOURCES = 3;
const EVENTS = 2_000;
const zone = "Europe/Prague";
const { open, cleanup } = await scratch();
const store = await open();

/** One feed of `EVENTS` meetings at random times from a year back to a year ahead (a fixed seed per feed, so runs compare). */
function feed(seed: number, night = false): string {
  let x = seed;
  const random = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const stamp = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-calendar bench//EN"];
  const from = Date.now() - 365 * 86_400_000;
  for (let i = 0; i < EVENTS; i++) {
    // At night (20:00-04:00Z), the events block nothing of the 08:00-20:00 Prague hours: what reading and checking them costs alone.
    const start = night
      ? Math.floor(from / 86_400_000) * 86_400_000 + Math.floor(random() * 730) * 86_400_000 + (20 * 4 + Math.floor(random() * 32)) * 15 * 60_000
      : from + Math.floor(random() * 730 * 96) * 15 * 60_000;
    const end = start + (2 + Math.floor(random() * 3)) * 15 * 60_000;
    lines.push(
      "BEGIN:VEVENT",
      `UID:bench-${seed}-${i}`,
      `DTSTAMP:${stamp(from)}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(end)}`,
      `SUMMARY:Meeting ${i}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR", "");
  return lines.join("\r\n");
}

const feeds = [1, 2, 3, 4, 5, 6].map((seed) => ({ body: feed(seed, seed > 3), etag: `"bench-${seed}"` }));
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request) {
    const f = feeds[Number(new URL(request.url).pathname.slice(1))]!;
    if (request.headers.get("if-none-match") === f.etag) return new Response(null, { status: 304, headers: { etag: f.etag } });
    return new Response(f.body, { headers: { "content-type": "text/calendar", etag: f.etag } });
  },
});

try {
  const settings = {
    timezone: zone,
    durationMinutes: 30,
    slotIntervalMinutes: 15,
    minNoticeMinutes: 0,
    horizonDays: 60,
    availability: {
      weekly: Object.fromEntries(
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start: "08:00", end: "20:00" }]]),
      ),
      overrides: [],
    },
  };
  const admin = new EventTypeAdmin(store, Date.now);
  const plain = await admin.create({ title: "Plain", ...settings });
  const busy = await admin.create({ title: "With 3 calendars", ...settings });
  const night = await admin.create({ title: "With 3 calendars busy only outside its hours", ...settings });
  const sync = new CalendarSync(store, Date.now, { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps, () => {});
  const ids: number[] = [];
  for (let i = 0; i < 2 * SOURCES; i++) {
    const eventTypeId = i < SOURCES ? busy.id : night.id;
    const source = await store.busy.add(
      {
        hostId: await hostOf(store, eventTypeId),
        kind: "ical",
        url: `http://127.0.0.1:${server.port}/${i}`,
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      Date.now(),
    );
    ids.push(source.id);
  }
  const timed = async (work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    return performance.now() - t;
  };
  const fullSync = await timed(async () => {
    for (const id of ids.slice(0, SOURCES)) {
      const outcome = await sync.syncSource(id);
      if (!outcome?.ok) throw new Error(`sync failed: ${outcome?.error}`);
    }
  });
  const unchangedSync = await timed(async () => {
    for (const id of ids.slice(0, SOURCES)) await sync.syncSource(id);
  });
  for (const id of ids.slice(SOURCES)) if (!(await sync.syncSource(id))?.ok) throw new Error("sync failed");
  const intervals = (await store.busy.list(busy.id)).reduce((n, s) => n + s.intervalCount, 0);
  const nightIntervals = (await store.busy.list(night.id)).reduce((n, s) => n + s.intervalCount, 0);

  const config = { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } };
  const first = DateTime.now().setZone(zone).startOf("day").plus({ days: 1 });
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

  /** Cold: a fresh app per run; cached: the same app asked again. Plain and busy interleaved, so drift hits both. */
  const figures = {
    plain: { cold: [] as number[], cached: [] as number[], slots: 0 },
    busy: { cold: [] as number[], cached: [] as number[], slots: 0 },
    night: { cold: [] as number[], cached: [] as number[], slots: 0 },
  };
  for (let i = 0; i < runs + 2; i++) {
    for (const [key, et] of [
      ["plain", plain],
      ["busy", busy],
      ["night", night],
    ] as const) {
      // The limit out of the way on both engines (PostgreSQL's store would count in the database).
      const app = createApp({ store, config, rateLimiter: new MemoryRateLimiter(1_000_000_000, 60), log: () => {} });
      const cold = await request(app, et.token);
      const cached = await request(app, et.token);
      // The first two rounds warm the JIT and luxon's formatters.
      if (i < 2) continue;
      figures[key].cold.push(cold.ms);
      figures[key].cached.push(cached.ms);
      figures[key].slots = cold.slots;
    }
  }
  const p = { cold: median(figures.plain.cold), cached: median(figures.plain.cached) };
  const b = { cold: median(figures.busy.cold), cached: median(figures.busy.cached) };
  const n = { cold: median(figures.night.cold), cached: median(figures.night.cached) };
  console.log(
    `Engine: ${engine}; ${SOURCES} iCalendar sources of ${EVENTS} events each (${intervals} merged busy intervals kept in the horizon; ${nightIntervals} for the night calendars); GET /time-slots for 31 days; median of ${runs} runs`,
  );
  console.log(`Sync of the 3 sources: first ${fullSync.toFixed(0)} ms (download, expansion, store), unchanged ${unchangedSync.toFixed(1)} ms (304)`);
  console.log("| Page | Slots | Cold | Cold ratio | Cached | Cached ratio |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(`| plain event type | ${figures.plain.slots} | ${p.cold.toFixed(2)} ms | 1.00 | ${p.cached.toFixed(3)} ms | 1.00 |`);
  console.log(
    `| with 3 x ${EVENTS} busy events | ${figures.busy.slots} | ${b.cold.toFixed(2)} ms | ${(b.cold / p.cold).toFixed(2)} | ${b.cached.toFixed(3)} ms | ${(b.cached / p.cached).toFixed(2)} |`,
  );
  console.log(
    `| with 3 x ${EVENTS} events outside its hours | ${figures.night.slots} | ${n.cold.toFixed(2)} ms | ${(n.cold / p.cold).toFixed(2)} | ${n.cached.toFixed(3)} ms | ${(n.cached / p.cached).toFixed(2)} |`,
  );
} finally {
  server.stop(true);
  await store.close();
  await cleanup();
}

/** The first host of an event type, whose calendars block it. */
async function hostOf(store: { eventTypes: { byId(id: number): Promise<{ hosts: { hostId: number }[] } | null> } }, eventTypeId: number): Promise<number> {
  return (await store.eventTypes.byId(eventTypeId))!.hosts[0]!.hostId;
}
