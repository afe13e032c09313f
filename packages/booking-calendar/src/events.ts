import type { EventTypeConfiguration, ReservationResult, TimeSlot } from "@booking/wire";

/** Detail of `booking-ready`: the event type is loaded and the calendar is shown. */
export interface BookingReadyDetail {
  configuration: EventTypeConfiguration;
  disabled: boolean;
  /** True when the element was opened for an existing reservation (reschedule mode). */
  rescheduling: boolean;
}

/** Detail of `booking-date-selected`: a day of the month grid, in the visitor's zone. */
export interface BookingDateSelectedDetail {
  date: string;
  timezone: string;
}

/**
 * Detail of `booking-unavailable-selected`: a day without free times (greyed out) was picked, in the
 * visitor's zone; nothing else happens in the calendar. A page may explain why (the organizer's
 * console asks the availability check).
 */
export interface BookingUnavailableSelectedDetail {
  date: string;
  timezone: string;
}

/** Detail of `booking-slot-selected` (cancelable: `preventDefault()` keeps the visitor on the slot list). */
export interface BookingSlotSelectedDetail {
  slot: TimeSlot;
  timezone: string;
}

/** Detail of `booking-reservation-held`: a seat is held until `heldUntil` while the visitor pays. */
export interface BookingReservationHeldDetail {
  uuid: string;
  start: string;
  end: string;
  heldUntil: string;
}

/** Detail of `booking-payment-started`: the card form is about to be shown. */
export interface BookingPaymentStartedDetail {
  uuid: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
}

/** Detail of `booking-reservation-confirmed`: the booking exists. */
export interface BookingReservationConfirmedDetail {
  uuid: string;
  start: string;
  end: string;
  result: ReservationResult;
}

/** Detail of `booking-rescheduled`: the reservation moved to a new time. */
export interface BookingRescheduledDetail {
  uuid: string;
  start: string;
  end: string;
  previousStart: string;
}

/** Detail of `booking-cancelled`. */
export interface BookingCancelledDetail {
  uuid: string;
}

/** Detail of `booking-error`: anything the visitor was told went wrong. */
export interface BookingErrorDetail {
  /** The API's error code, or `network_error` / `unexpected_response` for failures before one. */
  code: string;
  message: string;
  status: number | null;
}

/** Every event the element dispatches, by name; all bubble and cross shadow roots. */
export interface BookingCalendarEventMap {
  "booking-ready": CustomEvent<BookingReadyDetail>;
  "booking-date-selected": CustomEvent<BookingDateSelectedDetail>;
  "booking-unavailable-selected": CustomEvent<BookingUnavailableSelectedDetail>;
  "booking-slot-selected": CustomEvent<BookingSlotSelectedDetail>;
  "booking-reservation-held": CustomEvent<BookingReservationHeldDetail>;
  "booking-payment-started": CustomEvent<BookingPaymentStartedDetail>;
  "booking-reservation-confirmed": CustomEvent<BookingReservationConfirmedDetail>;
  "booking-rescheduled": CustomEvent<BookingRescheduledDetail>;
  "booking-cancelled": CustomEvent<BookingCancelledDetail>;
  "booking-error": CustomEvent<BookingErrorDetail>;
}

/** Names of the element's events. */
export type BookingCalendarEventName = keyof BookingCalendarEventMap;

type DetailOf<K extends BookingCalendarEventName> = BookingCalendarEventMap[K] extends CustomEvent<infer D> ? D : never;

/**
 * Dispatches one of the element's events from `target`: bubbling and composed, so a listener on the
 * host page hears it through the shadow root. Returns false when a listener cancelled it.
 */
export function emit<K extends BookingCalendarEventName>(target: EventTarget, name: K, detail: DetailOf<K>, cancelable = false): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
}

declare global {
  interface GlobalEventHandlersEventMap extends BookingCalendarEventMap {}
}
