/**
 * Load benchmark of one-step bookings (`POST /reservations`) on distinct slots, against the bare
 * `GET /health` route of the same server.
 *
 * Seeds a fresh database (SQLite, or a PostgreSQL schema with BENCH_ENGINE=postgres) with one event
 * type open around the clock on a one-minute grid (one-minute meetings, one seat, two years ahead: a
 * million slots, so turns of many seconds at any rate each book slots of their own; five minutes on
 * PostgreSQL, whose bookings lock five-minute buckets of time), starts `src/main.ts` on it as its own process, and
 * drives it with wrk over loopback; a Lua script gives every request the next free slot, so each
 * booking takes a seat in its own write transaction. Counts the answers with `success: true` and
 * prints confirmed bookings per second, their ratio to the bare route, and p50/p99 latency. On
 * PostgreSQL it then starts a second server process on the same database and loads both at once
 * (two instances of one event type), and on either engine sends 200 bookings of distinct free
 * slots at once and counts the refused ones.
 * Run: `npm run bench:bookings` (needs `wrk`). Options: BENCH_ENGINE (sqlite or postgres),
 * BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PORT, BENCH_PROFILE, BENCH_DEBUG, BENCH_MAIL=1 (also
 * measure bookings on a development server, which writes a confirmation email and the default two reminders per booking,
 * in four turns with the bare booking path, each a quarter of BENCH_SECONDS or BENCH_TURN_SECONDS long, and print the ratio of the two), BENCH_SMTP=1 with it (the server with emails is a
 * production server like the bare one, sending each email over SMTP to a local SMTP server that accepts and drops it,
 * instead of a development server logging it). What one email costs: `bun bench/email-cost.ts`.
 */
import { DateTime } from "luxon";
import type { Store } from "../packages/server/src/store/store.ts";
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import { bookingScript, connections, emailsPending, engine, line, load, scratch, seconds, smtpSink, startServer, type LoadResult } from "./lib.ts";

const port = Number(process.env.BENCH_PORT ?? 3918);
/**
 * The slots' length and grid: a minute on SQLite; five on PostgreSQL, where a booking takes advisory
 * locks on the five-minute buckets its time covers, so bookings of neighbouring one-minute slots
 * (sent at once) would wait for each other.
 */
const SLOT_MINUTES = engine === "postgres" ? 5 : 1;
const db = await scratch();

const store = await db.open();
/** An event type open all day every day on the bench's slot grid, two years ahead, on `on`. */
const benchEventType = (on: Store, title: string) => {
  const allDay = [{ start: "00:00", end: "24:00" }];
  const weekly = Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => [day, allDay]));
  return new EventTypeAdmin(on, Date.now).create({
    title,
    timezone: "UTC",
    durationMinutes: SLOT_MINUTES,
    slotIntervalMinutes: SLOT_MINUTES,
    minNoticeMinutes: 0,
    horizonDays: 730,
    availability: { weekly, overrides: [] },
  });
};
const et = await benchEventType(store, "Bookings benchmark");
// Its twin takes only the burst of 200 simultaneous bookings, on slots nobody else books.
const burstEt = await benchEventType(store, "Bookings benchmark (burst)");
await store.close();
// The comparison with emails (BENCH_MAIL=1) books a twin on a database of its own, so the two
// servers it loads in turns never wait for each other's writes.
const mailDb = process.env.BENCH_MAIL === "1" ? await scratch() : null;
const mailStore = await (mailDb ?? db).open();
const mailEt = await benchEventType(mailStore, "Bookings benchmark (emails)");
await mailStore.close();

// Bookings start tomorrow. Every load books slots nobody booked before on its database (the event
// types of one database share their host, whose booked times are busy for all of them): each load
// starts where the previous one on its database ended, however long the turns and fast the server.
const SLOT_SECONDS = SLOT_MINUTES * 60;
/** The slots of the two years' horizon. */
const HORIZON_SLOTS = (730 * 24 * 3600) / SLOT_SECONDS;
/** Requests a second no load reaches on this machine: what a load whose count is lost (a warm-up that failed) or not yet known (loads side by side) is taken to have used. */
const MOST_PER_SECOND = 20_000;
const firstSlot = DateTime.utc().startOf("day").plus({ days: 1 }).toSeconds();
const lua = (offsetSlots: number) => bookingScript(firstSlot + offsetSlots * SLOT_SECONDS, SLOT_SECONDS);

/** The next free slot of one database's host, moved on past each load's slots. */
class SlotCursor {
  private next = 0;
  constructor(private readonly name: string) {}
  /** Where a load of at most `count` requests starts; the cursor moves past them. */
  take(count: number): number {
    const at = this.next;
    this.next += count;
    if (this.next > HORIZON_SLOTS) throw new Error(`the ${this.name} database ran out of slots (${this.next} of ${HORIZON_SLOTS}): BENCH_SECONDS too long`);
    return at;
  }
  /** Runs a load from the next free slot and moves the cursor past the slots it asked for (or the most it could have, when its count is lost). */
  async load(run: (lua: string) => Promise<LoadResult>, seconds: number): Promise<LoadResult | undefined>;
  async load(run: (lua: string) => Promise<LoadResult>, seconds: number, tolerant: false): Promise<LoadResult>;
  async load(run: (lua: string) => Promise<LoadResult>, seconds: number, tolerant = true): Promise<LoadResult | undefined> {
    const at = this.next;
    try {
      const result = await run(lua(at));
      this.take((result.counted.ok ?? 0) + (result.counted.other ?? 0) + 1_000);
      return result;
    } catch (error) {
      this.take(seconds * MOST_PER_SECOND);
      if (!tolerant) throw error;
      return undefined;
    }
  }
}

/** 200 bookings of distinct free slots sent at once, alternating between the servers: how many are refused, and why. */
async function burst(bases: string[], token: string, offsetSlots: number): Promise<{ confirmed: number; refused: Record<string, number> }> {
  const answers = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const start = (firstSlot + (offsetSlots + i) * SLOT_SECONDS) * 1000;
      const r = await fetch(`${bases[i % bases.length]}/reservations`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          start: new Date(start).toISOString(),
          end: new Date(start + SLOT_SECONDS * 1000).toISOString(),
          email: `burst${i}@example.com`,
        }),
      });
      return (await r.json()) as { success: boolean; code?: string };
    }),
  );
  const refused: Record<string, number> = {};
  for (const a of answers) if (!a.success) refused[a.code ?? "?"] = (refused[a.code ?? "?"] ?? 0) + 1;
  return { confirmed: answers.filter((a) => a.success).length, refused };
}

// Production mode without SMTP_URL, as a server that sends no confirmation emails runs: the bare booking
// path (development would write an email to the outbox for each booking and log it; BENCH_MAIL=1 measures that too).
const production = (p: number) => ({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: `http://127.0.0.1:${p}`, SMTP_URL: "" });
const server = await startServer(db.env, port, production(port));
// On PostgreSQL a second server process on the same database: two instances behind a load balancer.
const second = engine === "postgres" ? await startServer(db.env, port + 1, production(port + 1)) : null;
try {
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${et.token}`, "content-type": "application/json" };
  const bare = await load(`${base}/health`, headers);
  const slots = new SlotCursor("benchmark");
  await slots.load((l) => load(`${base}/reservations`, headers, { lua: l, warmUp: false, seconds: 2 }), 2);
  const bookings = await slots.load((l) => load(`${base}/reservations`, headers, { lua: l, warmUp: false }), seconds, false);
  const confirmed = (bookings.counted.ok ?? 0) / seconds;
  /** The slots a load of `duration` seconds side by side with another may ask for: twice the measured run's pace. */
  const sideBySide = (duration: number) => Math.ceil((((bookings.counted.ok ?? 0) + (bookings.counted.other ?? 0)) / seconds) * 2 * duration) + 1_000;
  console.log(
    `POST /reservations on distinct ${SLOT_MINUTES === 1 ? "one" : "five"}-minute slots, one seat each, on ${engine === "postgres" ? "PostgreSQL" : "a SQLite (WAL) file"}`,
  );
  console.log(`${connections} connections, ${seconds} s, load from wrk (1 thread) on loopback; ratio = per second against GET /health`);
  console.log(line("GET /health (req)", bare, bare));
  console.log(line("POST /reservations (confirmed)", bookings, bare, confirmed));
  console.log(`  answers other than a confirmed booking: ${bookings.counted.other ?? 0} (slot_locked: ${bookings.counted.locked ?? 0})`);
  if (second) {
    // Both instances at once, one wrk each on its own range of slots, all of one event type.
    const bases = [base, `http://127.0.0.1:${port + 1}`];
    await Promise.all(
      bases.map((b) => load(`${b}/reservations`, headers, { lua: lua(slots.take(sideBySide(2))), warmUp: false, seconds: 2 }).catch(() => undefined)),
    );
    const both = await Promise.all(bases.map((b) => load(`${b}/reservations`, headers, { lua: lua(slots.take(sideBySide(seconds))), warmUp: false })));
    const ok = both.reduce((sum, r) => sum + (r.counted.ok ?? 0), 0) / seconds;
    const other = both.reduce((sum, r) => sum + (r.counted.other ?? 0), 0);
    const locked = both.reduce((sum, r) => sum + (r.counted.locked ?? 0), 0);
    console.log(`Two server processes on the same database, ${connections} connections to each (two wrk processes at once):`);
    for (const [i, r] of both.entries()) console.log(line(`  instance ${i + 1} (confirmed)`, r, bare, (r.counted.ok ?? 0) / seconds));
    console.log(
      `  together ${ok.toFixed(0)} confirmed bookings/s of one event type; answers other than a confirmed booking: ${other} (slot_locked: ${locked})`,
    );
    const b200 = await burst(bases, burstEt.token, slots.take(1_200));
    console.log(`  200 simultaneous bookings of distinct free slots through both: ${b200.confirmed} confirmed, refused ${JSON.stringify(b200.refused)}`);
  } else {
    const b200 = await burst([base], burstEt.token, slots.take(1_200));
    console.log(`  200 simultaneous bookings of distinct free slots: ${b200.confirmed} confirmed, refused ${JSON.stringify(b200.refused)}`);
  }
  if (process.env.BENCH_MAIL === "1") {
    // The same bookings with emails: a development server (no SMTP_URL) writes the visitor's
    // confirmation email and the default two reminders to the outbox in each booking's transaction,
    // and its mail worker renders each email and logs it, as `npm start` does. It runs beside the
    // production server, each on a database of its own with a twin event type, and the two are
    // loaded in turns, so a machine whose speed drifts during the run (other work on it) weighs on
    // both sides alike: the ratio is of the sums. A turn with emails lasts until its mail worker has
    // sent the last of its emails (the booking's own answer does not wait for it): bookings a second
    // counts them over that whole time, so an outbox that falls behind costs the rate, and no email
    // work spills into the next bare turn.
    await second?.stop();
    // BENCH_SMTP=1: a local SMTP server (in this process) that reads each message and drops it.
    const sink = process.env.BENCH_SMTP === "1" ? await smtpSink() : null;
    const dev = sink
      ? await startServer(mailDb!.env, port + 2, { ...production(port + 2), SMTP_URL: sink.url }, true)
      : await startServer(mailDb!.env, port + 2, { SMTP_URL: "" }, true);
    try {
      const devBase = `http://127.0.0.1:${port + 2}`;
      const mailHeaders = { ...headers, authorization: `Bearer ${mailEt.token}` };
      const ROUNDS = 4;
      // BENCH_TURN_SECONDS: each turn's length, when not a quarter of BENCH_SECONDS.
      const turn = Number(process.env.BENCH_TURN_SECONDS ?? 0) || Math.max(1, Math.round(seconds / ROUNDS));
      const mailSlots = new SlotCursor("emails");
      await mailSlots.load((l) => load(`${devBase}/reservations`, mailHeaders, { lua: l, warmUp: false, seconds: 2 }), 2);
      const bareHeaders = { ...headers, authorization: `Bearer ${burstEt.token}` };
      await slots.load((l) => load(`${base}/reservations`, bareHeaders, { lua: l, warmUp: false, seconds: 2 }), 2);
      const sums = { bare: 0, mail: 0, other: 0, mailSeconds: 0 };
      /** Waits until the dev server's emails are all sent; answers how long that took, in seconds. */
      const drain = async (): Promise<number> => {
        const began = performance.now();
        while ((await emailsPending(mailDb!.env)) > 0) await Bun.sleep(20);
        return (performance.now() - began) / 1000;
      };
      await drain();
      for (let round = 0; round < ROUNDS; round++) {
        // The bare side books the burst's twin (after the slots of every load before), alone on its database.
        const bareTurn = await slots.load((l) => load(`${base}/reservations`, bareHeaders, { lua: l, warmUp: false, seconds: turn }), turn, false);
        const mailTurn = await mailSlots.load((l) => load(`${devBase}/reservations`, mailHeaders, { lua: l, warmUp: false, seconds: turn }), turn, false);
        const lag = await drain();
        sums.bare += bareTurn.counted.ok ?? 0;
        sums.mail += mailTurn.counted.ok ?? 0;
        sums.mailSeconds += turn + lag;
        sums.other += (bareTurn.counted.other ?? 0) + (mailTurn.counted.other ?? 0);
        console.log(
          `  turn ${round + 1}: bare ${((bareTurn.counted.ok ?? 0) / turn).toFixed(0)}/s, with emails and reminders ${((mailTurn.counted.ok ?? 0) / (turn + lag)).toFixed(0)}/s (last email sent ${lag.toFixed(2)} s after the load)`,
        );
      }
      console.log(
        `With emails and reminders (${sink ? "a production server sending each email over SMTP" : "a development server logging each email"}), in ${ROUNDS} turns of ${turn} s against the bare booking path in turns between them:`,
      );
      const bareRate = sums.bare / (ROUNDS * turn);
      const whileBooking = sums.mail / (ROUNDS * turn);
      const mailRate = sums.mail / sums.mailSeconds;
      console.log(
        `  bare ${bareRate.toFixed(0)} confirmed/s; with emails ${whileBooking.toFixed(0)} confirmed/s while booking (ratio ${(whileBooking / bareRate).toFixed(2)}), ${mailRate.toFixed(0)}/s counted until the last email was sent (ratio ${(mailRate / bareRate).toFixed(2)}); answers other than a confirmed booking: ${sums.other}`,
      );
    } finally {
      await dev.stop();
      await sink?.stop();
    }
  }
} finally {
  await second?.stop();
  await server.stop();
  await db.cleanup();
  await mailDb?.cleanup();
}
