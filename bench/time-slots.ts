/**
 * Load benchmark of `GET /time-slots` against the bare `GET /health` route of the same server.
 *
 * Seeds a fresh SQLite file with one event type (open 08:00-20:00 every day, 15-minute grid) and 500
 * confirmed reservations in the next 31 days, starts `src/main.ts` on it as its own process, and
 * drives both routes in turn with wrk over loopback (one thread, 50 connections; wrk is a C load
 * generator, so the client is not the bottleneck the way a JavaScript one would be on two cores).
 * Runs the slot route twice: with the Accept-Encoding Chrome sends (the server answers zstd) and with
 * gzip only. Prints requests/s of each, their ratio to the bare route and p50/p99 latency.
 * Run: `npm run bench` (needs `wrk`, e.g. `apt-get install -y wrk`; options BENCH_SECONDS, BENCH_CONNECTIONS).
 */
import { DateTime } from "luxon";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AdminService } from "../packages/server/src/modules/admin/service.ts";
import { openSqliteStore } from "../packages/server/src/store/sqlite.ts";
import type { ReservationRecord } from "../packages/server/src/store/types.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const port = Number(process.env.BENCH_PORT ?? 3917);
const zone = "Europe/Prague";
const days = Number(process.env.BENCH_DAYS ?? 31);

const dir = mkdtempSync(join(tmpdir(), "booking-bench-"));
const dbPath = join(dir, "bench.sqlite");

async function seed(): Promise<{ token: string; from: string; until: string; reservations: number }> {
  const store = openSqliteStore(dbPath);
  const everyDay = [{ start: "08:00", end: "20:00" }];
  const et = await new AdminService(store, Date.now).create({
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
      uuid: crypto.randomUUID(), eventTypeId: et.id, status: "confirmed", startMs: start.toMillis(), endMs: start.plus({ minutes: 15 }).toMillis(),
      heldUntilMs: null, email: `v${i}@example.com`, firstname: "Bench", lastname: String(i), phone: "", timezone: zone,
      location: { type: "video-meet", value: null }, guests: [], customFields: [], createdAtMs: Date.now(), updatedAtMs: Date.now(),
    });
  }
  await store.reservations.insertMany(records);
  await store.close();
  return { token: et.token, from: first.toISODate()!, until: first.plus({ days: days - 1 }).toISODate()!, reservations: records.length };
}

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await Bun.sleep(100);
  }
  throw new Error("server did not start");
}

/** Runs wrk against one path and reads requests/s and latency percentiles from its report. */
async function load(path: string, headers: Record<string, string>) {
  const run = async (duration: number) => {
    const args = ["wrk", "-t1", `-c${connections}`, `-d${duration}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), `http://127.0.0.1:${port}${path}`];
    const proc = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) throw new Error(`wrk failed:\n${out}`);
    if (/Non-2xx or 3xx responses/.test(out) || /Socket errors/.test(out)) throw new Error(`${path}: errors under load\n${out}`);
    const ms = (label: string) => {
      const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(out);
      if (!m) throw new Error(`no ${label}% latency in wrk output:\n${out}`);
      return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
    };
    return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), p50: ms("50"), p99: ms("99") };
  };
  await run(2); // warm-up: JIT, caches
  return run(seconds);
}

const setup = await seed();
// process.execPath is the Bun binary itself, so kill() reaches the server and not a wrapper script.
// BENCH_PROFILE=dir writes a CPU profile of the server (markdown) into dir.
const profile = process.env.BENCH_PROFILE ? ["--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const server = Bun.spawn([process.execPath, ...profile, "src/main.ts"], {
  cwd: join(import.meta.dir, "../packages/server"),
  env: { ...process.env, PORT: String(port), BOOKING_DB: dbPath, RATE_LIMIT_PER_MINUTE: "1000000000", BOOKING_ADMIN_KEY: "" },
  stdout: "ignore",
  stderr: "inherit",
});
try {
  await waitForServer();
  // What Chrome sends; the server answers the slot list with zstd to it.
  const headers = { authorization: `Bearer ${setup.token}`, "accept-encoding": "gzip, deflate, br, zstd" };
  const slotsPath = `/time-slots?from=${setup.from}&until=${setup.until}`;
  const probe = await fetch(`http://127.0.0.1:${port}${slotsPath}`, { headers: { authorization: headers.authorization } });
  const probeBody = (await probe.json()) as { data?: unknown[] };
  if (!probe.ok || !probeBody.data) throw new Error(`time-slots answered ${probe.status}: ${JSON.stringify(probeBody)}`);
  const slotCount = probeBody.data.length;

  const bare = await load("/health", headers);
  const slots = await load(slotsPath, headers);
  const gzipOnly = await load(slotsPath, { ...headers, "accept-encoding": "gzip" });
  const line = (name: string, r: { rps: number; p50: number; p99: number }) =>
    `  ${name.padEnd(32)} ${r.rps.toFixed(0).padStart(7)} req/s   ratio ${(r.rps / bare.rps).toFixed(2)}   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`;
  console.log(`GET /time-slots: ${days} days (${setup.from}..${setup.until}), 15-minute grid, ${setup.reservations} reservations, ${slotCount} free slots`);
  console.log(`${connections} connections, ${seconds} s per run after a 2 s warm-up, load from wrk (1 thread) on loopback; ratio = req/s against GET /health`);
  console.log(line("GET /health", bare));
  console.log(line("GET /time-slots (browser coding)", slots));
  console.log(line("GET /time-slots (gzip only)", gzipOnly));
  console.log(`  targets: ratio >= 0.5 and p99 < 10 ms at ${connections} connections`);
} finally {
  server.kill();
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
