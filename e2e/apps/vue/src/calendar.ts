import type { BookingCalendarEventMap } from "@booking/calendar";
import type { BookingCalendarProps } from "@booking/calendar/vue";

/**
 * What the app binds to `<booking-calendar>`, typed by the element's Vue typings (TypeScript checks
 * this file; the template itself is compiled by Vite without a type check). The API origin and link token
 * come from the page's query (`?api=…&token=…`).
 */
export function calendarProps(query: URLSearchParams, locale: string): BookingCalendarProps {
  return { token: query.get("token") ?? "", "api-base": query.get("api") ?? "", locale, email: "vue@example.com" };
}

export type Confirmed = BookingCalendarEventMap["booking-reservation-confirmed"];
