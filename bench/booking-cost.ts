/**
 * What one booking costs the server in CPU, without HTTP sockets or a load generator: bookings of
 * distinct one-minute slots sent to `app.handle` 50 at a time (so claims share commits as under
 * load), on a fresh SQLite file (or PostgreSQL with BENCH_ENGINE=postgres), against `GET /health`
 * through the same app. Prints the process's CPU time per request of each, and their ratio: a
 * figure that a busy machine moves far less than a load's rate (CPU time is counted, not waited).
 * Profile it with `bun --cpu-prof-md bench/booking-cost.ts`. Run: `bun bench/booking-cost.ts`.
 * Options: BENCH_ROUNDS (bookings per round, 20 000), BENCH_TURNS (rounds, 5; the least CPU time of them is printed too), BENCH_MAIL=1 (a development server's bookings, each writing its
 * confirmation email and two reminders to the outbox; the mail worker is not started), BENCH_KEEP=1 (keep the database
 * file and print where it is, to look at its queries).
 */
import { DateTime } from "luxon";
import { createApp } from "../packages/server/src/app.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { MemoryRateLimiter } from "../packages/server/src/store/rate-limiter.ts";
import { engine, scratch } from "./lib.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const IN_FLIGHT = 50;
const db = await scratch();
const store = await db.open();
const allDay = [{ start: "00:00", end: "24:00" }];
const weekly = Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => [day, allDay]));
const minutes = engine === "postgres" ? 5 : 1;
const et = await new EventTypeAdmin(store, Date.now).create({
  title: "Booking cost",
  timezone: "UTC",
  durationMinutes: minutes,
  slotIntervalMinutes: minutes,
  minNoticeMinutes: 0,
  horizonDays: 730,
  availability: { weekly, overrides: [] },
});
const mail = process.env.BENCH_MAIL === "1";
const app = createApp({
  store,
  log: () => undefined,
  // Out of the way on either engine (a PostgreSQL store brings its own shared limiter otherwise).
  rateLimiter: new MemoryRateLimiter(1_000_000_000, 60),
  config: {
    environment: mail ? "development" : "production",
    publicUrl: "http://127.0.0.1:3918",
    rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
  },
});
const headers = { authorization: `Bearer ${et.token}`, "content-type": "application/json" };
const first = DateTime.utc().startOf("day").plus({ days: 1 }).toMillis();
let next = 0;
let refused = 0;
const book = async () => {
  const n = next++;
  const start = first + n * minutes * 60_000;
  const body = `{"start":"${new Date(start).toISOString().slice(0, 19)}Z","end":"${new Date(start + minutes * 60_000).toISOString().slice(0, 19)}Z","email":"visitor${n}@example.com","firstname":"Load","lastname":"Test"}`;
  // With its length, as a request off the wire carries it.
  const answer = await app.handle(
    new Request("http://127.0.0.1:3918/reservations", { method: "POST", headers: { ...headers, "content-length": String(body.length) }, body }),
  );
  const text = await answer.text();
  if (!text.includes('"success":true')) refused++;
};
const health = async () => {
  await (await app.handle(new Request("http://127.0.0.1:3918/health", { headers }))).text();
};
/** CPU µs per request of `count` requests, IN_FLIGHT at a time. */
async function cpuPer(request: () => Promise<void>, count: number): Promise<number> {
  const before = process.cpuUsage();
  let sent = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent++ < count) await request();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}
await cpuPer(health, 5_000);
await cpuPer(book, 2_000);
// The least of several rounds: other work on the machine only ever adds to a round's CPU time.
const least = { bare: Number.POSITIVE_INFINITY, booking: Number.POSITIVE_INFINITY };
for (let round = 1; round <= TURNS; round++) {
  const bare = await cpuPer(health, ROUNDS);
  const booking = await cpuPer(book, ROUNDS);
  least.bare = Math.min(least.bare, bare);
  least.booking = Math.min(least.booking, booking);
  console.log(`round ${round}: GET /health ${bare.toFixed(1)} µs CPU, POST /reservations ${booking.toFixed(1)} µs CPU, ratio ${(bare / booking).toFixed(3)}`);
}
console.log(
  `least of ${TURNS} rounds: GET /health ${least.bare.toFixed(1)} µs CPU, POST /reservations ${least.booking.toFixed(1)} µs CPU, ratio ${(least.bare / least.booking).toFixed(3)}`,
);
console.log(`answers other than a confirmed booking: ${refused}`);
if (process.env.BENCH_KEEP) console.log(`kept ${JSON.stringify(db.env)}`);
else {
  await store.close();
  await db.cleanup();
}
