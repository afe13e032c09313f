/**
 * What a team costs a slot page. Ten hosts, each with 500 confirmed bookings (of a personal event type
 * of theirs, in the 31 days asked for) and an iCalendar feed of 2 000 events (30-60 minute meetings at
 * random times from a year back to a year ahead, synced through the real sync: fetch, ical.js
 * expansion, store). A round-robin event type of all ten is listed against a personal event type of
 * the first host alone (the same hours; its slot list sees that host's 500 bookings and calendar), in
 * process through `app.handle`: `GET /time-slots` for 31 days, cold (a fresh app per request: empty
 * slot cache, everything read from the store) and cached (the same app asked again), each timed until
 * the answer's bytes are read (parsing the JSON is the client's work and is left out). The ratio is the
 * single host's time over the team's: 1 means the team's page costs no more, 0.5 twice as much.
 * Single and team are measured interleaved, median of BENCH_RUNS runs (default 15).
 * Engine: SQLite, or PostgreSQL with BENCH_ENGINE=postgres. Run: `npm run bench:team`.
 */
import { DateTime } from "luxon";
import { createApp } from "../packages/server/src/app.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { HostAdmin } from "../packages/server/src/modules/hosts/service.ts";
import { CalendarSync } from "../packages/server/src/modules/calendars/sync.ts";
import { busyFromICalendarSteps } from "../packages/server/src/modules/calendars/expand.ts";
import { teamSlots } from "../packages/server/src/domain/hosts.ts";
import { MemoryRateLimiter } from "../packages/server/src/store/rate-limiter.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";
import { engine, scratch } from "./lib.ts";

const runs = Number(process.env.BENCH_RUNS ?? 15);
const HOSTS = 10;
const BOOKINGS = 500;
const EVENTS = 2_000;
const DAYS = 31;
const zone = "Europe/Prague";
const { open, cleanup } = await scratch();
const store = await open();

/** A pseudo-random sequence from a seed, so runs compare. */
function randoms(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** One feed of `EVENTS` meetings at random times from a year back to a year ahead. */
function feed(seed: number): string {
  const random = randoms(seed);
  const stamp = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-calendar bench//EN"];
  const from = Date.now() - 365 * 86_400_000;
  for (let i = 0; i < EVENTS; i++) {
    const start = from + Math.floor(random() * 730 * 96) * 15 * 60_000;
    const end = start + (2 + Math.floor(random() * 3)) * 15 * 60_000;
    lines.push(
      "BEGIN:VEVENT",
      `UID:team-${seed}-${i}`,
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

const feeds = Array.from({ length: HOSTS }, (_, i) => feed(i + 1));
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (request) => new Response(feeds[Number(new URL(request.url).pathname.slice(1))]!, { headers: { "content-type": "text/calendar" } }),
});

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
  const sync = new CalendarSync(store, Date.now, { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps, () => {});
  const first = DateTime.now().setZone(zone).startOf("day").plus({ days: 1 });
  const hostIds: number[] = [];
  const personal: { id: number; token: string }[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const host =
      h === 0 ? await store.hosts.defaultHost() : await hostAdmin.create({ name: `Host ${h + 1}`, email: `host${h + 1}@example.com`, timezone: zone });
    hostIds.push(host.id);
    const own = await admin.create({ title: `Host ${h + 1} alone`, ...settings, hosts: [{ hostId: host.id }] });
    personal.push(own);
    // 500 bookings of the host's own event type at random 30-minute starts of its hours in the 31 days (some overlap, as double bookings imported would).
    const random = randoms(1000 + h);
    const records: ReservationRecord[] = [];
    for (let i = 0; i < BOOKINGS; i++) {
      const start = first
        .plus({ days: Math.floor(random() * DAYS) })
        .set({ hour: 8 })
        .plus({ minutes: Math.floor(random() * 24) * 30 });
      records.push({
        uuid: crypto.randomUUID(),
        eventTypeId: own.id,
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
    const source = await store.busy.add(
      { hostId: host.id, kind: "ical", url: `http://127.0.0.1:${server.port}/${h}`, username: null, secret: null, calendars: [], freshnessMinutes: null },
      Date.now(),
    );
    const outcome = await sync.syncSource(source.id);
    if (!outcome?.ok) throw new Error(`sync failed: ${outcome?.error}`);
  }
  // The single host's page: a second personal event type of the first host, so its 500 bookings are of another event type, as they are for the team.
  const single = await admin.create({ title: "Host 1, another event type", ...settings, hosts: [{ hostId: hostIds[0]! }] });
  const team = await admin.create({ title: "Team of ten", ...settings, assignment: "round-robin", hosts: hostIds.map((hostId) => ({ hostId })) });
  const intervals = (await store.busy.list(hostIds[0]!)).reduce((n, s) => n + s.intervalCount, 0);

  const config = { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } };
  const path = `/time-slots?from=${first.toISODate()}&until=${first.plus({ days: DAYS - 1 }).toISODate()}`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  async function request(app: ReturnType<typeof createApp>, token: string): Promise<{ ms: number; slots: number }> {
    const t = performance.now();
    const response = await app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
    const bytes = await response.arrayBuffer();
    const ms = performance.now() - t;
    // The answer is parsed after the clock stops: parsing it is the client's work, and a larger answer
    // (the team lists more free slots) would otherwise weigh on the server's figure.
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { data: unknown[] };
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
    return { ms, slots: body.data.length };
  }
  const figures = { single: { cold: [] as number[], cached: [] as number[], slots: 0 }, team: { cold: [] as number[], cached: [] as number[], slots: 0 } };
  for (let i = 0; i < runs + 2; i++) {
    for (const [key, et] of [
      ["single", single],
      ["team", team],
    ] as const) {
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
  // Where a cold team page's time goes: the store's reads (seats and the hosts' time outside the event
  // type) and the slot computation, each timed alone.
  const parts = { single: { read: [] as number[], compute: [] as number[] }, team: { read: [] as number[], compute: [] as number[] } };
  const fromMs = first.toMillis();
  const untilMs = first.plus({ days: DAYS }).toMillis();
  for (let i = 0; i < runs; i++) {
    for (const [key, et] of [
      ["single", single],
      ["team", team],
    ] as const) {
      const record = (await store.eventTypes.byId(et.id))!;
      const ids = record.hosts.map((h) => h.hostId);
      const t0 = performance.now();
      const [holders, hostBusy] = await Promise.all([
        store.reservations.seatHolders(record.id, fromMs, untilMs + 3_600_000, Date.now()),
        store.hosts.busy(ids, record.id, fromMs, untilMs + 3_600_000, Date.now()),
      ]);
      const t1 = performance.now();
      const busyOf = new Map<number, { startMs: number; endMs: number }[]>(ids.map((id) => [id, []]));
      for (const b of hostBusy) busyOf.get(b.hostId)!.push(b);
      const members = record.hosts.map((h) => ({ hostId: h.hostId, priority: h.priority, schedule: h.schedule }));
      teamSlots(record.settings, record.assignment, members, holders, (id) => busyOf.get(id)!, fromMs, untilMs, Date.now());
      const t2 = performance.now();
      parts[key].read.push(t1 - t0);
      parts[key].compute.push(t2 - t1);
    }
  }
  const s = { cold: median(figures.single.cold), cached: median(figures.single.cached) };
  const t = { cold: median(figures.team.cold), cached: median(figures.team.cached) };
  console.log(
    `Engine: ${engine}; ${HOSTS} hosts, each with ${BOOKINGS} bookings in the ${DAYS} days and a feed of ${EVENTS} events (${intervals} merged busy intervals of the first host kept in the horizon); GET /time-slots for ${DAYS} days; median of ${runs} runs`,
  );
  console.log("| Page | Slots | Cold | Cold ratio | Cached | Cached ratio |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(`| one host | ${figures.single.slots} | ${s.cold.toFixed(2)} ms | 1.00 | ${s.cached.toFixed(3)} ms | 1.00 |`);
  console.log(
    `| round robin of ${HOSTS} hosts | ${figures.team.slots} | ${t.cold.toFixed(2)} ms | ${(s.cold / t.cold).toFixed(2)} | ${t.cached.toFixed(3)} ms | ${(s.cached / t.cached).toFixed(2)} |`,
  );
  console.log("  ratio = the one host's time / the team's (goal: at least 0.5)");
  const both = (xs: number[]) => `${median(xs).toFixed(2)} (min ${Math.min(...xs).toFixed(2)})`;
  console.log(
    `  cold parts, median (min) ms, one host / team: store reads ${both(parts.single.read)} / ${both(parts.team.read)}; slot computation ${both(parts.single.compute)} / ${both(parts.team.compute)}`,
  );
  console.log(
    `  whole cold page, min ms: one host ${Math.min(...figures.single.cold).toFixed(2)}, team ${Math.min(...figures.team.cold).toFixed(2)} (ratio ${(Math.min(...figures.single.cold) / Math.min(...figures.team.cold)).toFixed(2)})`,
  );
} finally {
  server.stop(true);
  await store.close();
  await cleanup();
}
