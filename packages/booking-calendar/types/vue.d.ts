/**
 * Template typings of `<booking-calendar>` for Vue 3 apps: `import type {} from "@booking/calendar/vue";`
 * once in the app (and `compilerOptions.isCustomElement: (tag) => tag === "booking-calendar"` in the Vue
 * plugin). Events are listened to as `@booking-reservation-confirmed="..."`.
 */
import type { DefineComponent } from "vue";
import type { BookingCalendarAttributes, BookingCalendarEventMap } from "./attributes.js";

type EventProps = {
  [K in keyof BookingCalendarEventMap as `on${Capitalize<K>}`]?: (event: BookingCalendarEventMap[K]) => void;
};

/** Attributes of the element as Vue props. */
export type BookingCalendarProps = EventProps & BookingCalendarAttributes;

declare module "vue" {
  interface GlobalComponents {
    "booking-calendar": DefineComponent<BookingCalendarProps>;
  }
}
