import { describe, expect, it } from "vitest";
import { createHost, dataOf, reservation, setup } from "./utils.ts";

// A month of a busy host, March 2026: the US changes its clocks on the 8th, Europe on the 29th.
// Alex hosts four event types (one on a New York schedule of theirs, two shared with Sam), has
// bookings through each, two calendars' worth of busy time, buffers, a full seated slot, a minimum
// notice and a horizon that ends inside the month. For every candidate start of the month, the
// availability check's `bookable` must be exactly "the slot page lists it".

const NOW = "2026-03-02T07:00:00Z";
const FROM = "2026-03-02";
const UNTIL = "2026-03-31";
const MINUTE = 60_000;
const weekdays = (ranges: { start: string; end: string }[]) => ({ monday: ranges, tuesday: ranges, wednesday: ranges, thursday: ranges, friday: ranges });

async function busyMonth() {
  const env = await setup({ now: NOW, config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } });
  const alex = await createHost(env, "Alex", { timezone: "Europe/Berlin" });
  const sam = await createHost(env, "Sam", { timezone: "Europe/Berlin" });
  const us = dataOf(
    await env.admin("POST", `/admin/hosts/${alex}/schedules`, {
      name: "US mornings",
      timezone: "America/New_York",
      availability: {
        weekly: { monday: [{ start: "08:00", end: "12:00" }], tuesday: [{ start: "08:00", end: "12:00" }], thursday: [{ start: "08:00", end: "12:00" }] },
      },
    }),
  ).id as number;
  const coaching = await env.eventType({
    title: "Coaching",
    timezone: "Europe/Berlin",
    hosts: [{ hostId: alex }],
    durationMinutes: 45,
    slotIntervalMinutes: 15,
    bufferBeforeMinutes: 10,
    bufferAfterMinutes: 5,
    minNoticeMinutes: 180,
    horizonDays: 20,
    availability: {
      weekly: { ...weekdays([{ start: "09:00", end: "17:00" }]), saturday: [{ start: "10:00", end: "12:00" }] },
      overrides: [
        { date: "2026-03-10", ranges: [] },
        { date: "2026-03-12", ranges: [{ start: "08:00", end: "10:00" }] },
        { date: "2026-03-29", ranges: [{ start: "01:00", end: "04:00" }] },
      ],
    },
  });
  const workshop = await env.eventType({
    title: "Workshop",
    timezone: "Europe/Berlin",
    hosts: [{ hostId: alex, scheduleId: us }],
    durationMinutes: 60,
    slotIntervalMinutes: 30,
    seats: 3,
    horizonDays: 60,
  });
  const team = await env.eventType({
    title: "Team call",
    timezone: "Europe/Berlin",
    hosts: [{ hostId: alex }, { hostId: sam }],
    assignment: "round-robin",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    bufferAfterMinutes: 15,
    horizonDays: 60,
    availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]) },
  });
  const panel = await env.eventType({
    title: "Panel",
    timezone: "Europe/Berlin",
    hosts: [{ hostId: alex }, { hostId: sam }],
    assignment: "collective",
    durationMinutes: 60,
    slotIntervalMinutes: 60,
    horizonDays: 60,
    availability: { weekly: weekdays([{ start: "10:00", end: "16:00" }]) },
  });
  const heldUntilMs = Date.parse(NOW) + 10 * MINUTE;
  await env.store.reservations.insertMany([
    reservation(coaching.id, "2026-03-03T09:00:00Z", 45, { hostIds: [alex] }),
    reservation(coaching.id, "2026-03-05T13:15:00Z", 45, { hostIds: [alex] }),
    reservation(coaching.id, "2026-03-17T08:00:00Z", 45, { hostIds: [alex] }),
    reservation(coaching.id, "2026-03-30T07:00:00Z", 45, { hostIds: [alex] }),
    reservation(coaching.id, "2026-03-06T10:00:00Z", 45, { hostIds: [alex], status: "held", heldUntilMs, confirmedAtMs: null }),
    reservation(coaching.id, "2026-03-06T13:00:00Z", 45, { hostIds: [alex], status: "cancelled", cancelledAtMs: Date.parse(NOW) }),
    ...[1, 2, 3].map(() => reservation(workshop.id, "2026-03-09T13:00:00Z", 60, { hostIds: [alex] })),
    reservation(workshop.id, "2026-03-10T14:00:00Z", 60, { hostIds: [alex] }),
    reservation(team.id, "2026-03-04T10:00:00Z", 30, { hostIds: [sam] }),
    reservation(team.id, "2026-03-04T10:00:00Z", 30, { hostIds: [alex] }),
    reservation(team.id, "2026-03-19T14:00:00Z", 30, { hostIds: [alex] }),
    reservation(panel.id, "2026-03-24T11:00:00Z", 60, { hostIds: [alex, sam] }),
  ]);
  const calendar = async (hostId: number, intervals: [string, string][]) => {
    const source = await env.store.busy.add(
      { hostId, kind: "ical", url: `https://calendar.example/${hostId}.ics`, username: null, secret: null, calendars: [], freshnessMinutes: null },
      Date.parse(NOW),
    );
    const write = { atMs: Date.parse(NOW), syncState: {}, upserts: [], deletes: [], expandedUntilMs: Date.parse("2026-06-01T00:00:00Z") };
    await env.store.busy.recordSync(source.id, { ...write, intervals: intervals.map(([a, b]) => ({ startMs: Date.parse(a), endMs: Date.parse(b) })) });
  };
  await calendar(alex, [
    ["2026-03-03T12:00:00Z", "2026-03-03T13:00:00Z"],
    ["2026-03-10T23:00:00Z", "2026-03-11T23:00:00Z"],
    ["2026-03-18T15:00:00Z", "2026-03-18T15:20:00Z"],
    ["2026-03-26T14:00:00Z", "2026-03-26T16:30:00Z"],
  ]);
  await calendar(sam, [
    ["2026-03-05T09:00:00Z", "2026-03-05T12:00:00Z"],
    ["2026-03-23T08:00:00Z", "2026-03-25T08:00:00Z"],
  ]);
  return {
    env,
    eventTypes: [
      { ...coaching, step: 15 },
      { ...workshop, step: 30 },
      { ...team, step: 30 },
      { ...panel, step: 30 },
    ],
  };
}

describe("the availability check against the slot page over a month of a busy host", () => {
  it("answers bookable for exactly the starts the slot page offers, with a reason for every other", async () => {
    const { env, eventTypes } = await busyMonth();
    const first = Date.parse("2026-03-01T23:00:00Z");
    const last = Date.parse("2026-04-01T00:00:00Z");
    const codes = new Set<string>();
    let offeredCount = 0;
    for (const et of eventTypes) {
      const page = dataOf(await env.call("GET", `/time-slots?from=${FROM}&until=${UNTIL}&timezone=UTC`, { token: et.token }));
      const offered = new Set<number>(page.map((s: { startIso8601: string }) => Date.parse(s.startIso8601)));
      expect(offered.size).toBeGreaterThan(20);
      offeredCount += offered.size;
      // Every start of the event type's grid step through the month (no zone here shifts by less
      // than an hour, so the grids stay on it), and a start off every grid each day.
      const candidates: number[] = [];
      for (let t = first; t < last; t += et.step * MINUTE) candidates.push(t);
      for (let t = first + 9 * 60 * MINUTE + 5 * MINUTE; t < last; t += 24 * 60 * MINUTE) candidates.push(t);
      const checked = new Set<number>();
      // A few at a time, as a console would ask; each answer is judged on its own.
      for (let i = 0; i < candidates.length; i += 8) {
        await Promise.all(
          candidates.slice(i, i + 8).map(async (startMs) => {
            const start = new Date(startMs).toISOString();
            const check = dataOf(await env.admin("GET", `/admin/event-types/${et.id}/availability-check?start=${start}`));
            expect(check.bookable, `${et.id} ${start}: ${JSON.stringify(check.reasons)}`).toBe(offered.has(startMs));
            expect(check.reasons.length === 0, `${et.id} ${start}`).toBe(check.bookable);
            for (const reason of check.reasons) codes.add(reason.code);
            if (check.bookable) checked.add(startMs);
          }),
        );
      }
      // The page lists nothing the quarter-hour walk missed.
      expect([...offered].filter((s) => !checked.has(s))).toEqual([]);
    }
    expect(offeredCount).toBeGreaterThan(500);
    expect([...codes].sort()).toEqual(["buffer", "calendar_busy", "horizon", "host_busy", "min_notice", "outside_hours", "seats_full"]);
  }, 600_000);
});
