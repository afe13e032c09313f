import { describe, expect, it } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import { closeAll, expectFailure, setup, type Answer, DEFAULT_HOST_ID, newFeedToken } from "./utils.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague (CET, +01:00 all
// through these weeks). The default event type offers 30-minute slots on weekdays 09:00-17:00 in
// Prague, one seat, 10-minute holds, 60 minutes of minimum notice, a 60-day horizon and 1440
// minutes (one day) of reschedule and cancel notice. Every instant below is worked out by hand.

/** A slot as ReservationInput carries it. */
interface SlotTimes {
  start: string;
  end: string;
}

/** Monday 2026-11-23 10:00-10:30 Prague = 09:00Z-09:30Z, two hours after the clock's start. */
const MON_1000: SlotTimes = { start: "2026-11-23T10:00:00+01:00", end: "2026-11-23T10:30:00+01:00" };
/** Tuesday 2026-11-24 09:00-09:30 Prague = 08:00Z-08:30Z, 25 hours after the clock's start. */
const TUE_0900: SlotTimes = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
/** Tuesday 2026-11-24 09:30-10:00 Prague = 08:30Z-09:00Z. */
const TUE_0930: SlotTimes = { start: "2026-11-24T09:30:00+01:00", end: "2026-11-24T10:00:00+01:00" };
/** Thursday 2026-11-26 09:00-09:30 Prague = 08:00Z-08:30Z, three days after the clock's start. */
const THU_0900: SlotTimes = { start: "2026-11-26T09:00:00+01:00", end: "2026-11-26T09:30:00+01:00" };
/** Thursday 2026-11-26 10:00-10:30 Prague = 09:00Z-09:30Z. */
const THU_1000: SlotTimes = { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" };

const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const MEET_LINK = /^https:\/\/meet\.jit\.si\/booking-[A-Za-z0-9_-]{16}$/;
const MISSING_UUID = "0b8a3a3e-6d1c-4f3e-9a55-2f7b6d1e9c01";

let visitors = 0;

/** A ReservationInput for the slot, from a new visitor unless `extra` says otherwise. */
function input(slot: SlotTimes, extra: Record<string, unknown> = {}): Record<string, unknown> {
  visitors++;
  return { ...slot, email: `visitor${visitors}@example.com`, firstname: "Ada", lastname: "Lovelace", ...extra };
}

/** A fresh app without a practical rate limit, one event type, and a client for its routes. */
/** The host every world's event type belongs to (the default host, named): what booking answers name. */
const HOST = { userId: DEFAULT_HOST_ID, userName: "Jana Nováková", userEmail: "jana@example.com" };

async function world(settings: Partial<EventTypeCreate> = {}, now?: string) {
  const env = await setup({ config: NO_RATE_LIMIT, ...(now ? { now } : {}) });
  await env.store.hosts.update(DEFAULT_HOST_ID, { name: HOST.userName, email: HOST.userEmail }, env.clock.now());
  const et = await env.eventType(settings);
  return { ...env, et, ...client(env, et.token, et.id) };
}

type Env = Awaited<ReturnType<typeof setup>>;

/** Calls of the public reservation routes with one event type's token, plus the organizer's views. */
function client(env: Env, token: string, id: number) {
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => env.call(method, path, { token, body, headers });
  return {
    book: (body: unknown, headers: Record<string, string> = {}) => call("POST", "/reservations", body, headers),
    prepare: (body: unknown, headers: Record<string, string> = {}) => call("POST", "/reservations/prepare", body, headers),
    confirm: (uuid: string, body?: unknown, headers: Record<string, string> = {}) => call("POST", `/reservations/${uuid}/confirm`, body, headers),
    refresh: (uuid: string, headers: Record<string, string> = {}) => call("POST", `/reservations/${uuid}/refresh`, undefined, headers),
    reschedule: (uuid: string, body: unknown) => call("PUT", `/reservations/${uuid}`, body),
    send: (method: string, path: string, body?: unknown) => call(method, path, body),
    cancel: (uuid: string, overrideToken?: string) =>
      call("DELETE", `/reservations/${uuid}${overrideToken === undefined ? "" : `?overrideToken=${encodeURIComponent(overrideToken)}`}`),
    init: (reservationUuid?: string) => call("POST", "/event-types/init", reservationUuid === undefined ? undefined : { reservationUuid }),
    /** The reservation as init shows it to the visitor. */
    reservationOf: async (uuid: string) => {
      const r = await call("POST", "/event-types/init", { reservationUuid: uuid });
      expect(r.status).toBe(200);
      return r.body.data.reservation;
    },
    /** Every reservation of the event type in November 2026 - January 2027, as the organizer lists them. */
    list: async (): Promise<any[]> => {
      const r = await env.admin("GET", `/admin/event-types/${id}/reservations?from=2026-11-01&until=2027-01-31`);
      expect(r.status).toBe(200);
      return r.body.data;
    },
    /** Free seats of the slot starting at `startIso8601` on `day`, 0 when GET /time-slots leaves it out. */
    freeSeats: async (day: string, startIso8601: string): Promise<number> => {
      const r = await call("GET", `/time-slots?from=${day}&until=${day}`);
      expect(r.status).toBe(200);
      return r.body.data.find((s: { startIso8601: string }) => s.startIso8601 === startIso8601)?.available_seats ?? 0;
    },
  };
}

/** Asserts a spec error body with the status and code. */
function expectError(r: Answer, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ success: false, status, code });
}

/** Asserts 422 validation_failed with exactly these fields in `errors`. */
function expectInvalid(r: Answer, fields: string[]): void {
  expectError(r, 422, "validation_failed");
  expect(Object.keys(r.body.errors).sort()).toEqual([...fields].sort());
  for (const field of fields) {
    expect(r.body.errors[field].length).toBeGreaterThan(0);
    for (const message of r.body.errors[field]) expect(typeof message).toBe("string");
  }
}

/** Books in one step and answers the new uuid. */
async function booked(w: { book: (b: unknown) => Promise<Answer> }, body: unknown): Promise<string> {
  const r = await w.book(body);
  expect(r.status).toBe(200);
  expect(r.body.success).toBe(true);
  return r.body.data.uuid;
}

/** Prepares a hold and answers the new uuid. */
async function held(w: { prepare: (b: unknown) => Promise<Answer> }, body: unknown): Promise<string> {
  const r = await w.prepare(body);
  expect(r.status).toBe(200);
  expect(r.body.success).toBe(true);
  return r.body.data.uuid;
}

describe("POST /reservations (one step)", () => {
  it("confirms at once: init, the organizer's list and GET /time-slots all see the booking", async () => {
    const w = await world();
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    const r = await w.book(input(TUE_0900, { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" }));
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      // The booking is with the host (there are no visitor accounts).
      ...HOST,
      // Booked in one step, so confirmed at once: the video link comes with the answer.
      meetLink: expect.stringMatching(MEET_LINK),
      location: { type: "video-meet", value: null },
      // The event type has no booking page (no slug), so there is no manage link.
      manageUrl: null,
    });
    const uuid = r.body.data.uuid;

    expect(await w.reservationOf(uuid)).toEqual({
      uuid,
      email: "ada@example.com",
      firstname: "Ada",
      lastname: "Lovelace",
      status: "confirmed",
      start: "2026-11-24T09:00:00+01:00",
      end: "2026-11-24T09:30:00+01:00",
      location: { type: "video-meet", value: null },
    });
    const list = await w.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      uuid,
      status: "confirmed",
      startIso8601: "2026-11-24T08:00:00Z",
      endIso8601: "2026-11-24T08:30:00Z",
      heldUntil: null,
      email: "ada@example.com",
    });
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    // The neighbouring slot is untouched.
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:30:00Z")).toBe(1);
    await closeAll(w.store);
  });

  it("answers HTTP 200 success false slot_unavailable on a full slot and writes nothing", async () => {
    const w = await world();
    const first = await booked(w, input(TUE_0900));
    const r = await w.book(input(TUE_0900));
    expectFailure(r, "slot_unavailable");
    expect(r.body.data).toBeUndefined();
    expect((await w.list()).map((x) => x.uuid)).toEqual([first]);
    await closeAll(w.store);
  });

  it("answers 422 payment_required for a paid event type, which must be prepared, paid and confirmed", async () => {
    const w = await world({ payment: { amount: 5000, currency: "eur", providerAccountId: "acct_123" } });
    const r = await w.book(input(TUE_0900));
    expectError(r, 422, "payment_required");
    expect(await w.list()).toEqual([]);
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    await closeAll(w.store);
  });
});

describe("POST /reservations/prepare and the hold", () => {
  it("holds the seat: the slot leaves GET /time-slots and another visitor cannot take it", async () => {
    const w = await world();
    const r = await w.prepare(input(TUE_0900, { email: "grace@example.com", firstname: "Grace", lastname: "Hopper" }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: { uuid: expect.any(String), ...HOST, manageUrl: null } });
    const uuid = r.body.data.uuid;
    expect((await w.reservationOf(uuid)).status).toBe("held");
    // Held at 07:00Z for the default 10 minutes.
    expect(await w.list()).toMatchObject([{ uuid, status: "held", heldUntil: "2026-11-23T07:10:00Z" }]);
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    expectFailure(await w.prepare(input(TUE_0900)), "slot_unavailable");
    await closeAll(w.store);
  });

  it("expires after holdMinutes without any request, and the seat is free again for another visitor", async () => {
    const w = await world({ holdMinutes: 15 });
    const uuid = await held(w, input(TUE_0900));
    w.clock.advance(14); // 07:14Z: one minute of the hold left
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");

    w.clock.advance(1); // 07:15Z = heldUntil
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    expect((await w.list()).find((x) => x.uuid === uuid).status).toBe("expired");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    const other = await booked(w, input(TUE_0900));
    expect((await w.reservationOf(other)).status).toBe("confirmed");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    await closeAll(w.store);
  });
});

describe("POST /reservations/{uuid}/confirm", () => {
  const fieldSettings: Partial<EventTypeCreate> = {
    customFields: [
      { uuid: "00000000-0000-4000-8000-00000000c0de", label: "Company", name: "company", type: "text", required: true },
      { uuid: "00000000-0000-4000-8000-0000000091a7", label: "Plan", name: "plan", type: "select", options: ["basic", "pro"] },
    ],
  };
  const COMPANY = "00000000-0000-4000-8000-00000000c0de";
  const PLAN = "00000000-0000-4000-8000-0000000091a7";

  it("confirms a hold before expiry, updating the passed attributes and merging custom fields", async () => {
    const w = await world(fieldSettings);
    const uuid = await held(
      w,
      input(TUE_0900, { email: "ada@example.com", firstname: "Ada", lastname: "Byron", customFields: [{ uuid: COMPANY, value: "Acme" }] }),
    );
    w.clock.advance(9); // 07:09Z, one minute before the hold ends
    const r = await w.confirm(uuid, { lastname: "Lovelace", phone: "+420 777 123 456", customFields: [{ uuid: PLAN, value: "pro" }] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      data: { uuid, ...HOST, meetLink: expect.stringMatching(MEET_LINK), location: { type: "video-meet", value: null }, manageUrl: null },
    });
    expect(await w.reservationOf(uuid)).toMatchObject({ status: "confirmed", firstname: "Ada", lastname: "Lovelace" });
    const [row] = await w.list();
    expect(row).toMatchObject({ uuid, status: "confirmed", heldUntil: null, phone: "+420 777 123 456" });
    expect(row.customFields).toEqual(
      expect.arrayContaining([
        { uuid: COMPANY, value: "Acme" },
        { uuid: PLAN, value: "pro" },
      ]),
    );
    expect(row.customFields).toHaveLength(2);
    // Confirmed stays confirmed long after the hold would have ended.
    w.clock.advance(60);
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    await closeAll(w.store);
  });

  it("replaces an answered custom field with the confirm's answer rather than keeping both", async () => {
    const w = await world(fieldSettings);
    const uuid = await held(w, input(TUE_0900, { customFields: [{ uuid: COMPANY, value: "Acme" }] }));
    expect((await w.confirm(uuid, { customFields: [{ uuid: COMPANY, value: "Initech" }] })).body.success).toBe(true);
    expect((await w.list())[0].customFields).toEqual([{ uuid: COMPANY, value: "Initech" }]);
    await closeAll(w.store);
  });

  it("answers 422 and keeps the hold when the confirm's custom field answer is invalid", async () => {
    const w = await world(fieldSettings);
    const uuid = await held(w, input(TUE_0900, { customFields: [{ uuid: COMPANY, value: "Acme" }] }));
    expectInvalid(await w.confirm(uuid, { customFields: [{ uuid: PLAN, value: "enterprise" }] }), [`customFields.${PLAN}`]);
    expectInvalid(await w.confirm(uuid, { customFields: [{ uuid: COMPANY, value: "" }] }), [`customFields.${COMPANY}`]);
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expect((await w.list())[0].customFields).toEqual([{ uuid: COMPANY, value: "Acme" }]);
    await closeAll(w.store);
  });

  it("accepts a confirm without any body", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    const r = await w.confirm(uuid);
    expect(r.status).toBe(200);
    expect(r.body.data.uuid).toBe(uuid);
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    await closeAll(w.store);
  });

  it("answers meetLink null for a phone location", async () => {
    const w = await world({ locations: [{ type: "phone", value: "+420 123 456 789" }] });
    const uuid = await held(w, input(TUE_0900));
    const r = await w.confirm(uuid, {});
    expect(r.body.success).toBe(true);
    expect(r.body.data).toHaveProperty("meetLink", null);
    expect((await w.reservationOf(uuid)).location).toEqual({ type: "phone", value: "+420 123 456 789" });
    await closeAll(w.store);
  });

  it("confirms an expired hold whose seat is still free, taking the seat again", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    w.clock.advance(30); // 07:30Z, twenty minutes after the hold ended
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    const r = await w.confirm(uuid, {});
    expect(r.body).toMatchObject({ success: true, data: { uuid, meetLink: expect.stringMatching(MEET_LINK) } });
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    await closeAll(w.store);
  });

  it("answers reservation_finished for an expired hold whose seat someone else took", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    w.clock.advance(10);
    const other = await booked(w, input(TUE_0900));
    expectFailure(await w.confirm(uuid, {}), "reservation_finished");
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    expect((await w.reservationOf(other)).status).toBe("confirmed");
    expect((await w.list()).filter((x) => x.status === "confirmed").map((x) => x.uuid)).toEqual([other]);
    await closeAll(w.store);
  });

  it("answers reservation_finished for a cancelled reservation", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    expect((await w.cancel(uuid)).body.success).toBe(true);
    expectFailure(await w.confirm(uuid, {}), "reservation_finished");
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    await closeAll(w.store);
  });

  it("answers a second confirm with success, the same uuid and the same meetLink", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    const first = await w.confirm(uuid, {});
    w.clock.advance(5);
    const second = await w.confirm(uuid, { firstname: "Someone" });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.body.data.meetLink).toMatch(MEET_LINK);
    expect((await w.list()).filter((x) => x.uuid === uuid)).toHaveLength(1);
    await closeAll(w.store);
  });

  it("answers 422 payment_required for a held paid reservation without payment and keeps it held", async () => {
    const w = await world({ payment: { amount: 5000, currency: "eur", providerAccountId: "acct_123" } });
    const uuid = await held(w, input(TUE_0900));
    expectError(await w.confirm(uuid, {}), 422, "payment_required");
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    await closeAll(w.store);
  });
});

describe("POST /reservations/{uuid}/refresh", () => {
  it("holds a held reservation again for holdMinutes from now and answers an empty array", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900)); // held until 07:10Z
    w.clock.advance(8); // 07:08Z
    const r = await w.refresh(uuid);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, data: [] });
    expect((await w.list())[0]).toMatchObject({ uuid, status: "held", heldUntil: "2026-11-23T07:18:00Z" });
    w.clock.set("2026-11-23T07:17:00Z"); // past the first hold, inside the second
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    w.clock.set("2026-11-23T07:18:00Z");
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    await booked(w, input(TUE_0900));
    await closeAll(w.store);
  });

  it("holds an expired reservation again while its seat is free", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    w.clock.advance(45); // 07:45Z
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    expect((await w.refresh(uuid)).body).toEqual({ success: true, data: [] });
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expect((await w.list())[0].heldUntil).toBe("2026-11-23T07:55:00Z");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    await closeAll(w.store);
  });

  it("answers reservation_finished for an expired reservation whose seat someone else took", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    w.clock.advance(10);
    await booked(w, input(TUE_0900));
    expectFailure(await w.refresh(uuid), "reservation_finished");
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    await closeAll(w.store);
  });

  it("answers reservation_finished for a confirmed reservation and leaves it confirmed", async () => {
    const w = await world();
    const uuid = await booked(w, input(TUE_0900));
    expectFailure(await w.refresh(uuid), "reservation_finished");
    expect(await w.list()).toMatchObject([{ uuid, status: "confirmed", heldUntil: null }]);
    await closeAll(w.store);
  });

  it("answers reservation_finished for a cancelled reservation and leaves the seat free", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    await w.cancel(uuid);
    expectFailure(await w.refresh(uuid), "reservation_finished");
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    await closeAll(w.store);
  });
});

describe("an expired hold becomes cancelled", () => {
  it("stays expired and refreshable until 24 hours after its hold ended", async () => {
    const w = await world();
    const uuid = await held(w, input(THU_0900)); // held until Mon 07:10Z, slot Thu 08:00Z
    w.clock.set("2026-11-24T07:09:00Z");
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    expect((await w.refresh(uuid)).body.success).toBe(true);
    expect((await w.reservationOf(uuid)).status).toBe("held");
    await closeAll(w.store);
  });

  it("can no longer be refreshed or confirmed once 24 hours passed since its hold ended", async () => {
    const w = await world();
    const uuid = await held(w, input(THU_0900));
    w.clock.set("2026-11-24T07:10:00Z"); // Mon 07:10Z + 24 h
    expectFailure(await w.refresh(uuid), "reservation_finished");
    expectFailure(await w.confirm(uuid, {}), "reservation_finished");
    expectFailure(await w.reschedule(uuid, THU_1000), "reservation_finished");
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(1);
    await closeAll(w.store);
  });

  it("can no longer be refreshed or confirmed once its slot has started, even within the 24 hours", async () => {
    const w = await world();
    const uuid = await held(w, input(MON_1000)); // held until 07:10Z, slot starts 09:00Z
    w.clock.set("2026-11-23T08:59:00Z");
    expect((await w.reservationOf(uuid)).status).toBe("expired");
    w.clock.set("2026-11-23T09:00:00Z");
    expectFailure(await w.refresh(uuid), "reservation_finished");
    expectFailure(await w.confirm(uuid, {}), "reservation_finished");
    await closeAll(w.store);
  });

  // Derived from time before any sweep stores it (decisions.md: 24 hours, or the slot starting).
  it("shows cancelled in init and the organizer's list once 24 hours passed since the hold ended, before any sweep", async () => {
    const w = await world();
    const uuid = await held(w, input(THU_0900));
    w.clock.set("2026-11-24T07:10:00Z");
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect((await w.list())[0].status).toBe("cancelled");
    await closeAll(w.store);
  });

  it("shows cancelled in init and the organizer's list once the slot of an expired hold has started, before any sweep", async () => {
    const w = await world();
    const uuid = await held(w, input(MON_1000));
    w.clock.set("2026-11-23T09:00:00Z");
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect((await w.list())[0].status).toBe("cancelled");
    await closeAll(w.store);
  });
});

describe("PUT /reservations/{uuid} (reschedule)", () => {
  it("moves the reservation to another offered slot under the same uuid, freeing the old one", async () => {
    const w = await world();
    const first = await w.book(input(THU_0900, { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" }));
    const uuid = first.body.data.uuid;
    const r = await w.reschedule(uuid, THU_1000);
    expect(r.status).toBe(200);
    // The meeting stays: the same link and place come with the new time.
    expect(r.body).toEqual({
      success: true,
      data: { uuid, ...HOST, meetLink: first.body.data.meetLink, location: { type: "video-meet", value: null }, manageUrl: null },
    });
    expect(first.body.data.meetLink).toMatch(MEET_LINK);
    expect(await w.reservationOf(uuid)).toMatchObject({ uuid, status: "confirmed", start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" });
    expect(await w.list()).toMatchObject([{ uuid, startIso8601: "2026-11-26T09:00:00Z", endIso8601: "2026-11-26T09:30:00Z" }]);
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(1);
    expect(await w.freeSeats("2026-11-26", "2026-11-26T09:00:00Z")).toBe(0);
    await booked(w, input(THU_0900));
    expectFailure(await w.book(input(THU_1000)), "slot_unavailable");
    await closeAll(w.store);
  });

  it("answers slot_unavailable for a full slot and leaves the reservation where it was", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    await booked(w, input(THU_1000));
    expectFailure(await w.reschedule(uuid, THU_1000), "slot_unavailable");
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-26T09:00:00+01:00");
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(0);
    await closeAll(w.store);
  });

  it("answers slot_unavailable for a time off the grid, outside the hours or on a closed day", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    const before = await w.list();
    // 09:15 is between two 30-minute slots.
    expectFailure(await w.reschedule(uuid, { start: "2026-11-26T09:15:00+01:00", end: "2026-11-26T09:45:00+01:00" }), "slot_unavailable");
    // 17:00 is the closing time.
    expectFailure(await w.reschedule(uuid, { start: "2026-11-26T17:00:00+01:00", end: "2026-11-26T17:30:00+01:00" }), "slot_unavailable");
    // 16:45 would run past the closing time even on a 15-minute grid.
    expectFailure(await w.reschedule(uuid, { start: "2026-11-26T16:45:00+01:00", end: "2026-11-26T17:15:00+01:00" }), "slot_unavailable");
    // Saturday 2026-11-28 is closed.
    expectFailure(await w.reschedule(uuid, { start: "2026-11-28T09:00:00+01:00", end: "2026-11-28T09:30:00+01:00" }), "slot_unavailable");
    expect(await w.list()).toEqual(before);
    await closeAll(w.store);
  });

  it("answers 422 for an end that is not one meeting length after the start", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    const before = await w.list();
    expectInvalid(await w.reschedule(uuid, { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T11:00:00+01:00" }), ["end"]);
    expectInvalid(await w.reschedule(uuid, { start: "2026-11-26T10:00:00", end: "2026-11-26T10:30:00+01:00" }), ["start"]);
    expectInvalid(await w.reschedule(uuid, { start: "2026-11-26T10:00:00+01:00" }), ["end"]);
    expect(await w.list()).toEqual(before);
    await closeAll(w.store);
  });

  it("answers 403 forbidden within rescheduleNoticeMinutes of the start, up to the minute", async () => {
    const w = await world();
    const uuid = await booked(w, input(TUE_0900)); // starts Tue 08:00Z; notice closes Mon 08:00Z
    w.clock.set("2026-11-23T08:01:00Z");
    expectError(await w.reschedule(uuid, TUE_0930), 403, "forbidden");
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T09:00:00+01:00");
    w.clock.set("2026-11-23T08:00:00Z");
    expect((await w.reschedule(uuid, TUE_0930)).body.success).toBe(true);
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T09:30:00+01:00");
    await closeAll(w.store);
  });

  it("lets the organizer's override token reschedule inside the notice, and refuses a wrong one with 403", async () => {
    const w = await world();
    const uuid = await booked(w, input(TUE_0900));
    w.clock.set("2026-11-24T07:00:00Z"); // one hour before the start
    expectError(await w.reschedule(uuid, { ...TUE_0930, overrideToken: "bko_not-the-right-token" }), 403, "forbidden");
    expectError(await w.reschedule(uuid, { ...TUE_0930, overrideToken: w.et.token }), 403, "forbidden");
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T09:00:00+01:00");
    const r = await w.reschedule(uuid, { ...TUE_0930, overrideToken: w.et.overrideToken });
    expect(r.body).toMatchObject({ success: true, data: { uuid } });
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T09:30:00+01:00");
    await closeAll(w.store);
  });

  it("never moves a reservation into the past, not even with the override token", async () => {
    const w = await world();
    const uuid = await booked(w, input(TUE_0930));
    w.clock.set("2026-11-24T08:45:00Z"); // 09:45 in Prague: the 09:00 slot has begun
    expectFailure(await w.reschedule(uuid, { ...TUE_0900, overrideToken: w.et.overrideToken }), "slot_unavailable");
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T09:30:00+01:00");
    await closeAll(w.store);
  });

  it("refuses a wrong override token even where no override is needed", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    expectError(await w.reschedule(uuid, { ...THU_1000, overrideToken: "wrong" }), 403, "forbidden");
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-26T09:00:00+01:00");
    await closeAll(w.store);
  });

  it("keeps a held reservation held, with its hold time, when it moves", async () => {
    const w = await world();
    const uuid = await held(w, input(THU_0900));
    w.clock.advance(5);
    expect((await w.reschedule(uuid, THU_1000)).body.success).toBe(true);
    expect(await w.list()).toMatchObject([{ uuid, status: "held", heldUntil: "2026-11-23T07:10:00Z", startIso8601: "2026-11-26T09:00:00Z" }]);
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(1);
    expect(await w.freeSeats("2026-11-26", "2026-11-26T09:00:00Z")).toBe(0);
    await closeAll(w.store);
  });

  it("answers reservation_finished for an expired hold", async () => {
    const w = await world();
    const uuid = await held(w, input(THU_0900));
    w.clock.advance(10);
    expectFailure(await w.reschedule(uuid, THU_1000), "reservation_finished");
    expect(await w.freeSeats("2026-11-26", "2026-11-26T09:00:00Z")).toBe(1);
    await closeAll(w.store);
  });

  it("records the visitor's new timezone, in which init then shows the times", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    expect((await w.reschedule(uuid, { ...THU_1000, timezone: "America/New_York" })).body.success).toBe(true);
    // 09:00Z on Thursday is 04:00 in New York (EST, -05:00).
    expect(await w.reservationOf(uuid)).toMatchObject({ start: "2026-11-26T04:00:00-05:00", end: "2026-11-26T04:30:00-05:00" });
    expectInvalid(await w.reschedule(uuid, { ...THU_0900, timezone: "Nowhere/Special" }), ["timezone"]);
    expect((await w.list())[0].startIso8601).toBe("2026-11-26T09:00:00Z");
    await closeAll(w.store);
  });

  it("answers reservation_finished for a cancelled reservation", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    await w.cancel(uuid);
    expectFailure(await w.reschedule(uuid, THU_1000), "reservation_finished");
    expect(await w.freeSeats("2026-11-26", "2026-11-26T09:00:00Z")).toBe(1);
    await closeAll(w.store);
  });
});

describe("DELETE /reservations/{uuid} (cancel)", () => {
  it("cancels a confirmed reservation and frees its seat at once", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(0);
    const r = await w.cancel(uuid);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: expect.any(String) });
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect((await w.list())[0].status).toBe("cancelled");
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(1);
    await booked(w, input(THU_0900));
    await closeAll(w.store);
  });

  it("answers success with a message when the reservation is already cancelled", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    const first = await w.cancel(uuid);
    const other = await booked(w, input(THU_0900));
    const second = await w.cancel(uuid);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ success: true, message: expect.any(String) });
    expect(second.body.message).not.toBe(first.body.message);
    // The second cancel frees nothing: the seat now belongs to someone else.
    expect((await w.reservationOf(other)).status).toBe("confirmed");
    expect(await w.freeSeats("2026-11-26", "2026-11-26T08:00:00Z")).toBe(0);
    await closeAll(w.store);
  });

  it("lets a held reservation go at any time, even right before its start", async () => {
    const w = await world();
    const uuid = await held(w, input(MON_1000)); // slot 09:00Z today, well inside the cancel notice
    expect((await w.cancel(uuid)).body.success).toBe(true);
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect(await w.freeSeats("2026-11-23", "2026-11-23T09:00:00Z")).toBe(1);
    await closeAll(w.store);
  });

  it("answers 403 within cancelNoticeMinutes of a confirmed start unless the override token is right", async () => {
    const w = await world({ cancelNoticeMinutes: 120 });
    const uuid = await booked(w, input(TUE_0900)); // starts Tue 08:00Z; notice closes Tue 06:00Z
    w.clock.set("2026-11-24T06:01:00Z");
    expectError(await w.cancel(uuid), 403, "forbidden");
    expectError(await w.cancel(uuid, "bko_wrong"), 403, "forbidden");
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    expect((await w.cancel(uuid, w.et.overrideToken)).body.success).toBe(true);
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    await closeAll(w.store);
  });

  it("still lets the visitor cancel exactly at the notice limit", async () => {
    const w = await world({ cancelNoticeMinutes: 120 });
    const uuid = await booked(w, input(TUE_0900));
    w.clock.set("2026-11-24T06:00:00Z");
    expect((await w.cancel(uuid)).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("answers reservation_finished once the meeting has ended, override or not", async () => {
    const w = await world();
    const uuid = await booked(w, input(TUE_0900)); // ends Tue 08:30Z
    w.clock.set("2026-11-24T08:30:00Z");
    expectFailure(await w.cancel(uuid), "reservation_finished");
    expectFailure(await w.cancel(uuid, w.et.overrideToken), "reservation_finished");
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    await closeAll(w.store);
  });

  it("keeps the reason the visitor gives, trimmed, and shows it to the organizer", async () => {
    const w = await world();
    const withReason = await booked(w, input(THU_0900));
    const without = await booked(w, input(THU_1000));
    const blank = await booked(w, input(TUE_0900));
    const r = await w.send("DELETE", `/reservations/${withReason}`, { reason: "  Something came up at work.  " });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: expect.any(String) });
    expect((await w.cancel(without)).body.success).toBe(true);
    expect((await w.send("DELETE", `/reservations/${blank}`, { reason: "   " })).body.success).toBe(true);
    const listed = new Map((await w.list()).map((x) => [x.uuid, x]));
    expect(listed.get(withReason)).toMatchObject({ status: "cancelled", cancelReason: "Something came up at work." });
    expect(listed.get(without)).toMatchObject({ status: "cancelled", cancelReason: null });
    expect(listed.get(blank)).toMatchObject({ status: "cancelled", cancelReason: null });
    await closeAll(w.store);
  });

  it("answers 422 for a reason over 500 characters or an unknown key, and cancels nothing", async () => {
    const w = await world();
    const uuid = await booked(w, input(THU_0900));
    expectInvalid(await w.send("DELETE", `/reservations/${uuid}`, { reason: "x".repeat(501) }), ["reason"]);
    const unknown = await w.send("DELETE", `/reservations/${uuid}`, { why: "busy" });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ success: false, code: "validation_failed" });
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    expect((await w.list())[0]).toMatchObject({ status: "confirmed", cancelReason: null });
    await closeAll(w.store);
  });
});

describe("seats", () => {
  it("lets three visitors fill a three-seat slot, counting down available_seats, and turns the fourth away", async () => {
    const w = await world({ seats: 3 });
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(3);
    const a = await booked(w, input(TUE_0900));
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(2);
    const b = await held(w, input(TUE_0900));
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    const c = await booked(w, input(TUE_0900));
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    expectFailure(await w.prepare(input(TUE_0900)), "slot_unavailable");
    expect(new Set([a, b, c]).size).toBe(3);
    expect(await w.list()).toHaveLength(3);
    // The hold lapses: one seat comes back, and only one.
    w.clock.advance(10);
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    await booked(w, input(TUE_0900));
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    await closeAll(w.store);
  });
});

describe("unknown and foreign reservations", () => {
  it("answers 404 not_found for an unknown uuid and for another event type's reservation, with identical bodies", async () => {
    const w = await world();
    const other = await w.eventType({ title: "Other" });
    const foreign = client(w, other.token, other.id);
    const theirs = await held(foreign, input(TUE_0900));
    const attempts: [string, (uuid: string) => Promise<Answer>][] = [
      ["confirm", (u) => w.confirm(u, {})],
      ["refresh", (u) => w.refresh(u)],
      ["reschedule", (u) => w.reschedule(u, TUE_0930)],
      ["cancel", (u) => w.cancel(u)],
      ["payments", (u) => w.call("POST", `/reservations/${u}/payments`, { token: w.et.token, body: { email: "ada@example.com" } })],
      ["init", (u) => w.init(u)],
    ];
    for (const [, attempt] of attempts) {
      const unknown = await attempt(MISSING_UUID);
      const foreignOne = await attempt(theirs);
      expectError(unknown, 404, "not_found");
      expectError(foreignOne, 404, "not_found");
      expect(foreignOne.text).toBe(unknown.text);
      expect(foreignOne.headers.get("apigw-requestid")).not.toBe(unknown.headers.get("apigw-requestid"));
    }
    // The other event type's reservation was not touched by any of it.
    expect((await foreign.reservationOf(theirs)).status).toBe("held");
    expect(await foreign.list()).toMatchObject([{ uuid: theirs, status: "held", startIso8601: "2026-11-24T08:00:00Z" }]);
    await closeAll(w.store);
  });

  it("answers 404 not_found for a malformed uuid in the path", async () => {
    const w = await world();
    await booked(w, input(THU_0900));
    for (const bad of ["not-a-uuid", "123", "0b8a3a3e-6d1c-4f3e-9a55-2f7b6d1e9c0", "0b8a3a3e6d1c4f3e9a552f7b6d1e9c01", "'%20OR%201=1--"]) {
      expectError(await w.confirm(bad, {}), 404, "not_found");
      expectError(await w.refresh(bad), 404, "not_found");
      expectError(await w.reschedule(bad, THU_1000), 404, "not_found");
      expectError(await w.cancel(bad), 404, "not_found");
    }
    expect((await w.list())[0].status).toBe("confirmed");
    await closeAll(w.store);
  });

  it("finds a reservation by its uuid in upper case too", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    const r = await w.confirm(uuid.toUpperCase(), {});
    expect(r.body).toMatchObject({ success: true, data: { uuid } });
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    await closeAll(w.store);
  });
});

describe("ReservationInput validation", () => {
  it("answers 422 with errors for missing start, end and email, writing nothing", async () => {
    const w = await world();
    expectInvalid(await w.book({ firstname: "Ada" }), ["start", "end", "email"]);
    expectInvalid(await w.prepare({ ...TUE_0900 }), ["email"]);
    expectInvalid(await w.book({ end: TUE_0900.end, email: "ada@example.com" }), ["start"]);
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 for a start or end without an offset", async () => {
    const w = await world();
    expectInvalid(await w.book(input({ start: "2026-11-24T09:00:00", end: TUE_0900.end })), ["start"]);
    expectInvalid(await w.book(input({ start: TUE_0900.start, end: "2026-11-24T09:30:00" })), ["end"]);
    expectInvalid(await w.book(input({ start: "2026-11-24", end: "2026-11-24" })), ["start", "end"]);
    expectInvalid(await w.book(input({ start: "tomorrow at nine", end: TUE_0900.end })), ["start"]);
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 on end for an end that is not one meeting length after the start", async () => {
    const w = await world();
    expectInvalid(await w.book(input({ start: TUE_0900.start, end: "2026-11-24T10:00:00+01:00" })), ["end"]);
    expectInvalid(await w.book(input({ start: TUE_0900.start, end: TUE_0900.start })), ["end"]);
    expectInvalid(await w.prepare(input({ start: TUE_0900.end, end: TUE_0900.start })), ["end"]);
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 on timezone for a name that is not an IANA zone", async () => {
    const w = await world();
    expectInvalid(await w.book(input(TUE_0900, { timezone: "Mars/Olympus_Mons" })), ["timezone"]);
    expect(await w.list()).toEqual([]);
    const uuid = await booked(w, input(TUE_0900, { timezone: "America/New_York" }));
    // init shows the times in the visitor's zone: 08:00Z is 03:00 in New York (EST, -05:00).
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T03:00:00-05:00");
    await closeAll(w.store);
  });

  it("accepts start and end in any offset for the same instants", async () => {
    const w = await world();
    const uuid = await booked(w, input({ start: "2026-11-24T08:00:00Z", end: "2026-11-24T03:30:00-05:00" }));
    expect((await w.reservationOf(uuid)).start).toBe("2026-11-24T09:00:00+01:00");
    await closeAll(w.store);
  });

  it("answers 422 on email for a malformed or too long address", async () => {
    const w = await world();
    for (const email of ["not-an-email", "ada@", "@example.com", "ada example@example.com", "", `${"a".repeat(243)}@example.com`]) {
      expectInvalid(await w.book(input(TUE_0900, { email })), ["email"]);
    }
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 on guests beyond ten, or beyond the event type's maxGuests", async () => {
    const w = await world();
    const guests = (n: number) => Array.from({ length: n }, (_, i) => `guest${i}@example.com`);
    expectInvalid(await w.book(input(TUE_0900, { guests: guests(11) })), ["guests"]);
    const smallType = await w.eventType({ maxGuests: 2 });
    const small = client(w, smallType.token, smallType.id);
    expectInvalid(await small.book(input(TUE_0900, { guests: guests(3) })), ["guests"]);
    expect(await w.list()).toEqual([]);
    expect((await small.book(input(TUE_0930, { guests: guests(2) }))).body.success).toBe(true);
    expect((await w.book(input(TUE_0900, { guests: guests(10) }))).body.success).toBe(true);
    expect((await w.list())[0].guests).toEqual(guests(10));
    await closeAll(w.store);
  });

  it("answers 422 on the guest that repeats another guest or the booker", async () => {
    const w = await world();
    expectInvalid(await w.book(input(TUE_0900, { email: "ada@example.com", guests: ["bob@example.com", "BOB@example.com"] })), ["guests.1"]);
    expectInvalid(await w.book(input(TUE_0900, { email: "ada@example.com", guests: ["Ada@Example.com"] })), ["guests.0"]);
    expectInvalid(await w.book(input(TUE_0900, { guests: ["bob@example.com", "not an email"] })), ["guests.1"]);
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 on location.type for a location the event type does not enable", async () => {
    const w = await world({ locations: [{ type: "video-meet" }] });
    expectInvalid(await w.book(input(TUE_0900, { location: { type: "phone", value: "+420 777 123 456" } })), ["location.type"]);
    expectInvalid(await w.book(input(TUE_0900, { location: { type: "carrier-pigeon" } })), ["location.type"]);
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 on location.value for a phone location without a number, and takes the visitor's phone otherwise", async () => {
    const w = await world({ locations: [{ type: "video-meet" }, { type: "phone" }] });
    expectInvalid(await w.book(input(TUE_0900, { location: { type: "phone" } })), ["location.value"]);
    expectInvalid(await w.book(input(TUE_0900, { location: { type: "phone", value: "  " } })), ["location.value"]);
    expectInvalid(await w.book(input(TUE_0900, { location: { type: "phone", value: "call me maybe" } })), ["location.value"]);
    expect(await w.list()).toEqual([]);
    const byValue = await booked(w, input(TUE_0900, { location: { type: "phone", value: "+420 777 123 456" } }));
    expect((await w.reservationOf(byValue)).location).toEqual({ type: "phone", value: "+420 777 123 456" });
    const byPhone = await booked(w, input(TUE_0930, { phone: "+420 602 000 111", location: { type: "phone" } }));
    expect((await w.reservationOf(byPhone)).location).toEqual({ type: "phone", value: "+420 602 000 111" });
    await closeAll(w.store);
  });

  it("answers 422 on strings longer than 500 characters and accepts 500", async () => {
    const w = await world({ locations: [{ type: "address" }] });
    const long = "x".repeat(501);
    for (const field of ["firstname", "lastname", "phone"]) {
      expectInvalid(await w.book(input(TUE_0900, { [field]: long, location: { type: "address", value: "Main St 1" } })), [field]);
    }
    expectInvalid(await w.book(input(TUE_0900, { location: { type: "address", value: long } })), ["location.value"]);
    expect(await w.list()).toEqual([]);
    const r = await w.book(input(TUE_0900, { firstname: "y".repeat(500), location: { type: "address", value: "z".repeat(500) } }));
    expect(r.body.success).toBe(true);
    expect((await w.list())[0]).toMatchObject({ firstname: "y".repeat(500), location: { type: "address", value: "z".repeat(500) } });
    await closeAll(w.store);
  });

  it("stores unicode names and SQL-looking strings exactly as given", async () => {
    const w = await world();
    const sql = "Robert'); DROP TABLE reservations; --";
    const r = await w.book(input(TUE_0900, { email: "zofie@example.com", firstname: "Žofie 李", lastname: "Dvořáková 🎉" }));
    expect(r.body.data.userName).toBe(HOST.userName);
    const uuid2 = await booked(w, input(TUE_0930, { firstname: sql, lastname: '" OR 1=1 --' }));
    expect(await w.reservationOf(r.body.data.uuid)).toMatchObject({ firstname: "Žofie 李", lastname: "Dvořáková 🎉" });
    expect(await w.reservationOf(uuid2)).toMatchObject({ firstname: sql, lastname: '" OR 1=1 --' });
    expect((await w.list()).map((x) => x.firstname)).toEqual(["Žofie 李", sql]);
    await closeAll(w.store);
  });

  describe("custom fields", () => {
    const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const [TEXT, TEXTAREA, EMAIL, PHONE, NUMBER, SELECT, MULTI, CHECKBOX, DATE] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(uuidOf) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const fields: Partial<EventTypeCreate> = {
      customFields: [
        { uuid: TEXT, label: "Company", name: "company", type: "text", required: true },
        { uuid: TEXTAREA, label: "Notes", name: "notes", type: "textarea" },
        { uuid: EMAIL, label: "Work email", name: "work_email", type: "email" },
        { uuid: PHONE, label: "Mobile", name: "mobile", type: "phone" },
        { uuid: NUMBER, label: "Team size", name: "team_size", type: "number" },
        { uuid: SELECT, label: "Plan", name: "plan", type: "select", options: ["basic", "pro"] },
        { uuid: MULTI, label: "Topics", name: "topics", type: "multiselect", options: ["sales", "support", "billing"] },
        { uuid: CHECKBOX, label: "Consent", name: "consent", type: "checkbox" },
        { uuid: DATE, label: "Start date", name: "start_date", type: "date" },
      ],
    };
    const valid = [
      { uuid: TEXT, value: "Acme" },
      { uuid: TEXTAREA, value: "Line one\nLine two" },
      { uuid: EMAIL, value: "boss@acme.example" },
      { uuid: PHONE, value: "+420 777 123 456" },
      { uuid: NUMBER, value: 12 },
      { uuid: SELECT, value: "pro" },
      { uuid: MULTI, value: ["sales", "billing"] },
      { uuid: CHECKBOX, value: true },
      { uuid: DATE, value: "2027-01-15" },
    ];

    it("accepts a value of the right type for every field type and stores them", async () => {
      const w = await world(fields);
      const uuid = await booked(w, input(TUE_0900, { customFields: valid }));
      const [row] = await w.list();
      expect(row.uuid).toBe(uuid);
      expect(row.customFields).toEqual(expect.arrayContaining(valid));
      expect(row.customFields).toHaveLength(valid.length);
      await closeAll(w.store);
    });

    it("answers 422 on customFields.<uuid> when the required field is missing or blank", async () => {
      const w = await world(fields);
      expectInvalid(await w.book(input(TUE_0900)), [`customFields.${TEXT}`]);
      expectInvalid(await w.book(input(TUE_0900, { customFields: [{ uuid: TEXT, value: "" }] })), [`customFields.${TEXT}`]);
      expectInvalid(await w.book(input(TUE_0900, { customFields: [{ uuid: TEXT }] })), [`customFields.${TEXT}`]);
      expectInvalid(await w.prepare(input(TUE_0900, { customFields: [{ uuid: TEXT, value: null }] })), [`customFields.${TEXT}`]);
      expect(await w.list()).toEqual([]);
      await closeAll(w.store);
    });

    // [field type, what is wrong, the value, the field's uuid]
    const wrong: [string, string, unknown, string][] = [
      ["text", "a number", 42, TEXT],
      ["text", "501 characters", "x".repeat(501), TEXT],
      ["textarea", "a boolean", true, TEXTAREA],
      ["textarea", "5001 characters", "x".repeat(5001), TEXTAREA],
      ["email", "text without @", "not-an-email", EMAIL],
      ["email", "a number", 7, EMAIL],
      ["phone", "words", "call me", PHONE],
      ["phone", "a number", 420777123456, PHONE],
      ["number", "a numeric string", "12", NUMBER],
      ["number", "an array", [12], NUMBER],
      ["select", "an option it does not have", "enterprise", SELECT],
      ["select", "an array", ["pro"], SELECT],
      ["multiselect", "a single string", "sales", MULTI],
      ["multiselect", "an option it does not have", ["sales", "marketing"], MULTI],
      ["multiselect", "a repeated option", ["sales", "sales"], MULTI],
      ["checkbox", "a string", "yes", CHECKBOX],
      ["checkbox", "a number", 1, CHECKBOX],
      ["date", "a day that does not exist", "2027-02-30", DATE],
      ["date", "a day in another format", "15.01.2027", DATE],
      ["date", "a date-time", "2027-01-15T10:00:00Z", DATE],
    ];
    it.each(wrong)("answers 422 on the %s field for %s", async (_type, _what, value, uuid) => {
      const w = await world(fields);
      const answers = valid.map((v) => (v.uuid === uuid ? { uuid, value } : v));
      expectInvalid(await w.book(input(TUE_0900, { customFields: answers })), [`customFields.${uuid}`]);
      expect(await w.list()).toEqual([]);
      await closeAll(w.store);
    });

    it("answers 422 on customFields.<uuid> for a uuid the event type does not have", async () => {
      const w = await world(fields);
      const stranger = "ffffffff-0000-4000-8000-000000000000";
      expectInvalid(await w.book(input(TUE_0900, { customFields: [...valid, { uuid: stranger, value: "x" }] })), [`customFields.${stranger}`]);
      expect(await w.list()).toEqual([]);
      await closeAll(w.store);
    });

    it("answers 422 when one field is answered twice", async () => {
      const w = await world(fields);
      expectInvalid(await w.book(input(TUE_0900, { customFields: [...valid, { uuid: SELECT, value: "basic" }] })), [`customFields.${SELECT}`]);
      expect(await w.list()).toEqual([]);
      await closeAll(w.store);
    });
  });
});

describe("slots that are not offered", () => {
  it("answers slot_unavailable for a time off the grid or outside the hours, writing nothing", async () => {
    const w = await world();
    const cases: SlotTimes[] = [
      { start: "2026-11-24T09:10:00+01:00", end: "2026-11-24T09:40:00+01:00" }, // off the 30-minute grid
      { start: "2026-11-24T08:30:00+01:00", end: "2026-11-24T09:00:00+01:00" }, // before opening
      { start: "2026-11-24T17:00:00+01:00", end: "2026-11-24T17:30:00+01:00" }, // at closing
      { start: "2026-11-28T10:00:00+01:00", end: "2026-11-28T10:30:00+01:00" }, // Saturday
    ];
    for (const slot of cases) {
      expectFailure(await w.book(input(slot)), "slot_unavailable");
      expectFailure(await w.prepare(input(slot)), "slot_unavailable");
    }
    expect(await w.list()).toEqual([]);
    await closeAll(w.store);
  });

  it("answers slot_unavailable inside the minimum notice, to the minute", async () => {
    // At 07:00Z a 60-minute notice makes 08:00Z (09:00 Prague) the first bookable start.
    const today0900: SlotTimes = { start: "2026-11-23T09:00:00+01:00", end: "2026-11-23T09:30:00+01:00" };
    const w = await world();
    w.clock.set("2026-11-23T07:01:00Z");
    expectFailure(await w.book(input(today0900)), "slot_unavailable");
    expect(await w.list()).toEqual([]);
    w.clock.set("2026-11-23T07:00:00Z");
    await booked(w, input(today0900));
    await closeAll(w.store);
  });

  it("answers slot_unavailable beyond the horizon, and books on its last day", async () => {
    const w = await world({ horizonDays: 3 }); // Monday plus 3 days: Thursday is the last bookable day
    expectFailure(await w.book(input({ start: "2026-11-27T09:00:00+01:00", end: "2026-11-27T09:30:00+01:00" })), "slot_unavailable");
    expect(await w.list()).toEqual([]);
    await booked(w, input({ start: "2026-11-26T16:30:00+01:00", end: "2026-11-26T17:00:00+01:00" }));
    await closeAll(w.store);
  });
});

describe("Idempotency-Key", () => {
  it("answers a retry with the same key and body with the first answer, marked replayed, booking once", async () => {
    const w = await world({ seats: 2 });
    const body = input(TUE_0900);
    const first = await w.book(body, { "idempotency-key": "order-1" });
    expect(first.body.success).toBe(true);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    w.clock.advance(1);
    const second = await w.book(body, { "idempotency-key": "order-1" });
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect((await w.list()).map((x) => x.uuid)).toEqual([first.body.data.uuid]);
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(1);
    await closeAll(w.store);
  });

  it("matches the body regardless of key order", async () => {
    const w = await world({ seats: 2 });
    const first = await w.prepare({ start: TUE_0900.start, end: TUE_0900.end, email: "ada@example.com" }, { "idempotency-key": "k" });
    const second = await w.prepare({ email: "ada@example.com", end: TUE_0900.end, start: TUE_0900.start }, { "idempotency-key": "k" });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await w.list()).toHaveLength(1);
    await closeAll(w.store);
  });

  it("answers 422 on Idempotency-Key when the same key comes with another body or path", async () => {
    const w = await world({ seats: 2 });
    const first = await w.book(input(TUE_0900, { email: "ada@example.com" }), { "idempotency-key": "order-2" });
    expect(first.body.success).toBe(true);
    const r = await w.book(input(TUE_0900, { email: "grace@example.com" }), { "idempotency-key": "order-2" });
    expectInvalid(r, ["Idempotency-Key"]);
    expectInvalid(await w.prepare(input(TUE_0900, { email: "ada@example.com" }), { "idempotency-key": "order-2" }), ["Idempotency-Key"]);
    expect(await w.list()).toHaveLength(1);
    await closeAll(w.store);
  });

  it("replays a business failure even after the slot has become free", async () => {
    const w = await world();
    const taken = await booked(w, input(TUE_0900));
    const body = input(TUE_0900);
    expectFailure(await w.book(body, { "idempotency-key": "late" }), "slot_unavailable");
    await w.cancel(taken);
    const again = await w.book(body, { "idempotency-key": "late" });
    expectFailure(again, "slot_unavailable");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // The same body under a new key books the freed seat.
    expect((await w.book(body, { "idempotency-key": "late-2" })).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("does not consume the key on a 422 validation failure", async () => {
    const w = await world();
    const wrongEnd = input({ start: TUE_0900.start, end: "2026-11-24T10:00:00+01:00" });
    expectInvalid(await w.book(wrongEnd, { "idempotency-key": "fix-me" }), ["end"]);
    expectInvalid(await w.book({ ...TUE_0900 }, { "idempotency-key": "fix-me" }), ["email"]);
    const fixed = await w.book(input(TUE_0900), { "idempotency-key": "fix-me" });
    expect(fixed.body.success).toBe(true);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    expect(await w.list()).toHaveLength(1);
    await closeAll(w.store);
  });

  it("keeps keys apart per event type", async () => {
    const w = await world();
    // Another host's event type, so both can book the same time.
    const host = await w.store.hosts.create(
      { name: "Other host", email: "other@example.com", timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() },
      w.clock.now(),
    );
    const other = await w.eventType({ title: "Other", hosts: [{ hostId: host.id }] });
    const foreign = client(w, other.token, other.id);
    const body = input(TUE_0900);
    const mine = await w.book(body, { "idempotency-key": "shared" });
    const theirs = await foreign.book(body, { "idempotency-key": "shared" });
    expect(mine.body.success).toBe(true);
    expect(theirs.body.success).toBe(true);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.data.uuid).not.toBe(mine.body.data.uuid);
    expect(await w.list()).toHaveLength(1);
    expect(await foreign.list()).toHaveLength(1);
    await closeAll(w.store);
  });

  it("answers 422 on Idempotency-Key for a key with characters outside printable ASCII or too long", async () => {
    const w = await world();
    for (const key of ["has space", "", "caf\u00e9", "k".repeat(256)]) {
      expectInvalid(await w.book(input(TUE_0900), { "idempotency-key": key }), ["Idempotency-Key"]);
    }
    expect(await w.list()).toEqual([]);
    expect((await w.book(input(TUE_0900), { "idempotency-key": "k".repeat(255) })).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("replays a confirm and a refresh under their keys", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    const refreshed = await w.refresh(uuid, { "idempotency-key": "r1" });
    expect(refreshed.body).toEqual({ success: true, data: [] });
    const first = await w.confirm(uuid, { firstname: "Ada" }, { "idempotency-key": "c1" });
    const again = await w.confirm(uuid, { firstname: "Ada" }, { "idempotency-key": "c1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    await closeAll(w.store);
  });
});

describe("the store's sweep", () => {
  it("persists expired and later cancelled holds without changing what time already decided", async () => {
    const w = await world();
    const uuid = await held(w, input(THU_0900)); // held until Mon 07:10Z
    w.clock.set("2026-11-23T07:09:00Z");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 0, cancelled: 0 });
    expect((await w.store.reservations.byUuid(w.et.id, uuid))!.status).toBe("held");

    w.clock.set("2026-11-23T07:10:00Z");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 1, cancelled: 0 });
    expect((await w.store.reservations.byUuid(w.et.id, uuid))!.status).toBe("expired");
    expect((await w.reservationOf(uuid)).status).toBe("expired");

    w.clock.set("2026-11-24T07:10:00Z");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 0, cancelled: 1 });
    expect((await w.store.reservations.byUuid(w.et.id, uuid))!.status).toBe("cancelled");
    expect((await w.reservationOf(uuid)).status).toBe("cancelled");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 0, cancelled: 0 });
    await closeAll(w.store);
  });

  it("cancels a swept expired hold once its slot has started", async () => {
    const w = await world();
    const uuid = await held(w, input(MON_1000)); // held until 07:10Z, slot at 09:00Z
    w.clock.set("2026-11-23T08:00:00Z");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 1, cancelled: 0 });
    w.clock.set("2026-11-23T09:00:00Z");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 0, cancelled: 1 });
    expect((await w.store.reservations.byUuid(w.et.id, uuid))!.status).toBe("cancelled");
    await closeAll(w.store);
  });

  it("never frees a seat twice: a seat re-booked after expiry stays taken after the sweep", async () => {
    const w = await world();
    const first = await held(w, input(TUE_0900));
    w.clock.advance(10);
    const second = await booked(w, input(TUE_0900));
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 1, cancelled: 0 });
    expect((await w.reservationOf(second)).status).toBe("confirmed");
    expect(await w.freeSeats("2026-11-24", "2026-11-24T08:00:00Z")).toBe(0);
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    expectFailure(await w.refresh(first), "reservation_finished");
    expectFailure(await w.confirm(first, {}), "reservation_finished");
    w.clock.advance(24 * 60);
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 0, cancelled: 1 });
    expect((await w.reservationOf(second)).status).toBe("confirmed");
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    await closeAll(w.store);
  });

  it("leaves alone a hold that was refreshed after it expired", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    w.clock.set("2026-11-23T07:12:00Z");
    expect((await w.refresh(uuid)).body.success).toBe(true); // held until 07:22Z
    w.clock.set("2026-11-23T07:15:00Z");
    expect(await w.store.reservations.sweep(w.clock.now())).toEqual({ expired: 0, cancelled: 0 });
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expectFailure(await w.book(input(TUE_0900)), "slot_unavailable");
    await closeAll(w.store);
  });

  it("lets a swept expired hold be refreshed and confirmed while its seat is free", async () => {
    const w = await world();
    const uuid = await held(w, input(TUE_0900));
    w.clock.advance(20);
    await w.store.reservations.sweep(w.clock.now());
    expect((await w.refresh(uuid)).body.success).toBe(true);
    expect((await w.reservationOf(uuid)).status).toBe("held");
    expect((await w.confirm(uuid, {})).body.success).toBe(true);
    expect((await w.reservationOf(uuid)).status).toBe("confirmed");
    await closeAll(w.store);
  });
});

describe("a disabled event type", () => {
  it("answers 403 event_type_disabled on every reservation route and changes nothing", async () => {
    const w = await world();
    const confirmed = await booked(w, input(THU_0900));
    const hold = await held(w, input(THU_1000));
    const before = await w.list();
    expect((await w.admin("POST", `/admin/event-types/${w.et.id}/disable`)).status).toBe(200);

    const answers = [
      await w.book(input(TUE_0900)),
      await w.prepare(input(TUE_0900)),
      await w.reschedule(confirmed, TUE_0900),
      await w.cancel(confirmed),
      await w.confirm(hold, {}),
      await w.refresh(hold),
      await w.call("POST", `/reservations/${hold}/payments`, { token: w.et.token, body: { email: "ada@example.com" } }),
      await w.confirm(MISSING_UUID, {}),
      await w.book({}),
    ];
    for (const r of answers) expectError(r, 403, "event_type_disabled");
    expect(await w.list()).toEqual(before);
    // init still answers, and shows the reservation as it was.
    const init = await w.init(hold);
    expect(init.body.data.disabled).toBe(true);
    expect(init.body.data.reservation.status).toBe("held");
    await closeAll(w.store);
  });
});
