import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  busyFromICalendar,
  CalendarFormatError,
  MAX_DATES_PER_EVENT,
  MAX_INSTANCES_PER_CALENDAR,
  MAX_INSTANCES_PER_SERIES,
} from "../src/modules/calendars/expand.ts";
import { ExpansionWorkers } from "../src/modules/calendars/expansion.ts";
import { CalendarSync, MAX_RETRY_WAIT_MS } from "../src/modules/calendars/sync.ts";
import { manyEvents, manyRdates, secondlySeries, zoneRepeating } from "./hostile-calendars.ts";
import { startRadicale, type Radicale } from "./radicale.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";
import { ADMIN_KEY, ENGINE, POSTGRES_URL, setup, waitFor, hostOf } from "./utils.ts";

const WINDOW = { fromMs: Date.UTC(2026, 10, 23), untilMs: Date.UTC(2027, 1, 23) };
/**
 * What the issue asks of the public API while a hostile calendar is read: an answer within 100 ms.
 * The test machine is shared (two cores, several suites at once), where the scheduler alone holds a
 * process for a tenth of a second now and then; so most answers must come within 100 ms, and every
 * one within MAX_ANSWER_MS, while a calendar read on the thread that answers held it 4 to 60 s.
 * Measured in eight runs of the server-process test below on that machine with a load average of 5
 * to 13 (other suites running): the median answer took 0-8 ms; the slowest per run 63-428 ms for
 * /health and 37-358 ms for GET /time-slots, and up to 4.3% of one run's answers took over 100 ms
 * (GET /time-slots on PostgreSQL). "Every answer within 100 ms" would fail there on load alone.
 */
const ANSWER_WITHIN_MS = 100;
/** The share of answers that must come within ANSWER_WITHIN_MS. */
const ANSWERED_IN_TIME = 0.95;
/** The slowest any answer may be. */
const MAX_ANSWER_MS = 500;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("zone definitions, date lists and calendar sizes no calendar program writes", () => {
  for (const freq of ["HOURLY", "SECONDLY"] as const) {
    it(`refuses a VTIMEZONE whose rule repeats ${freq} from 1601 at once, naming the zone and why`, () => {
      const read = () => busyFromICalendar(zoneRepeating(freq), WINDOW, "UTC");
      expect(read).toThrow(CalendarFormatError);
      expect(read).toThrow(
        `The time zone Europe/Hostile is refused: its STANDARD rule repeats ${freq}, while a zone changes its offset a few times a year at most (FREQ=YEARLY).`,
      );
    });
  }

  it("refuses a zone whose yearly rules change the offset every day, and keeps reading real zones with several rules", () => {
    const daily = zoneRepeating("HOURLY").replace("RRULE:FREQ=HOURLY", "RRULE:FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU");
    expect(() => busyFromICalendar(daily, WINDOW, "UTC")).toThrow("its rules change the offset about 371 times a year, more than 24");
    const hourly = zoneRepeating("HOURLY").replace("RRULE:FREQ=HOURLY", "RRULE:FREQ=YEARLY;BYMONTH=3;BYHOUR=1,2,3");
    expect(() => busyFromICalendar(hourly, WINDOW, "UTC")).toThrow("its STANDARD rule has BYHOUR, which no zone needs");
    // Central European time as Outlook writes it, from 1601: 09:00 in winter is 08:00Z.
    const real = zoneRepeating("HOURLY").replace(
      ["BEGIN:STANDARD", "DTSTART:16010101T000000", "RRULE:FREQ=HOURLY", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD"].join("\r\n"),
      [
        "BEGIN:STANDARD",
        "DTSTART:16011028T030000",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "END:STANDARD",
        "BEGIN:DAYLIGHT",
        "DTSTART:16010325T020000",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "END:DAYLIGHT",
      ].join("\r\n"),
    );
    expect(busyFromICalendar(real, WINDOW, "UTC")).toEqual([{ startMs: Date.parse("2026-11-25T08:00:00Z"), endMs: Date.parse("2026-11-25T09:00:00Z") }]);
  });

  it("refuses an event listing more RDATE values than MAX_DATES_PER_EVENT before building them, and reads one listing that many", () => {
    expect(() => busyFromICalendar(manyRdates(300_000), WINDOW, "UTC")).toThrow(
      `The event rdates@hostile.example lists 300000 RDATE and EXDATE values, more than ${MAX_DATES_PER_EVENT}.`,
    );
    // Hourly from 2020: the last of 10 000 lands on 21 February 2021, before the window; DTSTART and all.
    const busy = busyFromICalendar(manyRdates(MAX_DATES_PER_EVENT), { fromMs: Date.UTC(2021, 1, 21), untilMs: Date.UTC(2021, 1, 22) }, "UTC");
    expect(busy.length).toBeGreaterThan(0);
  });

  it("refuses a calendar whose events and series' instances pass MAX_INSTANCES_PER_CALENDAR (a thousand series repeating every second), and reads one of 100 000 events", () => {
    expect(() => busyFromICalendar(secondlySeries(1_000), WINDOW, "UTC")).toThrow(
      `The calendar holds more than ${MAX_INSTANCES_PER_CALENDAR} events and instances of series.`,
    );
    // Each series alone stays within its own cap, in the window.
    expect(busyFromICalendar(secondlySeries(1), WINDOW, "UTC")).toHaveLength(MAX_INSTANCES_PER_SERIES);
    expect(busyFromICalendar(manyEvents(100_000), WINDOW, "UTC")).toHaveLength(100_000);
  });
});

describe("the expansion threads", () => {
  const feed = (href: string, ics: string) => ({ href, ics });

  it("answer each object's intervals and name the objects they cannot read, keeping the others", async () => {
    const workers = new ExpansionWorkers({ threads: 1 });
    cleanups.push(() => workers.close());
    const outcome = await workers.expandObjects(
      [feed("/cal/a.ics", manyEvents(2)), feed("/cal/bomb.ics", zoneRepeating("SECONDLY")), feed("/cal/junk.ics", "not a calendar")],
      WINDOW,
      "UTC",
      new AbortController().signal,
    );
    // Merged, as the store keeps them: the meetings overlap.
    expect(outcome.intervals).toEqual([{ startMs: Date.parse("2026-11-24T09:00:00Z"), endMs: Date.parse("2026-11-24T10:01:00Z") }]);
    expect(outcome.errors.map((e) => e.href)).toEqual(["/cal/bomb.ics", "/cal/junk.ics"]);
    expect(outcome.errors[0]!.reason).toContain("The time zone Europe/Hostile is refused");
  });

  it("end a thread whose object passes its deadline, leave that object out with the reason, and read the others on a fresh thread", async () => {
    const workers = new ExpansionWorkers({ threads: 1, deadlineMs: 1_000 });
    cleanups.push(() => workers.close());
    // A thousand series repeating every second take many seconds to expand.
    const objects = [
      feed("/cal/before.ics", manyEvents(1)),
      feed("/cal/slow.ics", secondlySeries(1_000)),
      feed("/cal/after.ics", manyEvents(1, Date.UTC(2026, 10, 25, 9))),
    ];
    const outcome = await workers.expandObjects(objects, WINDOW, "UTC", new AbortController().signal);
    expect(outcome.errors).toEqual([{ href: "/cal/slow.ics", reason: "reading it took longer than 1 s; given up" }]);
    expect(outcome.intervals).toEqual([
      { startMs: Date.parse("2026-11-24T09:00:00Z"), endMs: Date.parse("2026-11-24T10:00:00Z") },
      { startMs: Date.parse("2026-11-25T09:00:00Z"), endMs: Date.parse("2026-11-25T10:00:00Z") },
    ]);
    expect(workers.threads).toBe(1);
  });

  it("end a thread whose object makes the process's memory grow past the cap, leaving that object out", async () => {
    // 100 000 events take about half a GiB to read.
    const workers = new ExpansionWorkers({ threads: 1, memoryBytes: 256 * 1024 ** 2 });
    cleanups.push(() => workers.close());
    const outcome = await workers.expandObjects([feed("/cal/huge.ics", manyEvents(100_000))], WINDOW, "UTC", new AbortController().signal);
    expect(outcome).toEqual({ intervals: [], errors: [{ href: "/cal/huge.ics", reason: "reading it took more than 256 MiB of memory; given up" }] });
    expect(workers.threads).toBe(0);
  });

  it("end the jobs under way when closed (the sync stopping), and read again after", async () => {
    const workers = new ExpansionWorkers({ threads: 1 });
    cleanups.push(() => workers.close());
    const never = new AbortController().signal;
    const under = workers.expandObjects([feed("/cal/huge.ics", manyEvents(100_000))], WINDOW, "UTC", never);
    const outcome = under.then(
      () => "read",
      (error: unknown) => String(error),
    );
    expect(workers.threads).toBe(1);
    await workers.close();
    expect(await outcome).toBe("Error: the calendar reader was closed");
    expect(workers.threads).toBe(0);
    expect((await workers.expandObjects([feed("/cal/small.ics", manyEvents(1))], WINDOW, "UTC", never)).intervals).toHaveLength(1);
  });

  it("keep a thread for the jobs that follow, and end it once it has had none for a while", async () => {
    const workers = new ExpansionWorkers({ threads: 1, idleMs: 200 });
    cleanups.push(() => workers.close());
    const never = new AbortController().signal;
    await workers.expandObjects([feed("/cal/a.ics", manyEvents(1))], WINDOW, "UTC", never);
    await workers.expandObjects([feed("/cal/b.ics", manyEvents(1))], WINDOW, "UTC", never);
    expect(workers.threads).toBe(1);
    for (let waited = 0; workers.threads > 0 && waited < 5_000; waited += 20) await Bun.sleep(20);
    expect(workers.threads).toBe(0);
  });

  it("end the job under way when its signal aborts (the sync's deadline, the server stopping), and the jobs waiting for a thread", async () => {
    const workers = new ExpansionWorkers({ threads: 1 });
    cleanups.push(() => workers.close());
    const stopping = new AbortController();
    const under = workers.expandObjects([feed("/cal/huge.ics", manyEvents(100_000))], WINDOW, "UTC", stopping.signal);
    const waiting = workers.expandObjects([feed("/cal/small.ics", manyEvents(1))], WINDOW, "UTC", stopping.signal);
    const outcomes = Promise.allSettled([under, waiting]);
    stopping.abort(new Error("the server is stopping"));
    expect((await outcomes).map((o) => (o.status === "rejected" ? String(o.reason) : o.status))).toEqual([
      "Error: the server is stopping",
      "Error: the server is stopping",
    ]);
    expect(workers.threads).toBe(0);
  });
});

describe("a source that keeps failing", () => {
  it("waits its freshness after one failure, then twice as long after each further one, up to MAX_RETRY_WAIT_MS, and its freshness again after a success", async () => {
    const env = await setup();
    const et = await env.eventType();
    const sync = new CalendarSync(env.store, () => env.clock.now(), { freshnessMinutes: 15, allowPrivateAddresses: true }, new ExpansionWorkers());
    cleanups.push(() => sync.stop());
    const source = await env.store.busy.add(
      {
        hostId: await hostOf(env.store, et.id),
        kind: "ical",
        url: "https://calendar.example.com/a.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      env.clock.now(),
    );
    const at = env.clock.now();
    const MINUTE = 60_000;
    const waitAfter = async (failures: number) => {
      const s = (await env.store.busy.byId(source.id))!;
      expect(s.failureCount).toBe(failures);
      let minutes = 1;
      while (!sync.isDue(s, at + minutes * MINUTE)) minutes++;
      return minutes;
    };
    const waits: number[] = [];
    for (let failures = 1; failures <= 7; failures++) {
      await env.store.busy.recordFailure(source.id, at, "the feed answered HTTP 503");
      waits.push(await waitAfter(failures));
    }
    expect(waits).toEqual([15, 30, 60, 120, 240, MAX_RETRY_WAIT_MS / MINUTE, MAX_RETRY_WAIT_MS / MINUTE]);
    await env.store.busy.recordSync(source.id, { atMs: at, syncState: {}, upserts: [], deletes: [], intervals: null, expandedUntilMs: null });
    expect(await waitAfter(0)).toBe(15);
  });
});

describe("an unreadable object among readable ones (a real Radicale)", () => {
  let radicale: Radicale;
  beforeAll(async () => {
    radicale = await startRadicale();
  });
  afterAll(async () => {
    await radicale?.stop();
  });

  it("is left out and named with its reason in the source's status while the others block their slots; fixed, it counts again", async () => {
    const env = await setup();
    const et = await env.eventType();
    const cal = await radicale.makeCalendar(`freeze-${process.pid}-${ENGINE}`);
    // Tuesday 24 November: a meeting at 09:00Z; the zone bomb (Radicale stores it) at 08:00Z.
    await radicale.put(cal, "meeting.ics", manyEvents(1));
    const bomb = await radicale.put(
      cal,
      "bomb.ics",
      zoneRepeating("HOURLY").replace("20261125T090000", "20261124T090000").replace("20261125T100000", "20261124T100000"),
    );
    const added = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, {
      kind: "caldav",
      url: cal,
      username: radicale.user,
      password: radicale.password,
    });
    expect(added.status).toBe(200);
    const synced = await env.admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`);
    expect(synced.status).toBe(200);
    expect(synced.body.data.sync).toMatchObject({ ok: true, downloaded: 2, error: null });
    expect(synced.body.data.source).toMatchObject({ status: "ok", lastError: null, objects: 2, busyIntervals: 1 });
    expect(synced.body.data.source.skippedObjects).toEqual([
      {
        href: expect.stringMatching(/\/bomb\.ics$/),
        reason:
          "The time zone Europe/Hostile is refused: its STANDARD rule repeats HOURLY, while a zone changes its offset a few times a year at most (FREQ=YEARLY).",
      },
    ]);
    expect(bomb).toMatch(/\/bomb\.ics$/);
    const tuesday = await env.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: et.token });
    const starts = tuesday.body.data.map((s: { startIso8601: string }) => s.startIso8601);
    expect(starts).not.toContain("2026-11-24T09:00:00Z");
    expect(starts).toContain("2026-11-24T08:00:00Z");

    await radicale.put(cal, "bomb.ics", manyEvents(1).replace("event-0@", "zone-bomb@").replace("20261124T090000Z", "20261124T080000Z"));
    const again = await env.admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`);
    expect(again.body.data.source).toMatchObject({ status: "ok", skippedObjects: [], busyIntervals: 1 });
    const fixed = await env.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: et.token });
    expect(fixed.body.data.map((s: { startIso8601: string }) => s.startIso8601)).not.toContain("2026-11-24T08:00:00Z");
  });
});

/** How the answers to one path came: how many, the slowest, the share within ANSWER_WITHIN_MS, the failures and the times sorted (for the message of a failed check). */
interface Answers {
  answers: number;
  slowestMs: number;
  inTime: number;
  failures: string[];
  sortedMs: number[];
}

/**
 * Asks each path (the health check, a public API request with its token) in turn every 20 ms until
 * stopped, each answer timed; answers how each path's answers came.
 */
function poll(base: string, requests: { path: string; token?: string }[]) {
  let stopped = false;
  let rounds = 0;
  const waiting: { rounds: number; resolve: () => void }[] = [];
  const times = requests.map((): number[] => []);
  const failures = requests.map((): string[] => []);
  const done = (async () => {
    while (!stopped) {
      const roundAt = performance.now();
      for (const [i, { path, token }] of requests.entries()) {
        const startedAt = performance.now();
        try {
          const response = await fetch(`${base}${path}`, {
            headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(5_000),
          });
          await response.text();
          if (response.status !== 200) failures[i]!.push(`HTTP ${response.status}`);
        } catch (error) {
          failures[i]!.push(String(error));
        }
        times[i]!.push(performance.now() - startedAt);
      }
      rounds++;
      for (const w of waiting.filter((w) => w.rounds <= rounds)) w.resolve();
      await Bun.sleep(Math.max(0, 20 - (performance.now() - roundAt)));
    }
  })();
  return {
    /** Resolves once every path has been asked `count` times. */
    rounds: (count: number) => new Promise<void>((resolve) => (count <= rounds ? resolve() : waiting.push({ rounds: count, resolve }))),
    async stop(): Promise<Answers[]> {
      stopped = true;
      await done;
      return requests.map((_, i) => {
        const sortedMs = times[i]!.map((ms) => Math.round(ms)).sort((a, b) => a - b);
        return {
          answers: sortedMs.length,
          slowestMs: sortedMs.at(-1) ?? Infinity,
          inTime: sortedMs.filter((ms) => ms < ANSWER_WITHIN_MS).length / sortedMs.length,
          failures: failures[i]!,
          sortedMs,
        };
      });
    },
  };
}

describe("calendars built to freeze the server, in a server process", () => {
  // The server runs on the real clock: the meetings are tomorrow.
  const tomorrow = new Date();
  const tomorrowAt9 = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate() + 1, 9);
  const feeds: Record<string, string> = {
    "/zone-hourly.ics": zoneRepeating("HOURLY"),
    "/zone-secondly.ics": zoneRepeating("SECONDLY"),
    "/rdates.ics": manyRdates(300_000),
    "/events.ics": manyEvents(100_000, tomorrowAt9),
    "/secondly.ics": secondlySeries(1_000),
    "/good.ics": manyEvents(1, tomorrowAt9),
  };
  /** An instant's UTC digits as an iCalendar local date-time (YYYYMMDDTHHMMSS), for the zone bomb's meeting tomorrow. */
  const local = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").slice(0, 15);
  let feedServer: ReturnType<typeof Bun.serve>;
  let radicale: Radicale;
  let calendarUrl: string;
  let dir: string;
  const schema = `freeze_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const servers: ServerProcess[] = [];

  beforeAll(() => {
    feedServer = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => {
        const text = feeds[new URL(request.url).pathname];
        return text === undefined ? new Response("not found", { status: 404 }) : new Response(text, { headers: { "content-type": "text/calendar" } });
      },
    });
    dir = mkdtempSync(join(tmpdir(), "calendar-freeze-"));
  });
  beforeAll(async () => {
    // The zone bomb as a CalDAV object (Radicale stores it) beside an ordinary meeting, tomorrow.
    radicale = await startRadicale();
    calendarUrl = await radicale.makeCalendar(`freeze-process-${process.pid}-${ENGINE}`);
    await radicale.put(calendarUrl, "meeting.ics", manyEvents(1, tomorrowAt9 + 2 * 3_600_000).replace("event-0@", "caldav-meeting@"));
    await radicale.put(
      calendarUrl,
      "bomb.ics",
      zoneRepeating("HOURLY")
        .replace("20261125T090000", local(tomorrowAt9))
        .replace("20261125T100000", local(tomorrowAt9 + 3_600_000)),
    );
  });
  afterAll(async () => {
    for (const server of servers) await server.kill("SIGKILL");
    await feedServer?.stop(true);
    await radicale?.stop();
    rmSync(dir, { recursive: true, force: true });
    if (ENGINE === "postgres") {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  const tomorrowDate = new Date(tomorrowAt9).toISOString().slice(0, 10);

  /** Checks the answers to /health and to GET /time-slots, in the order `poll` was given them. */
  function expectLive(when: string, [health, slots]: Answers[]) {
    for (const [path, answers] of [
      ["/health", health!],
      ["/time-slots", slots!],
    ] as const) {
      const where = `${path} ${when}: ${JSON.stringify(answers.sortedMs.slice(-20))} ms the slowest of ${answers.answers}`;
      expect(answers.failures, where).toEqual([]);
      expect(answers.answers, where).toBeGreaterThan(3);
      expect(answers.inTime, where).toBeGreaterThanOrEqual(ANSWERED_IN_TIME);
      expect(answers.slowestMs, where).toBeLessThan(MAX_ANSWER_MS);
    }
  }

  /** The server on this suite's database (the engine of the project), the admin API on. */
  async function start(): Promise<ServerProcess> {
    const database: Record<string, string> =
      ENGINE === "postgres" ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : { BOOKING_DB: join(dir, "booking.sqlite") };
    const server = await startServerProcess({
      ...database,
      BOOKING_ADMIN_KEY: ADMIN_KEY,
      BOOKING_CALENDAR_ALLOW_PRIVATE: "1",
      RATE_LIMIT_PER_MINUTE: "1000000",
      STRIPE_STANDIN: "0",
    });
    servers.push(server);
    return server;
  }

  async function admin(server: ServerProcess, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { data: any } };
  }

  it("keeps /health and GET /time-slots answering within 100 ms while it reads each of them (the zone bomb also as a CalDAV object) at its start on the poisoned database, fails those past their limits, and starts at once again after", async () => {
    // The calendars are added, and the server stops before syncing any: all of them are due at the next start.
    const first = await start();
    const created = await admin(first, "POST", "/admin/event-types", { title: "Freeze", timezone: "UTC", durationMinutes: 30 });
    expect(created.status).toBe(200);
    const eventTypeId = created.body.data.id as number;
    const eventTypeToken = created.body.data.token as string;
    const ids: Record<string, number> = {};
    for (const path of Object.keys(feeds)) {
      const added = await admin(first, "POST", `/admin/event-types/${eventTypeId}/busy-sources`, {
        kind: "ical",
        url: `http://127.0.0.1:${feedServer.port}${path}`,
      });
      expect(added.status).toBe(200);
      ids[path] = added.body.data.id;
    }
    const caldav = await admin(first, "POST", `/admin/event-types/${eventTypeId}/busy-sources`, {
      kind: "caldav",
      url: calendarUrl,
      username: radicale.user,
      password: radicale.password,
    });
    expect(caldav.status).toBe(200);
    await first.stop();

    // The restart on the poisoned database: its first pass reads every calendar.
    const second = await start();
    const api = [{ path: "/health" }, { path: `/time-slots?from=${tomorrowDate}&until=${tomorrowDate}`, token: eventTypeToken }];
    const during = poll(second.base, api);
    const list = async () => (await admin(second, "GET", `/admin/event-types/${eventTypeId}/busy-sources`)).body.data as any[];
    let sources: any[] = [];
    await waitFor(
      async () => (sources = await list()).every((s) => s.lastAttemptAt !== null),
      120_000,
      "the first pass after the restart to try every calendar (a source still without lastAttemptAt)",
    );
    expectLive("while reading", await during.stop());

    const byPath = (path: string) => sources.find((s) => s.id === ids[path]);
    for (const [path, freq] of [
      ["/zone-hourly.ics", "HOURLY"],
      ["/zone-secondly.ics", "SECONDLY"],
    ] as const) {
      expect(byPath(path)).toMatchObject({ status: "failing", objects: 0, busyIntervals: 0 });
      expect(byPath(path).lastError).toContain(`The time zone Europe/Hostile is refused: its STANDARD rule repeats ${freq}`);
    }
    expect(byPath("/rdates.ics")).toMatchObject({ status: "failing", objects: 0 });
    expect(byPath("/rdates.ics").lastError).toContain("lists 300000 RDATE and EXDATE values, more than 10000");
    expect(byPath("/events.ics")).toMatchObject({ status: "ok", objects: 1, busyIntervals: 1, skippedObjects: [] });
    expect(byPath("/secondly.ics")).toMatchObject({ status: "failing", objects: 0 });
    expect(byPath("/secondly.ics").lastError).toContain(`The calendar holds more than ${MAX_INSTANCES_PER_CALENDAR} events and instances of series.`);
    expect(byPath("/good.ics")).toMatchObject({ status: "ok", objects: 1, busyIntervals: 1 });
    // Through CalDAV the bomb is one object left out with its reason; the meeting beside it blocks.
    const fromCaldav = sources.find((s) => s.id === caldav.body.data.id);
    expect(fromCaldav).toMatchObject({ status: "ok", objects: 2, busyIntervals: 1 });
    expect(fromCaldav.skippedObjects).toEqual([
      {
        href: expect.stringMatching(/\/bomb\.ics$/),
        reason: expect.stringContaining("The time zone Europe/Hostile is refused: its STANDARD rule repeats HOURLY"),
      },
    ]);
    await second.stop();

    // Started again: it answers at once, and the sources that failed wait before they are tried again.
    const third = await start();
    const again = poll(third.base, api);
    const after = (await admin(third, "GET", `/admin/event-types/${eventTypeId}/busy-sources`)).body.data as any[];
    await again.rounds(20);
    expectLive("after the restart", await again.stop());
    for (const path of ["/zone-hourly.ics", "/zone-secondly.ics", "/rdates.ics", "/secondly.ics"]) {
      expect(after.find((s) => s.id === ids[path]).lastAttemptAt).toBe(byPath(path).lastAttemptAt);
    }
    await third.stop();
  }, 240_000);
});
