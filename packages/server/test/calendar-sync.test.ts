import { afterEach, describe, expect, it, vi } from "vitest";
import { ADMIN_KEY, openTestStore, setup, waitFor, hostOf, newFeedToken } from "./utils.ts";
import { createApp } from "../src/app.ts";
import { ManualClock } from "../src/clock.ts";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { busyFromICalendarSteps } from "../src/modules/calendars/expand.ts";
import { guardedFetch, type CalendarFetch } from "../src/modules/calendars/fetch.ts";
import { CalendarSync } from "../src/modules/calendars/sync.ts";
import { CalendarWriteDeliverer } from "../src/modules/calendars/writer.ts";
import type { OutboxDelivery } from "../src/store/outbox.ts";
import { rebindingDns } from "./rebinding.ts";

// Calendars that misbehave: they hang, answer slowly, answer too much, or resolve to one address
// for the check and another for the connection. The sync must stay within its bounds and keep the
// other sources (and the public API) going.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A local HTTP server, stopped after the test (its open connections closed). */
function serve(fetch: (request: Request) => Response | Promise<Response>) {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch });
  cleanups.push(() => server.stop(true));
  return { server, base: `http://127.0.0.1:${server.port}` };
}

/** A feed with one meeting on Tuesday 24 November 2026, 09:10-09:50 UTC. */
const FEED = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//booking-calendar tests//EN",
  "BEGIN:VEVENT",
  "UID:meeting",
  "DTSTAMP:20261101T000000Z",
  "DTSTART:20261124T091000Z",
  "DTEND:20261124T095000Z",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

/** An app's store with event types and a sync of its own (the options given, private addresses allowed). */
async function world() {
  const env = await setup();
  // Each event type of a host of its own: calendars belong to hosts.
  const eventType = async (title = "Intro call") => {
    const host = await env.store.hosts.create(
      { name: title, email: "host@example.com", timezone: "Europe/Prague", avatarUrl: null, feedToken: newFeedToken() },
      env.clock.now(),
    );
    return env.eventType({ title, hosts: [{ hostId: host.id }] });
  };
  const addFeed = async (eventTypeId: number, url: string) =>
    env.store.busy.add(
      { hostId: await hostOf(env.store, eventTypeId), kind: "ical", url, username: null, secret: null, calendars: [], freshnessMinutes: null },
      env.clock.now(),
    );
  const busy = async (eventTypeId: number) =>
    env.store.busy.between(await hostOf(env.store, eventTypeId), Date.parse("2026-11-01T00:00:00Z"), Date.parse("2027-01-01T00:00:00Z"));
  const sync = (fetchFn?: CalendarFetch, options: { syncDeadlineMs?: number; allowPrivateAddresses?: boolean } = {}) => {
    const s = new CalendarSync(
      env.store,
      () => env.clock.now(),
      { freshnessMinutes: 15, allowPrivateAddresses: true, ...options },
      busyFromICalendarSteps,
      () => undefined,
      fetchFn,
    );
    cleanups.push(() => s.stop());
    return s;
  };
  return { ...env, eventType, addFeed, busy, sync };
}

describe("calendars synced side by side", () => {
  it("brings another event type's busy times in at once while one calendar never answers, and asks the hanging one only once", async () => {
    const hung: string[] = [];
    const silent = serve((request) => {
      hung.push(new URL(request.url).pathname);
      return new Promise<Response>(() => undefined);
    });
    const feed = serve(() => new Response(FEED, { headers: { "content-type": "text/calendar" } }));
    const w = await world();
    const first = await w.eventType("Hangs");
    const second = await w.eventType("Answers");
    // The hanging calendar is the older source: a pass comes to it first.
    await w.addFeed(first.id, `${silent.base}/never.ics`);
    await w.addFeed(second.id, `${feed.base}/organizer.ics`);
    const sync = w.sync();

    const pass = sync.syncDue();
    // A second pass while the first is under way joins the hanging sync rather than starting another.
    const overlapping = sync.syncDue();
    await waitFor(async () => (await w.busy(second.id)).length === 1, 3_000, "the answering calendar's busy time beside the hanging one");
    const slots = await w.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: second.token });
    expect(slots.body.data.map((s: { startIso8601: string }) => s.startIso8601)).not.toContain("2026-11-24T09:00:00Z");
    expect(hung).toEqual(["/never.ics"]);

    // The hanging calendar's server goes away: its sync fails, the other's stands.
    silent.server.stop(true);
    const [outcomes, joined] = await Promise.all([pass, overlapping]);
    expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
    expect(joined.find((o) => !o.ok)).toEqual(outcomes.find((o) => !o.ok));
    expect(hung).toHaveLength(1);
  });

  it("runs at most 16 syncs at once and two per host, starting the queued ones as others end, each source once", async () => {
    const asked: string[] = [];
    const pending: { url: string; fail: () => void }[] = [];
    // Every calendar hangs until the test lets it fail.
    const hanging: CalendarFetch = async (input) => {
      const url = String(input);
      asked.push(url);
      await new Promise<void>((fail) => pending.push({ url, fail }));
      throw new Error("connection reset");
    };
    const w = await world();
    const busiest = await w.eventType("Five calendars");
    for (let i = 0; i < 5; i++) await w.addFeed(busiest.id, `https://calendar.example.com/busiest/${i}.ics`);
    for (let e = 0; e < 19; e++) {
      const et = await w.eventType(`Event type ${e}`);
      await w.addFeed(et.id, `https://calendar.example.com/${e}.ics`);
    }
    const sync = w.sync(hanging);
    const pass = sync.syncDue();
    await waitFor(() => asked.length === 16, 3_000, "16 calendars asked at once");
    await Bun.sleep(50);
    expect(asked).toHaveLength(16);
    expect(asked.filter((u) => u.includes("/busiest/"))).toHaveLength(2);

    // As syncs end, the queued ones start, never more than 16 at once or 2 of the busiest host.
    while (pending.length > 0) {
      pending.shift()!.fail();
      await Bun.sleep(20);
      expect(pending.length).toBeLessThanOrEqual(16);
      expect(pending.filter((p) => p.url.includes("/busiest/")).length).toBeLessThanOrEqual(2);
    }
    const outcomes = await pass;
    expect(outcomes).toHaveLength(24);
    expect(outcomes.every((o) => !o.ok && o.error === "connection reset")).toBe(true);
    expect(asked).toHaveLength(24);
    expect(new Set(asked).size).toBe(24);
  });
});

/** An app whose admin API's "sync now" goes through `sync` (made by `makeSync` on the app's store). */
async function appWithSync(makeSync: (store: Awaited<ReturnType<typeof openTestStore>>, clock: ManualClock) => CalendarSync, syncAnswerMs?: number) {
  const store = await openTestStore();
  const clock = new ManualClock("2026-11-23T07:00:00Z");
  const sync = makeSync(store, clock);
  cleanups.push(() => sync.stop());
  const app = createApp({
    store,
    clock,
    config: { adminKey: ADMIN_KEY },
    log: () => undefined,
    calendars: { sync, ...(syncAnswerMs === undefined ? {} : { syncAnswerMs }) },
  });
  const created = await new EventTypeAdmin(store, () => clock.now()).create({ title: "Intro call", timezone: "Europe/Prague" });
  const addFeed = async (url: string) =>
    store.busy.add(
      { hostId: await hostOf(store, created.id), kind: "ical", url, username: null, secret: null, calendars: [], freshnessMinutes: null },
      clock.now(),
    );
  const syncNow = async (sourceId: number) => {
    const response = await app.handle(
      new Request(`http://localhost/admin/busy-sources/${sourceId}/sync`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_KEY}` } }),
    );
    return { status: response.status, location: response.headers.get("location"), body: (await response.json()) as Record<string, any> };
  };
  const getSource = async (url: string) => {
    const response = await app.handle(new Request(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }));
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return { store, clock, sync, app, addFeed, syncNow, getSource };
}

/** Replaces the store's `busy.byId` by `read`, which may call the real one. */
function readSourcesWith(
  store: Awaited<ReturnType<typeof openTestStore>>,
  read: (real: (id: number) => ReturnType<typeof store.busy.byId>, id: number) => ReturnType<typeof store.busy.byId>,
) {
  const real = store.busy.byId.bind(store.busy);
  vi.spyOn(store.busy, "byId").mockImplementation((id: number) => read(real, id));
}

describe("the organizer's sync now", () => {
  it("joins the background worker's sync of the same source when the app is given that sync, rather than asking the calendar again", async () => {
    const asked: string[] = [];
    let answer!: () => void;
    const slow = serve(async (request) => {
      asked.push(new URL(request.url).pathname);
      await new Promise<void>((resolve) => (answer = resolve));
      return new Response(FEED, { headers: { "content-type": "text/calendar" } });
    });
    const store = await openTestStore();
    const clock = new ManualClock("2026-11-23T07:00:00Z");
    const sync = new CalendarSync(store, () => clock.now(), { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps);
    cleanups.push(() => sync.stop());
    const app = createApp({ store, clock, config: { adminKey: ADMIN_KEY }, log: () => undefined, calendars: { sync } });
    const created = await new EventTypeAdmin(store, () => clock.now()).create({ title: "Intro call", timezone: "Europe/Prague" });
    const source = await store.busy.add(
      {
        hostId: await hostOf(store, created.id),
        kind: "ical",
        url: `${slow.base}/organizer.ics`,
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      clock.now(),
    );

    const background = sync.syncDue();
    await waitFor(() => asked.length === 1, 3_000, "the slow calendar to be asked");
    const now = app.handle(
      new Request(`http://localhost/admin/busy-sources/${source.id}/sync`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_KEY}` } }),
    );
    await Bun.sleep(100);
    answer();
    const body = (await (await now).json()) as { data: { sync: { ok: boolean; downloaded: number } } };
    expect(body.data.sync).toMatchObject({ ok: true, downloaded: 1 });
    expect(await background).toEqual([expect.objectContaining({ sourceId: source.id, ok: true, downloaded: 1 })]);
    expect(asked).toEqual(["/organizer.ics"]);
  });

  it("syncs the source itself when the worker's sync it joined skipped it, synced meanwhile, rather than answering 404", async () => {
    const asked: string[] = [];
    const feed = serve((request) => {
      asked.push(new URL(request.url).pathname);
      return new Response(FEED, { headers: { "content-type": "text/calendar" } });
    });
    const w = await appWithSync(
      (store, clock) => new CalendarSync(store, () => clock.now(), { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps),
    );
    const source = await w.addFeed(`${feed.base}/organizer.ics`);
    // The worker's pass finds the source due, and reads it again just as another sync has recorded an attempt.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    readSourcesWith(w.store, async (real, id) => {
      if (reads++ === 0) await gate;
      return real(id);
    });
    const background = w.sync.syncDue();
    await waitFor(() => reads === 1, 3_000, "the pass to read the sources");
    await w.store.busy.recordFailure(source.id, w.clock.now(), "connection reset");
    const now = w.syncNow(source.id);
    await Bun.sleep(20);
    release();
    expect(await background).toEqual([]);
    const r = await now;
    expect(r.status).toBe(200);
    expect(r.body.data.sync).toMatchObject({ ok: true, downloaded: 1, error: null });
    expect(r.body.data.source).toMatchObject({ id: source.id, lastError: null });
    expect(asked).toEqual(["/organizer.ics"]);
  });

  it("answers 500 internal_error, not 404, when the store cannot read the source, also after joining a worker's sync that could not", async () => {
    const feed = serve(() => new Response(FEED, { headers: { "content-type": "text/calendar" } }));
    const w = await appWithSync(
      (store, clock) => new CalendarSync(store, () => clock.now(), { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps),
    );
    const source = await w.addFeed(`${feed.base}/organizer.ics`);
    let failing = true;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    readSourcesWith(w.store, async (real, id) => {
      reads++;
      await gate;
      if (failing) throw new Error("database is locked");
      return real(id);
    });
    const background = w.sync.syncDue();
    await waitFor(() => reads === 1, 3_000, "the pass to read the sources");
    const joined = w.syncNow(source.id);
    await Bun.sleep(20);
    release();
    expect(await background).toEqual([]);
    const r = await joined;
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ success: false, status: 500, code: "internal_error" });
    expect(reads).toBe(2);

    // With the store back, the same request syncs.
    failing = false;
    const again = await w.syncNow(source.id);
    expect(again.status).toBe(200);
    expect(again.body.data.sync).toMatchObject({ ok: true, downloaded: 1 });
    // A source that is truly gone is still 404.
    expect((await w.syncNow(source.id + 1000)).status).toBe(404);
  });

  it("answers 202 with the source syncing and where to poll it when the calendar is slower than the answer window, and the source shows the sync once it ends", async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let asked = 0;
    const slow = serve(async () => {
      asked++;
      await answered;
      return new Response(FEED, { headers: { "content-type": "text/calendar" } });
    });
    const w = await appWithSync(
      (store, clock) => new CalendarSync(store, () => clock.now(), { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps),
      200,
    );
    const source = await w.addFeed(`${slow.base}/organizer.ics`);
    try {
      // The calendar answers only once the request has been answered: without an answer window this never ends.
      const started = performance.now();
      const r = await Promise.race([w.syncNow(source.id), Bun.sleep(10_000).then(() => null)]);
      expect(r, "sync now answered while the calendar was still silent").not.toBeNull();
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(r!.status).toBe(202);
      expect(r!.body).toMatchObject({
        success: true,
        data: { state: "syncing", sync: null, source: { id: source.id, syncing: true, status: "never", lastAttemptAt: null } },
      });
      expect(r!.location).toBe(`http://localhost/admin/busy-sources/${source.id}`);
      expect(await w.getSource(r!.location!)).toMatchObject({ status: 200, body: { data: { id: source.id, syncing: true } } });
      // Asking again meanwhile joins the sync under way.
      expect((await w.syncNow(source.id)).status).toBe(202);
      expect(asked).toBe(1);
    } finally {
      answer();
    }
    // The sync goes on without its request: joining it waits for its end.
    expect(await w.sync.syncSource(source.id)).toMatchObject({ ok: true, downloaded: 1 });
    await waitFor(
      async () => (await w.getSource(`http://localhost/admin/busy-sources/${source.id}`)).body.data.syncing === false,
      3_000,
      "the source to show its sync ended",
    );
    expect((await w.getSource(`http://localhost/admin/busy-sources/${source.id}`)).body.data).toMatchObject({
      syncing: false,
      status: "ok",
      lastError: null,
      objects: 1,
    });
    expect(asked).toBe(1);
    // A sync that ends within the window is answered as before, with its outcome.
    const fast = await w.syncNow(source.id);
    expect(fast).toMatchObject({ status: 200, location: null, body: { data: { state: "done", sync: { ok: true }, source: { syncing: false } } } });
  });

  it("answers choosing a bookings calendar within the answer window with a 422 on calendar when the CalDAV server lists its calendars too slowly, changing nothing", async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let asked = 0;
    const slow = serve(async () => {
      asked++;
      await answered;
      return new Response("", { status: 404 });
    });
    cleanups.push(() => answer());
    const w = await appWithSync(
      (store, clock) => new CalendarSync(store, () => clock.now(), { freshnessMinutes: 15, allowPrivateAddresses: true }, busyFromICalendarSteps),
      200,
    );
    const hostId = (await w.addFeed(`${slow.base}/feed.ics`)).hostId;
    const source = await w.store.busy.add(
      { hostId, kind: "caldav", url: `${slow.base}/dav/`, username: "me", secret: "pw", calendars: [], freshnessMinutes: null },
      w.clock.now(),
    );
    const started = performance.now();
    const put = w.app
      .handle(
        new Request(`http://localhost/admin/busy-sources/${source.id}/write-bookings`, {
          method: "PUT",
          headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
          body: "{}",
        }),
      )
      .then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));
    // The server answers only once the request has been answered: without a bound this waits 30 s per request.
    const r = await Promise.race([put, Bun.sleep(10_000).then(() => null)]);
    expect(r, "write-bookings answered while the calendar server was still silent").not.toBeNull();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(asked).toBeGreaterThan(0);
    expect(r).toMatchObject({
      status: 422,
      body: {
        success: false,
        code: "validation_failed",
        errors: { calendar: [expect.stringMatching(/did not list the source's calendars within 0.2 s; nothing was changed/)] },
      },
    });
    const view = await w.getSource(`http://localhost/admin/busy-sources/${source.id}`);
    expect(view.body.data).toMatchObject({ writeBookings: false, writeCalendar: null });
  });
});

describe("a big calendar's expansion", () => {
  /** A feed of `count` one-hour meetings, one a day from 24 November 2026. */
  function bigFeed(count: number): string {
    const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-calendar tests//EN"];
    for (let i = 0; i < count; i++) {
      const day = new Date(Date.UTC(2026, 10, 24 + (i % 60))).toISOString().slice(0, 10).replaceAll("-", "");
      lines.push("BEGIN:VEVENT", `UID:meeting-${i}`, "DTSTAMP:20261101T000000Z", `DTSTART:${day}T090000Z`, `DTEND:${day}T100000Z`, "END:VEVENT");
    }
    return [...lines, "END:VCALENDAR", ""].join("\r\n");
  }

  /** The real expansion, each step made to cost about a millisecond of CPU, with the steps counted. */
  function slowExpansion(onStep: (steps: number) => void) {
    let steps = 0;
    return function* (ics: string, window: { fromMs: number; untilMs: number }, zone: string) {
      const real = busyFromICalendarSteps(ics, window, zone);
      for (;;) {
        const spinUntil = performance.now() + 1;
        while (performance.now() < spinUntil);
        const step = real.next();
        if (step.done) return step.value;
        onStep(++steps);
        yield;
      }
    };
  }

  it("fails past its deadline even while the expansion never waits for I/O, and writes nothing", async () => {
    const w = await world();
    const et = await w.eventType();
    const source = await w.addFeed(et.id, "https://calendar.example.com/big.ics");
    let steps = 0;
    const sync = new CalendarSync(
      w.store,
      () => w.clock.now(),
      { freshnessMinutes: 15, allowPrivateAddresses: true, syncDeadlineMs: 150 },
      slowExpansion((n) => (steps = n)),
      () => undefined,
      async () => new Response(bigFeed(600), { headers: { "content-type": "text/calendar" } }),
    );
    cleanups.push(() => sync.stop());
    const outcome = await sync.syncSource(source.id);
    expect(outcome).toMatchObject({ ok: false, error: "no complete sync within 0.15 s (a calendar answered too slowly); given up" });
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThan(600);
    expect(await w.store.busy.byId(source.id)).toMatchObject({ lastError: outcome!.error, lastSuccessAtMs: null, objectCount: 0 });
    expect(await w.busy(et.id)).toEqual([]);
  });

  it("lets timers and requests in while it expands", async () => {
    const w = await world();
    const et = await w.eventType();
    const source = await w.addFeed(et.id, "https://calendar.example.com/big.ics");
    let steps = 0;
    let timerAt: number | null = null;
    let answeredAt: number | null = null;
    let answered: Promise<unknown> = Promise.resolve();
    const expansion = slowExpansion((n) => {
      steps = n;
      if (n !== 1) return;
      // Once the expansion is under way: a timer, and a visitor asking for slots.
      setTimeout(() => (timerAt = steps), 0);
      answered = w.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: et.token }).then((r) => {
        expect(r.status).toBe(200);
        answeredAt = steps;
      });
    });
    const sync = new CalendarSync(
      w.store,
      () => w.clock.now(),
      { freshnessMinutes: 15, allowPrivateAddresses: true },
      expansion,
      () => undefined,
      async () => new Response(bigFeed(300), { headers: { "content-type": "text/calendar" } }),
    );
    cleanups.push(() => sync.stop());
    const outcome = await sync.syncSource(source.id);
    await answered;
    expect(outcome).toMatchObject({ ok: true });
    expect(steps).toBeGreaterThanOrEqual(300);
    expect(timerAt).not.toBeNull();
    expect(timerAt!).toBeLessThan(100);
    expect(answeredAt).not.toBeNull();
    // The visitor's request makes database round trips while the expansion goes on stepping: it is
    // let in when it is answered in the first half of the steps, not held until the last.
    expect(answeredAt!).toBeLessThan(steps / 2);
    expect((await w.busy(et.id)).length).toBeGreaterThan(0);
  });
});

describe("stopping the sync", () => {
  it("ends the syncs under way at once, a hanging calendar's too, recording nothing, so shutdown never waits for their deadline", async () => {
    const w = await world();
    const et = await w.eventType();
    const source = await w.addFeed(et.id, "https://calendar.example.com/hangs.ics");
    let asked = 0;
    // A fetch that pays no heed to its signal either.
    const sync = w.sync(() => {
      asked++;
      return new Promise<Response>(() => undefined);
    });
    sync.start(60_000);
    await waitFor(() => asked === 1, 3_000, "the started sync to ask its calendar");
    const running = sync.syncSource(source.id);
    const began = Date.now();
    await sync.stop();
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(await running).toMatchObject({ ok: false, error: "the server stopped before the sync completed" });
    expect(await w.store.busy.byId(source.id)).toMatchObject({ lastAttemptAtMs: null, lastError: null });
    expect(asked).toBe(1);

    // Started again, it syncs as before.
    sync.start(60_000);
    await waitFor(() => asked === 2, 3_000, "the sync started again to ask its calendar");
  });
});

describe("time a calendar may take", () => {
  it("gives up a name that does not resolve within 5 s, as webhooks do", async () => {
    const lookups: string[] = [];
    vi.spyOn(Bun.dns, "lookup").mockImplementation(((host: string) => {
      lookups.push(host);
      return new Promise(() => undefined);
    }) as typeof Bun.dns.lookup);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    cleanups.push(() => vi.useRealTimers());
    const fetched = guardedFetch(false)("https://calendar.example.com/organizer.ics");
    const outcome = fetched.then(
      () => "answered",
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(4_900);
    expect(lookups).toEqual(["calendar.example.com"]);
    await vi.advanceTimersByTimeAsync(200);
    expect(await outcome).toBe("calendar.example.com did not resolve within 5 s");
  });

  it("fails a sync that does not complete within its deadline, keeping nothing of it, even from a calendar that answers a byte at a time", async () => {
    let closed = false;
    const trickle = serve((request) => {
      request.signal.addEventListener("abort", () => (closed = true));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await Bun.sleep(sent++ === 0 ? 0 : 50);
          controller.enqueue(new TextEncoder().encode(sent === 1 ? "BEGIN:VCALENDAR\r\n" : "X"));
        },
      });
      return new Response(body, { headers: { "content-type": "text/calendar" } });
    });
    const w = await world();
    const et = await w.eventType();
    const source = await w.addFeed(et.id, `${trickle.base}/slow.ics`);
    const began = Date.now();
    const outcome = await w.sync(undefined, { syncDeadlineMs: 400 }).syncSource(source.id);
    expect(Date.now() - began).toBeLessThan(3_000);
    expect(outcome).toMatchObject({ ok: false, error: "no complete sync within 0.4 s (a calendar answered too slowly); given up" });
    const stored = (await w.store.busy.byId(source.id))!;
    expect(stored).toMatchObject({ lastError: outcome!.error, lastSuccessAtMs: null, objectCount: 0 });
    await waitFor(() => closed, 2_000, "the slow answer's connection to be closed");

    // A fetch that pays no heed to its signal cannot hold the sync past its deadline either.
    const deaf = await w.addFeed(et.id, "https://calendar.example.com/deaf.ics");
    const deafOutcome = await w.sync(() => new Promise<Response>(() => undefined), { syncDeadlineMs: 300 }).syncSource(deaf.id);
    expect(deafOutcome).toMatchObject({ ok: false, error: "no complete sync within 0.3 s (a calendar answered too slowly); given up" });
  });
});

describe("answers to a booking written into a calendar", () => {
  it("are read only so far (64 KiB) and then let go, however much a server sends", async () => {
    let produced = 0;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => {
          produced += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
    const w = await world();
    const et = await w.eventType();
    const source = await w.store.busy.add(
      {
        hostId: await hostOf(w.store, et.id),
        kind: "caldav",
        url: "https://dav.example.com/cal/",
        username: "me",
        secret: "pw",
        calendars: [],
        freshnessMinutes: null,
      },
      w.clock.now(),
    );
    const deliverer = new CalendarWriteDeliverer(w.store, async () => new Response(endless(), { status: 201 }));
    const write = { sourceId: source.id, method: "PUT", ics: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" };
    const delivery = { id: 1, channel: "caldav", url: "https://dav.example.com/cal/x.ics", payload: JSON.stringify(write), attempts: 1 } as OutboxDelivery;
    expect(await deliverer.deliver(delivery)).toMatchObject({ statusCode: 201, error: null });
    expect(produced).toBeLessThan(1024 * 1024);
  });
});

describe("where a calendar fetch connects", () => {
  it("connects to the address that was checked, so a name that answers a public address to the check and a loopback one afterwards (DNS rebinding) never reaches a loopback calendar", async () => {
    let hits = 0;
    const local = serve(() => {
      hits++;
      return new Response(FEED, { headers: { "content-type": "text/calendar" } });
    });
    const port = local.server.port;
    // `localhost` is what the system resolves to loopback at connect time; the check is asked once and told a public address.
    const url = `http://localhost:${port}/organizer.ics`;
    const { lookups, connected } = rebindingDns();
    const w = await world();
    const et = await w.eventType();
    const source = await w.addFeed(et.id, url);

    const outcome = await w.sync(undefined, { allowPrivateAddresses: false }).syncSource(source.id);
    expect(outcome).toMatchObject({ ok: false, error: "Unable to connect" });
    expect(hits).toBe(0);
    expect(lookups).toEqual(["localhost"]);
    expect(connected).toEqual([{ url: `http://93.184.215.14:${port}/organizer.ics`, host: `localhost:${port}` }]);
    expect(await w.busy(et.id)).toEqual([]);
  });
});
