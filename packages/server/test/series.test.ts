import { describe, expect, it } from "vitest";
import { dataOf, expectError } from "./utils.ts";
import { TUE_1000, invitedStarts, world } from "./series-world.ts";

// Recurring bookings on the suite's engine. The clock of setup() starts on Monday
// 2026-11-23T07:00:00Z; the event types offer 30-minute weekday slots 09:00-17:00 in Berlin.

describe("booking a series", () => {
  it("books every occurrence as a reservation of its own carrying one seriesId, at the same local time each week", async () => {
    const w = await world();
    const data = dataOf(await w.book(TUE_1000, { interval: "weekly", count: 8 }));
    expect(data.seriesId).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.occurrences.map((o: { start: string }) => o.start)).toEqual(
      ["2026-12-01", "2026-12-08", "2026-12-15", "2026-12-22", "2026-12-29", "2027-01-05", "2027-01-12", "2027-01-19"].map((d) => `${d}T10:00:00+01:00`),
    );
    expect(data.uuid).toBe(data.occurrences[0].uuid);
    const stored = await w.store.reservations.series(w.et.id, data.seriesId);
    expect(stored.map((r) => [r.status, r.seriesId, r.uuid])).toEqual(data.occurrences.map((o: { uuid: string }) => ["confirmed", data.seriesId, o.uuid]));
    // Each occurrence's time is taken: the slot page no longer offers it.
    const slots = dataOf(await w.call("GET", "/time-slots?from=2026-12-15&until=2026-12-15", { token: w.et.token }));
    expect(slots.map((s: { readable_start: string }) => s.readable_start)).not.toContain("10:00");
    expect(slots.map((s: { readable_start: string }) => s.readable_start)).toContain("10:30");
    // The organizer's view names the series.
    const view = dataOf(await w.admin("GET", `/admin/event-types/${w.et.id}/reservations/${data.occurrences[3].uuid}`));
    expect(view.seriesId).toBe(data.seriesId);
  });

  it("answers a retry with the same Idempotency-Key with the series booked first, booking nothing twice", async () => {
    const w = await world();
    const body = { ...TUE_1000, email: "ada@example.com", recurrence: { interval: "weekly", count: 3 } };
    const headers = { "idempotency-key": "series-retry-1" };
    const first = dataOf(await w.call("POST", "/reservations", { token: w.et.token, body, headers }));
    const again = await w.call("POST", "/reservations", { token: w.et.token, body, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(dataOf(again)).toEqual(first);
    expect(await w.store.reservations.series(w.et.id, first.seriesId)).toHaveLength(3);
  });

  it("repeats every two weeks with interval biweekly", async () => {
    const w = await world();
    const data = dataOf(await w.book(TUE_1000, { interval: "biweekly", count: 3 }));
    expect(data.occurrences.map((o: { start: string }) => o.start.slice(0, 10))).toEqual(["2026-12-01", "2026-12-15", "2026-12-29"]);
  });

  it("refuses the whole series with 409 series_unavailable naming every occurrence that is taken, and books nothing", async () => {
    const w = await world();
    dataOf(await w.book({ start: "2026-12-15T10:00:00+01:00", end: "2026-12-15T10:30:00+01:00" }, undefined, "bob@example.com"));
    dataOf(await w.book({ start: "2026-12-29T10:00:00+01:00", end: "2026-12-29T10:30:00+01:00" }, undefined, "eve@example.com"));
    const refused = await w.book(TUE_1000, { interval: "weekly", count: 6 });
    expectError(refused, 409, "series_unavailable");
    expect(refused.body.conflicts).toEqual([
      { start: "2026-12-15T10:00:00+01:00", end: "2026-12-15T10:30:00+01:00" },
      { start: "2026-12-29T10:00:00+01:00", end: "2026-12-29T10:30:00+01:00" },
    ]);
    const all = await w.store.reservations.list(w.et.id, { fromMs: 0, untilMs: Date.parse("2028-01-01T00:00:00Z"), limit: 100 });
    expect(all.map((r) => r.email).sort()).toEqual(["bob@example.com", "eve@example.com"]);
    // Nothing of the refused series was announced either.
    expect((await w.outbox()).filter((e) => e.kind === "reservation.created" && !e.channel?.startsWith("email") && e.payload.includes("ada@"))).toEqual([]);
  });

  it("counts a series' own occurrences against the booking limits inside its transaction: past the limit, the series is refused whole", async () => {
    const w = await world();
    // Two a month: each December Tuesday alone is offered, but the series' third and fourth would pass the limit.
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { limits: { bookingsPerMonth: 2 } })).status).toBe(200);
    const refused = await w.book(TUE_1000, { interval: "weekly", count: 4 });
    expectError(refused, 409, "series_unavailable");
    expect(refused.body.conflicts.map((c: { start: string }) => c.start)).toEqual(["2026-12-15T10:00:00+01:00", "2026-12-22T10:00:00+01:00"]);
    expect(await w.store.reservations.list(w.et.id, { fromMs: 0, untilMs: Date.parse("2028-01-01T00:00:00Z"), limit: 100 })).toEqual([]);
    // Two fit.
    expect(dataOf(await w.book(TUE_1000, { interval: "weekly", count: 2 })).occurrences).toHaveLength(2);
  });

  it("refuses a series whose occurrences fall outside the hours or beyond the horizon with the same 409", async () => {
    const w = await world({ horizonDays: 20 });
    const refused = await w.book(TUE_1000, { interval: "weekly", count: 4 });
    expectError(refused, 409, "series_unavailable");
    expect(refused.body.conflicts.map((c: { start: string }) => c.start.slice(0, 10))).toEqual(["2026-12-15", "2026-12-22"]);
  });

  it("answers 422 for a series the event type does not allow, and for a hold", async () => {
    const w = await world({ recurrence: { maxOccurrences: 4, intervals: ["weekly"] } });
    expectError(await w.book(TUE_1000, { interval: "weekly", count: 5 }), 422, "validation_failed");
    const biweekly = await w.book(TUE_1000, { interval: "biweekly", count: 2 });
    expectError(biweekly, 422, "validation_failed");
    expect(Object.keys(biweekly.body.errors)).toEqual(["recurrence.interval"]);
    expectError(await w.book(TUE_1000, { interval: "daily", count: 2 }), 422, "validation_failed");
    const hold = await w.call("POST", "/reservations/prepare", {
      token: w.et.token,
      body: { ...TUE_1000, email: "a@example.com", recurrence: { interval: "weekly", count: 2 } },
    });
    expectError(hold, 422, "validation_failed");
    const single = await world({ recurrence: null });
    const none = await single.book(TUE_1000, { interval: "weekly", count: 2 });
    expectError(none, 422, "validation_failed");
    expect(Object.keys(none.body.errors)).toEqual(["recurrence"]);
  });

  it("checks the organizer's recurrence setting (422) and shows it in the configuration", async () => {
    const w = await world();
    const refusals: [unknown, string][] = [
      [{ maxOccurrences: 1, intervals: ["weekly"] }, "recurrence.maxOccurrences"],
      [{ maxOccurrences: 53, intervals: ["weekly"] }, "recurrence.maxOccurrences"],
      [{ maxOccurrences: 4, intervals: [] }, "recurrence.intervals"],
      [{ maxOccurrences: 4, intervals: ["weekly", "weekly"] }, "recurrence.intervals"],
      [{ maxOccurrences: 4, intervals: ["daily"] }, "recurrence"],
    ];
    for (const [recurrence, field] of refusals) {
      const refused = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { recurrence });
      expectError(refused, 422, "validation_failed");
      expect(Object.keys(refused.body.errors)).toEqual([field]);
    }
    const paid = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { payment: { amount: 5000, currency: "eur", providerAccountId: "acct_1" } });
    expectError(paid, 422, "validation_failed");
    expect(Object.keys(paid.body.errors)).toEqual(["recurrence"]);
    const changed = dataOf(await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { recurrence: { maxOccurrences: 6, intervals: ["biweekly"] } }));
    expect(changed.recurrence).toEqual({ maxOccurrences: 6, intervals: ["biweekly"] });
    const config = dataOf(await w.call("GET", "/configuration", { token: w.et.token })).configuration;
    expect(config.recurrence).toEqual({ maxOccurrences: 6, intervals: ["biweekly"] });
    dataOf(await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { recurrence: null }));
    expect(dataOf(await w.call("GET", "/configuration", { token: w.et.token })).configuration.recurrence).toBeNull();
  });
});

describe("which occurrences are free", () => {
  it("lists each occurrence of a series with whether GET /time-slots offers it", async () => {
    const w = await world();
    dataOf(await w.book({ start: "2026-12-08T10:00:00+01:00", end: "2026-12-08T10:30:00+01:00" }, undefined, "bob@example.com"));
    const data = dataOf(await w.call("GET", `/time-slots/series?start=${encodeURIComponent(TUE_1000.start)}&interval=weekly&count=4`, { token: w.et.token }));
    expect(data).toEqual([
      { start: "2026-12-01T10:00:00+01:00", end: "2026-12-01T10:30:00+01:00", startIso8601: "2026-12-01T09:00:00Z", available: true },
      { start: "2026-12-08T10:00:00+01:00", end: "2026-12-08T10:30:00+01:00", startIso8601: "2026-12-08T09:00:00Z", available: false },
      { start: "2026-12-15T10:00:00+01:00", end: "2026-12-15T10:30:00+01:00", startIso8601: "2026-12-15T09:00:00Z", available: true },
      { start: "2026-12-22T10:00:00+01:00", end: "2026-12-22T10:30:00+01:00", startIso8601: "2026-12-22T09:00:00Z", available: true },
    ]);
  });

  it("answers 422 for a bad start, interval or count", async () => {
    const w = await world({ recurrence: { maxOccurrences: 4, intervals: ["weekly"] } });
    const r = await w.call("GET", "/time-slots/series?start=tomorrow&interval=biweekly&count=9", { token: w.et.token });
    expectError(r, 422, "validation_failed");
    expect(Object.keys(r.body.errors).sort()).toEqual(["count", "interval", "start"]);
  });
});

describe("series across daylight saving time changes", () => {
  const cases = [
    [
      "Europe/Berlin, last Sunday of March",
      "Europe/Berlin",
      "2027-03-01T07:00:00Z",
      "2027-03-16T10:00:00+01:00",
      ["2027-03-16T10:00:00+01:00", "2027-03-23T10:00:00+01:00", "2027-03-30T10:00:00+02:00", "2027-04-06T10:00:00+02:00"],
    ],
    [
      "Europe/Berlin, last Sunday of October",
      "Europe/Berlin",
      "2027-10-01T07:00:00Z",
      "2027-10-19T10:00:00+02:00",
      ["2027-10-19T10:00:00+02:00", "2027-10-26T10:00:00+02:00", "2027-11-02T10:00:00+01:00", "2027-11-09T10:00:00+01:00"],
    ],
    [
      "America/New_York, second Sunday of March",
      "America/New_York",
      "2027-03-01T07:00:00Z",
      "2027-03-09T10:00:00-05:00",
      ["2027-03-09T10:00:00-05:00", "2027-03-16T10:00:00-04:00", "2027-03-23T10:00:00-04:00", "2027-03-30T10:00:00-04:00"],
    ],
    [
      "America/New_York, first Sunday of November",
      "America/New_York",
      "2027-10-01T07:00:00Z",
      "2027-10-26T10:00:00-04:00",
      ["2027-10-26T10:00:00-04:00", "2027-11-02T10:00:00-04:00", "2027-11-09T10:00:00-05:00", "2027-11-16T10:00:00-05:00"],
    ],
  ] as const;
  it.each(cases)("keeps 10:00 local every week in %s", async (_name, timezone, now, start, expected) => {
    const w = await world({ timezone }, now);
    const end = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    const free = dataOf(await w.call("GET", `/time-slots/series?start=${encodeURIComponent(start)}&interval=weekly&count=4`, { token: w.et.token }));
    expect(free.map((o: { start: string; available: boolean }) => [o.start, o.available])).toEqual(expected.map((s) => [s, true]));
    const data = dataOf(await w.book({ start, end }, { interval: "weekly", count: 4 }));
    expect(data.occurrences.map((o: { start: string }) => o.start)).toEqual([...expected]);
    // The invite says it once, in the zone's local time, with the zone's rules.
    const mail = (await w.visitorMails())[0]!.mail;
    expect(invitedStarts(mail.ics, timezone)).toEqual(expected.map((e) => new Date(e).toISOString()));
  });
});
