/**
 * Benchmark of recurring bookings: booking a series of 8 weekly dates in one request against
 * booking the same 8 dates as 8 single bookings, one after another, measured in one run.
 *
 * Seeds a fresh database (SQLite, or a PostgreSQL schema with BENCH_ENGINE=postgres) with one event
 * type open around the clock (30-minute meetings, one seat, a year ahead, series of up to 8 allowed),
 * starts `src/main.ts` on it as its own process (production mode without SMTP_URL: the bare booking
 * path, as bench/bookings.ts measures it) and, round after round, books a series of 8 (one
 * `POST /reservations` with `recurrence`) and 8 single bookings of 8 other weekly dates (8 requests
 * in a row, as a client without series would), alternating which goes first. Every answer must be
 * a success. Prints the median time of each and their ratio (series / 8 singles; below 1: the
 * series is faster). Run: `bun bench/series.ts` (`BENCH_ENGINE=postgres bun bench/series.ts`).
 * Options: BENCH_ENGINE, BENCH_DATABASE_URL, BENCH_ROUNDS (default 40), BENCH_PORT.
 */
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { engine, scratch, startServer } from "./lib.ts";

const port = Number(process.env.BENCH_PORT ?? 3931);
const rounds = Number(process.env.BENCH_ROUNDS ?? 40);
const db = await scratch();

const store = await db.open();
const allDay = [{ start: "00:00", end: "24:00" }];
const eventType = await new EventTypeAdmin(store, Date.now).create({
  title: "Weekly coaching",
  timezone: "UTC",
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  minNoticeMinutes: 0,
  horizonDays: 365,
  availability: {
    weekly: { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay },
    overrides: [],
  },
  recurrence: { maxOccurrences: 8, intervals: ["weekly"] },
});
await store.close();

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const SLOT_MS = 30 * 60_000;
const firstDay = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
/** The k-th distinct half hour of the first week: every series (and single run) takes its 8 weekly dates from its own. */
const slotAt = (k: number, week: number) => firstDay + k * SLOT_MS + week * WEEK_MS;

const server = await startServer(db.env, port, { BOOKING_ENV: "production", BOOKING_PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: "" });
const url = `http://127.0.0.1:${port}/reservations`;

async function book(startMs: number, recurrence?: { interval: string; count: number }): Promise<void> {
  const body = {
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + SLOT_MS).toISOString(),
    email: "bench@example.com",
    ...(recurrence ? { recurrence } : {}),
  };
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${eventType.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { success: boolean; code?: string };
  if (!answer.success) throw new Error(`a booking failed: HTTP ${response.status} ${answer.code}`);
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

try {
  const seriesMs: number[] = [];
  const singlesMs: number[] = [];
  // Two warm-up rounds, then the measured ones; each round uses two half hours of its own.
  for (let round = 0; round < rounds + 2; round++) {
    const series = () => book(slotAt(2 * round, 0), { interval: "weekly", count: 8 });
    const singles = async () => {
      for (let week = 0; week < 8; week++) await book(slotAt(2 * round + 1, week));
    };
    const first = round % 2 === 0;
    const a = await timed(first ? series : singles);
    const b = await timed(first ? singles : series);
    if (round < 2) continue;
    seriesMs.push(first ? a : b);
    singlesMs.push(first ? b : a);
  }
  const s = median(seriesMs);
  const m = median(singlesMs);
  console.log(`${engine}: ${rounds} rounds, median of each`);
  console.log(`  a series of 8 (one request):    ${s.toFixed(1)} ms`);
  console.log(`  8 single bookings (8 requests): ${m.toFixed(1)} ms`);
  console.log(`  ratio series / singles:          ${(s / m).toFixed(2)}`);
} finally {
  await server.stop();
  await db.cleanup();
}
