import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import pg from "pg";
import { ManualClock } from "../src/clock.ts";
import { renderMail } from "../src/modules/mail/render.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { ADMIN_KEY, createHost as host, DEFAULT_HOST_ID, ENGINE, expectFailure, openTestStoreBeside, POSTGRES_URL, setup, type Answer } from "./utils.ts";
import { startRadicale, type Radicale } from "./radicale.ts";
import { hostRules, teamSlots, type HostedHolder, type HostMember } from "../src/domain/hosts.ts";
import { slotsBetween, type BusyInterval, type Slot, type SlotRules } from "../src/domain/slots.ts";
import { blockedByBusy } from "../src/domain/busy.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z; an event type's default hours are
// 09:00-17:00 in Prague (UTC+1) on weekdays in 30-minute slots: Tuesday's first slot starts 08:00Z.

const TUESDAY = "/time-slots?from=2026-11-24&until=2026-11-24";
const at = (hhmm: string, day = "2026-11-24") => `${day}T${hhmm}:00Z`;
const slot = (hhmm: string, minutes = 30, day = "2026-11-24") => ({
  start: at(hhmm, day),
  end: new Date(Date.parse(at(hhmm, day)) + minutes * 60_000).toISOString().replace(".000Z", "Z"),
});
const starts = (r: Answer): string[] => r.body.data.map((s: { startIso8601: string }) => s.startIso8601);
const visitor = (i = 0) => ({ email: `visitor${i}@example.com`, firstname: "Ada", lastname: `Lovelace ${i}` });

type Env = Awaited<ReturnType<typeof setup>>;

/** An event type made through the admin API, with its public token. */
async function eventType(env: Env, body: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const r = await env.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", ...body });
  expect(r.status, r.text).toBe(200);
  return { id: r.body.data.id, token: r.body.data.token };
}

const list = async (env: Env, et: { token: string }, query = TUESDAY) => {
  const r = await env.call("GET", query, { token: et.token });
  expect(r.status, r.text).toBe(200);
  return starts(r);
};
const book = (env: Env, et: { token: string }, s: { start: string; end: string }, i = 0) =>
  env.call("POST", "/reservations", { token: et.token, body: { ...s, ...visitor(i) } });

describe("hosts and schedules through the admin API", () => {
  it("keeps a default host for event types created without hosts, creates and edits hosts, and deletes only a host nothing uses", async () => {
    const env = await setup();
    const hosts = await env.admin("GET", "/admin/hosts");
    expect(hosts.body.data).toMatchObject([{ id: DEFAULT_HOST_ID, isDefault: true }]);
    // Today's admin body, no host named: the default host's.
    const plain = await eventType(env);
    expect((await env.admin("GET", `/admin/event-types/${plain.id}`)).body.data).toMatchObject({
      hosts: [{ hostId: DEFAULT_HOST_ID, priority: 0, scheduleId: null }],
      assignment: "collective",
    });

    const ana = await env.admin("POST", "/admin/hosts", {
      name: "  Ana Nováková ",
      email: "ana@example.com",
      timezone: "Europe/Prague",
      avatarUrl: "https://example.com/ana.png",
    });
    expect(ana.status).toBe(200);
    expect(ana.body.data).toMatchObject({
      name: "Ana Nováková",
      email: "ana@example.com",
      timezone: "Europe/Prague",
      avatarUrl: "https://example.com/ana.png",
      isDefault: false,
      eventTypeIds: [],
    });
    const anaId = ana.body.data.id as number;
    const bad = await env.admin("POST", "/admin/hosts", { name: "X", email: "x@example.com", timezone: "Mars/Olympus", avatarUrl: "javascript:alert(1)" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["avatarUrl", "timezone"]);
    expect((await env.admin("POST", "/admin/hosts", { name: "No email" })).status).toBe(422);

    const hers = await eventType(env, { title: "Ana's call", hosts: [{ hostId: anaId }] });
    expect((await env.admin("GET", `/admin/event-types/${hers.id}`)).body.data.hosts).toEqual([
      { hostId: anaId, name: "Ana Nováková", priority: 0, scheduleId: null },
    ]);
    expect((await env.admin("GET", `/admin/hosts/${anaId}/event-types`)).body.data.map((e: { id: number }) => e.id)).toEqual([hers.id]);
    const unknown = await env.admin("POST", "/admin/event-types", { title: "Nobody's", hosts: [{ hostId: 9999 }, { hostId: anaId }, { hostId: anaId }] });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors).sort()).toEqual(["hosts.0.hostId", "hosts.2.hostId"]);

    const renamed = await env.admin("PATCH", `/admin/hosts/${anaId}`, { name: "Ana N.", avatarUrl: null });
    expect(renamed.body.data).toMatchObject({ name: "Ana N.", avatarUrl: null, email: "ana@example.com" });
    // In use, or the default: kept, with a reason.
    expect((await env.admin("DELETE", `/admin/hosts/${anaId}`)).status).toBe(422);
    expect((await env.admin("DELETE", `/admin/hosts/${DEFAULT_HOST_ID}`)).status).toBe(422);
    const spare = await host(env, "Spare");
    expect((await env.admin("DELETE", `/admin/hosts/${spare}`)).status).toBe(200);
    expect((await env.admin("GET", `/admin/hosts/${spare}`)).status).toBe(404);
    expect((await env.admin("GET", "/admin/hosts/abc")).status).toBe(404);
    // The admin key guards them like every admin route.
    expect((await env.call("GET", "/admin/hosts", { token: plain.token })).status).toBe(403);
  });

  it("lets an event type use one of its host's schedules instead of its own hours; a schedule's change shows in its slots at once", async () => {
    const env = await setup();
    const et = await eventType(env);
    const before = await list(env, et);
    expect(before[0]).toBe(at("08:00"));
    const created = await env.admin("POST", `/admin/hosts/${DEFAULT_HOST_ID}/schedules`, {
      name: "Afternoons",
      availability: { weekly: { tuesday: [{ start: "13:00", end: "14:00" }] } },
    });
    expect(created.status, created.text).toBe(200);
    // The host's zone by default (the default host's: the first event type's, UTC on a fresh install).
    const scheduleId = created.body.data.id as number;
    await env.admin("PATCH", `/admin/schedules/${scheduleId}`, { timezone: "Europe/Prague" });
    const used = await env.admin("PATCH", `/admin/event-types/${et.id}`, { hosts: [{ hostId: DEFAULT_HOST_ID, scheduleId }] });
    expect(used.status, used.text).toBe(200);
    expect(await list(env, et)).toEqual([at("12:00"), at("12:30")]);
    expect((await book(env, et, slot("08:00"))).body.code).toBe("slot_unavailable");
    // Cached pages go with the change.
    expect(
      (await env.admin("PATCH", `/admin/schedules/${scheduleId}`, { availability: { weekly: { tuesday: [{ start: "15:00", end: "16:00" }] } } })).status,
    ).toBe(200);
    expect(await list(env, et)).toEqual([at("14:00"), at("14:30")]);
    expect((await book(env, et, slot("14:00"))).body.success).toBe(true);
    // Another host's schedule is not this host's to use; a schedule in use stays.
    const other = await host(env, "Other");
    const hers = await env.admin("POST", `/admin/hosts/${other}/schedules`, { name: "Hers", availability: { weekly: {} } });
    const wrong = await env.admin("PATCH", `/admin/event-types/${et.id}`, { hosts: [{ hostId: DEFAULT_HOST_ID, scheduleId: hers.body.data.id }] });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(["hosts.0.scheduleId"]);
    expect((await env.admin("DELETE", `/admin/schedules/${scheduleId}`)).status).toBe(422);
    expect((await env.admin("GET", `/admin/hosts/${DEFAULT_HOST_ID}/schedules`)).body.data).toMatchObject([
      { id: scheduleId, name: "Afternoons", eventTypeIds: [et.id] },
    ]);
    // Back to its own hours, then the schedule can go.
    await env.admin("PATCH", `/admin/event-types/${et.id}`, { hosts: [{ hostId: DEFAULT_HOST_ID }] });
    expect((await list(env, et))[0]).toBe(at("08:00"));
    expect((await env.admin("DELETE", `/admin/schedules/${scheduleId}`)).status).toBe(200);
    const badRanges = await env.admin("POST", `/admin/hosts/${DEFAULT_HOST_ID}/schedules`, {
      name: "Bad",
      timezone: "Nowhere/City",
      availability: { weekly: { monday: [{ start: "10:00", end: "09:00" }] } },
    });
    expect(badRanges.status).toBe(422);
    expect(Object.keys(badRanges.body.errors).sort()).toEqual(["availability.weekly.monday", "timezone"]);
  });

  it("lists a host's bookings across its event types, and feeds the booker the host's name and avatar", async () => {
    const env = await setup();
    const ana = await host(env, "Ana", { avatarUrl: "https://example.com/ana.png" });
    const first = await eventType(env, { hosts: [{ hostId: ana }] });
    const second = await eventType(env, { title: "Second", hosts: [{ hostId: ana }] });
    const mine = await eventType(env, { title: "Not Ana's" });
    expect((await book(env, first, slot("08:00"))).body.success).toBe(true);
    expect((await book(env, second, slot("09:00"), 1)).body.success).toBe(true);
    expect((await book(env, mine, slot("08:00"), 2)).body.success).toBe(true);
    const listed = await env.admin("GET", `/admin/hosts/${ana}/reservations?from=2026-11-24&until=2026-11-24`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: { eventTypeId: number; start: string; hostIds: number[] }) => [r.eventTypeId, r.start, r.hostIds])).toEqual([
      [first.id, at("08:00"), [ana]],
      [second.id, at("09:00"), [ana]],
    ]);
    const configuration = (await env.call("GET", "/configuration", { token: first.token })).body.data.configuration;
    expect(configuration).toMatchObject({ hostName: "Ana", profileImage: "https://example.com/ana.png" });
    // The event type's own picture and name, when it sets them, come first.
    await env.admin("PATCH", `/admin/event-types/${first.id}`, { hostName: "Dr. Ana", profileImage: "https://example.com/other.png" });
    expect((await env.call("GET", "/configuration", { token: first.token })).body.data.configuration).toMatchObject({
      hostName: "Dr. Ana",
      profileImage: "https://example.com/other.png",
    });
    // A renamed host shows at once (the configuration is cached by revision, which the host's is part of).
    await env.admin("PATCH", `/admin/hosts/${ana}`, { name: "Ana Nová", avatarUrl: "https://example.com/new.png" });
    expect((await env.call("GET", "/configuration", { token: second.token })).body.data.configuration).toMatchObject({
      hostName: "Ana Nová",
      profileImage: "https://example.com/new.png",
    });
  });
});

describe("one person's time", () => {
  it("leaves a host's booking of one event type out of the host's others, each with its own buffers, in the slot list and the booking", async () => {
    const env = await setup();
    const a = await eventType(env, { title: "A" });
    const b = await eventType(env, { title: "B", bufferAfterMinutes: 30 });
    const elsewhere = await eventType(env, { title: "Another host's", hosts: [{ hostId: await host(env, "Bea") }] });
    // Listed first, so a cached page would still offer the time.
    expect(await list(env, b)).toContain(at("08:30"));
    expect(await list(env, elsewhere)).toContain(at("08:30"));
    const booked = await book(env, a, slot("08:30"));
    expect(booked.body.success).toBe(true);
    const bSlots = await list(env, b);
    // B's 08:00 meeting would run its buffer (until 09:00) into A's booking; A's own list keeps 08:00.
    expect(bSlots).not.toContain(at("08:30"));
    expect(bSlots).not.toContain(at("08:00"));
    expect(bSlots).toContain(at("09:00"));
    expect(await list(env, a)).toContain(at("08:00"));
    expectFailure(await book(env, b, slot("08:30"), 1), "slot_unavailable");
    expectFailure(await book(env, b, slot("08:00"), 1), "slot_unavailable");
    // Another host's time is not taken.
    expect(await list(env, elsewhere)).toContain(at("08:30"));
    expect((await book(env, elsewhere, slot("08:30"), 2)).body.success).toBe(true);
    // Cancelled: the host's time is free again everywhere.
    const cancelled = await env.call("DELETE", `/reservations/${booked.body.data.uuid}`, { token: a.token });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await list(env, b)).toContain(at("08:30"));
    // So is it when the event type goes with its bookings.
    expect((await book(env, a, slot("11:00"), 3)).body.success).toBe(true);
    expect(await list(env, b)).not.toContain(at("11:00"));
    expect((await env.admin("DELETE", `/admin/event-types/${a.id}`)).status).toBe(200);
    expect(await list(env, b)).toContain(at("11:00"));
  });

  it("blocks the host with a hold of another event type until the hold lapses", async () => {
    const env = await setup();
    const a = await eventType(env, { title: "A", holdMinutes: 10 });
    const b = await eventType(env, { title: "B" });
    expect((await env.call("POST", "/reservations/prepare", { token: a.token, body: { ...slot("10:00"), ...visitor() } })).body.success).toBe(true);
    expect(await list(env, b)).not.toContain(at("10:00"));
    expectFailure(await book(env, b, slot("10:00"), 1), "slot_unavailable");
    env.clock.advance(11);
    expect(await list(env, b)).toContain(at("10:00"));
    expect((await book(env, b, slot("10:00"), 1)).body.success).toBe(true);
  });

  it("lets exactly one of many simultaneous bookings of overlapping times through different event types of one host succeed, across two instances of one database", async () => {
    const dir = ENGINE === "sqlite" ? mkdtempSync(join(tmpdir(), "booking-hosts-")) : null;
    try {
      const env = await setup({ ...(dir ? { databasePath: join(dir, "one.sqlite") } : {}), config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
      const second = await openTestStoreBeside(env.store);
      const app2 = createApp({
        store: second,
        clock: env.clock,
        config: { adminKey: ADMIN_KEY, rateLimit: { limit: 100_000, windowSeconds: 60 } },
        log: () => undefined,
      });
      const via = async (i: number, token: string, body: unknown) => {
        const request = new Request("http://localhost/reservations", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const response = await (i % 2 === 0 ? env.app : app2).handle(request);
        return (await response.json()) as { success: boolean; code?: string; data?: { uuid: string; userId: number } };
      };
      // Four event types of one host, hour-long meetings on a quarter-hour grid, starting 09:00 to 09:45: all meet in 09:45-10:00.
      const types = await Promise.all([0, 1, 2, 3].map((i) => eventType(env, { title: `Type ${i}`, durationMinutes: 60, slotIntervalMinutes: 15 })));
      const other = await eventType(env, { title: "Other host", durationMinutes: 60, slotIntervalMinutes: 15, hosts: [{ hostId: await host(env, "Other") }] });
      const times = ["08:00", "08:15", "08:30", "08:45"];
      const answers = await Promise.all([
        ...Array.from({ length: 40 }, (_, i) => via(i, types[i % 4]!.token, { ...slot(times[i % 4]!, 60), ...visitor(i) })),
        via(1, other.token, { ...slot("08:00", 60), ...visitor(99) }),
      ]);
      const hostAnswers = answers.slice(0, 40);
      expect(hostAnswers.filter((a) => a.success)).toHaveLength(1);
      for (const lost of hostAnswers.filter((a) => !a.success)) expect(["slot_locked", "slot_unavailable"]).toContain(lost.code);
      // Another host's booking of the same time is nobody's competitor.
      expect(answers[40]!.success).toBe(true);
      const taken = await env.store.hosts.reservations(DEFAULT_HOST_ID, { fromMs: Date.parse(at("07:00")), untilMs: Date.parse(at("11:00")), limit: 100 });
      expect(taken).toHaveLength(1);
      // Both instances now offer none of those times in any of the host's event types.
      for (const et of types) {
        for (const app of [env.app, app2]) {
          const r = await app.handle(new Request(`http://localhost${TUESDAY}`, { headers: { authorization: `Bearer ${et.token}` } }));
          const offered = ((await r.json()) as { data: { startIso8601: string }[] }).data.map((s) => s.startIso8601);
          for (const t of times) expect(offered).not.toContain(at(t));
        }
      }
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(ENGINE !== "postgres")("locks per host and time (PostgreSQL)", () => {
  it("lets bookings of other hosts, and of the same host at other times, through while one host's booking is stalled in its transaction", async () => {
    const schema = `hlock_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 6, rateLimit: { limit: 100_000, windowSeconds: 60 } });
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      const app = createApp({
        store,
        clock: new ManualClock("2026-11-23T07:00:00Z"),
        config: { adminKey: ADMIN_KEY, rateLimit: { limit: 100_000, windowSeconds: 60 } },
        log: () => undefined,
      });
      const call = async (method: string, path: string, token: string, body?: unknown) => {
        const response = await app.handle(
          new Request(`http://localhost${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            ...(body ? { body: JSON.stringify(body) } : {}),
          }),
        );
        return (await response.json()) as { success: boolean; code?: string; data: any };
      };
      const hostId = async (name: string) => (await call("POST", "/admin/hosts", ADMIN_KEY, { name, email: `${name}@example.com` })).data.id as number;
      const [ana, bea] = [await hostId("ana"), await hostId("bea")];
      const type = async (title: string, host: number) =>
        (await call("POST", "/admin/event-types", ADMIN_KEY, { title, timezone: "Europe/Prague", hosts: [{ hostId: host }] })).data.token as string;
      const [anaA, anaB, beaA] = [await type("Ana A", ana), await type("Ana B", ana), await type("Bea A", bea)];
      // One booking's transaction stalls for 1.5 s after taking its locks (a slow disk, a busy database).
      await client.query(`
        CREATE FUNCTION "${schema}".stall_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.email = 'slow@example.com' THEN PERFORM pg_sleep(1.5); END IF; RETURN NEW; END $$;
        CREATE TRIGGER stall_insert BEFORE INSERT ON "${schema}".reservations FOR EACH ROW EXECUTE FUNCTION "${schema}".stall_insert();
      `);
      const slow = call("POST", "/reservations", anaA, { ...slot("10:00"), email: "slow@example.com" });
      await Bun.sleep(300);
      const began = performance.now();
      const [otherHost, sameHostLater, sameHostSameTime] = await Promise.all([
        call("POST", "/reservations", beaA, { ...slot("10:00"), ...visitor(1) }),
        call("POST", "/reservations", anaB, { ...slot("14:00"), ...visitor(2) }),
        call("POST", "/reservations", anaB, { ...slot("10:00"), ...visitor(3) }),
      ]);
      const tookMs = performance.now() - began;
      // Another host's booking of the same time, and the same host's of another time, need none of the stalled booking's locks.
      expect(otherHost.success).toBe(true);
      expect(sameHostLater.success).toBe(true);
      // The same host at the same time through another event type waits a moment for the locks, then gives up.
      expect(sameHostSameTime).toMatchObject({ success: false, code: "slot_locked" });
      expect(tookMs).toBeLessThan(1_000);
      expect((await slow).success).toBe(true);
      expect((await call("POST", "/reservations", anaB, { ...slot("10:00"), ...visitor(4) })).code).toBe("slot_unavailable");
    } finally {
      await store.close();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});

describe("team event types", () => {
  it("assigns round-robin bookings by priority, then least recently booked, then list order: 100 bookings spread evenly, and a free host of lower priority only when the first is taken", async () => {
    const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
    const [h1, h2, h3] = [await host(env, "One"), await host(env, "Two"), await host(env, "Three")];
    const team = await eventType(env, { title: "Team", assignment: "round-robin", hosts: [{ hostId: h1 }, { hostId: h2 }, { hostId: h3 }], horizonDays: 60 });
    // 100 bookings at distinct times, one after another: Tuesday 2026-11-24 onwards, 16 a weekday.
    const days = ["2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30", "2026-12-01", "2026-12-02"];
    const assigned: number[] = [];
    for (let i = 0; i < 100; i++) {
      const day = days[Math.floor(i / 16)]!;
      const minutes = 8 * 60 + (i % 16) * 30;
      const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
      env.clock.advance(1 / 60);
      const r = await book(env, team, slot(hhmm, 30, day), i);
      expect(r.body.success, r.text).toBe(true);
      assigned.push(r.body.data.userId);
    }
    // Equal priorities: never booked first, then least recently booked; ties by the list's order.
    expect(assigned.slice(0, 6)).toEqual([h1, h2, h3, h1, h2, h3]);
    expect([h1, h2, h3].map((h) => assigned.filter((a) => a === h).length)).toEqual([34, 33, 33]);
    for (let i = 3; i < 100; i++) expect(assigned[i]).toBe(assigned[i - 3]);

    // Priorities: Three first whenever free; when Three is taken elsewhere, the least recently booked of the rest.
    const ranked = await eventType(env, {
      title: "Ranked",
      assignment: "round-robin",
      hosts: [
        { hostId: h1, priority: 1 },
        { hostId: h2, priority: 1 },
        { hostId: h3, priority: 5 },
      ],
    });
    const threeAlone = await eventType(env, { title: "Three's own", hosts: [{ hostId: h3 }] });
    const day = "2026-12-07";
    expect((await book(env, ranked, slot("08:00", 30, day))).body.data.userId).toBe(h3);
    expect((await book(env, ranked, slot("08:30", 30, day))).body.data.userId).toBe(h3);
    expect((await book(env, threeAlone, slot("09:00", 30, day))).body.success).toBe(true);
    expect((await book(env, ranked, slot("09:00", 30, day))).body.data.userId).toBe(h1);
    expect((await book(env, threeAlone, slot("09:30", 30, day))).body.success).toBe(true);
    expect((await book(env, ranked, slot("09:30", 30, day))).body.data.userId).toBe(h2);
    expect((await book(env, ranked, slot("10:00", 30, day))).body.data.userId).toBe(h3);
  });

  it("offers a round-robin time while any host is free, and lets simultaneous bookings take each host once", async () => {
    const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
    const ids = [await host(env, "One"), await host(env, "Two"), await host(env, "Three")];
    const team = await eventType(env, { title: "Team", assignment: "round-robin", hosts: ids.map((hostId) => ({ hostId })) });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => book(env, team, slot("10:00"), i)));
    const won = answers.filter((a) => a.body.success);
    expect(won).toHaveLength(3);
    expect(won.map((a) => a.body.data.userId).sort()).toEqual([...ids].sort());
    for (const lost of answers.filter((a) => !a.body.success)) expect(["slot_locked", "slot_unavailable"]).toContain(lost.body.code);
    expect(await list(env, team)).not.toContain(at("10:00"));
    // One host's booking elsewhere leaves the team's time to the others.
    const own = await eventType(env, { title: "One's own", hosts: [{ hostId: ids[0]! }] });
    expect((await book(env, own, slot("11:00"))).body.success).toBe(true);
    expect(await list(env, team)).toContain(at("11:00"));
    expect((await book(env, team, slot("11:00"))).body.data.userId).not.toBe(ids[0]);
  });

  it("follows each host's own schedule: round robin offers any host's hours, collective only the hours they share", async () => {
    const env = await setup();
    const [early, late] = [await host(env, "Early"), await host(env, "Late")];
    const hours = async (hostId: number, start: string, end: string) =>
      (
        await env.admin("POST", `/admin/hosts/${hostId}/schedules`, {
          name: `${start}-${end}`,
          timezone: "Europe/Prague",
          availability: { weekly: { tuesday: [{ start, end }] } },
        })
      ).body.data.id as number;
    const [earlyHours, lateHours] = [await hours(early, "09:00", "11:00"), await hours(late, "10:00", "12:00")];
    const members = [
      { hostId: early, scheduleId: earlyHours },
      { hostId: late, scheduleId: lateHours },
    ];
    const either = await eventType(env, { title: "Either", assignment: "round-robin", hosts: members });
    const both = await eventType(env, { title: "Both", assignment: "collective", hosts: members });
    expect(await list(env, either)).toEqual(["08:00", "08:30", "09:00", "09:30", "10:00", "10:30"].map((t) => at(t)));
    expect(await list(env, both)).toEqual([at("09:00"), at("09:30")]);
    // 08:00Z is Early's alone, 10:30Z Late's alone: round robin can only assign them so.
    expect((await book(env, either, slot("10:30"))).body.data.userId).toBe(late);
    expect((await book(env, either, slot("08:00"), 1)).body.data.userId).toBe(early);
    expectFailure(await book(env, both, slot("08:00"), 2), "slot_unavailable");
    expect((await book(env, both, slot("09:00"), 3)).body.success).toBe(true);
    // Both are taken at 09:00Z now; round robin no longer offers it.
    expect(await list(env, either)).not.toContain(at("09:00"));
  });

  it("keeps a rescheduled round-robin booking with its host when the host is free, and reassigns it when not", async () => {
    const env = await setup();
    const [h1, h2] = [await host(env, "One"), await host(env, "Two")];
    const team = await eventType(env, { title: "Team", assignment: "round-robin", hosts: [{ hostId: h1 }, { hostId: h2 }], rescheduleNoticeMinutes: 0 });
    const first = await book(env, team, slot("08:00"));
    expect(first.body.data.userId).toBe(h1);
    const uuid = first.body.data.uuid as string;
    const moved = await env.call("PUT", `/reservations/${uuid}`, { token: team.token, body: slot("08:30") });
    expect(moved.body.data.userId).toBe(h1);
    // One is taken at 09:00 through another event type: the booking moves there with Two.
    const own = await eventType(env, { title: "One's own", hosts: [{ hostId: h1 }] });
    expect((await book(env, own, slot("09:00"), 1)).body.success).toBe(true);
    const reassigned = await env.call("PUT", `/reservations/${uuid}`, { token: team.token, body: slot("09:00") });
    expect(reassigned.body.data).toMatchObject({ userId: h2, userName: "Two", userEmail: "two@example.com" });
    // One's time at 08:30 is free again; Two's at 09:00 is taken for Two's other event types.
    const twos = await eventType(env, { title: "Two's own", hosts: [{ hostId: h2 }] });
    expect(await list(env, twos)).not.toContain(at("09:00"));
    expect(await list(env, own)).toContain(at("08:30"));
  });

  it("names the booking's host as the organizer in webhooks, emails and the calendar invite", async () => {
    const env = await setup();
    const ana = await host(env, "Ana");
    const et = await eventType(env, { title: "Ana's", hosts: [{ hostId: ana }], webhookUrl: "https://hooks.example.com/in" });
    const r = await book(env, et, slot("08:00"));
    expect(r.body.data).toMatchObject({ userId: ana, userName: "Ana", userEmail: "ana@example.com" });
    const events = await env.store.outbox.recent(et.id, 20);
    const webhook = events.find((e) => e.channel === "webhook")!;
    expect(JSON.parse(webhook.payload).data.hosts).toEqual([{ id: ana, name: "Ana", email: "ana@example.com" }]);
    const mails = events
      .filter((e) => e.channel === "email")
      .map((e) => JSON.parse(e.payload) as { to: string; role: string; organizer: { email: string; name: string } });
    expect(mails.map((m) => [m.role, m.to]).sort()).toEqual([
      ["organizer", "ana@example.com"],
      ["visitor", "visitor0@example.com"],
    ]);
    for (const m of mails) expect(m.organizer).toEqual({ email: "ana@example.com", name: "Ana" });
  });
});

describe("a collective event type and a host's connected calendar (a real Radicale)", () => {
  let radicale: Radicale;
  beforeAll(async () => {
    radicale = await startRadicale();
  });
  afterAll(async () => {
    await radicale?.stop();
  });

  it("offers a time only when every host is free, their calendars included, and takes every host with the booking", async () => {
    const env = await setup();
    const [ana, bea] = [await host(env, "Ana"), await host(env, "Bea")];
    const team = await eventType(env, { title: "Both of us", assignment: "collective", hosts: [{ hostId: ana }, { hostId: bea }] });
    const anas = await eventType(env, { title: "Ana's own", hosts: [{ hostId: ana }] });
    const beas = await eventType(env, { title: "Bea's own", hosts: [{ hostId: bea }] });
    // Bea's calendar: busy 09:10-09:50Z on Tuesday.
    const cal = await radicale.makeCalendar(`hosts-${process.pid}-${Date.now()}`);
    await radicale.put(
      cal,
      "busy.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//tests//EN",
        "BEGIN:VEVENT",
        "UID:bea-busy",
        "DTSTAMP:20261101T000000Z",
        "DTSTART:20261124T091000Z",
        "DTEND:20261124T095000Z",
        "SUMMARY:Busy",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    const added = await env.admin("POST", `/admin/hosts/${bea}/busy-sources`, {
      kind: "caldav",
      url: cal,
      username: radicale.user,
      password: radicale.password,
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body.data).toMatchObject({ hostId: bea });
    expect((await env.admin("GET", `/admin/hosts/${bea}/busy-sources`)).body.data.map((s: { id: number }) => s.id)).toEqual([added.body.data.id]);
    const synced = await env.admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`);
    expect(synced.body.data.sync).toMatchObject({ ok: true, changed: true });

    const teamSlots = await list(env, team);
    expect(teamSlots).not.toContain(at("09:00"));
    expect(teamSlots).not.toContain(at("09:30"));
    expect(teamSlots).toContain(at("08:30"));
    // The calendar is Bea's: every event type of hers, none of Ana's.
    expect(await list(env, beas)).not.toContain(at("09:00"));
    expect(await list(env, anas)).toContain(at("09:00"));
    expectFailure(await book(env, team, slot("09:00")), "slot_unavailable");

    const booked = await book(env, team, slot("08:00"));
    expect(booked.body.success).toBe(true);
    expect(booked.body.data).toMatchObject({ userId: ana, userName: "Ana" });
    // The booking takes both: neither's own event type offers the time any more.
    expect(await list(env, anas)).not.toContain(at("08:00"));
    expect(await list(env, beas)).not.toContain(at("08:00"));
    const record = await env.store.reservations.byUuid(team.id, booked.body.data.uuid);
    expect(record!.hostIds).toEqual([ana, bea]);
    // Both hosts get the organizer's copy; the invite names Ana as organizer and Bea beside the visitor.
    const mails = (await env.store.outbox.recent(team.id, 20)).filter((e) => e.channel === "email").map((e) => JSON.parse(e.payload));
    expect(mails.map((m: { role: string; to: string }) => [m.role, m.to]).sort()).toEqual([
      ["organizer", "ana@example.com"],
      ["organizer", "bea@example.com"],
      ["visitor", "visitor0@example.com"],
    ]);
    expect(mails[0]).toMatchObject({ organizer: { email: "ana@example.com", name: "Ana" }, coHosts: [{ email: "bea@example.com", name: "Bea" }] });
    // Unfolded (lines are folded at 75 octets).
    const ics = renderMail(mails[0]).ics.replace(/\r\n[ \t]/g, "");
    expect(ics).toContain("ORGANIZER;CN=Ana:mailto:ana@example.com");
    const visitorMail = mails.find((m: { role: string }) => m.role === "visitor");
    expect(renderMail(visitorMail).ics.replace(/\r\n[ \t]/g, "")).toMatch(/ATTENDEE;CN=Bea;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:bea@example\.com/);
    // The hosts' own PUBLISH copies name no ATTENDEE; their text names the other host.
    for (const copy of mails.filter((m: { role: string }) => m.role === "organizer")) {
      const published = renderMail(copy).ics.replace(/\r\n[ \t]/g, "");
      expect(published).toContain("METHOD:PUBLISH");
      expect(published).not.toContain("ATTENDEE");
      expect(published).toContain("Host: Bea <bea@example.com>");
    }
    // One host's booking elsewhere closes the team's time too.
    expect((await book(env, anas, slot("10:00"), 1)).body.success).toBe(true);
    expect(await list(env, team)).not.toContain(at("10:00"));
  });
});

describe("round-robin slot computation", () => {
  // The rule a round-robin slot list follows, written out plainly: every host's own slot list (their
  // hours, their seat holders, their busy time), merged by start with the most free seats.
  function reference(
    settings: SlotRules,
    members: HostMember[],
    holders: HostedHolder[],
    busyOf: (id: number) => BusyInterval[],
    fromMs: number,
    untilMs: number,
    nowMs: number,
    options: { ignoreNoticeAndHorizon?: boolean },
  ): Slot[] {
    const byStart = new Map<number, Slot>();
    for (const m of members) {
      const busy = busyOf(m.hostId);
      const mine = holders.filter((h) => !h.hostIds || h.hostIds.length === 0 || h.hostIds.includes(m.hostId));
      for (const slot of slotsBetween(hostRules(settings, m), fromMs, untilMs, mine, nowMs, options)) {
        if (slot.freeSeats === 0 || (options.ignoreNoticeAndHorizon && slot.startMs <= nowMs) || blockedByBusy(settings, slot.startMs, slot.endMs, busy))
          continue;
        const seen = byStart.get(slot.startMs);
        if (!seen || seen.freeSeats < slot.freeSeats) byStart.set(slot.startMs, { ...slot });
      }
    }
    return [...byStart.values()].sort((a, b) => a.startMs - b.startMs);
  }

  it("lists exactly the slots some host is free for, with the most free seats, whatever the hosts' hours, seats, buffers and busy times", () => {
    let x = 7;
    const random = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const week = (start: string, end: string) => ({
      weekly: Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start, end }]])),
      overrides: [],
    });
    const nowMs = Date.UTC(2026, 2, 20, 9, 7);
    const fromMs = Date.UTC(2026, 2, 21);
    const untilMs = Date.UTC(2026, 3, 4);
    let compared = 0;
    for (let round = 0; round < 24; round++) {
      const settings: SlotRules = {
        timezone: "Europe/Prague",
        availability: week("08:00", "18:00") as SlotRules["availability"],
        durationMinutes: [30, 45, 60][round % 3]!,
        slotIntervalMinutes: [15, 30][round % 2]!,
        seats: 1 + (round % 3),
        bufferBeforeMinutes: round % 4 === 1 ? 10 : 0,
        bufferAfterMinutes: round % 4 === 2 ? 15 : 0,
        minNoticeMinutes: 60,
        horizonDays: 10 + round,
      };
      const schedules = [
        null,
        { timezone: "America/New_York", availability: week("09:00", "17:00") as SlotRules["availability"] },
        { timezone: "Europe/Prague", availability: week("12:00", "22:00") as SlotRules["availability"] },
      ];
      const members: HostMember[] = Array.from({ length: 2 + (round % 5) }, (_, i) => ({ hostId: i + 1, priority: 0, schedule: schedules[(i * round) % 3]! }));
      const at = () => fromMs + Math.floor(random() * 14 * 96) * 15 * 60_000;
      const holders: HostedHolder[] = Array.from({ length: 60 }, () => {
        const startMs = at();
        const hostIds = random() < 0.15 ? undefined : [1 + Math.floor(random() * members.length)];
        return { startMs, endMs: startMs + settings.durationMinutes * 60_000 * (random() < 0.8 ? 1 : 2), heldUntilMs: null, hostIds };
      });
      const busy = new Map(
        members.map((m) => [
          m.hostId,
          Array.from({ length: 25 }, () => {
            const startMs = at();
            return { startMs, endMs: startMs + (1 + Math.floor(random() * 8)) * 15 * 60_000 };
          }),
        ]),
      );
      for (const options of [{}, { ignoreNoticeAndHorizon: true }]) {
        const expected = reference(settings, members, holders, (id) => busy.get(id)!, fromMs, untilMs, nowMs, options);
        const actual = teamSlots(settings, "round-robin", members, holders, (id) => busy.get(id)!, fromMs, untilMs, nowMs, options);
        expect(actual).toEqual(expected);
        compared += expected.length;
      }
    }
    // The cases list slots, and some with a seat taken: the comparison is not between empty lists.
    expect(compared).toBeGreaterThan(1000);
  });
});
