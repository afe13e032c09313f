/**
 * JSX typings of `<booking-calendar>` for React 19 apps: `import type {} from "@booking/calendar/react";`
 * once in the app. React 19 passes unknown props of custom elements as properties and `on<event>`
 * props as listeners, so `onbooking-reservation-confirmed` receives the typed event.
 */
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { BookingCalendar, BookingCalendarEventMap } from "../dist/npm/index.js";

type EventProps = {
  [K in keyof BookingCalendarEventMap as `on${K}`]?: (event: BookingCalendarEventMap[K]) => void;
};

/** Attributes and properties of the element as JSX props. */
export type BookingCalendarProps = DetailedHTMLProps<HTMLAttributes<BookingCalendar>, BookingCalendar> & EventProps & {
  token: string;
  "api-base"?: string;
  "reservation-uuid"?: string;
  timezone?: string;
  locale?: string;
  theme?: "light" | "dark" | "auto";
  email?: string;
  firstname?: string;
  lastname?: string;
  phone?: string;
};

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "booking-calendar": BookingCalendarProps;
    }
  }
}
