import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, expectFailure, setup, waitFor, type Answer, hostOf } from "./utils.ts";
import { startRadicale, type Radicale } from "./radicale.ts";
import { boundedText, guardedFetch } from "../src/modules/calendars/fetch.ts";
import { blockedByBusy, busyChecker, coversWhole } from "../src/domain/busy.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z; the default event type offers
// 30-minute slots 09:00-17:00 in Prague (UTC+1) on weekdays: Tuesday's 16 slots start 08:00Z to 15:30Z.

const TUESDAY = "/time-slots?from=2026-11-24&until=2026-11-24";
const starts = (r: Answer): string[] => r.body.data.map((s: { startIso8601: string }) => s.startIso8601);
const visitor = { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" };

/** One VCALENDAR with the given VEVENT bodies (lines without BEGIN/END). */
function calendar(...events: string[][]): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//booking-calendar tests//EN"];
  for (const e of events) lines.push("BEGIN:VEVENT", "DTSTAMP:20261101T000000Z", ...e, "END:VEVENT");
  lines.push("END:VCALENDAR", "");
  return lines.join("\r\n");
}
/** A timed event in UTC: `0910` style times on `day` (YYYYMMDD). */
const timed = (uid: string, day: string, from: string, until: string, extra: string[] = []) => [
  `UID:${uid}`,
  `DTSTART:${day}T${from}00Z`,
  `DTEND:${day}T${until}00Z`,
  `SUMMARY:${uid}`,
  ...extra,
];

let radicale: Radicale;
let calendars = 0;

beforeAll(async () => {
  radicale = await startRadicale();
});
afterAll(async () => {
  await radicale?.stop();
});

/** A fresh app with one event type and an empty Radicale calendar of its own. */
async function world(options: Parameters<typeof setup>[0] = {}) {
  const env = await setup(options);
  const et = await env.eventType();
  const cal = await radicale.makeCalendar(`cal-${process.pid}-${++calendars}`);
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  const addSource = (body: Record<string, unknown>) => env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, body);
  const addCalDav = async (url = cal) => {
    const r = await addSource({ kind: "caldav", url, username: radicale.user, password: radicale.password });
    expect(r.status).toBe(200);
    return r.body.data.id as number;
  };
  const sync = (id: number) => env.admin("POST", `/admin/busy-sources/${id}/sync`);
  return { ...env, et, cal, call, addSource, addCalDav, sync };
}

describe("calendars that block slots: CalDAV (a real Radicale)", () => {
  it("leaves out the slots a synced calendar is busy in (recurring and all-day events too, free ones not) and refuses to book them", async () => {
    const w = await world();
    await radicale.put(w.cal, "meeting.ics", calendar(timed("meeting", "20261124", "0910", "0950")));
    // Free time the organizer marked as such: it blocks nothing.
    await radicale.put(w.cal, "focus.ics", calendar(timed("focus", "20261124", "1200", "1300", ["TRANSP:TRANSPARENT"])));
    // A daily stand-up from Monday on, 14:00-14:15Z.
    await radicale.put(w.cal, "standup.ics", calendar(timed("standup", "20261123", "1400", "1415", ["RRULE:FREQ=DAILY;COUNT=5"])));
    // Wednesday is a day off, all day in the organizer's zone.
    await radicale.put(w.cal, "off.ics", calendar(["UID:off", "DTSTART;VALUE=DATE:20261125", "DTEND;VALUE=DATE:20261126", "SUMMARY:off"]));
    const free = starts(await w.call("GET", TUESDAY));
    expect(free).toHaveLength(16);

    const id = await w.addCalDav();
    const synced = await w.sync(id);
    expect(synced.status).toBe(200);
    expect(synced.body.data.sync).toMatchObject({ ok: true, changed: true, downloaded: 4, error: null });

    const tuesday = await w.call("GET", TUESDAY);
    expect(tuesday.status).toBe(200);
    expect(starts(tuesday)).toEqual(free.filter((s) => !["2026-11-24T09:00:00Z", "2026-11-24T09:30:00Z", "2026-11-24T14:00:00Z"].includes(s)));
    expect(starts(tuesday)).toContain("2026-11-24T12:00:00Z");
    expect(starts(await w.call("GET", "/time-slots?from=2026-11-25&until=2026-11-25"))).toEqual([]);

    const busy = await w.call("POST", "/reservations", { ...visitor, start: "2026-11-24T10:00:00+01:00", end: "2026-11-24T10:30:00+01:00" });
    expectFailure(busy, "slot_unavailable");
    const held = await w.call("POST", "/reservations/prepare", { ...visitor, start: "2026-11-24T15:00:00+01:00", end: "2026-11-24T15:30:00+01:00" });
    expectFailure(held, "slot_unavailable");
    const next = await w.call("POST", "/reservations", { ...visitor, start: "2026-11-24T09:30:00+01:00", end: "2026-11-24T10:00:00+01:00" });
    expect(next.body.success).toBe(true);
    const moved = await w.call("PUT", `/reservations/${next.body.data.uuid}`, { start: "2026-11-25T10:00:00+01:00", end: "2026-11-25T10:30:00+01:00" });
    expectFailure(moved, "slot_unavailable");

    const listed = await w.admin("GET", `/admin/event-types/${w.et.id}/busy-sources`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      id,
      kind: "caldav",
      url: w.cal,
      username: radicale.user,
      credentialsSet: true,
      status: "ok",
      stale: false,
      lastError: null,
      objects: 4,
    });
    expect(listed.body.data[0].busyIntervals).toBeGreaterThanOrEqual(6);
    // The password is never given back, by any answer.
    for (const r of [listed, synced]) expect(r.text).not.toContain(radicale.password);
  });

  it("refreshes the cached slot page when a sync changes the busy times, and downloads only what changed", async () => {
    const w = await world();
    await radicale.put(w.cal, "a.ics", calendar(timed("a", "20261124", "0910", "0950")));
    const id = await w.addCalDav();
    expect((await w.sync(id)).body.data.sync).toMatchObject({ ok: true, downloaded: 1, changed: true });
    const before = starts(await w.call("GET", TUESDAY));
    expect(before).toHaveLength(14);
    // Served again from the cache...
    expect(starts(await w.call("GET", TUESDAY))).toEqual(before);

    // Nothing changed: the collection's ctag says so, and no object is listed or downloaded.
    const seen = radicale.requests().length;
    expect((await w.sync(id)).body.data.sync).toMatchObject({ ok: true, downloaded: 0, changed: false });
    expect(
      radicale
        .requests()
        .slice(seen)
        .filter((r) => r.method === "REPORT"),
    ).toEqual([]);

    // One new object: only it is downloaded, and the cached page is replaced.
    await radicale.put(w.cal, "b.ics", calendar(timed("b", "20261124", "1300", "1330")));
    expect((await w.sync(id)).body.data.sync).toMatchObject({ ok: true, downloaded: 1, changed: true });
    const after = starts(await w.call("GET", TUESDAY));
    expect(after).toEqual(before.filter((s) => s !== "2026-11-24T13:00:00Z"));

    // A deleted object frees its slots again, with nothing to download.
    await radicale.remove(`${w.cal}a.ics`);
    expect((await w.sync(id)).body.data.sync).toMatchObject({ ok: true, downloaded: 0, changed: true });
    const freed = starts(await w.call("GET", TUESDAY));
    expect(freed).toContain("2026-11-24T09:00:00Z");
    expect(freed).toContain("2026-11-24T09:30:00Z");
    expect(freed).not.toContain("2026-11-24T13:00:00Z");
    const view = (await w.admin("GET", `/admin/busy-sources/${id}`)).body.data;
    expect(view).toMatchObject({ objects: 1, busyIntervals: 1, status: "ok" });
  });

  it("keeps the last good busy times of a source that fails, reports it, and the public API still answers", async () => {
    const w = await world();
    await radicale.put(w.cal, "a.ics", calendar(timed("a", "20261124", "0910", "0950")));
    const id = await w.addCalDav();
    expect((await w.sync(id)).body.data.sync.ok).toBe(true);
    const good = starts(await w.call("GET", TUESDAY));
    expect(good).not.toContain("2026-11-24T09:00:00Z");

    // The calendar is deleted on the server: the sync fails, nothing of the last good data is lost.
    await radicale.remove(w.cal);
    const failed = await w.sync(id);
    expect(failed.status).toBe(200);
    expect(failed.body.data.sync).toMatchObject({ ok: false, changed: false });
    expect(failed.body.data.sync.error).toMatch(/no calendar exists/);
    expect(failed.body.data.source).toMatchObject({ status: "failing", objects: 1, busyIntervals: 1 });
    expect(failed.body.data.source.lastFailureAt).toBe("2026-11-23T07:00:00Z");
    expect(failed.body.data.source.lastSuccessAt).toBe("2026-11-23T07:00:00Z");

    const slots = await w.call("GET", TUESDAY);
    expect(slots.status).toBe(200);
    expect(starts(slots)).toEqual(good);
    expectFailure(
      await w.call("POST", "/reservations", { ...visitor, start: "2026-11-24T10:00:00+01:00", end: "2026-11-24T10:30:00+01:00" }),
      "slot_unavailable",
    );
    expect(w.logs.some((l) => l.level === "warn" && /failed to sync/.test(l.message))).toBe(true);

    // A wrong password fails the same way, saying why, and never echoes a credential.
    const wrong = await w.addSource({ kind: "caldav", url: radicale.base, username: radicale.user, password: "not-the-password" });
    const denied = await w.sync(wrong.body.data.id);
    expect(denied.body.data.sync.ok).toBe(false);
    expect(denied.body.data.sync.error).toMatch(/401/);
    expect(denied.text).not.toContain("not-the-password");
  });

  it("discovers every calendar of the account from the server's URL, or reads only the chosen ones", async () => {
    const w = await world();
    const other = await radicale.makeCalendar(`other-${process.pid}-${++calendars}`);
    await radicale.put(w.cal, "a.ics", calendar(timed("a", "20261124", "0910", "0950")));
    await radicale.put(other, "b.ics", calendar(timed("b", "20261124", "1300", "1330")));
    const chosen = await w.addSource({
      kind: "caldav",
      url: radicale.base,
      username: radicale.user,
      password: radicale.password,
      calendars: [new URL(other).pathname],
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.calendars).toEqual([other]);
    expect((await w.sync(chosen.body.data.id)).body.data.sync).toMatchObject({ ok: true, downloaded: 1 });
    const slots = starts(await w.call("GET", TUESDAY));
    expect(slots).not.toContain("2026-11-24T13:00:00Z");
    expect(slots).toContain("2026-11-24T09:00:00Z");

    // The server's URL alone: discovery finds every calendar, this one's event included.
    const all = await w.addSource({ kind: "caldav", url: `${radicale.base}/`, username: radicale.user, password: radicale.password });
    const synced = await w.sync(all.body.data.id);
    expect(synced.body.data.sync.ok).toBe(true);
    expect(synced.body.data.sync.downloaded).toBeGreaterThanOrEqual(2);
    expect(starts(await w.call("GET", TUESDAY))).not.toContain("2026-11-24T09:00:00Z");

    // Removing a source gives its times back at once.
    expect((await w.admin("DELETE", `/admin/busy-sources/${all.body.data.id}`)).status).toBe(200);
    expect(starts(await w.call("GET", TUESDAY))).toContain("2026-11-24T09:00:00Z");
    expect((await w.admin("GET", `/admin/event-types/${w.et.id}/busy-sources`)).body.data.map((s: { id: number }) => s.id)).toEqual([chosen.body.data.id]);
  });
});

describe("calendars that block slots: an iCalendar feed", () => {
  /** A feed server: the body and ETag it serves can change; it answers 304 to the current ETag and counts what it sent. */
  function feedServer(body: string) {
    const state = { body, etag: '"v1"', fail: false, sent: 0, notModified: 0, conditional: [] as (string | null)[] };
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        if (state.fail) return new Response("down for maintenance", { status: 503 });
        const asked = request.headers.get("if-none-match");
        state.conditional.push(asked);
        if (asked === state.etag) {
          state.notModified++;
          return new Response(null, { status: 304, headers: { etag: state.etag } });
        }
        state.sent++;
        return new Response(state.body, { headers: { "content-type": "text/calendar", etag: state.etag } });
      },
    });
    return { state, url: `http://127.0.0.1:${server.port}/organizer.ics`, stop: () => server.stop(true) };
  }

  it("syncs a feed with its ETag (304 downloads nothing), follows its changes and keeps the last good data when it fails", async () => {
    const feed = feedServer(calendar(timed("a", "20261124", "0910", "0950")));
    try {
      const env = await setup();
      const et = await env.eventType();
      const added = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, {
        kind: "ical",
        url: feed.url.replace("http://", "webcal://"),
        freshnessMinutes: 5,
      });
      expect(added.status).toBe(200);
      expect(added.body.data).toMatchObject({
        kind: "ical",
        url: feed.url,
        credentialsSet: false,
        freshnessMinutes: 5,
        status: "never",
        stale: true,
        objects: 0,
      });
      const id = added.body.data.id;
      const sync = async () => (await env.admin("POST", `/admin/busy-sources/${id}/sync`)).body.data;
      const slots = async () => starts(await env.call("GET", TUESDAY, { token: et.token }));

      expect((await sync()).sync).toMatchObject({ ok: true, downloaded: 1, changed: true });
      expect(await slots()).not.toContain("2026-11-24T09:00:00Z");

      expect((await sync()).sync).toMatchObject({ ok: true, downloaded: 0, changed: false });
      expect(feed.state.notModified).toBe(1);
      expect(feed.state.conditional).toEqual([null, '"v1"']);

      feed.state.body = calendar(timed("b", "20261124", "1300", "1330"));
      feed.state.etag = '"v2"';
      expect((await sync()).sync).toMatchObject({ ok: true, downloaded: 1, changed: true });
      const changed = await slots();
      expect(changed).toContain("2026-11-24T09:00:00Z");
      expect(changed).not.toContain("2026-11-24T13:00:00Z");

      feed.state.fail = true;
      const failed = await sync();
      expect(failed.sync).toMatchObject({ ok: false, error: "the feed answered HTTP 503" });
      expect(failed.source).toMatchObject({ status: "failing", lastError: "the feed answered HTTP 503", objects: 1, busyIntervals: 1 });
      const r = await env.call("GET", TUESDAY, { token: et.token });
      expect(r.status).toBe(200);
      expect(starts(r)).toEqual(changed);
      expect(feed.state.sent).toBe(2);
    } finally {
      feed.stop();
    }
  });

  it("refuses a feed that is not iCalendar data, keeping nothing of it", async () => {
    const feed = feedServer("<html>not a calendar</html>");
    try {
      const env = await setup();
      const et = await env.eventType();
      const added = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, { kind: "ical", url: feed.url });
      const synced = await env.admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`);
      expect(synced.body.data.sync).toMatchObject({ ok: false, error: "the feed is not iCalendar data (no BEGIN:VCALENDAR)" });
      expect(synced.body.data.source).toMatchObject({ status: "failing", objects: 0, busyIntervals: 0 });
    } finally {
      feed.stop();
    }
  });
});

describe("managing calendars through the admin API", () => {
  it("answers the spec's JSON errors for bad input, unknown ids and missing credentials", async () => {
    const env = await setup();
    const et = await env.eventType();
    const bad = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, {
      kind: "exchange",
      url: "ftp://example.com/x",
      password: "p",
      freshnessMinutes: 0,
      calendars: "all",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("validation_failed");
    expect(Object.keys(bad.body.errors).sort()).toEqual(["calendars", "freshnessMinutes", "kind", "url", "username"]);
    const inUrl = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, { kind: "caldav", url: "https://me:pw@dav.example.com/" });
    expect(inUrl.status).toBe(422);
    expect(inUrl.body.errors.url[0]).toMatch(/not in the URL/);
    const unknownField = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, { kind: "ical", url: "https://example.com/a.ics", secret: "x" });
    expect(unknownField.status).toBe(422);

    for (const [method, path] of [
      ["GET", "/admin/event-types/999/busy-sources"],
      ["POST", "/admin/busy-sources/999/sync"],
      ["GET", "/admin/busy-sources/999"],
      ["DELETE", "/admin/busy-sources/999"],
      ["POST", "/admin/busy-sources/abc/sync"],
    ] as const) {
      const r = await env.admin(method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
    const anonymous = await env.call("GET", `/admin/event-types/${et.id}/busy-sources`);
    expect(anonymous.status).toBe(401);
    const withToken = await env.call("GET", `/admin/event-types/${et.id}/busy-sources`, { token: et.token });
    expect(withToken.status).toBe(403);
    expect(withToken.text).not.toContain(ADMIN_KEY);
  });

  it("refuses calendars on private addresses where the server is told to", async () => {
    const env = await setup({ config: { calendars: { freshnessMinutes: 15, allowPrivateAddresses: false } } });
    const et = await env.eventType();
    const r = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, { kind: "ical", url: "http://127.0.0.1:9/feed.ics" });
    expect(r.status).toBe(422);
    expect(r.body.errors.url[0]).toMatch(/private/);
    // What the fetch itself connects to is judged too (a name may resolve to a private address),
    // every redirect included, as webhooks are.
    const guarded = guardedFetch(false);
    await expect(guarded("http://127.0.0.1:9/feed.ics")).rejects.toThrow(/refused: .* non-public address 127\.0\.0\.1/);
    await expect(guarded("http://[::1]:9/feed.ics")).rejects.toThrow(/refused/);
    await expect(guarded("http://10.1.2.3/feed.ics")).rejects.toThrow(/refused/);
  });

  it("sends the calendar's credentials only to the origin they were given for, never across a redirect elsewhere", async () => {
    // Two local servers: the calendar's own, which redirects, and another that records what it is sent.
    const seen: (string | null)[] = [];
    const other = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => (seen.push(request.headers.get("authorization")), new Response("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")),
    });
    const own: ReturnType<typeof Bun.serve> = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request): Response => {
        const path = new URL(request.url).pathname;
        if (path === "/moved") return Response.redirect(`http://127.0.0.1:${own.port}/here`, 302);
        if (path === "/here") return (seen.push(request.headers.get("authorization")), new Response("ok"));
        return Response.redirect(`http://127.0.0.1:${other.port}/feed.ics`, 302);
      },
    });
    try {
      const guarded = guardedFetch(true);
      const headers = { authorization: "Basic b3JnYW5pemVyOnNlY3JldA==" };
      expect((await guarded(`http://127.0.0.1:${own.port}/moved`, { headers })).status).toBe(200);
      expect((await guarded(`http://127.0.0.1:${own.port}/elsewhere`, { headers })).status).toBe(200);
      // The same origin keeps them; another origin (another port) gets none.
      expect(seen).toEqual([headers.authorization, null]);
    } finally {
      own.stop(true);
      other.stop(true);
    }
  });
});

describe("the store's busy intervals (both engines)", () => {
  const T = Date.parse("2026-11-23T07:00:00Z");
  const at = (iso: string) => Date.parse(iso);
  const sync = (intervals: { startMs: number; endMs: number }[] | null) => ({
    atMs: T,
    syncState: {},
    upserts: [],
    deletes: [],
    intervals,
    expandedUntilMs: T + 86_400_000,
  });

  it("moves the event type's revision exactly when a sync changes its intervals, and when a source is removed", async () => {
    const env = await setup();
    const et = await env.eventType();
    const revision = async () => (await env.store.eventTypes.byId(et.id))!.revision;
    const source = await env.store.busy.add(
      {
        hostId: await hostOf(env.store, et.id),
        kind: "ical",
        url: "https://example.com/a.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      T,
    );
    const r0 = await revision();
    const busy = [{ startMs: at("2026-11-24T09:10:00Z"), endMs: at("2026-11-24T09:50:00Z") }];
    expect(await env.store.busy.recordSync(source.id, sync(busy))).toBe(true);
    const r1 = await revision();
    expect(r1).toBeGreaterThan(r0);
    // The same intervals (given unmerged and out of order): nothing changed, nothing to recompute.
    const split = [
      { startMs: at("2026-11-24T09:30:00Z"), endMs: at("2026-11-24T09:50:00Z") },
      { startMs: at("2026-11-24T09:10:00Z"), endMs: at("2026-11-24T09:30:00Z") },
    ];
    expect(await env.store.busy.recordSync(source.id, sync(split))).toBe(false);
    expect(await env.store.busy.recordSync(source.id, sync(null))).toBe(false);
    expect(await revision()).toBe(r1);
    expect(await env.store.busy.between(await hostOf(env.store, et.id), at("2026-11-24T00:00:00Z"), at("2026-11-25T00:00:00Z"))).toEqual(busy);
    expect(await env.store.busy.between(await hostOf(env.store, et.id), at("2026-11-24T09:50:00Z"), at("2026-11-25T00:00:00Z"))).toEqual([]);
    expect(await env.store.busy.remove(source.id)).toBe(true);
    expect(await revision()).toBeGreaterThan(r1);
    expect(await env.store.busy.between(await hostOf(env.store, et.id), 0, at("2027-01-01T00:00:00Z"))).toEqual([]);
    expect(await env.store.busy.remove(source.id)).toBe(false);
  });

  it("hands a seat claim the busy intervals meeting its busy span, read in the claim's transaction", async () => {
    const env = await setup();
    const et = await env.eventType();
    const source = await env.store.busy.add(
      {
        hostId: await hostOf(env.store, et.id),
        kind: "ical",
        url: "https://example.com/a.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      T,
    );
    const busy = { startMs: at("2026-11-24T09:10:00Z"), endMs: at("2026-11-24T09:50:00Z") };
    await env.store.busy.recordSync(source.id, sync([busy]));
    const seen: unknown[] = [];
    const claim = (span?: { fromMs: number; untilMs: number }) =>
      env.store.reservations.claim(
        { eventTypeId: et.id, fromMs: at("2026-11-24T09:00:00Z"), untilMs: at("2026-11-24T09:30:00Z"), nowMs: T, ...(span ? { busySpan: span } : {}) },
        (_h, _c, _n, b) => {
          seen.push(b);
          return { refuse: "slot_unavailable" };
        },
      );
    await claim({ fromMs: at("2026-11-24T09:00:00Z"), untilMs: at("2026-11-24T09:30:00Z") });
    await claim({ fromMs: at("2026-11-24T08:30:00Z"), untilMs: at("2026-11-24T09:10:00Z") });
    await claim();
    expect(seen).toEqual([[busy], [], []]);
  });

  it("refuses a booking the store's intervals block even when the slot list's source says it is free", async () => {
    // The slot list is told nothing is busy; the claim still reads the store's intervals itself.
    const env = await setup({ busy: { busyBetween: async () => [] } });
    const et = await env.eventType();
    const source = await env.store.busy.add(
      {
        hostId: await hostOf(env.store, et.id),
        kind: "ical",
        url: "https://example.com/a.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      T,
    );
    await env.store.busy.recordSync(source.id, sync([{ startMs: at("2026-11-24T09:10:00Z"), endMs: at("2026-11-24T09:50:00Z") }]));
    const r = await env.call("POST", "/reservations", {
      token: et.token,
      body: { ...visitor, start: "2026-11-24T10:00:00+01:00", end: "2026-11-24T10:30:00+01:00" },
    });
    expectFailure(r, "slot_unavailable");
    const ok = await env.call("POST", "/reservations", {
      token: et.token,
      body: { ...visitor, start: "2026-11-24T11:00:00+01:00", end: "2026-11-24T11:30:00+01:00" },
    });
    expect(ok.body.success).toBe(true);
  });
});

describe("a lapsed hold and the organizer's calendar", () => {
  it("cannot be confirmed or refreshed into time the calendar filled after its hold lapsed; without that it can", async () => {
    const env = await setup();
    const et = await env.eventType();
    const T = env.clock.now();
    const source = await env.store.busy.add(
      {
        hostId: await hostOf(env.store, et.id),
        kind: "ical",
        url: "https://example.com/a.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      T,
    );
    const hold = async (start: string, end: string) =>
      (await env.call("POST", "/reservations/prepare", { token: et.token, body: { ...visitor, start, end } })).body.data.uuid as string;
    const blocked = await hold("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
    const free = await hold("2026-11-24T11:00:00+01:00", "2026-11-24T11:30:00+01:00");
    env.clock.advance(11);
    await env.store.busy.recordSync(source.id, {
      atMs: env.clock.now(),
      syncState: {},
      upserts: [],
      deletes: [],
      intervals: [{ startMs: Date.parse("2026-11-24T09:10:00Z"), endMs: Date.parse("2026-11-24T09:20:00Z") }],
      expandedUntilMs: null,
    });
    expectFailure(await env.call("POST", `/reservations/${blocked}/refresh`, { token: et.token, body: {} }), "reservation_finished");
    expectFailure(await env.call("POST", `/reservations/${blocked}/confirm`, { token: et.token, body: {} }), "reservation_finished");
    expect((await env.call("POST", `/reservations/${free}/confirm`, { token: et.token, body: {} })).body.success).toBe(true);
  });
});

describe("busyChecker", () => {
  it("answers exactly as blockedByBusy for every slot, with buffers, nested and touching intervals", () => {
    let x = 7;
    const random = (n: number) => ((x = (x * 1_103_515_245 + 12_345) % 2 ** 31), x % n);
    for (let round = 0; round < 200; round++) {
      const rules = { bufferBeforeMinutes: random(3) * 5, bufferAfterMinutes: random(3) * 5 };
      const busy = Array.from({ length: random(12) }, () => {
        const startMs = random(200) * 5 * 60_000;
        return { startMs, endMs: startMs + (1 + random(30)) * 5 * 60_000 };
      });
      const check = busyChecker(rules, busy);
      for (let startMs = 0; startMs < 260 * 5 * 60_000; startMs += 5 * 60_000) {
        const endMs = startMs + 30 * 60_000;
        expect(check(startMs, endMs), `round ${round} at ${startMs}`).toBe(blockedByBusy(rules, startMs, endMs, busy));
      }
    }
  });
});

describe("coversWhole", () => {
  const b = (startMs: number, endMs: number) => ({ startMs, endMs });
  it("says a range is covered only when the intervals, in any order, overlapping or touching, leave no gap in it", () => {
    expect(coversWhole([b(0, 100)], 10, 90)).toBe(true);
    expect(coversWhole([b(50, 100), b(0, 50)], 0, 100)).toBe(true);
    expect(coversWhole([b(0, 60), b(40, 80), b(80, 120), b(10, 20)], 5, 110)).toBe(true);
    expect(coversWhole([b(0, 50), b(51, 100)], 0, 100)).toBe(false);
    expect(coversWhole([b(1, 100)], 0, 100)).toBe(false);
    expect(coversWhole([b(0, 99)], 0, 100)).toBe(false);
    expect(coversWhole([], 0, 100)).toBe(false);
    expect(coversWhole([b(200, 300)], 0, 100)).toBe(false);
  });
});

describe("reading a feed", () => {
  /** A streamed answer with no length, sending `chunks` chunks of 1 000 bytes and counting what was pulled. */
  const streamed = (chunks: number) => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === chunks) return controller.close();
        pulled++;
        controller.enqueue(new Uint8Array(1_000).fill(65));
      },
    });
    return { response: new Response(body), pulled: () => pulled };
  };

  it("stops reading an answer without a length once it passes the limit, and reads one within it whole", async () => {
    const big = streamed(1_000);
    await expect(boundedText(big.response, 10_000)).rejects.toThrow(/larger than 10000 bytes/);
    expect(big.pulled()).toBeLessThan(20);
    const small = streamed(3);
    expect(await boundedText(small.response, 10_000)).toBe("A".repeat(3_000));
  });
});

describe("CalDAV answers past the size limit", () => {
  const MiB = new Uint8Array(1024 * 1024).fill(0x20);

  /**
   * A proxy in front of Radicale that answers `method` with a multistatus that never ends (no
   * length declared), counting what it produced; every other request goes through to Radicale.
   */
  function oversized(method: string) {
    const state = { on: false, produced: 0, cancelled: false };
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        const url = new URL(request.url);
        if (state.on && request.method === method) {
          const body = new ReadableStream<Uint8Array>({
            start: (controller) => controller.enqueue(new TextEncoder().encode('<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">')),
            pull: (controller) => {
              state.produced += MiB.byteLength;
              controller.enqueue(MiB);
            },
            cancel: () => void (state.cancelled = true),
          });
          return new Response(body, { status: 207, headers: { "content-type": "application/xml; charset=utf-8" } });
        }
        const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
        // Uncompressed, so the answer passes through as it came.
        const headers = new Headers(request.headers);
        headers.set("accept-encoding", "identity");
        return fetch(`${radicale.base}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual" });
      },
    });
    return { state, base: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
  }

  for (const method of ["PROPFIND", "REPORT"]) {
    it(`fails the sync with the reason when a ${method} answer passes 20 MB, reading no further, and keeps the last good data`, async () => {
      const proxy = oversized(method);
      try {
        const w = await world();
        await radicale.put(w.cal, "meeting.ics", calendar(timed("meeting", "20261124", "0910", "0950")));
        const id = await w.addCalDav(w.cal.replace(radicale.base, proxy.base));
        expect((await w.sync(id)).body.data.sync).toMatchObject({ ok: true, downloaded: 1 });

        proxy.state.on = true;
        // A changed calendar, so its objects are listed again (REPORT) and not skipped by its ctag.
        await radicale.put(w.cal, "later.ics", calendar(timed("later", "20261124", "1310", "1350")));
        const synced = (await w.sync(id)).body.data;
        expect(synced.sync.ok).toBe(false);
        expect(synced.sync.error).toMatch(new RegExp(`^the answer to ${method} http://127\\.0\\.0\\.1:\\d+/\\S* is larger than 20971520 bytes$`));
        expect(synced.source).toMatchObject({ status: "failing", lastError: synced.sync.error, objects: 1, busyIntervals: 1 });
        // Read up to the limit, then the connection closed: what was produced beyond it is what the
        // sockets buffered (also of the service discovery's PROPFIND, whose answer is never read).
        expect(proxy.state.produced).toBeGreaterThan(20 * 1024 * 1024);
        expect(proxy.state.produced).toBeLessThan(64 * 1024 * 1024);
        await waitFor(() => proxy.state.cancelled, 2_000, "the oversized answer's stream to be cancelled");
        // The public API answers from the last good data.
        const slots = starts(await w.call("GET", TUESDAY));
        expect(slots).not.toContain("2026-11-24T09:00:00Z");
        expect(slots).toContain("2026-11-24T13:00:00Z");
      } finally {
        proxy.stop();
      }
    });
  }
});
