import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { Store } from "../src/store/store.ts";
import { ADMIN_KEY, createHost, expectError, expectFailure, setup, type Answer } from "./utils.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z; an event type's default hours are
// 09:00-17:00 in Prague (UTC+1) on weekdays in 30-minute slots: Tuesday's first slot starts 08:00Z.

type Env = Awaited<ReturnType<typeof setup>>;
const TUESDAY = "/time-slots?from=2026-11-24&until=2026-11-24";
const slot = (iso: string) => ({ start: iso, end: new Date(Date.parse(iso) + 30 * 60_000).toISOString().replace(".000Z", "Z") });
const starts = (r: Answer): string[] => r.body.data.map((s: { startIso8601: string }) => s.startIso8601);
const visitor = (i = 0) => ({ email: `visitor${i}@example.com`, firstname: "Ada", lastname: `Lovelace ${i}` });

async function eventType(env: Env, body: Record<string, unknown>): Promise<{ id: number; token: string }> {
  const r = await env.admin("POST", "/admin/event-types", { title: "Call", timezone: "Europe/Prague", ...body });
  expect(r.status, r.text).toBe(200);
  return { id: r.body.data.id, token: r.body.data.token };
}
const list = async (env: Env, et: { token: string }, query = TUESDAY) => {
  const r = await env.call("GET", query, { token: et.token });
  expect(r.status, r.text).toBe(200);
  return starts(r);
};
const book = (env: Env, et: { token: string }, start: string, i = 0) =>
  env.call("POST", "/reservations", { token: et.token, body: { ...slot(start), ...visitor(i) } });
const timeOff = async (env: Env, hostId: number, body: Record<string, unknown>) => {
  const r = await env.admin("POST", `/admin/hosts/${hostId}/time-off`, body);
  expect(r.status, r.text).toBe(200);
  return r.body.data as { id: number; start: string; end: string };
};

describe("time off through the admin API", () => {
  it("adds whole days and ranges, lists, changes and removes them, and refuses bad ranges and colleagues with field errors", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const sam = await createHost(env, "Sam");
    const days = await env.admin("POST", `/admin/hosts/${alex}/time-off`, {
      startDate: "2026-11-24",
      endDate: "2026-11-25",
      note: " Holiday ",
      colleagueHostId: sam,
    });
    expect(days.status, days.text).toBe(200);
    // Midnight to midnight in Prague (UTC+1 in November).
    expect(days.body.data).toMatchObject({
      hostId: alex,
      start: "2026-11-23T23:00:00Z",
      end: "2026-11-25T23:00:00Z",
      startDate: "2026-11-24",
      endDate: "2026-11-25",
      note: "Holiday",
      colleagueHostId: sam,
      colleagueName: "Sam",
    });
    const range = await timeOff(env, alex, { start: "2026-11-27T09:00:00+01:00", end: "2026-11-27T11:00:00+01:00" });
    expect(range).toMatchObject({
      start: "2026-11-27T08:00:00Z",
      end: "2026-11-27T10:00:00Z",
      startDate: null,
      endDate: null,
      note: null,
      colleagueHostId: null,
    });
    const listed = await env.admin("GET", `/admin/hosts/${alex}/time-off`);
    expect(listed.body.data.map((t: { id: number }) => t.id)).toEqual([days.body.data.id, range.id]);

    const changed = await env.admin("PATCH", `/admin/hosts/${alex}/time-off/${range.id}`, {
      note: "Dentist",
      end: "2026-11-27T12:00:00+01:00",
      start: "2026-11-27T10:00:00+01:00",
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({ start: "2026-11-27T09:00:00Z", end: "2026-11-27T11:00:00Z", note: "Dentist" });
    expect((await env.admin("PATCH", `/admin/hosts/${alex}/time-off/${days.body.data.id}`, { colleagueHostId: null })).body.data.colleagueHostId).toBeNull();

    const refused = async (body: Record<string, unknown>, fields: string[]) => {
      const r = await env.admin("POST", `/admin/hosts/${alex}/time-off`, body);
      expectError(r, 422, "validation_failed");
      expect(Object.keys(r.body.errors).sort()).toEqual(fields);
    };
    await refused({ start: "2026-11-27T11:00:00+01:00", end: "2026-11-27T09:00:00+01:00" }, ["end"]);
    await refused({ startDate: "2026-11-27", endDate: "2026-11-26" }, ["endDate"]);
    await refused({ startDate: "2026-02-30", endDate: "2026-03-01" }, ["startDate"]);
    await refused({ start: "2026-11-27T09:00:00", end: "2026-11-27T11:00:00+01:00" }, ["start"]);
    await refused({ startDate: "2026-11-27", endDate: "2026-11-27", colleagueHostId: alex }, ["colleagueHostId"]);
    await refused({ startDate: "2026-11-27", endDate: "2026-11-27", colleagueHostId: 9999 }, ["colleagueHostId"]);
    await refused({ note: "When?" }, ["startDate"]);
    await refused({ startDate: "2026-11-27", endDate: "2026-11-27", start: "2026-11-27T09:00:00+01:00", end: "2026-11-27T11:00:00+01:00" }, ["start"]);
    expectError(
      await env.admin("POST", `/admin/hosts/${alex}/time-off`, { startDate: "2026-11-27", endDate: "2026-11-27", extra: 1 }),
      422,
      "validation_failed",
    );

    // Another host's time off is as unknown as one that does not exist.
    expectError(await env.admin("DELETE", `/admin/hosts/${sam}/time-off/${range.id}`), 404, "not_found");
    expectError(await env.admin("GET", "/admin/hosts/9999/time-off"), 404, "not_found");
    expect((await env.admin("DELETE", `/admin/hosts/${alex}/time-off/${range.id}`)).status).toBe(200);
    expectError(await env.admin("DELETE", `/admin/hosts/${alex}/time-off/${range.id}`), 404, "not_found");
    expect((await env.admin("GET", `/admin/hosts/${alex}/time-off`)).body.data).toHaveLength(1);
    expectError(await env.call("GET", `/admin/hosts/${alex}/time-off`), 401, "unauthenticated");
  });

  it("takes whole days in the host's zone, 23 hours on the day clocks go forward, and blocks exactly those days", async () => {
    const env = await setup({ now: "2027-03-22T07:00:00Z" });
    const alex = await createHost(env, "Alex");
    const et = await eventType(env, { hosts: [{ hostId: alex }] });
    const away = await timeOff(env, alex, { startDate: "2027-03-26", endDate: "2027-03-28" });
    // Friday midnight is UTC+1; Monday's midnight, after the change on Sunday, is UTC+2.
    expect(away).toMatchObject({ start: "2027-03-25T23:00:00Z", end: "2027-03-28T22:00:00Z" });
    const week = await list(env, et, "/time-slots?from=2027-03-25&until=2027-03-29");
    expect(week.filter((s) => s.startsWith("2027-03-26"))).toEqual([]);
    expect(week.filter((s) => s.startsWith("2027-03-25")).at(-1)).toBe("2027-03-25T15:30:00Z");
    // Monday 09:00 in summer time.
    expect(week.filter((s) => s.startsWith("2027-03-29"))[0]).toBe("2027-03-29T07:00:00Z");
  });

  it("blocks a range like a calendar event, in the slot page and in the booking", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const et = await eventType(env, { hosts: [{ hostId: alex }] });
    await timeOff(env, alex, { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T11:00:00+01:00" });
    const tuesday = await list(env, et);
    expect(tuesday[0]).toBe("2026-11-24T10:00:00Z");
    expect(tuesday).not.toContain("2026-11-24T09:30:00Z");
    expectFailure(await book(env, et, "2026-11-24T08:00:00Z"), "slot_unavailable");
    expect((await book(env, et, "2026-11-24T10:00:00Z")).body.success).toBe(true);
  });

  it("refuses a booking inside time off inside the claim's transaction, even when what was read before it missed the time off", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const et = await eventType(env, { hosts: [{ hostId: alex }] });
    await timeOff(env, alex, { startDate: "2026-11-24", endDate: "2026-11-24" });
    // A second instance whose reads before the claim do not see the time off (as if it was written meanwhile).
    const stale: Store = Object.assign(Object.create(env.store), { timeOff: { ...env.store.timeOff, between: async () => [] } });
    const other = createApp({ store: stale, clock: env.clock, config: { adminKey: ADMIN_KEY }, log: () => undefined });
    const r = await other.handle(
      new Request("http://localhost/reservations", {
        method: "POST",
        headers: { authorization: `Bearer ${et.token}`, "content-type": "application/json" },
        body: JSON.stringify({ ...slot("2026-11-24T08:00:00Z"), ...visitor() }),
      }),
    );
    expect(await r.json()).toMatchObject({ success: false, code: "slot_unavailable" });
    expect(await env.store.hosts.reservations(alex, { fromMs: 0, untilMs: Date.parse("2027-01-01"), limit: 10 })).toEqual([]);
  });
});

describe("time off in teams and personal event types", () => {
  it("gives a round-robin slot to another host while one is away", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const bea = await createHost(env, "Bea");
    const team = await eventType(env, { assignment: "round-robin", hosts: [{ hostId: alex, priority: 1 }, { hostId: bea }] });
    // Alex first by priority, until away.
    const before = await book(env, team, "2026-11-24T08:00:00Z");
    expect(before.body.data.userId).toBe(alex);
    await timeOff(env, alex, { startDate: "2026-11-25", endDate: "2026-11-25" });
    expect(await list(env, team, "/time-slots?from=2026-11-25&until=2026-11-25")).toContain("2026-11-25T08:00:00Z");
    const during = await book(env, team, "2026-11-25T08:00:00Z", 1);
    expect(during.body.data.userId).toBe(bea);
    // Bea taken, Alex away: nobody left at that time.
    expect(await list(env, team, "/time-slots?from=2026-11-25&until=2026-11-25")).not.toContain("2026-11-25T08:00:00Z");
    expectFailure(await book(env, team, "2026-11-25T08:00:00Z", 2), "slot_unavailable");
  });

  it("leaves an away host out of a collective event type: the others meet without them", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const bea = await createHost(env, "Bea");
    const team = await eventType(env, { assignment: "collective", hosts: [{ hostId: alex }, { hostId: bea }] });
    const beasOwn = await eventType(env, { title: "Bea alone", hosts: [{ hostId: bea }] });
    expect((await book(env, beasOwn, "2026-11-24T09:00:00Z")).body.success).toBe(true);
    await timeOff(env, alex, { startDate: "2026-11-24", endDate: "2026-11-24" });
    const tuesday = await list(env, team);
    // Alex's absence does not close the day; Bea's own booking still does at 09:00Z.
    expect(tuesday[0]).toBe("2026-11-24T08:00:00Z");
    expect(tuesday).not.toContain("2026-11-24T09:00:00Z");
    const r = await book(env, team, "2026-11-24T08:00:00Z");
    expect(r.body.success, r.text).toBe(true);
    const booked = await env.admin("GET", `/admin/hosts/${bea}/reservations?from=2026-11-24&until=2026-11-24`);
    expect(booked.body.data.find((b: { uuid: string }) => b.uuid === r.body.data.uuid).hostIds).toEqual([bea]);
    expect((await env.admin("GET", `/admin/hosts/${alex}/reservations?from=2026-11-24&until=2026-11-24`)).body.data).toEqual([]);
    // When both are away, nobody meets.
    await timeOff(env, bea, { startDate: "2026-11-24", endDate: "2026-11-24" });
    expect(await list(env, team)).toEqual([]);
  });

  it("offers the colleague's times on an away host's personal booking page, books the colleague and says so in the configuration", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const sam = await createHost(env, "Sam");
    await env.admin("POST", `/admin/hosts/${sam}/schedules`, { name: "Afternoons", availability: { weekly: { tuesday: [{ start: "13:00", end: "15:00" }] } } });
    const alexs = await eventType(env, { hosts: [{ hostId: alex }] });
    const sams = await eventType(env, { title: "Sam's call", hosts: [{ hostId: sam }] });
    await timeOff(env, alex, { startDate: "2026-11-24", endDate: "2026-11-25", note: "Skiing", colleagueHostId: sam });
    // Sam's own hours on Tuesday (13:00-15:00 Prague), not Alex's.
    expect(await list(env, alexs)).toEqual(["2026-11-24T12:00:00Z", "2026-11-24T12:30:00Z", "2026-11-24T13:00:00Z", "2026-11-24T13:30:00Z"]);
    // Sam has no Wednesday hours: nothing then.
    expect(await list(env, alexs, "/time-slots?from=2026-11-25&until=2026-11-25")).toEqual([]);
    const config = await env.call("POST", "/event-types/init", { token: alexs.token, body: {} });
    expect(config.body.data.configuration.away).toEqual([
      { hostName: "Alex", start: "2026-11-23T23:00:00Z", end: "2026-11-25T23:00:00Z", lastDay: "2026-11-25", note: "Skiing", colleagueName: "Sam" },
    ]);

    const r = await book(env, alexs, "2026-11-24T12:00:00Z");
    expect(r.body.data).toMatchObject({ userId: sam, userName: "Sam" });
    const samsBookings = await env.admin("GET", `/admin/hosts/${sam}/reservations?from=2026-11-24&until=2026-11-24`);
    expect(samsBookings.body.data.map((b: { uuid: string }) => b.uuid)).toEqual([r.body.data.uuid]);
    // The booking takes Sam's time everywhere, and Alex's page shows it at once.
    expect(await list(env, alexs)).not.toContain("2026-11-24T12:00:00Z");
    expect(await list(env, sams)).not.toContain("2026-11-24T12:00:00Z");
    // Sam booked through his own page: gone from Alex's too.
    expect((await book(env, sams, "2026-11-24T12:30:00Z", 1)).body.success).toBe(true);
    expect(await list(env, alexs)).toEqual(["2026-11-24T13:00:00Z", "2026-11-24T13:30:00Z"]);
    // Outside the time off, Alex's own hours; a booking then is Alex's.
    expect((await book(env, alexs, "2026-11-26T08:00:00Z", 2)).body.data.userId).toBe(alex);
  });

  it("offers none of a colleague's times while the colleague is away too", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const sam = await createHost(env, "Sam");
    const alexs = await eventType(env, { hosts: [{ hostId: alex }] });
    await timeOff(env, alex, { startDate: "2026-11-24", endDate: "2026-11-24", colleagueHostId: sam });
    await timeOff(env, sam, { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T12:00:00+01:00" });
    // Sam stands in with the event type's hours (no schedule of his own), from noon in Prague.
    expect((await list(env, alexs))[0]).toBe("2026-11-24T11:00:00Z");
    expectFailure(await book(env, alexs, "2026-11-24T08:00:00Z"), "slot_unavailable");
    expect((await book(env, alexs, "2026-11-24T11:00:00Z")).body.data.userId).toBe(sam);
  });

  it("offers no times while a host without a colleague is away, and shows the note", async () => {
    const env = await setup();
    const alex = await createHost(env, "Alex");
    const et = await eventType(env, { hosts: [{ hostId: alex }] });
    await timeOff(env, alex, { startDate: "2026-11-23", endDate: "2026-11-24", note: "Back on Wednesday" });
    expect(await list(env, et)).toEqual([]);
    expectFailure(await book(env, et, "2026-11-24T08:00:00Z"), "slot_unavailable");
    const { configuration } = (await env.call("GET", "/configuration", { token: et.token })).body.data;
    expect(configuration.away).toMatchObject([{ hostName: "Alex", lastDay: "2026-11-24", note: "Back on Wednesday", colleagueName: null }]);
    // The first free day skips the away days (today and tomorrow).
    expect(configuration.closestBookableDay).toBe(2);
  });
});

describe("who may set time off", () => {
  it("lets a host's console session set its own time off, never another host's", async () => {
    const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
    const ana = await createHost(env, "Ana");
    const bea = await createHost(env, "Bea");
    expect((await env.admin("POST", `/admin/hosts/${ana}/sign-in-link`)).body.data.sent).toBe(false);
    const url = String(env.logs.find((l) => typeof l.developmentLink === "string")!.developmentLink);
    const opened = await env.call("POST", "/console/session", { body: { link: url.split("#link=")[1] }, headers: { origin: "http://localhost" } });
    expect(opened.status, opened.text).toBe(200);
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
    const as = (method: string, path: string, body?: unknown) =>
      env.call(method, path, { headers: { cookie, origin: "http://localhost" }, ...(body === undefined ? {} : { body }) });
    const own = await as("POST", `/admin/hosts/${ana}/time-off`, { startDate: "2026-11-24", endDate: "2026-11-24", colleagueHostId: bea });
    expect(own.status, own.text).toBe(200);
    expect((await as("GET", `/admin/hosts/${ana}/time-off`)).body.data).toHaveLength(1);
    expectError(await as("POST", `/admin/hosts/${bea}/time-off`, { startDate: "2026-11-24", endDate: "2026-11-24" }), 403, "forbidden");
    expectError(await as("GET", `/admin/hosts/${bea}/time-off`), 403, "forbidden");
    const beas = await timeOff(env, bea, { startDate: "2026-11-26", endDate: "2026-11-26" });
    expectError(await as("DELETE", `/admin/hosts/${bea}/time-off/${beas.id}`), 403, "forbidden");
    // Bea's time off through Ana's own path is as unknown as none.
    expectError(await as("DELETE", `/admin/hosts/${ana}/time-off/${beas.id}`), 404, "not_found");
    expect((await as("DELETE", `/admin/hosts/${ana}/time-off/${own.body.data.id}`)).status).toBe(200);
  });
});
