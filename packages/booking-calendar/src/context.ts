import { createContext } from "@lit/context";
import type { DateTexts } from "./dates.ts";
import type { Texts } from "./i18n/texts.ts";

/** What every sub-view needs to speak the event type's language in the visitor's zone. */
export interface CalendarEnvironment {
  /** UI strings with the configuration's overrides. */
  texts: Texts;
  /** Dates, times and amounts in the configured locale. */
  dates: DateTexts;
  /** The visitor's IANA zone: every time shown is on its clocks. */
  timezone: string;
  /** The language the texts are in (a built-in one; English until its catalog is here). */
  language: string;
}

/** Provided by `<booking-calendar>` to its sub-views. */
export const environmentContext = createContext<CalendarEnvironment>(Symbol("booking-calendar-environment"));
