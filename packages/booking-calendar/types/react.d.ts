/**
 * JSX typings of `<booking-calendar>` for React 19 apps: `import type {} from "@booking/calendar/react";`
 * once in the app. React 19 passes unknown props of custom elements as properties and `on<event>`
 * props as listeners, so `onbooking-reservation-confirmed` receives the typed event.
 */
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { BookingCalendar } from "../dist/npm/index.js";
import type { BookingCalendarAttributes, BookingCalendarEventMap } from "./attributes.js";

type EventProps = {
  [K in keyof BookingCalendarEventMap as `on${K}`]?: (event: BookingCalendarEventMap[K]) => void;
};

/** Attributes and properties of the element as JSX props. */
export type BookingCalendarProps = DetailedHTMLProps<HTMLAttributes<BookingCalendar>, BookingCalendar> & EventProps & BookingCalendarAttributes;

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "booking-calendar": BookingCalendarProps;
    }
  }
}
