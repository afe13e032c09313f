import type { InitData, Location, Reservation, ReservationResult, TimeSlot } from "@booking/wire";
import type { ApiFailure, BookingApi } from "../api.ts";
import { emptyDraft, type BookingDraft } from "./draft.ts";

/** Messages by field key (`email`, `guests.0`, `customFields.<uuid>`, ...), as the form shows them. */
export type Problems = Record<string, string[]>;

/** How a booking ended, as the last step shows it: a new booking, a moved one, or a cancelled one. */
export type DoneState = { email: string; location: Location | null } & (
  | { kind: "booked" | "rescheduled"; slot: TimeSlot; result: (ReservationResult & { manageUrl?: string | null }) | null }
  | { kind: "cancelled"; slot: null; result: null }
);

/**
 * What every step of a booking under way carries: the event type, the API it was loaded through
 * (every call of the step goes through it), and what the visitor typed, kept from step to step
 * (back to the times and on to another time too).
 */
export interface Booking {
  init: InitData;
  api: BookingApi;
  draft: BookingDraft;
}

/**
 * Where the visitor is in booking, each step with the data it needs and nothing it may lack: a
 * form never renders without its time, a payment never without the event type. The element keeps
 * one of these; the functions below are its only moves, pure so they are tested without a page.
 * Loading and failing keep the event type shown before (`init`), as a new start begins.
 */
export type Flow =
  /** `kept`: what the visitor typed before this start, or the details of the reservation just left, for the new form. */
  | { kind: "loading"; init: InitData | null; kept: BookingDraft | null }
  | { kind: "failed"; init: InitData | null; kept: BookingDraft | null }
  | { kind: "disabled"; init: InitData }
  /**
   * Days and times; `slot` is the time last chosen, still marked when the visitor comes back. In
   * reschedule mode, `cancelReason` is what was typed while the question to cancel is open (null: not asked).
   */
  | ({ kind: "picking"; slot: TimeSlot | null; cancelReason: string | null } & Booking)
  /** The form for `slot`, with the problems found in what was typed. */
  | ({ kind: "details"; slot: TimeSlot; problems: Problems } & Booking)
  /**
   * Reschedule mode: confirming the move of `reservation` to `slot`; `cancelReason` is the question to
   * cancel as it was left on the times, open again with its typed reason when the visitor comes back.
   */
  | ({ kind: "moving"; reservation: Reservation; slot: TimeSlot; cancelReason: string | null } & Booking)
  /**
   * The card form for the held `slot` (its payment is kept with the hold, see controllers/hold-controller.ts);
   * `confirming` while a card payment is being confirmed, when there is no way back.
   */
  | ({ kind: "paying"; slot: TimeSlot; confirming: boolean } & Booking)
  | { kind: "done"; init: InitData; done: DoneState };

/** A flow of one kind. */
export type FlowOf<K extends Flow["kind"]> = Extract<Flow, { kind: K }>;

/** The steps that come after the event type loaded. */
export type LoadedFlow = Exclude<Flow, { kind: "loading" | "failed" }>;

/** The steps of a booking under way. */
export type BookingFlow = FlowOf<"picking" | "details" | "moving" | "paying">;

/** The steps with a chosen time. */
export type SlotFlow = FlowOf<"details" | "moving" | "paying">;

/** Before anything is loaded. */
export const initialFlow: Flow = { kind: "loading", init: null, kept: null };

/** Whether the event type is loaded (the flow carries its configuration). */
export function isLoaded(flow: Flow): flow is LoadedFlow {
  return flow.kind !== "loading" && flow.kind !== "failed";
}

/** Whether a booking is under way (the flow carries the API and the draft). */
export function isBooking(flow: Flow): flow is BookingFlow {
  return "draft" in flow;
}

/** What a booking carries from step to step, without what belonged to the step left. */
const booking = ({ init, api, draft }: Booking): Booking => ({ init, api, draft });

/** The days and times; coming back from a move, the question to cancel is as the visitor left it. */
const picking = (flow: Booking & { cancelReason?: string | null }, slot: TimeSlot | null): Flow => ({
  kind: "picking",
  ...booking(flow),
  slot,
  cancelReason: flow.cancelReason ?? null,
});

const details = (flow: Booking, slot: TimeSlot, problems: Problems = {}): Flow => ({ kind: "details", ...booking(flow), slot, problems });

/**
 * A (re)start: loading, still showing what was loaded before, and keeping what the visitor typed
 * (or, booking again after a cancellation, the cancelled reservation's contact details) for the form.
 */
export function starting(flow: Flow): Flow {
  return { kind: "loading", init: flow.init, kept: keptDraft(flow) };
}

function keptDraft(flow: Flow): BookingDraft | null {
  if (isBooking(flow)) return flow.draft;
  if (flow.kind === "loading" || flow.kind === "failed") return flow.kept;
  const left = flow.init.reservation;
  if (!left) return null;
  return { ...emptyDraft(), email: left.email, firstname: left.firstname, lastname: left.lastname };
}

/** Init answered through `api`: the days and times with `draft` to type into, or the note that the event type takes no bookings. */
export function loaded(init: InitData, api: BookingApi, draft: BookingDraft): Flow {
  return init.disabled ? { kind: "disabled", init } : picking({ init, api, draft }, null);
}

/** Init failed: nothing to show but the notice (and what was loaded before). */
export function loadFailed(flow: Flow): Flow {
  return { kind: "failed", init: flow.init, kept: keptDraft(flow) };
}

/** A time was chosen: the visitor's details, or in reschedule mode the move to confirm. */
export function slotChosen(flow: FlowOf<"picking">, slot: TimeSlot): Flow {
  const reservation = flow.init.reservation;
  return reservation ? { kind: "moving", ...booking(flow), reservation, slot, cancelReason: flow.cancelReason } : details(flow, slot);
}

/**
 * Whether `now` is still the step `then` (same kind, start and time): the answer to a request `then`
 * sent is applied only there, never to a step the visitor went on to meanwhile or to a new start.
 */
export function stillAt<F extends BookingFlow>(now: Flow, then: F): now is F {
  return now.kind === then.kind && (now as F).api === then.api && (now as F).slot === then.slot;
}

/**
 * Whether `now` is a booking of the start `then` belongs to (the API it was loaded through): what the
 * server did for `then` (booked, moved, cancelled) is shown there, never over a new start.
 */
export function sameStart(now: Flow, then: Booking): boolean {
  return isBooking(now) && now.api === then.api;
}

/**
 * Whether a failed request means the time is gone for this visitor (taken, being taken, or their hold
 * on it ended): the message to show on the way back to the times, else null.
 */
export function timeLostBy({ code, kind }: Pick<ApiFailure, "code" | "kind">): "holdLost" | "slotBusy" | "slotTaken" | null {
  if (code === "reservation_finished") return "holdLost";
  if (kind !== "business") return null;
  // A booking limit reached since the times were shown takes the time away as a booking would.
  return code === "slot_locked" ? "slotBusy" : code === "slot_unavailable" || code === "limit_reached" ? "slotTaken" : null;
}

/** Another day was picked (or the zone changed): no time is marked any more. */
export function slotCleared(flow: Flow): Flow {
  return flow.kind === "picking" && flow.slot ? { ...flow, slot: null } : flow;
}

/** The visitor typed, or a prefill attribute was set: the draft of the booking under way. */
export function drafted(flow: Flow, draft: BookingDraft): Flow {
  return isBooking(flow) ? { ...flow, draft } : flow;
}

/** The back button: one step back, keeping the chosen time (and, from a move, the question to cancel as it was left). */
export function back(flow: Flow): Flow {
  switch (flow.kind) {
    case "details":
    case "moving":
      return picking(flow, flow.slot);
    case "paying":
      return details(flow, flow.slot);
    default:
      return flow;
  }
}

/** Back to the days and times with nothing chosen (the time was taken, the hold was lost). */
export function backToSlots(flow: Flow): Flow {
  if (flow.kind === "picking") return { ...flow, slot: null };
  return isBooking(flow) ? picking(flow, null) : flow;
}

/** Reschedule mode: the question to cancel opened with `reason` typed so far, or closed (null). */
export function cancelAsked(flow: Flow, reason: string | null): Flow {
  return flow.kind === "picking" ? { ...flow, cancelReason: reason } : flow;
}

/** Problems found in what was typed (by the element's checks or the server's): the form, showing them. */
export function problemsFound(flow: Flow, problems: Problems): Flow {
  return flow.kind === "details" || flow.kind === "paying" ? details(flow, flow.slot, problems) : flow;
}

/** The card form for `slot` (a fresh payment, or the one money may already have moved for). */
export function paymentOpened(flow: FlowOf<"details">, slot: TimeSlot): Flow {
  return { kind: "paying", ...booking(flow), slot, confirming: false };
}

/** The server wants the payment first: to the card form of the chosen time. */
export function paymentRequired(flow: Flow): Flow {
  return flow.kind === "details" ? paymentOpened(flow, flow.slot) : flow;
}

/** A card payment is being confirmed (true), or that is over (false). */
export function cardConfirming(flow: Flow, confirming: boolean): Flow {
  return flow.kind === "paying" ? { ...flow, confirming } : flow;
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
