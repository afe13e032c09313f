import type { InitData, Reservation, TimeSlot } from "@booking/wire";
import type { PaymentSetup } from "./payment-step.ts";
import type { DoneState } from "./views.ts";

/**
 * Where the visitor is in booking, each step with the data it needs and nothing it may lack: a
 * form never renders without its time, a payment never without the event type. The element keeps
 * one of these; the functions below are its only moves, pure so they are tested without a page.
 * Loading and failing keep the event type shown before (`init`), as a new start begins.
 */
export type Flow =
  | { kind: "loading"; init: InitData | null }
  | { kind: "failed"; init: InitData | null }
  | { kind: "disabled"; init: InitData }
  /** Days and times; `slot` is the time last chosen, still marked when the visitor comes back. */
  | { kind: "picking"; init: InitData; slot: TimeSlot | null }
  | { kind: "details"; init: InitData; slot: TimeSlot }
  /** Reschedule mode: confirming the move of `reservation` to `slot`. */
  | { kind: "moving"; init: InitData; reservation: Reservation; slot: TimeSlot }
  /** The card form for the held `slot`; `payment` is null only when the server asked for a payment none was opened for. */
  | { kind: "paying"; init: InitData; slot: TimeSlot; payment: PaymentSetup | null }
  | { kind: "done"; init: InitData; done: DoneState };

/** A flow of one kind. */
export type FlowOf<K extends Flow["kind"]> = Extract<Flow, { kind: K }>;

/** The steps that come after the event type loaded. */
export type LoadedFlow = Exclude<Flow, { kind: "loading" | "failed" }>;

/** The steps with a chosen time. */
export type SlotFlow = FlowOf<"details" | "moving" | "paying">;

/** Before anything is loaded. */
export const initialFlow: Flow = { kind: "loading", init: null };

/** Whether the event type is loaded (the flow carries its configuration). */
export function isLoaded(flow: Flow): flow is LoadedFlow {
  return flow.kind !== "loading" && flow.kind !== "failed";
}

/** A (re)start: loading, still showing what was loaded before. */
export function starting(flow: Flow): Flow {
  return { kind: "loading", init: flow.init };
}

/** Init answered: the days and times, or the note that the event type takes no bookings. */
export function loaded(init: InitData): Flow {
  return init.disabled ? { kind: "disabled", init } : { kind: "picking", init, slot: null };
}

/** Init failed: nothing to show but the notice (and what was loaded before). */
export function loadFailed(flow: Flow): Flow {
  return { kind: "failed", init: flow.init };
}

/** A time was chosen: the visitor's details, or in reschedule mode the move to confirm. */
export function slotChosen(flow: FlowOf<"picking">, slot: TimeSlot): Flow {
  const reservation = flow.init.reservation;
  return reservation ? { kind: "moving", init: flow.init, reservation, slot } : { kind: "details", init: flow.init, slot };
}

/** Another day was picked (or the zone changed): no time is marked any more. */
export function slotCleared(flow: Flow): Flow {
  return flow.kind === "picking" && flow.slot ? { ...flow, slot: null } : flow;
}

/** The back button: one step back, keeping the chosen time. */
export function back(flow: Flow): Flow {
  switch (flow.kind) {
    case "details":
    case "moving":
      return { kind: "picking", init: flow.init, slot: flow.slot };
    case "paying":
      return { kind: "details", init: flow.init, slot: flow.slot };
    default:
      return flow;
  }
}

/** Back to the days and times with nothing chosen (the time was taken, the hold was lost). */
export function backToSlots(flow: Flow): Flow {
  return isLoaded(flow) ? { kind: "picking", init: flow.init, slot: null } : flow;
}

/** The card form for `slot` (a fresh payment, or the one money may already have moved for). */
export function paymentOpened(flow: LoadedFlow, slot: TimeSlot, payment: PaymentSetup): Flow {
  return { kind: "paying", init: flow.init, slot, payment };
}

/** The server wants the payment first: to the card form of the chosen time. */
export function paymentRequired(flow: Flow, payment: PaymentSetup | null): Flow {
  return flow.kind === "details" || flow.kind === "paying" ? { kind: "paying", init: flow.init, slot: flow.slot, payment } : flow;
}

/** The server refused fields of the form: from the card form back to the form that shows them. */
export function formRejected(flow: Flow): Flow {
  return flow.kind === "paying" ? { kind: "details", init: flow.init, slot: flow.slot } : flow;
}

/** Booked, moved or cancelled. */
export function finished(flow: LoadedFlow, done: DoneState): Flow {
  return { kind: "done", init: flow.init, done };
}

/** The reservation being rescheduled was cancelled: done, and init now knows it is cancelled. */
export function reservationCancelled(flow: LoadedFlow, reservation: Reservation): Flow {
  const init = { ...flow.init, reservation: { ...reservation, status: "cancelled" } };
  return { kind: "done", init, done: { kind: "cancelled", slot: null, result: null, email: reservation.email, location: reservation.location } };
}
