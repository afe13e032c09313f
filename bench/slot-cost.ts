/**
 * Cost of the worst `GET /time-slots` queries one token may send: the 62-day range on a 5-minute grid
 * of an event type open around the clock (5-minute meetings, the smallest the server accepts), the
 * element's month of the same event type, and 62 days of an event type whose five overlapping ranges
 * (00:00-24:00, 00:01-24:00, ... 00:04-24:00) put a slot at every minute. Measures, in process through `app.handle` on a fresh
 * SQLite file, the CPU milliseconds (user + system, `process.cpuUsage`) and the bytes of one request:
 * cold (a fresh app, so nothing is cached) and cached (the same query again), with the
 * `Accept-Encoding` Chrome sends and with none. Prints the median of BENCH_RUNS runs (default 7).
 * Run: `bun bench/slot-cost.ts` (no wrk needed).
 */
import { DateTime } from "luxon";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../packages/server/src/app.ts";
import { AdminService } from "../packages/server/src/modules/admin/service.ts";
import { openSqliteStore } from "../packages/server/src/store/sqlite.ts";

const runs = Number(process.env.BENCH_RUNS ?? 7);
const zone = "Europe/Prague";
const dir = mkdtempSync(join(tmpdir(), "booking-slot-cost-"));
const store = openSqliteStore(join(dir, "bench.sqlite"));

try {
  const openAllDay = (ranges: { start: string; end: string }[]) =>
    new AdminService(store, Date.now).create({
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
    const probe = await createApp({ store, config, log: () => {} }).handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
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
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
