/** `<booking-calendar>` for bundlers: importing this module defines the element. */
export { BookingCalendar } from "./booking-calendar.ts";
export { setDefaultApiBase } from "./booking-calendar.component.ts";
export { openPopup, closePopup, floatingButton, listenForTriggers, type PopupOptions, type FloatingButtonOptions } from "./popup.ts";
export type {
  BookingCalendarEventMap, BookingCalendarEventName, BookingCancelledDetail, BookingDateSelectedDetail, BookingErrorDetail,
  BookingPaymentStartedDetail, BookingReadyDetail, BookingRescheduledDetail, BookingReservationConfirmedDetail,
  BookingReservationHeldDetail, BookingSlotSelectedDetail,
} from "./events.ts";
export { DEFAULT_TEXTS, type TextKey } from "./texts.ts";
