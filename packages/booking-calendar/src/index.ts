/** `<booking-calendar>` for bundlers: importing this module defines the element. */
import { setCatalogSource } from "./i18n/load.ts";
import { importCatalog } from "./i18n/locales/index.ts";
import { setManagePart, setPartLoader, setZonesPart } from "./parts/load.ts";

// Languages other than English are separate chunks, loaded when the element first needs one.
setCatalogSource(importCatalog);
// The payment step too (the popup is this module's own export): a chunk, imported when a paid event type
// reaches its payment; the details form, when a day is picked; the zone picker's list, when the visitor
// reaches for it; the manage screens, when a manage link opens an existing booking.
setPartLoader(async (name) => {
  if (name === "payment") await import("./parts/payment.ts");
  if (name === "form") await import("./parts/form.ts");
  if (name === "zones") setZonesPart(await import("./zones/zone-index.ts"));
  if (name === "manage") setManagePart((await import("./parts/manage.ts")).default);
});

export { BookingCalendar } from "./booking-calendar.ts";
export { setDefaultApiBase } from "./booking-calendar.component.ts";
export { openPopup, closePopup, floatingButton, listenForTriggers, type PopupOptions, type FloatingButtonOptions } from "./popup/popup.ts";
export type {
  BookingCalendarEventMap,
  BookingCalendarEventName,
  BookingCancelledDetail,
  BookingDateSelectedDetail,
  BookingErrorDetail,
  BookingPaymentStartedDetail,
  BookingReadyDetail,
  BookingRescheduledDetail,
  BookingReservationConfirmedDetail,
  BookingReservationHeldDetail,
  BookingSlotSelectedDetail,
  BookingUnavailableSelectedDetail,
} from "./events.ts";
export { DEFAULT_TEXTS, type TextKey } from "./i18n/texts.ts";
export { LANGUAGES, PLURAL_CATEGORIES, type Catalog, type Language } from "./i18n/catalog.ts";
