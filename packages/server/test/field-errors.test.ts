import { describe, expect, it } from "vitest";
import { FIELD_ERROR_CODES, LIMITS } from "@booking/wire";
import { EMAIL_SAMPLES } from "@booking/wire/test/email-samples";
import { closeAll, setup, type Answer } from "./utils.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z; Tuesday 09:00 in Prague is a free
// 30-minute slot of the default event type.
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const COMPANY = "00000000-0000-4000-8000-00000000c0de";
const PLAN = "00000000-0000-4000-8000-0000000091a7";
const SIZE = "00000000-0000-4000-8000-00000000517e";

/** What the event type needs besides the slot. */
const COMPLETE = { email: "ada@example.com", location: { type: "phone", value: "+420 777 123 456" }, customFields: [{ uuid: COMPANY, value: "Acme" }] };

async function world() {
  const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
  const et = await env.eventType({
    locations: [{ type: "phone", value: null }],
    customFields: [
      { uuid: COMPANY, label: "Company", name: "company", type: "text", required: true },
      { uuid: PLAN, label: "Plan", name: "plan", type: "select", options: ["basic", "pro"] },
      { uuid: SIZE, label: "Team size", name: "size", type: "number" },
    ],
  });
  const book = (body: unknown) => env.call("POST", "/reservations", { token: et.token, body });
  return { ...env, book };
}

/** The 422's field errors as "field code" lines (with the limit where one is given), sorted. */
function codes(r: Answer): string[] {
  expect(r.status).toBe(422);
  expect(r.body.code).toBe("validation_failed");
  return r.body.fieldErrors.map((e: { field: string; code: string; max?: number }) => `${e.field} ${e.code}${e.max === undefined ? "" : ` ${e.max}`}`).sort();
}

/** Every field error repeats a message of `errors` under its field, and every message has one. */
function expectSameMessages(r: Answer): void {
  const fromCodes: Record<string, string[]> = {};
  for (const e of r.body.fieldErrors) {
    expect(FIELD_ERROR_CODES).toContain(e.code);
    (fromCodes[e.field] ??= []).push(e.message);
  }
  expect(fromCodes).toEqual(r.body.errors);
}

describe("422 field errors carry stable codes beside the messages", () => {
  it("codes each problem the reservation rules find, keeping `errors` as it was", async () => {
    const w = await world();
    const r = await w.book({
      ...TUE_0900,
      email: "ada@example.com",
      phone: "call me",
      guests: ["bob@example.com", "ada@example.com"],
      customFields: [
        { uuid: PLAN, value: "gold" },
        { uuid: SIZE, value: "many" },
      ],
    });
    expect(codes(r)).toEqual(
      [
        `customFields.${COMPANY} required`,
        `customFields.${PLAN} invalid_choice`,
        `customFields.${SIZE} invalid_number`,
        "guests.1 duplicate",
        "phone invalid_phone",
      ].sort(),
    );
    expect(r.body.errors[`customFields.${COMPANY}`]).toEqual(["Company is required."]);
    expectSameMessages(r);
    await closeAll(w.store);
  });

  it("codes a text answer over its limit as too_long with the limit", async () => {
    const w = await world();
    const r = await w.book({ ...TUE_0900, ...COMPLETE, customFields: [{ uuid: COMPANY, value: "x".repeat(LIMITS.textMaxLength + 1) }] });
    expect(codes(r)).toEqual([`customFields.${COMPANY} too_long ${LIMITS.textMaxLength}`]);
    expectSameMessages(r);
    await closeAll(w.store);
  });

  it("codes what the request schema refuses: a missing email, a name over its limit, too many guests", async () => {
    const w = await world();
    const missing = await w.book({ ...TUE_0900 });
    expect(codes(missing)).toEqual(["email required"]);
    expectSameMessages(missing);

    const long = await w.book({ ...TUE_0900, email: "ada@example.com", firstname: "A".repeat(LIMITS.textMaxLength + 1) });
    expect(codes(long)).toEqual([`firstname too_long ${LIMITS.textMaxLength}`]);

    const guests = Array.from({ length: LIMITS.maxGuests + 1 }, (_, i) => `guest${i}@example.com`);
    const many = await w.book({ ...TUE_0900, email: "ada@example.com", guests });
    expect(codes(many)).toEqual([`guests too_many ${LIMITS.maxGuests}`]);

    const badGuest = await w.book({ ...TUE_0900, email: "ada@example.com", guests: ["not-an-email"] });
    expect(codes(badGuest)).toEqual(["guests.0 invalid_email"]);
    await closeAll(w.store);
  });

  it("takes every address the form takes and refuses every one it refuses, with invalid_email", async () => {
    const w = await world();
    // Everything but the company answer is right, so an address that passes both the request
    // schema and the reservation rules leaves only that answer to complain about.
    const { customFields: _, ...withoutAnswer } = COMPLETE;
    for (const email of EMAIL_SAMPLES.accepted) {
      expect(codes(await w.book({ ...TUE_0900, ...withoutAnswer, email })), email).toEqual([`customFields.${COMPANY} required`]);
    }
    const guests = await w.book({ ...TUE_0900, ...withoutAnswer, guests: EMAIL_SAMPLES.accepted.filter((g) => g !== COMPLETE.email) });
    expect(codes(guests)).toEqual([`customFields.${COMPANY} required`]);
    for (const email of EMAIL_SAMPLES.refused) {
      const r = await w.book({ ...TUE_0900, ...COMPLETE, email });
      expect(codes(r), email).toEqual(["email invalid_email"]);
      expectSameMessages(r);
      expect(codes(await w.book({ ...TUE_0900, ...COMPLETE, guests: [email] })), email).toEqual(["guests.0 invalid_email"]);
    }
    const booked = await w.book({ ...TUE_0900, ...COMPLETE, email: "jürgen@example.de", guests: ["ada@exa_mple.org"] });
    expect(booked.status).toBe(200);
    expect(booked.body.success).toBe(true);
    await closeAll(w.store);
  });

  it("codes a slot sent wrong: a date-time without an offset, a wrong length, an unknown zone", async () => {
    const w = await world();
    const r = await w.book({ start: "tomorrow at nine", end: "2026-11-24T09:30:00+01:00", email: "ada@example.com" });
    expect(codes(r)).toEqual(["start invalid_datetime"]);
    const zone = await w.book({ ...TUE_0900, timezone: "Mars/Olympus", ...COMPLETE });
    expect(codes(zone)).toEqual(["timezone invalid_timezone"]);
    const wrongLength = await w.book({ start: TUE_0900.start, end: "2026-11-24T10:00:00+01:00", ...COMPLETE });
    expect(codes(wrongLength)).toEqual(["end wrong_duration"]);
    await closeAll(w.store);
  });

  it("codes a number below or above its range with the bound it broke", async () => {
    const w = await world();
    const r = await w.admin("PATCH", "/admin/event-types/1", { durationMinutes: 2, seats: 5000 });
    expect(r.status).toBe(422);
    const found = r.body.fieldErrors.map(({ message: _, ...rest }: { message: string }) => rest);
    expect(found).toEqual(
      expect.arrayContaining([
        { field: "durationMinutes", code: "too_small", min: 5 },
        { field: "seats", code: "too_large", max: 1000 },
      ]),
    );
    expect(found).toHaveLength(2);
    expectSameMessages(r);
    await closeAll(w.store);
  });

  it("gives messages of routes without codes the code `invalid`", async () => {
    const w = await world();
    const r = await w.admin("GET", "/admin/event-types/1/reservations?from=2026-13-01&until=2026-11-30");
    expect(r.status).toBe(422);
    expect(r.body.fieldErrors.length).toBeGreaterThan(0);
    for (const e of r.body.fieldErrors) expect(e.code).toBe("invalid");
    expectSameMessages(r);
    await closeAll(w.store);
  });
});
