import type { InitData, TimeSlot } from "@booking/wire";
import { BookingApi } from "../src/api.ts";
import { emptyDraft, prefilled, reservationOf } from "../src/flow/draft.ts";
import * as flows from "../src/flow/flow.ts";
import { test, expect } from "./fixtures.ts";

// The element's steps as pure moves: no page, no server.
const init = { disabled: false, configuration: { title: "Intro call" }, customFields: [] } as unknown as InitData;
const reservation = {
  uuid: "r-1",
  email: "ada@example.org",
  firstname: "Ada",
  lastname: "",
  status: "confirmed",
  start: "2026-12-01T09:00:00+00:00",
  end: "2026-12-01T09:30:00+00:00",
  location: null,
};
const rescheduling = { ...init, reservation } as InitData;
const slot = { start: "2026-12-02T10:00:00+00:00", startIso8601: "2026-12-02T10:00:00Z", date: "2026-12-02" } as unknown as TimeSlot;
const other = { ...slot, start: "2026-12-03T10:00:00+00:00", startIso8601: "2026-12-03T10:00:00Z" } as TimeSlot;
const api = new BookingApi("https://book.example.com", "token");
const draft = { ...emptyDraft(), email: "ada@example.org" };
/** What every step of a booking under way carries. */
const booking = { init, api, draft };
const picking = { kind: "picking", ...booking, slot: null, cancelReason: null } as const;
const details = { kind: "details", ...booking, slot, problems: {} } as const;
const paying = { kind: "paying", ...booking, slot, confirming: false } as const;

test.describe("the booking flow", () => {
  test("loads into the days and times with the draft to type into, or the note that no bookings are taken", () => {
    expect(flows.initialFlow).toEqual({ kind: "loading", init: null, kept: null });
    expect(flows.loaded(init, api, draft)).toEqual(picking);
    expect(flows.loaded({ ...init, disabled: true }, api, draft)).toEqual({ kind: "disabled", init: { ...init, disabled: true } });
  });

  test("a new start and a failed one keep showing the event type loaded before", () => {
    const loaded = flows.loaded(init, api, draft);
    expect(flows.starting(loaded)).toEqual({ kind: "loading", init, kept: draft });
    expect(flows.loadFailed(flows.starting(loaded))).toEqual({ kind: "failed", init, kept: draft });
    expect(flows.isLoaded(loaded)).toBe(true);
    expect(flows.isLoaded(flows.starting(loaded))).toBe(false);
    expect(flows.isBooking(loaded)).toBe(true);
    expect(flows.isBooking(flows.starting(loaded))).toBe(false);
    expect(flows.isBooking(flows.loaded({ ...init, disabled: true }, api, draft))).toBe(false);
  });

  test("a new start keeps what was typed, through a failed start too, and booking again after a cancellation starts from the cancelled reservation's details", () => {
    const typed = { ...draft, firstname: "Ada", answers: { company: "ACME" } };
    const failed = flows.loadFailed(flows.starting({ ...picking, draft: typed }));
    expect(flows.starting(failed)).toEqual({ kind: "loading", init, kept: typed });
    const cancelled = flows.reservationCancelled({ ...picking, init: rescheduling }, reservation as never);
    expect(flows.starting(cancelled)).toEqual({
      kind: "loading",
      init: cancelled.init,
      kept: { ...emptyDraft(), email: "ada@example.org", firstname: "Ada", lastname: "" },
    });
    // A finished booking that was not a reschedule has no details to carry.
    expect(flows.starting(flows.finished(picking, { kind: "booked", slot, result: {}, email: "ada@example.org", location: null } as never))).toEqual({
      kind: "loading",
      init,
      kept: null,
    });
  });

  test("a chosen time leads to the details with no problems yet, or in reschedule mode to the move", () => {
    expect(flows.slotChosen(picking, slot)).toEqual(details);
    expect(flows.slotChosen({ ...picking, init: rescheduling }, slot)).toEqual({
      kind: "moving",
      ...booking,
      init: rescheduling,
      reservation,
      slot,
      cancelReason: null,
    });
  });

  test("back goes one step and keeps the chosen time and what was typed; from the times there is nowhere back", () => {
    const chosen = flows.slotChosen(picking, slot);
    expect(flows.back(chosen)).toEqual({ ...picking, slot });
    const toPay = flows.paymentOpened(details, slot);
    expect(toPay).toEqual(paying);
    expect(flows.back(toPay)).toEqual(details);
    expect(flows.back({ ...paying, slot: other, draft: { ...draft, firstname: "Ada" } })).toEqual({
      ...details,
      slot: other,
      draft: { ...draft, firstname: "Ada" },
    });
    const moving = flows.slotChosen({ ...picking, init: rescheduling }, slot);
    expect(flows.back(moving)).toEqual({ ...picking, init: rescheduling, slot });
    expect(flows.back(picking)).toBe(picking);
  });

  test("a taken time or a lost hold goes back to the times with nothing chosen, keeping what was typed", () => {
    expect(flows.backToSlots(paying)).toEqual(picking);
    expect(flows.backToSlots({ ...details, problems: { email: ["Required"] } })).toEqual(picking);
    // On the times themselves (a cancellation that failed), the open question to cancel stays open.
    expect(flows.backToSlots({ ...picking, slot, cancelReason: "ill" })).toEqual({ ...picking, cancelReason: "ill" });
    // A move whose time was taken comes back with the question to cancel as it was left.
    expect(flows.backToSlots(flows.slotChosen({ ...picking, init: rescheduling, cancelReason: "ill" }, slot))).toEqual({
      ...picking,
      init: rescheduling,
      cancelReason: "ill",
    });
    expect(flows.backToSlots({ kind: "loading", init: null, kept: null })).toEqual({ kind: "loading", init: null, kept: null });
  });

  test("another day clears the marked time only on the times view", () => {
    expect(flows.slotCleared({ ...picking, slot })).toEqual(picking);
    expect(flows.slotCleared(details)).toBe(details);
  });

  test("what the visitor types goes into the booking under way, and nowhere else", () => {
    const typed = { ...draft, firstname: "Ada" };
    expect(flows.drafted(details, typed)).toEqual({ ...details, draft: typed });
    expect(flows.drafted(picking, typed)).toEqual({ ...picking, draft: typed });
    const done = flows.finished(details, { kind: "booked", slot, result: null, email: "ada@example.org", location: null });
    expect(flows.drafted(done, typed)).toBe(done);
    expect(flows.drafted(flows.initialFlow, typed)).toBe(flows.initialFlow);
  });

  test("the question to cancel opens, keeps the reason typed, and closes again, on the times only", () => {
    const asked = flows.cancelAsked(picking, "");
    expect(asked).toEqual({ ...picking, cancelReason: "" });
    expect(flows.cancelAsked(asked, "My flight moved.")).toEqual({ ...picking, cancelReason: "My flight moved." });
    expect(flows.cancelAsked(asked, null)).toEqual(picking);
    expect(flows.cancelAsked(details, "")).toBe(details);
    // Leaving the times for a move and coming back finds the question as it was left: open with its reason, or closed.
    const moving = flows.slotChosen({ ...picking, init: rescheduling, cancelReason: "ill" }, slot);
    expect(flows.back(moving)).toEqual({ ...picking, init: rescheduling, slot, cancelReason: "ill" });
    expect(flows.back(flows.slotChosen({ ...picking, init: rescheduling, cancelReason: "" }, slot))).toMatchObject({ kind: "picking", cancelReason: "" });
    expect(flows.back(flows.slotChosen({ ...picking, init: rescheduling }, slot))).toMatchObject({ kind: "picking", cancelReason: null });
  });

  test("an answer applies to the step that asked, while the visitor is still there; what the server did applies to its own start only", () => {
    const typed = flows.drafted(details, { ...draft, firstname: "Ada" });
    // Typing or problems found meanwhile keep the step; back, another time, a new start leave it.
    expect(flows.stillAt(typed, details)).toBe(true);
    expect(flows.stillAt(flows.problemsFound(details, { email: ["Required"] }), details)).toBe(true);
    expect(flows.stillAt(flows.back(details), details)).toBe(false);
    expect(flows.stillAt({ ...details, slot: { ...slot } }, details)).toBe(false);
    expect(flows.stillAt({ ...details, api: new BookingApi("https://book.example.com", "token") }, details)).toBe(false);
    expect(flows.stillAt(flows.starting(details), details)).toBe(false);
    expect(flows.stillAt(flows.paymentOpened(details, slot), details)).toBe(false);
    expect(flows.sameStart(flows.back(details), details)).toBe(true);
    expect(flows.sameStart(flows.starting(details), details)).toBe(false);
    expect(flows.sameStart(flows.loaded(init, new BookingApi("https://book.example.com", "token"), draft), details)).toBe(false);
    expect(flows.sameStart(flows.finished(details, { kind: "booked", slot, result: null, email: "ada@example.org", location: null }), details)).toBe(false);
  });

  test("a resumed payment shows the held time, not the one on the form", () => {
    expect(flows.paymentOpened({ ...details, slot: other }, slot)).toEqual(paying);
  });

  test("a card payment being confirmed is the paying step's own", () => {
    expect(flows.cardConfirming(paying, true)).toEqual({ ...paying, confirming: true });
    expect(flows.cardConfirming({ ...paying, confirming: true }, false)).toEqual(paying);
    expect(flows.cardConfirming(details, true)).toBe(details);
    expect(flows.back({ ...paying, confirming: true })).toEqual(details);
  });

  test("the server's refusals move between form and payment", () => {
    expect(flows.paymentRequired(details)).toEqual(paying);
    expect(flows.paymentRequired(paying)).toEqual(paying);
    expect(flows.paymentRequired(picking)).toBe(picking);
    const problems = { email: ["Enter a valid email."] };
    expect(flows.problemsFound(paying, problems)).toEqual({ ...details, problems });
    expect(flows.problemsFound(details, problems)).toEqual({ ...details, problems });
    expect(flows.problemsFound({ ...details, problems }, {})).toEqual(details);
    expect(flows.problemsFound(picking, problems)).toBe(picking);
  });

  test("finishing carries what the confirmation shows; a cancellation marks the reservation cancelled", () => {
    const done = { kind: "booked" as const, slot, result: null, email: "ada@example.org", location: null };
    expect(flows.finished(details, done)).toEqual({ kind: "done", init, done });
    const cancelled = flows.reservationCancelled({ ...picking, init: rescheduling }, reservation);
    expect(cancelled).toMatchObject({
      kind: "done",
      init: { reservation: { uuid: "r-1", status: "cancelled" } },
      done: { kind: "cancelled", email: "ada@example.org" },
    });
    expect(rescheduling.reservation?.status).toBe("confirmed");
  });
});

test.describe("prefilling the draft", () => {
  const attributes = { email: "grace@example.org", firstname: "Grace", lastname: "Hopper", phone: "" };

  test("fills the empty fields from the attributes, and leaves what the visitor typed", () => {
    expect(prefilled(emptyDraft(), attributes)).toEqual({ ...emptyDraft(), email: "grace@example.org", firstname: "Grace", lastname: "Hopper" });
    const typed = { ...emptyDraft(), email: "ada@example.org" };
    expect(prefilled(typed, attributes).email).toBe("ada@example.org");
  });

  test("only the attributes named, and the same draft when nothing is filled", () => {
    expect(prefilled(emptyDraft(), attributes, ["firstname"])).toEqual({ ...emptyDraft(), firstname: "Grace" });
    const full = prefilled(emptyDraft(), attributes);
    expect(prefilled(full, attributes)).toBe(full);
    expect(prefilled(draft, attributes, [])).toBe(draft);
  });
});

test.describe("the booking as the API takes it", () => {
  test("sends what was typed, trimmed, in the visitor's zone, language and clock, and leaves out what is blank", () => {
    const fields = [
      { uuid: "f-1", name: "topic", label: "Topic", type: "text", required: false, order: 0 },
      { uuid: "f-2", name: "size", label: "Size", type: "number", required: false, order: 1 },
    ];
    const withFields = {
      ...init,
      configuration: { ...init.configuration, locations: [{ type: "phone", value: null }] },
      customFields: fields,
    } as unknown as InitData;
    const typed = {
      ...emptyDraft(),
      email: " ada@example.org ",
      firstname: " Ada ",
      phone: "+44 20 7946 0958",
      guests: [" bob@example.org ", " "],
      answers: { "f-1": "Billing", "f-2": "" },
    };
    expect(reservationOf(typed, withFields, slot, "Europe/Prague", { locale: "de", hour12: false })).toEqual({
      start: slot.start,
      end: slot.end,
      email: "ada@example.org",
      timezone: "Europe/Prague",
      locale: "de-u-hc-h23",
      firstname: "Ada",
      phone: "+44 20 7946 0958",
      location: { type: "phone", value: "+44 20 7946 0958" },
      guests: ["bob@example.org"],
      customFields: [{ uuid: "f-1", value: "Billing" }],
    });
    const bare = reservationOf(
      { ...emptyDraft(), email: "ada@example.org" },
      { ...init, configuration: { ...init.configuration, locations: [] } } as unknown as InitData,
      slot,
      "UTC",
      { locale: "en-US", hour12: true },
    );
    expect(bare).toEqual({ start: slot.start, end: slot.end, email: "ada@example.org", timezone: "UTC", locale: "en-US-u-hc-h12" });
  });
});
