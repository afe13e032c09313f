/**
 * Cost of the worst `GET /time-slots` queries one token may send: the 62-day range on a 5-minute grid
 * of an event type open around the clock (5-minute meetings, the smallest the server accepts), the
 * element's month of the same event type, and 62 days of an event type whose five overlapping ranges
 * (00:00-24:00, 00:01-24:00, ... 00:04-24:00) put a slot at every minute. Measures, in process through `app.handle` on a fresh
 * SQLite file, the CPU milliseconds (user + system, `process.cpuUsage`) and the bytes of one request:
 * cold (a fresh app, so nothing is cached) and cached (the same query again), with the
 * `Accept-Encoding` Chrome sends and with none. Also `GET /time-slots/first-free` on event types with no
 * free slot in a 730-day horizon (a 5-minute grid around the clock, blocked whole by one busy interval
 * from the organizer's calendar; and one open 08:00-20:00 on a 15-minute grid, every seat booked),
 * which must look through the whole horizon: cold (a fresh app), the same query again, and the same
 * app asked from a later day (what a client varying `from` to get past a cache sends). Prints the
 * median of BENCH_RUNS runs (default 7).
 * Run: `bun bench/slot-cost.ts` (no wrk needed).
 */
import { DateTime } from "luxon";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../packages/server/src/app.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { openSqliteStore } from "../packages/server/src/store/sqlite/index.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";

const runs = Number(process.env.BENCH_RUNS ?? 7);
const zone = "Europe/Prague";
const dir = mkdtempSync(join(tmpdir(), "booking-slot-cost-"));
const store = openSqliteStore(join(dir, "bench.sqlite"));

try {
  const openAllDay = (ranges: { start: string; end: string }[]) =>
    new EventTypeAdmin(store, Date.now).create({
      title: "Slot cost",
      timezone: zone,
      durationMinutes: 5,
      slotIntervalMinutes: 5,
      minNoticeMinutes: 0,
      horizonDays: 365,
      availability: {
        weekly: { monday: ranges, tuesday: ranges, wednesday: ranges, thursday: ranges, friday: ranges, saturday: ranges, sunday: ranges },
        overrides: [],
      },
    });
  const fiveMinuteGrid = await openAllDay([{ start: "00:00", end: "24:00" }]);
  const everyMinute = await openAllDay([0, 1, 2, 3, 4].map((m) => ({ start: `00:0${m}`, end: "24:00" })));
  const first = DateTime.now().setZone(zone).startOf("day").plus({ days: 1 });
  const config = { rateLimit: { limit: 1_000_000_000, windowSeconds: 60 } };
  const chrome = "gzip, deflate, br, zstd";

  /** One request's CPU time and answer. */
  async function measure(app: ReturnType<typeof createApp>, token: string, path: string, acceptEncoding: string | null) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
    const before = process.cpuUsage();
    const response = await app.handle(new Request(`http://localhost${path}`, { headers }));
    const sent = (await response.arrayBuffer()).byteLength;
    const used = process.cpuUsage(before);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return { cpuMs: (used.user + used.system) / 1000, sent, encoding: response.headers.get("content-encoding") ?? "none" };
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  /** Cold: a fresh app per run (its slot cache empty); cached: the same app asked again. */
  async function scenario(label: string, token: string, days: number, acceptEncoding: string | null) {
    const path = `/time-slots?from=${first.toISODate()}&until=${first.plus({ days: days - 1 }).toISODate()}`;
    // The answer's own figures, read once without compression.
    const probe = await createApp({ store, config, log: () => {} }).handle(
      new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }),
    );
    const text = await probe.text();
    const body = JSON.parse(text) as { data: unknown[] } & Record<string, unknown>;
    const extra = Object.keys(body).filter((k) => k !== "success" && k !== "data");
    const cold: number[] = [];
    const cached: number[] = [];
    let sent = 0;
    let encoding = "";
    for (let i = 0; i < runs; i++) {
      const app = createApp({ store, config, log: () => {} });
      const c = await measure(app, token, path, acceptEncoding);
      cold.push(c.cpuMs);
      sent = c.sent;
      encoding = c.encoding;
      cached.push((await measure(app, token, path, acceptEncoding)).cpuMs);
    }
    const more = extra.length ? `, also ${extra.map((k) => `${k}=${JSON.stringify(body[k])}`).join(" ")}` : "";
    console.log(
      `${label}: ${body.data.length} slots, ${(new TextEncoder().encode(text).byteLength / 1e6).toFixed(2)} MB JSON${more}; ` +
        `sent ${(sent / 1e3).toFixed(1)} kB (${encoding}); CPU cold ${median(cold).toFixed(1)} ms, cached ${median(cached).toFixed(2)} ms`,
    );
  }

  // Warm the JIT and luxon's formatters on another range, so the first cold figure is not the start-up's.
  await scenario("warm-up (7 days)", fiveMinuteGrid.token, 7, chrome);
  console.log(`GET /time-slots, event types open 00:00-24:00 daily with 5-minute meetings, ${zone}; median of ${runs} runs`);
  await scenario("5-minute grid, 62 days, Chrome's Accept-Encoding", fiveMinuteGrid.token, 62, chrome);
  await scenario("5-minute grid, 62 days, no compression", fiveMinuteGrid.token, 62, null);
  await scenario("5-minute grid, 31 days (the element's month), Chrome's Accept-Encoding", fiveMinuteGrid.token, 31, chrome);
  await scenario("a slot every minute, 62 days, Chrome's Accept-Encoding", everyMinute.token, 62, chrome);
  await scenario("a slot every minute, 62 days, no compression", everyMinute.token, 62, null);

  // Event types with nothing free in a 730-day horizon: first-free has the whole horizon to look through.
  const longHorizon = (ranges: { start: string; end: string }[], minutes: number) =>
    new EventTypeAdmin(store, Date.now).create({
      title: "Nothing free",
      timezone: zone,
      durationMinutes: minutes,
      slotIntervalMinutes: minutes,
      minNoticeMinutes: 0,
      horizonDays: 730,
      availability: {
        weekly: { monday: ranges, tuesday: ranges, wednesday: ranges, thursday: ranges, friday: ranges, saturday: ranges, sunday: ranges },
        overrides: [],
      },
    });
  const blocked = await longHorizon([{ start: "00:00", end: "24:00" }], 5);
  const source = await store.busy.add(
    {
      hostId: await hostOf(store, blocked.id),
      kind: "ical",
      url: "https://calendar.example.com/leave.ics",
      username: null,
      secret: null,
      calendars: [],
      freshnessMinutes: null,
    },
    Date.now(),
  );
  const horizon = { startMs: Date.now() - 86_400_000, endMs: Date.now() + 740 * 86_400_000 };
  await store.busy.recordSync(source.id, { atMs: Date.now(), syncState: {}, upserts: [], deletes: [], intervals: [horizon], expandedUntilMs: horizon.endMs });
  const booked = await longHorizon([{ start: "08:00", end: "20:00" }], 15);
  const today = DateTime.now().setZone(zone).startOf("day");
  const bookings: ReservationRecord[] = [];
  for (let day = 0; day <= 731; day++) {
    for (let slot = 0; slot < 48; slot++) {
      const startMs = today
        .plus({ days: day })
        .set({ hour: 8 })
        .plus({ minutes: 15 * slot })
        .toMillis();
      bookings.push({
        uuid: crypto.randomUUID(),
        eventTypeId: booked.id,
        hostIds: [1],
        status: "confirmed",
        startMs,
        endMs: startMs + 15 * 60_000,
        heldUntilMs: null,
        email: `v${day}-${slot}@example.com`,
        firstname: "A",
        lastname: "B",
        phone: "",
        timezone: null,
        location: { type: "video-meet", value: null },
        guests: [],
        customFields: [],
        meetLink: null,
        sequence: 0,
        cancelReason: null,
        payment: null,
        confirmedAtMs: Date.now(),
        cancelledAtMs: null,
        createdAtMs: Date.now(),
        updatedAtMs: Date.now(),
      });
    }
  }
  await store.reservations.insertMany(bookings);

  /** Cold (a fresh app), the same query again, and the same app asked from a later day. */
  async function firstFreeScenario(label: string, token: string) {
    const path = (days: number) => `/time-slots/first-free?from=${today.plus({ days }).toISODate()}`;
    const answer = await (
      await createApp({ store, config, log: () => {} }).handle(new Request(`http://localhost${path(0)}`, { headers: { authorization: `Bearer ${token}` } }))
    ).text();
    const cold: number[] = [];
    const again: number[] = [];
    const later: number[] = [];
    for (let i = 0; i < runs; i++) {
      const app = createApp({ store, config, log: () => {} });
      cold.push((await measure(app, token, path(0), null)).cpuMs);
      again.push((await measure(app, token, path(0), null)).cpuMs);
      later.push((await measure(app, token, path(7 + i), null)).cpuMs);
    }
    console.log(
      `${label}: answers ${answer}; CPU cold ${median(cold).toFixed(1)} ms, again ${median(again).toFixed(2)} ms, from a later day ${median(later).toFixed(2)} ms`,
    );
  }
  console.log(`GET /time-slots/first-free, 730-day horizon, nothing free; median of ${runs} runs`);
  await firstFreeScenario("5-minute grid around the clock, one busy interval over the horizon", blocked.token);
  await firstFreeScenario("15-minute grid 08:00-20:00, every slot booked (35 136 reservations)", booked.token);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

/** The first host of an event type, whose calendars block it. */
async function hostOf(store: { eventTypes: { byId(id: number): Promise<{ hosts: { hostId: number }[] } | null> } }, eventTypeId: number): Promise<number> {
  return (await store.eventTypes.byId(eventTypeId))!.hosts[0]!.hostId;
}
