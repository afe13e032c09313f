import type { BookingCalendarEventMap } from "../dist/npm/index.js";

/** The element's attributes, as JSX and Vue templates write them. */
export interface BookingCalendarAttributes {
  /** The event type's publishable link token (`bcl_…`); the API token belongs on servers, not in pages. */
  token: string;
  "api-base"?: string;
  "reservation-uuid"?: string;
  /** With `reservation-uuid`: `cancel` opens the question to cancel, `reschedule` goes to the new times. */
  "manage-action"?: "cancel" | "reschedule";
  timezone?: string;
  locale?: string;
  theme?: "light" | "dark" | "auto";
  email?: string;
  firstname?: string;
  lastname?: string;
  phone?: string;
}

export type { BookingCalendarEventMap };
