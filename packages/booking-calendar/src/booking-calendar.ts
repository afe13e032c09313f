import { BookingCalendar } from "./booking-calendar.component.ts";
import type { BookingForm } from "./views/booking-form.ts";
import type { SeriesChoice } from "./views/series-choice.ts";
import { HoldTimer } from "./views/hold-timer.ts";
import { MonthGrid } from "./views/month-grid.ts";
import type { PaymentStep } from "./views/payment-step.ts";
import { SlotList } from "./views/slot-list.ts";
import { TimezonePicker } from "./views/timezone-picker.ts";

const ELEMENTS: Record<string, CustomElementConstructor> = {
  "booking-calendar": BookingCalendar,
  "bc-month-grid": MonthGrid,
  "bc-slot-list": SlotList,
  "bc-timezone-picker": TimezonePicker,
  "bc-hold-timer": HoldTimer,
};
// `<bc-payment-step>` is defined by the payment part (./parts/payment.ts), loaded when a paid event type reaches its payment;
// `<bc-booking-form>` and `<bc-series-choice>` by the form part (./parts/form.ts), loaded when the visitor picks a day.

// A page may load the script twice (an npm copy and a script tag); the first definition stays.
for (const [tag, element] of Object.entries(ELEMENTS)) {
  if (!customElements.get(tag)) customElements.define(tag, element);
}

declare global {
  interface HTMLElementTagNameMap {
    "booking-calendar": BookingCalendar;
    "bc-month-grid": MonthGrid;
    "bc-slot-list": SlotList;
    "bc-timezone-picker": TimezonePicker;
    "bc-booking-form": BookingForm;
    "bc-series-choice": SeriesChoice;
    "bc-hold-timer": HoldTimer;
    "bc-payment-step": PaymentStep;
  }
}

export { BookingCalendar };
