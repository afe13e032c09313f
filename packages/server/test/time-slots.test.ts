import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import type { EventTypeCreate, TimeRange } from "@booking/wire";
import { closeAll, reservation, setup, type Answer, hostOf, newFeedToken } from "./utils.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z (08:00 in Prague). Every expected
// instant below is worked out by hand from the zone's offset on that date.

const range = (start: string, end: string): TimeRange => ({ start, end });
const everyDay = (ranges: TimeRange[]) => ({
  weekly: { monday: ranges, tuesday: ranges, wednesday: ranges, thursday: ranges, friday: ranges, saturday: ranges, sunday: ranges },
  overrides: [],
});

/** A fresh app and one event type with the given settings; `slots` asks `GET /time-slots`. */
async function world(settings: Partial<EventTypeCreate> = {}, now?: string) {
  const env = await setup(now ? { now } : {});
  const et = await env.eventType(settings);
  const slots = (query: string, headers: Record<string, string> = {}): Promise<Answer> => env.call("GET", `/time-slots?${query}`, { token: et.token, headers });
  return { ...env, et, slots };
}

const starts = (r: Answer): string[] => r.body.data.map((s: { startIso8601: string }) => s.startIso8601);
const readable = (r: Answer): string[] => r.body.data.map((s: { readable_start: string }) => s.readable_start);
const bySlotStart = (r: Answer, iso: string) => r.body.data.find((s: { startIso8601: string }) => s.startIso8601 === iso);

describe("GET /time-slots", () => {
  describe("slot fields", () => {
    it("answers every TimeSlot field in its documented form", async () => {
      const { slots, et, store } = await world();
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toContain("application/json");
      expect(r.body.success).toBe(true);
      expect(r.body.data).toHaveLength(16);
      expect(r.body.data[0]).toEqual({
        date: "2026-11-24",
        dateIso8601: "2026-11-23T23:00:00Z",
        readable_start: "09:00",
        start: "2026-11-24T09:00:00+01:00",
        startIso8601: "2026-11-24T08:00:00Z",
        readable_end: "09:30",
        end: "2026-11-24T09:30:00+01:00",
        endIso8601: "2026-11-24T08:30:00Z",
        seats: 1,
        available_seats: 1,
        booked: false,
        calendar_id: et.id,
        title: "Intro call",
        readable_type: "One-on-one",
        type: "single",
      });
      for (const slot of r.body.data) {
        expect(slot.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(slot.readable_start).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect(slot.readable_end).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect(slot.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
        expect(slot.end).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
        for (const key of ["dateIso8601", "startIso8601", "endIso8601"]) expect(slot[key]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(Date.parse(slot.start)).toBe(Date.parse(slot.startIso8601));
        expect(Date.parse(slot.end)).toBe(Date.parse(slot.endIso8601));
      }
      expect(r.body.data.at(-1)).toMatchObject({ readable_start: "16:30", readable_end: "17:00", endIso8601: "2026-11-24T16:00:00Z" });
      await closeAll(store);
    });

    it("describes a seated event type as a group and marks a slot booked once a seat is taken", async () => {
      const { slots, et, store } = await world({ seats: 3, title: "Workshop" });
      await store.reservations.insertMany([reservation(et.id, "2026-11-24T08:00:00Z", 30)]);
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(bySlotStart(r, "2026-11-24T08:00:00Z")).toMatchObject({
        seats: 3,
        available_seats: 2,
        booked: true,
        title: "Workshop",
        calendar_id: et.id,
        readable_type: "Group, 3 seats",
        type: "seated",
      });
      expect(bySlotStart(r, "2026-11-24T08:30:00Z")).toMatchObject({ seats: 3, available_seats: 3, booked: false });
      await closeAll(store);
    });

    it("reads from and until as days of the asked timezone and shows dates and times in it", async () => {
      // Auckland is at +13:00 in November, so its 2026-11-25 runs from 11:00Z on the 24th to 11:00Z on
      // the 25th: Prague's Tuesday from 12:00 and Wednesday until 12:00.
      const { slots, store } = await world();
      const r = await slots("from=2026-11-25&until=2026-11-25&timezone=Pacific/Auckland");
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(16);
      for (const slot of r.body.data) expect(slot).toMatchObject({ date: "2026-11-25", dateIso8601: "2026-11-24T11:00:00Z" });
      expect(r.body.data[0]).toMatchObject({
        readable_start: "00:00",
        start: "2026-11-25T00:00:00+13:00",
        startIso8601: "2026-11-24T11:00:00Z",
        readable_end: "00:30",
      });
      expect(r.body.data[9]).toMatchObject({ readable_start: "04:30", startIso8601: "2026-11-24T15:30:00Z" });
      expect(r.body.data[10]).toMatchObject({ readable_start: "21:00", start: "2026-11-25T21:00:00+13:00", startIso8601: "2026-11-25T08:00:00Z" });
      expect(r.body.data.at(-1)).toMatchObject({ readable_start: "23:30", readable_end: "00:00", end: "2026-11-26T00:00:00+13:00" });

      const home = await slots("from=2026-11-25&until=2026-11-25");
      expect(home.body.data[0]).toMatchObject({ date: "2026-11-25", readable_start: "09:00", startIso8601: "2026-11-25T08:00:00Z" });
      await closeAll(store);
    });

    it("gives a slot the date of the asked zone even when the organizer's date differs", async () => {
      const { slots, store } = await world({ availability: { weekly: { monday: [range("00:00", "01:00")] }, overrides: [] }, minNoticeMinutes: 0 });
      // Monday 2026-11-30 00:00 in Prague is 23:00Z on Sunday, 18:00 on Sunday in New York.
      const r = await slots("from=2026-11-29&until=2026-11-29&timezone=America/New_York");
      expect(r.body.data.map((s: { date: string; readable_start: string; start: string }) => [s.date, s.readable_start, s.start])).toEqual([
        ["2026-11-29", "18:00", "2026-11-29T18:00:00-05:00"],
        ["2026-11-29", "18:30", "2026-11-29T18:30:00-05:00"],
      ]);
      await closeAll(store);
    });
  });

  describe("across DST changes", () => {
    const CASES = [
      {
        zone: "America/New_York",
        now: "2026-03-01T12:00:00Z",
        before: "2026-03-07",
        day: "2026-03-08",
        beforeStart: ["2026-03-07T09:00:00-05:00", "2026-03-07T14:00:00Z"],
        dayStart: ["2026-03-08T09:00:00-04:00", "2026-03-08T13:00:00Z"],
      },
      {
        zone: "America/New_York",
        now: "2026-10-25T12:00:00Z",
        before: "2026-10-31",
        day: "2026-11-01",
        beforeStart: ["2026-10-31T09:00:00-04:00", "2026-10-31T13:00:00Z"],
        dayStart: ["2026-11-01T09:00:00-05:00", "2026-11-01T14:00:00Z"],
      },
      {
        zone: "Europe/Berlin",
        now: "2026-03-20T12:00:00Z",
        before: "2026-03-28",
        day: "2026-03-29",
        beforeStart: ["2026-03-28T09:00:00+01:00", "2026-03-28T08:00:00Z"],
        dayStart: ["2026-03-29T09:00:00+02:00", "2026-03-29T07:00:00Z"],
      },
      {
        zone: "Europe/Berlin",
        now: "2026-10-20T12:00:00Z",
        before: "2026-10-24",
        day: "2026-10-25",
        beforeStart: ["2026-10-24T09:00:00+02:00", "2026-10-24T07:00:00Z"],
        dayStart: ["2026-10-25T09:00:00+01:00", "2026-10-25T08:00:00Z"],
      },
      {
        zone: "Australia/Sydney",
        now: "2026-03-30T12:00:00Z",
        before: "2026-04-04",
        day: "2026-04-05",
        beforeStart: ["2026-04-04T09:00:00+11:00", "2026-04-03T22:00:00Z"],
        dayStart: ["2026-04-05T09:00:00+10:00", "2026-04-04T23:00:00Z"],
      },
      {
        zone: "Australia/Sydney",
        now: "2026-09-28T12:00:00Z",
        before: "2026-10-03",
        day: "2026-10-04",
        beforeStart: ["2026-10-03T09:00:00+10:00", "2026-10-02T23:00:00Z"],
        dayStart: ["2026-10-04T09:00:00+11:00", "2026-10-03T22:00:00Z"],
      },
    ];

    it.each(CASES)("shows 09:00-17:00 in $zone on $day at the usual wall times with the new offset", async (c) => {
      const { slots, store } = await world({ timezone: c.zone, availability: everyDay([range("09:00", "17:00")]) }, c.now);
      const r = await slots(`from=${c.before}&until=${c.day}`);
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(32);
      const [before, day] = [r.body.data.slice(0, 16), r.body.data.slice(16)];
      expect([before[0].start, before[0].startIso8601]).toEqual(c.beforeStart);
      expect([day[0].start, day[0].startIso8601]).toEqual(c.dayStart);
      for (const slot of before)
        expect(slot).toMatchObject({ date: c.before, start: expect.stringMatching(new RegExp(`${c.beforeStart[0]!.slice(-6).replace("+", "\\+")}$`)) });
      for (const slot of day)
        expect(slot).toMatchObject({ date: c.day, start: expect.stringMatching(new RegExp(`${c.dayStart[0]!.slice(-6).replace("+", "\\+")}$`)) });
      expect(readable(r).slice(16)).toEqual(readable(r).slice(0, 16));
      expect(day.at(-1)).toMatchObject({ readable_start: "16:30", readable_end: "17:00" });
      await closeAll(store);
    });

    it("lists the repeated hour of New York's fall-back night twice, once per offset, with distinct instants", async () => {
      const { slots, store } = await world(
        {
          timezone: "America/New_York",
          durationMinutes: 60,
          slotIntervalMinutes: 60,
          availability: { weekly: {}, overrides: [{ date: "2026-11-01", ranges: [range("00:00", "04:00")] }] },
        },
        "2026-10-25T12:00:00Z",
      );
      const r = await slots("from=2026-11-01&until=2026-11-01");
      expect(readable(r)).toEqual(["00:00", "01:00", "01:00", "02:00", "03:00"]);
      expect(r.body.data.map((s: { start: string }) => s.start)).toEqual([
        "2026-11-01T00:00:00-04:00",
        "2026-11-01T01:00:00-04:00",
        "2026-11-01T01:00:00-05:00",
        "2026-11-01T02:00:00-05:00",
        "2026-11-01T03:00:00-05:00",
      ]);
      expect(starts(r)).toEqual(["2026-11-01T04:00:00Z", "2026-11-01T05:00:00Z", "2026-11-01T06:00:00Z", "2026-11-01T07:00:00Z", "2026-11-01T08:00:00Z"]);
      expect(new Set(starts(r)).size).toBe(5);
      await closeAll(store);
    });

    it("skips the missing hour of Berlin's spring-forward night", async () => {
      const { slots, store } = await world(
        { timezone: "Europe/Berlin", availability: { weekly: {}, overrides: [{ date: "2026-03-29", ranges: [range("00:00", "04:00")] }] } },
        "2026-03-20T12:00:00Z",
      );
      const r = await slots("from=2026-03-29&until=2026-03-29");
      expect(readable(r)).toEqual(["00:00", "00:30", "01:00", "01:30", "03:00", "03:30"]);
      expect(starts(r)).toEqual([
        "2026-03-28T23:00:00Z",
        "2026-03-28T23:30:00Z",
        "2026-03-29T00:00:00Z",
        "2026-03-29T00:30:00Z",
        "2026-03-29T01:00:00Z",
        "2026-03-29T01:30:00Z",
      ]);
      expect(r.body.data[3]).toMatchObject({ readable_end: "03:00", end: "2026-03-29T03:00:00+02:00" });
      await closeAll(store);
    });

    it("gives Sydney's 23-hour spring day 23 hourly slots and its 25-hour autumn day 25", async () => {
      const wholeDays = {
        weekly: {},
        overrides: [
          { date: "2026-04-05", ranges: [range("00:00", "24:00")] },
          { date: "2026-10-04", ranges: [range("00:00", "24:00")] },
        ],
      };
      const { slots, store } = await world(
        { timezone: "Australia/Sydney", durationMinutes: 60, slotIntervalMinutes: 60, horizonDays: 365, availability: wholeDays },
        "2026-03-30T12:00:00Z",
      );
      const autumn = await slots("from=2026-04-05&until=2026-04-05");
      expect(starts(autumn)).toHaveLength(25);
      expect(starts(autumn)[0]).toBe("2026-04-04T13:00:00Z");
      expect(starts(autumn).at(-1)).toBe("2026-04-05T13:00:00Z");
      expect(autumn.body.data.every((s: { date: string }) => s.date === "2026-04-05")).toBe(true);
      const spring = await slots("from=2026-10-04&until=2026-10-04");
      expect(starts(spring)).toHaveLength(23);
      expect(starts(spring)[0]).toBe("2026-10-03T14:00:00Z");
      expect(starts(spring).at(-1)).toBe("2026-10-04T12:00:00Z");
      expect(readable(spring)).not.toContain("02:00");
      expect(spring.body.data[2]).toMatchObject({ readable_start: "03:00", start: "2026-10-04T03:00:00+11:00" });
      await closeAll(store);
    });
  });

  describe("availability rules", () => {
    it("offers each of several ranges on a weekday and nothing between or after them", async () => {
      const { slots, store } = await world({ availability: { weekly: { tuesday: [range("08:00", "09:00"), range("13:30", "14:30")] }, overrides: [] } });
      const r = await slots("from=2026-11-23&until=2026-11-29");
      expect(r.body.data.map((s: { date: string; readable_start: string }) => `${s.date} ${s.readable_start}`)).toEqual([
        "2026-11-24 08:00",
        "2026-11-24 08:30",
        "2026-11-24 13:30",
        "2026-11-24 14:00",
      ]);
      await closeAll(store);
    });

    it("offers a meeting across midnight where a range ending 24:00 meets the next day's 00:00 range", async () => {
      const { slots, store } = await world({
        durationMinutes: 60,
        slotIntervalMinutes: 30,
        availability: { weekly: { tuesday: [range("23:00", "24:00")], wednesday: [range("00:00", "00:30")] }, overrides: [] },
      });
      const r = await slots("from=2026-11-24&until=2026-11-25");
      expect(r.body.data.map((s: { start: string; end: string }) => [s.start, s.end])).toEqual([
        ["2026-11-24T23:00:00+01:00", "2026-11-25T00:00:00+01:00"],
        ["2026-11-24T23:30:00+01:00", "2026-11-25T00:30:00+01:00"],
      ]);
      expect(r.body.data[1]).toMatchObject({ date: "2026-11-24", readable_end: "00:30" });
      await closeAll(store);
    });

    it("closes a day with an empty override and applies special hours of another", async () => {
      const { slots, store } = await world({
        availability: {
          weekly: everyDay([range("09:00", "17:00")]).weekly,
          overrides: [
            { date: "2026-11-24", ranges: [] },
            { date: "2026-11-25", ranges: [range("18:00", "19:00")] },
          ],
        },
      });
      const r = await slots("from=2026-11-24&until=2026-11-26");
      const dates = r.body.data.map((s: { date: string }) => s.date);
      expect(dates).not.toContain("2026-11-24");
      expect(r.body.data.filter((s: { date: string }) => s.date === "2026-11-25").map((s: { readable_start: string }) => s.readable_start)).toEqual([
        "18:00",
        "18:30",
      ]);
      expect(dates.filter((d: string) => d === "2026-11-26")).toHaveLength(16);
      await closeAll(store);
    });

    it("steps by the slot interval when it is shorter than the meeting", async () => {
      const { slots, store } = await world({
        durationMinutes: 45,
        slotIntervalMinutes: 15,
        availability: { weekly: { tuesday: [range("09:00", "10:30")] }, overrides: [] },
      });
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(r.body.data.map((s: { readable_start: string; readable_end: string }) => `${s.readable_start}-${s.readable_end}`)).toEqual([
        "09:00-09:45",
        "09:15-10:00",
        "09:30-10:15",
        "09:45-10:30",
      ]);
      await closeAll(store);
    });

    it("keeps the buffers around an existing reservation free", async () => {
      const { slots, et, store } = await world({
        slotIntervalMinutes: 15,
        bufferBeforeMinutes: 15,
        bufferAfterMinutes: 15,
        availability: { weekly: { tuesday: [range("09:00", "12:00")] }, overrides: [] },
      });
      // Prague 10:00-10:30 on Tuesday; with 15 minutes either side of both meetings, the nearest
      // free starts are 09:00 (ends 09:30) and 11:00.
      await store.reservations.insertMany([reservation(et.id, "2026-11-24T09:00:00Z", 30)]);
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(readable(r)).toEqual(["09:00", "11:00", "11:15", "11:30"]);
      await closeAll(store);
    });

    it("hides slots that start sooner than the minimum notice", async () => {
      const { slots, store } = await world({ minNoticeMinutes: 150 });
      // Now is Monday 08:00 in Prague; 150 minutes later is 10:30.
      const r = await slots("from=2026-11-23&until=2026-11-23");
      expect(readable(r)[0]).toBe("10:30");
      expect(r.body.data).toHaveLength(13);
      await closeAll(store);
    });

    it("offers no day beyond the horizon counted from today in the organizer's zone", async () => {
      // 23:30Z on Monday is Tuesday 00:30 in Prague, so with a one-day horizon Wednesday is the last day.
      const { slots, store } = await world({ horizonDays: 1, availability: everyDay([range("09:00", "10:00")]) }, "2026-11-23T23:30:00Z");
      const r = await slots("from=2026-11-23&until=2026-11-27");
      expect(r.body.data.map((s: { date: string; readable_start: string }) => `${s.date} ${s.readable_start}`)).toEqual([
        "2026-11-24 09:00",
        "2026-11-24 09:30",
        "2026-11-25 09:00",
        "2026-11-25 09:30",
      ]);
      await closeAll(store);
    });
  });

  describe("listed slots are bookable", () => {
    it.each([
      { zone: "UTC", now: "2026-11-23T07:00:00Z", query: "from=2026-11-24&until=2026-11-28" },
      { zone: "Europe/Berlin", now: "2026-10-20T12:00:00Z", query: "from=2026-10-24&until=2026-10-26" },
      { zone: "Europe/Berlin", now: "2026-10-20T12:00:00Z", query: "from=2026-10-25&until=2026-10-26&timezone=Asia/Kolkata" },
    ])("holds every slot listed for 24/7 hours with 50-minute slots in $zone for $query", async (c) => {
      const env = await setup({ now: c.now, config: { rateLimit: { limit: 100000, windowSeconds: 60 } } });
      const settings = { timezone: c.zone, durationMinutes: 50, slotIntervalMinutes: 50, availability: everyDay([range("00:00", "24:00")]) };
      // The last slot of a day overlaps the next day's first, so alternate slots are held on a second
      // event type with the same settings and the same list, of another host (one host's event types share its time).
      const host = await env.store.hosts.create(
        { name: "Second", email: "second@example.com", timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() },
        env.clock.now(),
      );
      const types = [await env.eventType(settings), await env.eventType({ ...settings, hosts: [{ hostId: host.id }] })];
      const lists = await Promise.all(types.map((et) => env.call("GET", `/time-slots?${c.query}`, { token: et.token })));
      expect(lists.map((r) => r.status)).toEqual([200, 200]);
      expect(starts(lists[1]!)).toEqual(starts(lists[0]!));
      const listed: { start: string; end: string }[] = lists[0]!.body.data;
      expect(listed.length).toBeGreaterThan(50);
      for (const [i, slot] of listed.entries()) {
        const body = { start: slot.start, end: slot.end, email: `visitor${i}@example.com`, firstname: "Ada", lastname: "Lovelace" };
        const r = await env.call("POST", "/reservations/prepare", { token: types[i % 2]!.token, body });
        // A refusal is a 200 with success false and code slot_unavailable.
        expect([r.status, r.body.success], `${slot.start}: ${r.text}`).toEqual([200, true]);
      }
      await closeAll(env.store);
    });
  });

  describe("seats and reservations", () => {
    const tuesdayMorning = { availability: { weekly: { tuesday: [range("09:00", "11:00")] }, overrides: [] } };
    const nine = "2026-11-24T08:00:00Z";

    it("takes one seat per reservation at exactly the slot and drops the slot when all are taken", async () => {
      const { slots, et, store } = await world({ ...tuesdayMorning, seats: 2 });
      await store.reservations.insertMany([reservation(et.id, nine, 30)]);
      const one = await slots("from=2026-11-24&until=2026-11-24");
      expect(bySlotStart(one, nine)).toMatchObject({ seats: 2, available_seats: 1, booked: true });
      await store.reservations.insertMany([reservation(et.id, nine, 30)]);
      const full = await slots("from=2026-11-24&until=2026-11-24");
      expect(bySlotStart(full, nine)).toBeUndefined();
      expect(starts(full)).toEqual(["2026-11-24T08:30:00Z", "2026-11-24T09:00:00Z", "2026-11-24T09:30:00Z"]);
      await closeAll(store);
    });

    it("blocks every seat of the slots that a reservation at a different time overlaps", async () => {
      const { slots, et, store } = await world({ ...tuesdayMorning, seats: 5 });
      await store.reservations.insertMany([reservation(et.id, "2026-11-24T08:15:00Z", 30)]);
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(starts(r)).toEqual(["2026-11-24T09:00:00Z", "2026-11-24T09:30:00Z"]);
      expect(r.body.data.every((s: { available_seats: number; booked: boolean }) => s.available_seats === 5 && !s.booked)).toBe(true);
      await closeAll(store);
    });

    it("counts a held reservation whose hold has not run out as a taken seat", async () => {
      const { slots, et, store, clock } = await world({ ...tuesdayMorning, seats: 2 });
      await store.reservations.insertMany([reservation(et.id, nine, 30, { status: "held", heldUntilMs: clock.now() + 10 * 60_000 })]);
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(bySlotStart(r, nine)).toMatchObject({ available_seats: 1, booked: true });
      await closeAll(store);
    });

    it("frees the seats of expired holds, lapsed holds and cancelled reservations", async () => {
      const { slots, et, store, clock } = await world({ ...tuesdayMorning, seats: 1 });
      await store.reservations.insertMany([
        reservation(et.id, nine, 30, { status: "held", heldUntilMs: clock.now() - 60_000 }),
        reservation(et.id, nine, 30, { status: "held", heldUntilMs: clock.now() }),
        reservation(et.id, "2026-11-24T08:30:00Z", 30, { status: "expired", heldUntilMs: clock.now() - 60_000 }),
        reservation(et.id, "2026-11-24T09:00:00Z", 30, { status: "cancelled" }),
      ]);
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(starts(r)).toEqual(["2026-11-24T08:00:00Z", "2026-11-24T08:30:00Z", "2026-11-24T09:00:00Z", "2026-11-24T09:30:00Z"]);
      expect(r.body.data.every((s: { booked: boolean }) => !s.booked)).toBe(true);
      await closeAll(store);
    });

    it("ignores reservations of other hosts' event types, and counts those of its own host's", async () => {
      const env = await setup();
      const mine = await env.eventType(tuesdayMorning);
      const host = await env.store.hosts.create(
        { name: "Other", email: "other@example.com", timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() },
        env.clock.now(),
      );
      const others = await env.eventType({ ...tuesdayMorning, hosts: [{ hostId: host.id }] });
      await env.store.reservations.insertMany([reservation(others.id, nine, 30, { hostIds: [host.id] })]);
      const r = await env.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: mine.token });
      expect(starts(r)[0]).toBe(nine);
      // The same host's other event type: one person's time, so its booking blocks this one.
      const sibling = await env.eventType(tuesdayMorning);
      await env.store.reservations.insertMany([reservation(sibling.id, nine, 30)]);
      const after = await env.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: mine.token });
      expect(starts(after)).not.toContain(nine);
      expect(starts(after)[0]).toBe("2026-11-24T08:30:00Z");
      await closeAll(env.store);
    });
  });

  describe("query validation", () => {
    async function expect422(query: string, fields: string[]) {
      const { slots, store } = await world();
      const r = await slots(query);
      expect(r.status, query).toBe(422);
      expect(r.body).toMatchObject({ success: false, status: 422, code: "validation_failed" });
      expect(typeof r.body.message).toBe("string");
      expect(Object.keys(r.body.errors).sort(), query).toEqual([...fields].sort());
      for (const messages of Object.values(r.body.errors)) {
        expect(Array.isArray(messages)).toBe(true);
        expect((messages as unknown[]).length).toBeGreaterThan(0);
        for (const m of messages as unknown[]) expect(typeof m).toBe("string");
      }
      await closeAll(store);
    }

    it.each(["2026-02-30", "x", "2026-1-5", "2026-13-01", "2026-11-24T00:00:00Z", ""])("answers 422 keyed by from for from=%j", async (bad) => {
      await expect422(`from=${encodeURIComponent(bad)}&until=2026-11-24`, ["from"]);
    });

    it.each(["2026-02-30", "x", "2026-1-5"])("answers 422 keyed by until for until=%j", async (bad) => {
      await expect422(`from=2026-11-24&until=${encodeURIComponent(bad)}`, ["until"]);
    });

    it("answers 422 keyed by the missing field when from or until is left out", async () => {
      await expect422("until=2026-11-24", ["from"]);
      await expect422("from=2026-11-24", ["until"]);
    });

    it("answers 422 when until is before from", async () => {
      await expect422("from=2026-11-24&until=2026-11-23", ["until"]);
    });

    it("accepts a range of 62 days and refuses one of 63", async () => {
      const { slots, store } = await world();
      const ok = await slots("from=2026-11-23&until=2027-01-23");
      expect(ok.status).toBe(200);
      expect(ok.body.success).toBe(true);
      await closeAll(store);
      await expect422("from=2026-11-23&until=2027-01-24", ["until"]);
    });

    it("answers 422 keyed by timezone for a zone that does not exist", async () => {
      await expect422("from=2026-11-24&until=2026-11-24&timezone=Mars%2FOlympus_Mons", ["timezone"]);
      await expect422("from=2026-11-24&until=2026-11-24&timezone=", ["timezone"]);
    });

    it.each([
      ["from", "2026-11-24' OR '1'='1"],
      ["from", "2026-11-24; DROP TABLE reservations;--"],
      ["until", "２０２６-１１-２４"],
      ["until", "2026-11-24\u0000"],
      ["timezone", "Europe/Prague' OR 1=1--"],
      ["timezone", "Европа/Прага 😀"],
      ["timezone", "../../../../etc/passwd"],
      ["timezone", "x".repeat(5000)],
    ])("answers 422, not 500, when %s is %j", async (field, value) => {
      const params = new URLSearchParams({ from: "2026-11-24", until: "2026-11-24" });
      params.set(field, value);
      await expect422(params.toString(), [field]);
    });

    it("still answers the slots after rejected hostile queries", async () => {
      const { slots, store } = await world();
      await slots(`from=${encodeURIComponent("2026-11-24' OR 1=1--")}&until=2026-11-24`);
      const r = await slots("from=2026-11-24&until=2026-11-24");
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(16);
      await closeAll(store);
    });
  });

  describe("caching", () => {
    it("stops listing a slot once a reservation for it is inserted", async () => {
      const { slots, et, store } = await world();
      const first = await slots("from=2026-11-24&until=2026-11-24");
      expect(starts(first)).toContain("2026-11-24T08:00:00Z");
      const again = await slots("from=2026-11-24&until=2026-11-24");
      expect(again.text).toBe(first.text);
      await store.reservations.insertMany([reservation(et.id, "2026-11-24T08:00:00Z", 30)]);
      const after = await slots("from=2026-11-24&until=2026-11-24");
      expect(starts(after)).not.toContain("2026-11-24T08:00:00Z");
      expect(starts(after)[0]).toBe("2026-11-24T08:30:00Z");
      expect(after.body.data).toHaveLength(15);
      await closeAll(store);
    });

    it("drops a slot from a repeated answer once the clock passes its minimum notice", async () => {
      // Now 07:00Z with an hour's notice: the 09:00 Prague slot (08:00Z) is just bookable.
      const { slots, store, clock } = await world();
      const first = await slots("from=2026-11-23&until=2026-11-23");
      expect(readable(first)[0]).toBe("09:00");
      expect(readable(await slots("from=2026-11-23&until=2026-11-23"))[0]).toBe("09:00");
      clock.advance(1);
      expect(readable(await slots("from=2026-11-23&until=2026-11-23"))[0]).toBe("09:30");
      clock.advance(30);
      const later = await slots("from=2026-11-23&until=2026-11-23");
      expect(readable(later)[0]).toBe("10:00");
      expect(later.body.data).toHaveLength(14);
      await closeAll(store);
    });

    it("lists a held slot again once its hold runs out", async () => {
      const { slots, et, store, clock } = await world();
      await store.reservations.insertMany([reservation(et.id, "2026-11-24T08:00:00Z", 30, { status: "held", heldUntilMs: clock.now() + 10 * 60_000 })]);
      expect(starts(await slots("from=2026-11-24&until=2026-11-24"))).not.toContain("2026-11-24T08:00:00Z");
      clock.advance(9);
      expect(starts(await slots("from=2026-11-24&until=2026-11-24"))).not.toContain("2026-11-24T08:00:00Z");
      clock.advance(1);
      expect(starts(await slots("from=2026-11-24&until=2026-11-24"))).toContain("2026-11-24T08:00:00Z");
      await closeAll(store);
    });

    it("opens the next day of the horizon when the organizer's midnight passes", async () => {
      const { slots, store, clock } = await world({ horizonDays: 1, availability: everyDay([range("09:00", "10:00")]) }, "2026-11-23T22:00:00Z");
      // 23:00 on Monday in Prague: Tuesday is the last bookable day until midnight.
      expect(readable(await slots("from=2026-11-24&until=2026-11-25"))).toHaveLength(2);
      clock.advance(60);
      expect(readable(await slots("from=2026-11-24&until=2026-11-25"))).toHaveLength(4);
      await closeAll(store);
    });

    it("keeps answers for different timezones apart", async () => {
      const { slots, store } = await world();
      const prague = await slots("from=2026-11-24&until=2026-11-24");
      const ny = await slots("from=2026-11-24&until=2026-11-24&timezone=America/New_York");
      expect(prague.body.data[0].start).toBe("2026-11-24T09:00:00+01:00");
      expect(ny.body.data[0].start).toBe("2026-11-24T03:00:00-05:00");
      await closeAll(store);
    });
  });

  describe("cost of one answer", () => {
    // Five overlapping ranges on 5-minute grids put a slot at every minute: 62 days are 89 280 slots
    // (34 MB of JSON, a second of CPU) unless an answer is bounded.
    const everyMinute = {
      timezone: "UTC",
      durationMinutes: 5,
      slotIntervalMinutes: 5,
      minNoticeMinutes: 0,
      horizonDays: 365,
      availability: everyDay([0, 1, 2, 3, 4].map((m) => range(`00:0${m}`, "24:00"))),
    };

    it("answers at most 10 000 slots in whole days, names the first day left out as nextFrom, and asking from there lists the rest", async () => {
      const { slots, store } = await world(everyMinute);
      const pages: Answer[] = [];
      let from = "2026-11-24";
      for (;;) {
        const page = await slots(`from=${from}&until=2027-01-24`);
        expect(page.status).toBe(200);
        pages.push(page);
        expect(page.body.data.length).toBeLessThanOrEqual(10_000);
        expect(page.text.length).toBeLessThan(4_000_000);
        const perDay = new Map<string, number>();
        for (const slot of page.body.data) perDay.set(slot.date, (perDay.get(slot.date) ?? 0) + 1);
        // Whole days only: every day of the answer has all of its 1 440 slots.
        expect([...perDay.values()].every((n) => n === 1440)).toBe(true);
        if (page.body.nextFrom === undefined) break;
        expect(page.body.nextFrom > from).toBe(true);
        expect([...perDay.keys()].every((date) => date < page.body.nextFrom)).toBe(true);
        expect(pages.length).toBeLessThan(20);
        from = page.body.nextFrom;
      }
      expect(pages.length).toBeGreaterThan(1);
      const all = pages.flatMap(starts);
      expect(all).toHaveLength(62 * 1440);
      expect(new Set(all).size).toBe(all.length);
      expect(all[0]).toBe("2026-11-24T00:00:00Z");
      expect(all.at(-1)).toBe("2027-01-24T23:59:00Z");
      await closeAll(store);
    });

    it("lists an ordinary calendar's 62 days, a 5-minute grid open 13 hours a day, in one answer", async () => {
      const { slots, store } = await world({ ...everyMinute, availability: everyDay([range("08:00", "21:00")]) });
      const r = await slots("from=2026-11-24&until=2027-01-24");
      expect(r.body.data).toHaveLength(62 * 156);
      expect(r.body).not.toHaveProperty("nextFrom");
      await closeAll(store);
    });
  });

  describe("compression", () => {
    it("serves gzip when the client accepts it, with the same body as the plain answer", async () => {
      const { app, et, store } = await world();
      const url = "http://localhost/time-slots?from=2026-11-23&until=2026-12-06";
      const plain = await app.handle(new Request(url, { headers: { authorization: `Bearer ${et.token}` } }));
      expect(plain.status).toBe(200);
      expect(plain.headers.get("content-encoding")).toBeNull();
      const plainText = await plain.text();
      expect(JSON.parse(plainText).data.length).toBeGreaterThan(100);

      const zipped = await app.handle(new Request(url, { headers: { authorization: `Bearer ${et.token}`, "accept-encoding": "gzip, deflate" } }));
      expect(zipped.status).toBe(200);
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(zipped.headers.get("vary")?.toLowerCase()).toContain("accept-encoding");
      const bytes = new Uint8Array(await zipped.arrayBuffer());
      expect(bytes[0]).toBe(0x1f);
      expect(bytes[1]).toBe(0x8b);
      expect(bytes.byteLength).toBeLessThan(plainText.length);
      expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(plainText);
      await closeAll(store);
    });

    it.each([
      ["zstd", "gzip, deflate, br, zstd", (b: Uint8Array<ArrayBuffer>) => Bun.zstdDecompressSync(b)],
      ["br", "gzip, deflate, br", (b: Uint8Array<ArrayBuffer>) => brotliDecompressSync(b)],
      ["gzip", "br;q=0, gzip", (b: Uint8Array<ArrayBuffer>) => Bun.gunzipSync(b)],
    ] as const)("picks %s for Accept-Encoding %j and serves the same body", async (coding, header, decode) => {
      const { app, et, store } = await world();
      const url = "http://localhost/time-slots?from=2026-11-23&until=2026-12-06";
      const plainText = await (await app.handle(new Request(url, { headers: { authorization: `Bearer ${et.token}` } }))).text();
      const r = await app.handle(new Request(url, { headers: { authorization: `Bearer ${et.token}`, "accept-encoding": header } }));
      expect(r.headers.get("content-encoding")).toBe(coding);
      const bytes = new Uint8Array(await r.arrayBuffer());
      expect(bytes.byteLength).toBeLessThan(plainText.length / 10);
      expect(new TextDecoder().decode(decode(bytes))).toBe(plainText);
      await closeAll(store);
    });

    it("answers plain JSON to a client that does not accept gzip", async () => {
      const { app, et, store } = await world();
      const r = await app.handle(
        new Request("http://localhost/time-slots?from=2026-11-23&until=2026-12-06", {
          headers: { authorization: `Bearer ${et.token}`, "accept-encoding": "identity, gzip;q=0" },
        }),
      );
      expect(r.headers.get("content-encoding")).toBeNull();
      expect(JSON.parse(await r.text()).success).toBe(true);
      await closeAll(store);
    });
  });
});

describe("GET /time-slots/first-free", () => {
  const firstFree = (env: Awaited<ReturnType<typeof world>>, query: string) => env.call("GET", `/time-slots/first-free?${query}`, { token: env.et.token });

  it("answers the first day on or after from with a free slot, skipping closed and full days", async () => {
    // Tuesdays and Thursdays only, 09:00-10:00 in Prague; one slot per day.
    const ranges = [range("09:00", "10:00")];
    const w = await world({
      timezone: "Europe/Prague",
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      minNoticeMinutes: 0,
      availability: { weekly: { monday: [], tuesday: ranges, wednesday: [], thursday: ranges, friday: [], saturday: [], sunday: [] }, overrides: [] },
    });
    const r = await firstFree(w, "from=2026-11-25");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: { date: "2026-11-26" } });
    // Thursday taken: the next Tuesday.
    await w.store.reservations.insertMany([reservation(w.et.id, "2026-11-26T08:00:00Z", 60)]);
    expect((await firstFree(w, "from=2026-11-25")).body.data).toEqual({ date: "2026-12-01" });
    // A day in December jumps past the whole first week of it.
    expect((await firstFree(w, "from=2026-12-02")).body.data).toEqual({ date: "2026-12-03" });
    await closeAll(w.store);
  });

  it("reads the days in the asked zone", async () => {
    // 09:00 Prague is 21:00 the day before in Honolulu.
    const w = await world({
      timezone: "Europe/Prague",
      minNoticeMinutes: 0,
      availability: {
        weekly: { monday: [], tuesday: [], wednesday: [], thursday: [range("09:00", "09:30")], friday: [], saturday: [], sunday: [] },
        overrides: [],
      },
    });
    expect((await firstFree(w, "from=2026-11-24")).body.data).toEqual({ date: "2026-11-26" });
    expect((await firstFree(w, "from=2026-11-24&timezone=Pacific/Honolulu")).body.data).toEqual({ date: "2026-11-25" });
    await closeAll(w.store);
  });

  it("never answers a day that has passed or lies beyond the horizon", async () => {
    const w = await world({ horizonDays: 10, minNoticeMinutes: 0, availability: everyDay([range("09:00", "10:00")]) });
    // From a day long gone: today (Monday 23rd, 09:00 Prague is still ahead).
    expect((await firstFree(w, "from=2026-01-01")).body.data).toEqual({ date: "2026-11-23" });
    expect((await firstFree(w, "from=2026-12-03")).body.data).toEqual({ date: "2026-12-03" });
    expect((await firstFree(w, "from=2026-12-04")).body.data).toEqual({ date: null });
    await closeAll(w.store);
  });

  it("scans a horizon with one free slot once: a repeat, another day or zone reads nothing again, while a settings change or a booking answers anew", async () => {
    // Two years ahead, the organizer's calendar busy all along but for Tuesday 21 November 2028, 09:00-10:00 in Prague.
    const w = await world({
      horizonDays: 730,
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      minNoticeMinutes: 0,
      availability: everyDay([range("09:00", "10:00")]),
    });
    const source = await w.store.busy.add(
      {
        hostId: await hostOf(w.store, w.et.id),
        kind: "ical",
        url: "https://calendar.example.com/leave.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      w.clock.now(),
    );
    const gap = { startMs: Date.parse("2028-11-21T08:00:00Z"), endMs: Date.parse("2028-11-21T09:00:00Z") };
    const intervals = [
      { startMs: w.clock.now() - 86_400_000, endMs: gap.startMs },
      { startMs: gap.endMs, endMs: Date.parse("2029-01-01T00:00:00Z") },
    ];
    await w.store.busy.recordSync(source.id, { atMs: w.clock.now(), syncState: {}, upserts: [], deletes: [], intervals, expandedUntilMs: intervals[1]!.endMs });
    const reads = vi.spyOn(w.store.reservations, "seatHolders");
    const answer = async (query: string) => (await firstFree(w, query)).body.data.date;

    expect(await answer("from=2026-11-23")).toBe("2028-11-21");
    // Two years in runs of one, two, four, then eight weeks: 16 reads, not one a week.
    expect(reads).toHaveBeenCalledTimes(16);
    reads.mockClear();
    expect(await answer("from=2026-11-23")).toBe("2028-11-21");
    expect(await answer("from=2027-06-15")).toBe("2028-11-21");
    expect(await answer("from=2026-11-23&timezone=America/New_York")).toBe("2028-11-21");
    expect(await answer("from=2028-11-22")).toBe(null);
    expect(reads).not.toHaveBeenCalled();

    // The horizon shortened: the free day lies beyond it.
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { horizonDays: 600 })).status).toBe(200);
    expect(await answer("from=2026-11-23")).toBe(null);
    expect(reads).toHaveBeenCalled();
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { horizonDays: 730 })).status).toBe(200);
    expect(await answer("from=2026-11-23")).toBe("2028-11-21");
    // Someone books the one free hour.
    await w.store.reservations.insertMany([reservation(w.et.id, "2028-11-21T08:00:00Z", 60)]);
    reads.mockClear();
    expect(await answer("from=2026-11-23")).toBe(null);
    expect(reads).toHaveBeenCalled();
    await closeAll(w.store);
  });

  it("answers a free slot as soon as a hold on it runs out, and drops one once its notice has passed, though the week was cached", async () => {
    const w = await world({
      minNoticeMinutes: 60,
      availability: {
        weekly: { monday: [range("09:00", "09:30")], tuesday: [], wednesday: [], thursday: [range("09:00", "09:30")], friday: [], saturday: [], sunday: [] },
        overrides: [],
      },
    });
    // Monday 08:00 in Prague: today's 09:00 slot is just within an hour's notice.
    expect((await firstFree(w, "from=2026-11-23")).body.data.date).toBe("2026-11-23");
    w.clock.advance(1);
    expect((await firstFree(w, "from=2026-11-23")).body.data.date).toBe("2026-11-26");
    await w.store.reservations.insertMany([reservation(w.et.id, "2026-11-26T08:00:00Z", 30, { status: "held", heldUntilMs: w.clock.now() + 10 * 60_000 })]);
    expect((await firstFree(w, "from=2026-11-23")).body.data.date).toBe("2026-11-30");
    w.clock.advance(10);
    expect((await firstFree(w, "from=2026-11-23")).body.data.date).toBe("2026-11-26");
    await closeAll(w.store);
  });

  it("answers 422 with the field for a malformed day or an unknown zone, and 401 without a token", async () => {
    const w = await world();
    for (const [query, field] of [
      ["from=2026-13-01", "from"],
      ["from=tomorrow", "from"],
      ["from=2026-11-24&timezone=Mars/Base", "timezone"],
    ] as const) {
      const r = await firstFree(w, query);
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ success: false, code: "validation_failed" });
      expect(Object.keys(r.body.errors)).toEqual([field]);
    }
    expect((await firstFree(w, "")).status).toBe(422);
    expect((await w.call("GET", "/time-slots/first-free?from=2026-11-24")).status).toBe(401);
    await closeAll(w.store);
  });
});
