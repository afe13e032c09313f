/**
 * Load benchmark of one-step bookings (`POST /reservations`) on distinct slots, against the bare
 * `GET /health` route of the same server.
 *
 * Seeds a fresh database (SQLite, or a PostgreSQL schema with BENCH_ENGINE=postgres) with one event
 * type open around the clock on a five-minute grid (five-minute meetings, one seat, a year ahead), starts `src/main.ts` on it as its own process, and
 * drives it with wrk over loopback; a Lua script gives every request the next free slot, so each
 * booking takes a seat in its own write transaction. Counts the answers with `success: true` and
 * prints confirmed bookings per second, their ratio to the bare route, and p50/p99 latency.
 * Run: `npm run bench:bookings` (needs `wrk`). Options: BENCH_ENGINE (sqlite or postgres),
 * BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PORT, BENCH_PROFILE, BENCH_DEBUG.
 */
import { DateTime } from "luxon";
import { AdminService } from "../packages/server/src/modules/admin/service.ts";
import { connections, engine, line, load, scratch, seconds, startServer } from "./lib.ts";

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
  horizonDays: 365,
  availability: { weekly: { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay }, overrides: [] },
});
await store.close();

// Bookings start tomorrow; the warm-up and the measured run take different ranges of slots.
const SLOT_SECONDS = 300;
const firstSlot = DateTime.utc().startOf("day").plus({ days: 1 }).toSeconds();
const lua = (offsetSlots: number) => `
-- Counters are globals of each thread's Lua state; done() runs elsewhere and reads them per thread.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) n = 0; ok = 0; other = 0 end
local first = ${firstSlot + offsetSlots * SLOT_SECONDS}
request = function()
  local start = first + n * ${SLOT_SECONDS}
  n = n + 1
  local body = string.format('{"start":"%s","end":"%s","email":"visitor%d@example.com","firstname":"Load","lastname":"Test"}',
    os.date("!%Y-%m-%dT%H:%M:00Z", start), os.date("!%Y-%m-%dT%H:%M:00Z", start + ${SLOT_SECONDS}), n)
  return wrk.format("POST", "/reservations", nil, body)
end
response = function(status, headers, body)
  if string.find(body, '"success":true', 1, true) then ok = ok + 1 else other = other + 1 end
end
done = function(summary, latency, requests)
  local o, x = 0, 0
  for _, t in ipairs(threads) do o = o + t:get("ok"); x = x + t:get("other") end
  io.write(string.format("counted ok %d\\ncounted other %d\\n", o, x))
end
`;

const server = await startServer(db.env, port);
try {
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${et.token}`, "content-type": "application/json" };
  const bare = await load(`${base}/health`, headers);
  await load(`${base}/reservations`, headers, { lua: lua(60_000), warmUp: false }).catch(() => undefined);
  const bookings = await load(`${base}/reservations`, headers, { lua: lua(0), warmUp: false });
  const confirmed = (bookings.counted.ok ?? 0) / seconds;
  console.log(`POST /reservations on distinct five-minute slots, one seat each, on ${engine === "postgres" ? "PostgreSQL" : "a SQLite (WAL) file"}`);
  console.log(`${connections} connections, ${seconds} s, load from wrk (1 thread) on loopback; ratio = per second against GET /health`);
  console.log(line("GET /health (req)", bare, bare));
  console.log(line("POST /reservations (confirmed)", bookings, bare, confirmed));
  console.log(`  answers other than a confirmed booking: ${bookings.counted.other ?? 0}`);
} finally {
  await server.stop();
  await db.cleanup();
}
