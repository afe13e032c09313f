import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BookingLimits, EventTypeCreate } from "@booking/wire";
import { createApp } from "../src/app.ts";
import { ADMIN_KEY, createHost, dataOf, DEFAULT_HOST_ID, ENGINE, expectError, expectFailure, openTestStoreBeside, setup, type Answer } from "./utils.ts";

// Booking limits (docs/admin.md#limits): per event type and per host, calendar periods in the
// limit's zone. The clock stands on Monday 2026-11-23 07:00Z (08:00 in Prague) unless a test moves it.

const NO_RATE_LIMIT = { rateLimit: { limit: 1_000_000, windowSeconds: 60 } };
const allDay = [{ start: "00:00", end: "24:00" }];
const everyDay = { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay };

type Env = Awaited<ReturnType<typeof setup>>;

/** An event type open around the clock in `timezone`, 30-minute meetings every 30 minutes, no notice. */
async function world(settings: Partial<EventTypeCreate> & { limits?: BookingLimits } = {}, now?: string) {
  const env = await setup({ config: NO_RATE_LIMIT, ...(now ? { now } : {}) });
  const et = await env.eventType({ timezone: "Europe/Prague", minNoticeMinutes: 0, availability: { weekly: everyDay, overrides: [] }, ...settings } as never);
  return { ...env, et, ...client(env, et.token) };
}

function client(env: Env, token: string) {
  return {
    book: (start: string, minutes = 30, email = "ada@example.com") =>
      env.call("POST", "/reservations", { token, body: { start, end: new Date(Date.parse(start) + minutes * 60_000).toISOString(), email } }),
    hold: (start: string, minutes = 30) =>
      env.call("POST", "/reservations/prepare", {
        token,
        body: { start, end: new Date(Date.parse(start) + minutes * 60_000).toISOString(), email: "ada@example.com" },
      }),
    reschedule: (uuid: string, start: string, minutes = 30) =>
      env.call("PUT", `/reservations/${uuid}`, { token, body: { start, end: new Date(Date.parse(start) + minutes * 60_000).toISOString() } }),
    cancel: (uuid: string) => env.call("DELETE", `/reservations/${uuid}`, { token }),
    /** The slot starts (UTC ISO) of the days from..until, in the event type's zone. */
    starts: async (from: string, until = from) =>
      (dataOf(await env.call("GET", `/time-slots?from=${from}&until=${until}`, { token })) as { start: string }[]).map((s) => new Date(s.start).toISOString()),
    firstFree: async (from: string) => dataOf(await env.call("GET", `/time-slots/first-free?from=${from}`, { token })).date as string | null,
    closest: async () => dataOf(await env.call("GET", "/configuration", { token })).configuration.closestBookableDay as number,
  };
}

const uuidOf = (r: Answer): string => dataOf(r).uuid;

describe("limits in the admin API", () => {
  it("keeps an event type's limits, shows every kind, replaces them on change and removes them with {}", async () => {
    const env = await setup();
    const created = dataOf(await env.admin("POST", "/admin/event-types", { title: "Coaching", limits: { bookingsPerDay: 4, minutesPerWeek: 600 } }));
    expect(created.limits).toEqual({ bookingsPerDay: 4, bookingsPerWeek: null, bookingsPerMonth: null, minutesPerDay: null, minutesPerWeek: 600 });
    const changed = dataOf(await env.admin("PATCH", `/admin/event-types/${created.id}`, { limits: { bookingsPerDay: null, bookingsPerMonth: 30 } }));
    expect(changed.limits).toEqual({ bookingsPerDay: null, bookingsPerWeek: null, bookingsPerMonth: 30, minutesPerDay: null, minutesPerWeek: null });
    const untouched = dataOf(await env.admin("PATCH", `/admin/event-types/${created.id}`, { title: "Coaching 2" }));
    expect(untouched.limits.bookingsPerMonth).toBe(30);
    const cleared = dataOf(await env.admin("PATCH", `/admin/event-types/${created.id}`, { limits: {} }));
    expect(Object.values(cleared.limits)).toEqual([null, null, null, null, null]);
  });

  it("keeps a host's limits on create and change", async () => {
    const env = await setup();
    const id = await createHost(env, "Alex", { limits: { bookingsPerWeek: 10 } });
    expect(dataOf(await env.admin("GET", `/admin/hosts/${id}`)).limits).toMatchObject({ bookingsPerWeek: 10, minutesPerDay: null });
    const changed = dataOf(await env.admin("PATCH", `/admin/hosts/${id}`, { limits: { bookingsPerWeek: 10, minutesPerDay: 240 } }));
    expect(changed.limits).toMatchObject({ bookingsPerWeek: 10, minutesPerDay: 240, bookingsPerDay: null });
    // The default host (migrated, without an email) takes limits alone.
    expect(dataOf(await env.admin("PATCH", `/admin/hosts/${DEFAULT_HOST_ID}`, { limits: { bookingsPerDay: 3 } })).limits.bookingsPerDay).toBe(3);
  });

  it.each([
    [{ bookingsPerDay: 0 }, "limits.bookingsPerDay"],
    [{ minutesPerWeek: -5 }, "limits.minutesPerWeek"],
    [{ bookingsPerWeek: 1.5 }, "limits.bookingsPerWeek"],
    [{ minutesPerDay: 1441 }, "limits.minutesPerDay"],
    [{ bookingsPerDay: "4" }, "limits.bookingsPerDay"],
    [{ bookingsPerYear: 3 }, "limits"],
  ])("refuses %j with 422 naming the field", async (limits, field) => {
    const env = await setup();
    for (const r of [
      await env.admin("POST", "/admin/event-types", { title: "Coaching", limits }),
      await env.admin("PATCH", `/admin/hosts/${DEFAULT_HOST_ID}`, { limits }),
    ]) {
      expectError(r, 422, "validation_failed");
      expect(Object.keys(r.body.errors ?? {}).join(" ")).toContain(field);
    }
  });
});

describe("an event type's limits", () => {
  it("bookingsPerDay: refuses the booking past the limit with limit_reached and drops the full day from the slot page", async () => {
    const w = await world({ limits: { bookingsPerDay: 2 } });
    dataOf(await w.book("2026-11-24T09:00:00Z"));
    expect(await w.starts("2026-11-24")).toHaveLength(47);
    dataOf(await w.book("2026-11-24T10:00:00Z"));
    expectFailure(await w.book("2026-11-24T11:00:00Z"), "limit_reached");
    expect(await w.starts("2026-11-24")).toEqual([]);
    // The day is Prague's: 2026-11-24T23:30Z is already Wednesday there.
    expect(await w.starts("2026-11-25")).toHaveLength(48);
    dataOf(await w.book("2026-11-24T23:30:00Z"));
  });

  it("bookingsPerDay: first-free and closestBookableDay skip a full day", async () => {
    const w = await world({ limits: { bookingsPerDay: 1 } });
    expect(await w.closest()).toBe(0);
    dataOf(await w.book("2026-11-23T12:00:00Z"));
    expect(await w.firstFree("2026-11-23")).toBe("2026-11-24");
    expect(await w.closest()).toBe(1);
    dataOf(await w.book("2026-11-24T12:00:00Z"));
    expect(await w.firstFree("2026-11-23")).toBe("2026-11-25");
    expect(await w.closest()).toBe(2);
  });

  it("bookingsPerWeek: a full week drops out, weeks from Monday by default", async () => {
    const w = await world({ limits: { bookingsPerWeek: 2 } });
    dataOf(await w.book("2026-11-24T09:00:00Z"));
    dataOf(await w.book("2026-11-26T09:00:00Z"));
    expectFailure(await w.book("2026-11-28T09:00:00Z"), "limit_reached");
    expect(await w.starts("2026-11-24", "2026-11-29")).toEqual([]);
    expect(await w.firstFree("2026-11-24")).toBe("2026-11-30");
  });

  it("bookingsPerWeek: weeks start on Sunday when the event type's calendar does", async () => {
    const w = await world({ limits: { bookingsPerWeek: 2 }, locale: { startDayOfWeek: "sunday" } });
    dataOf(await w.book("2026-11-24T09:00:00Z"));
    dataOf(await w.book("2026-11-26T09:00:00Z"));
    expect(await w.starts("2026-11-24", "2026-11-28")).toEqual([]);
    expect(await w.firstFree("2026-11-24")).toBe("2026-11-29");
    dataOf(await w.book("2026-11-29T09:00:00Z"));
  });

  it("bookingsPerMonth: a full month drops out until the next", async () => {
    const w = await world({ limits: { bookingsPerMonth: 2 } });
    dataOf(await w.book("2026-11-24T09:00:00Z"));
    dataOf(await w.book("2026-11-30T09:00:00Z"));
    expectFailure(await w.book("2026-11-27T09:00:00Z"), "limit_reached");
    expect(await w.firstFree("2026-11-24")).toBe("2026-12-01");
    dataOf(await w.book("2026-12-01T09:00:00Z"));
  });

  it("minutesPerDay: refuses the booking whose minutes would pass the limit", async () => {
    const w = await world({ durationMinutes: 45, slotIntervalMinutes: 15, limits: { minutesPerDay: 100 } });
    dataOf(await w.book("2026-11-24T09:00:00Z", 45));
    dataOf(await w.book("2026-11-24T10:00:00Z", 45));
    // 90 of 100 minutes: a 45-minute meeting no longer fits that day.
    expectFailure(await w.book("2026-11-24T12:00:00Z", 45), "limit_reached");
    expect(await w.starts("2026-11-24")).toEqual([]);
    expect((await w.starts("2026-11-25")).length).toBeGreaterThan(0);
  });

  it("minutesPerWeek: counts minutes over the week", async () => {
    const w = await world({ limits: { minutesPerWeek: 60 } });
    dataOf(await w.book("2026-11-23T09:00:00Z"));
    dataOf(await w.book("2026-11-27T09:00:00Z"));
    expectFailure(await w.book("2026-11-29T09:00:00Z"), "limit_reached");
    expect(await w.firstFree("2026-11-23")).toBe("2026-11-30");
  });

  it("counts held bookings until their hold lapses, and no cancelled ones", async () => {
    const w = await world({ limits: { bookingsPerDay: 1 } });
    const held = uuidOf(await w.hold("2026-11-24T09:00:00Z"));
    expectFailure(await w.book("2026-11-24T10:00:00Z"), "limit_reached");
    expect(await w.starts("2026-11-24")).toEqual([]);
    // The hold lapses (10 minutes by default): its place is free again.
    w.clock.advance(11);
    expect((await w.starts("2026-11-24")).length).toBeGreaterThan(0);
    const booked = uuidOf(await w.book("2026-11-24T10:00:00Z"));
    expect(held).not.toBe(booked);
    expectFailure(await w.book("2026-11-24T11:00:00Z"), "limit_reached");
    dataOf(await w.cancel(booked));
    dataOf(await w.book("2026-11-24T11:00:00Z"));
  });

  it("refuses a reschedule into a full day and allows one within the day", async () => {
    const w = await world({ limits: { bookingsPerDay: 2 } });
    const first = uuidOf(await w.book("2026-11-24T09:00:00Z"));
    dataOf(await w.book("2026-11-24T10:00:00Z"));
    const other = uuidOf(await w.book("2026-11-25T09:00:00Z"));
    expectFailure(await w.reschedule(other, "2026-11-24T12:00:00Z"), "limit_reached");
    // The organizer's list of times to move a booking to: the full day is offered to a booking of that
    // day (its move counts it once), not to one of another day.
    const movesOf = async (uuid: string) =>
      (dataOf(await w.admin("GET", `/admin/event-types/${w.et.id}/reservations/${uuid}/time-slots?from=2026-11-24&until=2026-11-24`)) as unknown[]).length;
    expect(await movesOf(first)).toBeGreaterThan(0);
    expect(await movesOf(other)).toBe(0);
    // Moving a booking inside its own full day counts it once.
    dataOf(await w.reschedule(first, "2026-11-24T13:00:00Z"));
    // The organizer's move is bound by limits too.
    expectFailure(
      await w.admin("POST", `/admin/event-types/${w.et.id}/reservations/${other}/reschedule`, {
        start: "2026-11-24T14:00:00Z",
        end: "2026-11-24T14:30:00Z",
      }),
      "limit_reached",
    );
  });

  it("counts a week that crosses the change to summer time by its calendar days (Europe/Prague, 2027-03-28)", async () => {
    const w = await world({ timezone: "Europe/Prague", limits: { bookingsPerWeek: 2 } }, "2027-03-22T06:00:00Z");
    dataOf(await w.book("2027-03-22T09:00:00Z"));
    dataOf(await w.book("2027-03-28T12:00:00Z"));
    // Sunday 23:30 in Prague (summer time) is still that week; Monday 00:30 is the next one, though
    // less than 7 × 24 hours passed since the week began.
    expectFailure(await w.book("2027-03-28T21:30:00Z"), "limit_reached");
    expect(await w.starts("2027-03-22", "2027-03-28")).toEqual([]);
    expect((await w.starts("2027-03-29"))[0]).toBe("2027-03-28T22:00:00.000Z");
    dataOf(await w.book("2027-03-28T22:30:00Z"));
  });
});

describe("a host's limits", () => {
  it("counts a host's bookings across all of their event types, in the host's zone", async () => {
    const env = await setup({ config: NO_RATE_LIMIT });
    const host = await createHost(env, "Alex", { timezone: "America/New_York", limits: { bookingsPerDay: 2 } });
    const a = await env.eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: everyDay, overrides: [] },
      hosts: [{ hostId: host }],
    } as never);
    const b = await env.eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: everyDay, overrides: [] },
      hosts: [{ hostId: host }],
    } as never);
    const wa = client(env, a.token);
    const wb = client(env, b.token);
    // 2026-11-24T03:00Z is Monday 22:00 in New York; 05:00Z is Tuesday 00:00 there.
    dataOf(await wa.book("2026-11-24T02:00:00Z"));
    dataOf(await wb.book("2026-11-24T03:00:00Z"));
    expectFailure(await wa.book("2026-11-24T04:30:00Z"), "limit_reached");
    expectFailure(await wb.book("2026-11-24T04:30:00Z"), "limit_reached");
    dataOf(await wb.book("2026-11-24T05:00:00Z"));
    // UTC's Tuesday on b's page: the hours before 05:00Z are New York's full Monday.
    const tuesday = await wb.starts("2026-11-24");
    expect(tuesday[0]).toBe("2026-11-24T05:30:00.000Z");
    // A change of the host's limit moves every page of theirs at once.
    dataOf(await env.admin("PATCH", `/admin/hosts/${host}`, { limits: { bookingsPerDay: 3 } }));
    expect((await wa.starts("2026-11-24"))[0]).toBe("2026-11-24T00:00:00.000Z");
  });

  it("leaves a host at their limit out of round robin, and a collective booking needs every host under theirs", async () => {
    const env = await setup({ config: NO_RATE_LIMIT });
    const busy = await createHost(env, "Busy", { limits: { bookingsPerDay: 1 } });
    const free = await createHost(env, "Free");
    const hours = { timezone: "Europe/Prague", minNoticeMinutes: 0, availability: { weekly: everyDay, overrides: [] } };
    const rr = await env.eventType({ ...hours, assignment: "round-robin", hosts: [{ hostId: busy, priority: 10 }, { hostId: free }] } as never);
    const team = await env.eventType({ ...hours, assignment: "collective", hosts: [{ hostId: busy }, { hostId: free }] } as never);
    const r = client(env, rr.token);
    const c = client(env, team.token);
    expect(dataOf(await r.book("2026-11-24T09:00:00Z")).userId).toBe(busy);
    // Busy reached their day's limit: round robin gives the next booking to Free.
    expect(dataOf(await r.book("2026-11-24T10:00:00Z")).userId).toBe(free);
    expect((await r.starts("2026-11-24")).length).toBeGreaterThan(0);
    // The collective event type needs Busy too: that day is gone from its page, and refused.
    expect(await c.starts("2026-11-24")).toEqual([]);
    expectFailure(await c.book("2026-11-24T12:00:00Z"), "limit_reached");
    expect(await c.firstFree("2026-11-24")).toBe("2026-11-25");
  });
});

describe("simultaneous bookings against a limit", () => {
  /** Books until each answer is final: `slot_locked` (another booking was writing) is tried again, as the hint says. */
  async function settle(send: () => Promise<Answer>): Promise<Answer> {
    for (;;) {
      const r = await send();
      if (r.body?.code !== "slot_locked") return r;
    }
  }

  it.each([
    ["event type", { limits: { bookingsPerDay: 3 } }, null],
    ["host", {}, { bookingsPerDay: 3 }],
  ] as const)(
    "lets exactly 3 of 24 bookings of distinct slots of one day through, across two instances (%s limit)",
    async (_kind, settings, hostLimits) => {
      const dir = ENGINE === "sqlite" ? mkdtempSync(join(tmpdir(), "booking-limit-race-")) : null;
      try {
        const env = await setup({ ...(dir ? { databasePath: join(dir, "race.sqlite") } : {}), config: NO_RATE_LIMIT });
        if (hostLimits) dataOf(await env.admin("PATCH", `/admin/hosts/${DEFAULT_HOST_ID}`, { limits: hostLimits }));
        const hours = { timezone: "UTC", minNoticeMinutes: 0, availability: { weekly: everyDay, overrides: [] } };
        const a = await env.eventType({ ...hours, ...settings } as never);
        // With a host limit, a second event type of the same host races too.
        const b = hostLimits ? await env.eventType(hours as never) : a;
        const second = await openTestStoreBeside(env.store, NO_RATE_LIMIT.rateLimit);
        const app2 = createApp({ store: second, clock: env.clock, config: { adminKey: ADMIN_KEY, ...NO_RATE_LIMIT }, log: () => undefined });
        const apps = [env.app, app2];
        const answers = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            settle(async () => {
              const start = Date.parse("2026-11-25T00:00:00Z") + i * 3_600_000;
              const response = await apps[i % 2]!.handle(
                new Request("http://localhost/reservations", {
                  method: "POST",
                  headers: { authorization: `Bearer ${(i % 3 === 0 ? b : a).token}`, "content-type": "application/json" },
                  body: JSON.stringify({ start: new Date(start).toISOString(), end: new Date(start + 30 * 60_000).toISOString(), email: `v${i}@example.com` }),
                }),
              );
              return { status: response.status, headers: response.headers, body: await response.json(), text: "" };
            }),
          ),
        );
        expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
        expect(answers.filter((r) => r.body.success)).toHaveLength(3);
        expect(answers.filter((r) => !r.body.success).map((r) => r.body.code)).toEqual(Array(21).fill("limit_reached"));
        const day = { fromMs: Date.parse("2026-11-25T00:00:00Z"), untilMs: Date.parse("2026-11-26T00:00:00Z") };
        const held = await env.store.reservations.limitBookings(null, [DEFAULT_HOST_ID], day.fromMs, day.untilMs, env.clock.now());
        expect(held).toHaveLength(3);
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
