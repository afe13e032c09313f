import type { InitData, TimeSlot } from "@booking/wire";
import * as flows from "../src/flow.ts";
import type { PaymentSetup } from "../src/payment-step.ts";
import { test, expect } from "./fixtures.ts";

// The element's steps as pure moves: no page, no server.
const init = { disabled: false, configuration: { title: "Intro call" }, customFields: [] } as unknown as InitData;
const reservation = { uuid: "r-1", email: "ada@example.org", firstname: "Ada", lastname: "", status: "confirmed", start: "2026-12-01T09:00:00+00:00", end: "2026-12-01T09:30:00+00:00", location: null };
const rescheduling = { ...init, reservation } as InitData;
const slot = { start: "2026-12-02T10:00:00+00:00", startIso8601: "2026-12-02T10:00:00Z", date: "2026-12-02" } as unknown as TimeSlot;
const other = { ...slot, start: "2026-12-03T10:00:00+00:00", startIso8601: "2026-12-03T10:00:00Z" } as TimeSlot;
const payment: PaymentSetup = { publishableKey: "pk", providerAccountId: "acct_1", clientSecret: "cs", paymentIntentId: "pi_1", amountText: "€50.00" };

test.describe("the booking flow", () => {
  test("loads into the days and times, or the note that no bookings are taken", () => {
    expect(flows.initialFlow).toEqual({ kind: "loading", init: null });
    expect(flows.loaded(init)).toEqual({ kind: "picking", init, slot: null });
    expect(flows.loaded({ ...init, disabled: true })).toMatchObject({ kind: "disabled" });
  });

  test("a new start and a failed one keep showing the event type loaded before", () => {
    const picking = flows.loaded(init);
    expect(flows.starting(picking)).toEqual({ kind: "loading", init });
    expect(flows.loadFailed(flows.starting(picking))).toEqual({ kind: "failed", init });
    expect(flows.isLoaded(picking)).toBe(true);
    expect(flows.isLoaded(flows.starting(picking))).toBe(false);
  });

  test("a chosen time leads to the details, or in reschedule mode to the move", () => {
    expect(flows.slotChosen({ kind: "picking", init, slot: null }, slot)).toEqual({ kind: "details", init, slot });
    expect(flows.slotChosen({ kind: "picking", init: rescheduling, slot: null }, slot)).toEqual({ kind: "moving", init: rescheduling, reservation, slot });
  });

  test("back goes one step and keeps the chosen time; from the times there is nowhere back", () => {
    const picking = { kind: "picking", init, slot: null } as const;
    const details = flows.slotChosen(picking, slot);
    expect(flows.back(details)).toEqual({ kind: "picking", init, slot });
    const paying = flows.paymentOpened(details as flows.FlowOf<"details">, slot, payment);
    expect(paying).toEqual({ kind: "paying", init, slot, payment });
    expect(flows.back(paying)).toEqual(details);
    const moving = flows.slotChosen({ kind: "picking", init: rescheduling, slot: null }, slot);
    expect(flows.back(moving)).toEqual({ kind: "picking", init: rescheduling, slot });
    expect(flows.back(picking)).toBe(picking);
  });

  test("a taken time or a lost hold goes back to the times with nothing chosen", () => {
    expect(flows.backToSlots({ kind: "paying", init, slot, payment })).toEqual({ kind: "picking", init, slot: null });
    expect(flows.backToSlots({ kind: "loading", init: null })).toEqual({ kind: "loading", init: null });
  });

  test("another day clears the marked time only on the times view", () => {
    expect(flows.slotCleared({ kind: "picking", init, slot })).toEqual({ kind: "picking", init, slot: null });
    const details = { kind: "details", init, slot } as const;
    expect(flows.slotCleared(details)).toBe(details);
  });

  test("a resumed payment shows the held time, not the one on the form", () => {
    expect(flows.paymentOpened({ kind: "details", init, slot: other }, slot, payment)).toEqual({ kind: "paying", init, slot, payment });
  });

  test("the server's refusals move between form and payment", () => {
    const details = { kind: "details", init, slot } as const;
    expect(flows.paymentRequired(details, null)).toEqual({ kind: "paying", init, slot, payment: null });
    expect(flows.paymentRequired({ kind: "paying", init, slot, payment }, payment)).toEqual({ kind: "paying", init, slot, payment });
    expect(flows.formRejected({ kind: "paying", init, slot, payment })).toEqual(details);
    expect(flows.formRejected(details)).toBe(details);
  });

  test("finishing carries what the confirmation shows; a cancellation marks the reservation cancelled", () => {
    const done = { kind: "booked" as const, slot, result: null, email: "ada@example.org", location: null };
    expect(flows.finished({ kind: "details", init, slot }, done)).toEqual({ kind: "done", init, done });
    const cancelled = flows.reservationCancelled({ kind: "picking", init: rescheduling, slot: null }, reservation);
    expect(cancelled).toMatchObject({ kind: "done", init: { reservation: { uuid: "r-1", status: "cancelled" } }, done: { kind: "cancelled", email: "ada@example.org" } });
    expect(rescheduling.reservation?.status).toBe("confirmed");
  });
});
