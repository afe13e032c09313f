import { describe, expect, it } from "vitest";
import type { BusySource } from "../src/domain/busy.ts";
import { closeAll, expectFailure, setup, type Answer } from "./utils.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z; the default event type offers
// 30-minute slots 09:00-17:00 in Prague (UTC+1) on weekdays.

/** The organizer is busy Tuesday 10:10-10:50 Prague (09:10Z-09:50Z): the 10:00 and 10:30 slots meet it. */
const BUSY = { startMs: Date.parse("2026-11-24T09:10:00Z"), endMs: Date.parse("2026-11-24T09:50:00Z") };

/** A fresh app whose busy source is `busy` (none when left out), one event type, and its calls. */
async function world(busy?: BusySource) {
  const env = await setup(busy ? { busy } : {});
  const et = await env.eventType();
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  return { ...env, et, call };
}

const starts = (r: Answer): string[] => r.body.data.map((s: { startIso8601: string }) => s.startIso8601);
const visitor = { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" };

describe("a busy source", () => {
  it("leaves out of GET /time-slots exactly the slots its busy intervals meet, asked for the event type around the window", async () => {
    const asked: { eventTypeId: number; fromMs: number; untilMs: number }[] = [];
    const busy: BusySource = {
      async busyBetween(eventTypeId, fromMs, untilMs) {
        asked.push({ eventTypeId, fromMs, untilMs });
        return [BUSY];
      },
    };
    const free = await world();
    const withBusy = await world(busy);
    const all = starts(await free.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24"));
    const r = await withBusy.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24");
    expect(r.status).toBe(200);
    expect(all).toHaveLength(16);
    expect(starts(r)).toEqual(all.filter((s) => s !== "2026-11-24T09:00:00Z" && s !== "2026-11-24T09:30:00Z"));
    expect(asked.length).toBeGreaterThan(0);
    for (const a of asked) {
      expect(a.eventTypeId).toBe(withBusy.et.id);
      expect(a.fromMs).toBeLessThanOrEqual(Date.parse("2026-11-23T23:00:00Z"));
      expect(a.untilMs).toBeGreaterThanOrEqual(Date.parse("2026-11-24T23:00:00Z"));
    }
    await closeAll(free.store, withBusy.store);
  });

  it("counts the organizer's buffers: a slot whose buffer meets a busy interval is left out too", async () => {
    const env = await setup({ busy: { busyBetween: async () => [BUSY] } });
    const et = await env.eventType({ bufferAfterMinutes: 15 });
    const r = await env.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: et.token });
    // 09:30-10:00 Prague ends at 09:00Z; with 15 minutes after it the organizer is busy from 09:10Z.
    expect(starts(r)).not.toContain("2026-11-24T08:30:00Z");
    expect(starts(r)).toContain("2026-11-24T08:00:00Z");
    await closeAll(env.store);
  });

  it("refuses booking, holding or rescheduling to a busy slot with slot_unavailable, and books the free one next to it", async () => {
    const w = await world({ busyBetween: async () => [BUSY] });
    const busySlot = { start: "2026-11-24T10:00:00+01:00", end: "2026-11-24T10:30:00+01:00" };
    const freeSlot = { start: "2026-11-24T09:30:00+01:00", end: "2026-11-24T10:00:00+01:00" };
    expectFailure(await w.call("POST", "/reservations", { ...busySlot, ...visitor }), "slot_unavailable");
    expectFailure(await w.call("POST", "/reservations/prepare", { ...busySlot, ...visitor }), "slot_unavailable");
    const booked = await w.call("POST", "/reservations", { ...freeSlot, ...visitor });
    expect(booked.body.success).toBe(true);
    expectFailure(await w.call("PUT", `/reservations/${booked.body.data.uuid}`, busySlot), "slot_unavailable");
    await closeAll(w.store);
  });
});
