import { fill, pluralForm } from "@booking/wire/i18n";
import type { MANAGE_TEXTS } from "./manage-texts.ts";
import type { SERIES_TEXTS } from "./series-texts.ts";

/**
 * Every string the element shows, by key, in English. The built-in translations (i18n/locales/) have
 * every key; an event type's `locale.texts` overrides any of them. `{name}` placeholders are filled
 * by `fill`; a text that depends on a number has plural forms in the catalogs (src/i18n/catalog.ts,
 * `PLURAL_KEYS`). Dates, times, weekdays and amounts are never here: they come from `Intl` in the
 * configured locale.
 */
export const DEFAULT_TEXTS = {
  loading: "Loading…",
  retry: "Try again",
  retryIn: "Trying again in {seconds} s…",
  networkError: "The booking service could not be reached. Check your connection and try again.",
  rateLimited: "Too many requests right now.",
  serverError: "Something went wrong on our side. Please try again.",
  unexpectedError: "The booking service sent an unexpected answer. Please try again.",
  refusedError: "This calendar cannot be loaded: {message}",
  notBookable: "This event type is not taking bookings at the moment.",
  nothingFree: "There are no free times in the coming weeks. Please check back later.",
  chooseDate: "Choose a day",
  chooseTime: "Choose a time",
  previousMonth: "Previous month",
  nextMonth: "Next month",
  monthShown: "{month} shown",
  noTimesThisMonth: "No free times this month.",
  noTimesThisDay: "No free times on this day.",
  freeTimes: "{count} free times",
  noFreeTimes: "no free times",
  selectedDay: "selected",
  today: "today",
  seatsLeft: "{count} seats left",
  oneSeatLeft: "1 seat left",
  timezone: "Time zone",
  searchTimezones: "Search time zones",
  zoneOption: "{city} · {offset} · {time}",
  otherZones: "Other",
  timeFormat: "Time format",
  hours12: "12h",
  hours24: "24h",
  nextAvailable: "Next available: {date}",
  noTimesAhead: "No free times after this month.",
  host: "Host",
  price: "Price",
  amountPaid: "Paid: {amount}",
  duration: "{minutes} min",
  back: "Back",
  yourDetails: "Your details",
  email: "Email",
  firstname: "First name",
  lastname: "Last name",
  phone: "Phone",
  guests: "Guests",
  guestEmail: "Guest email {number}",
  addGuest: "Add a guest",
  removeGuest: "Remove guest {number}",
  location: "Location",
  locationValuePhone: "Your phone number",
  locationValueAddress: "Address",
  locationValueLink: "Meeting link",
  "location.video-meet": "Video call",
  "location.phone": "Phone call",
  "location.address": "In person",
  "location.link": "Online meeting",
  required: "required",
  choose: "Choose…",
  yes: "Yes",
  book: "Book",
  continueToPayment: "Continue to payment",
  pay: "Pay {amount}",
  payment: "Payment",
  testPayment: "Test mode: no money moves.",
  paymentFailed: "The payment did not go through: {message}",
  paymentRequired: "The payment has not arrived yet. Please complete it.",
  paymentUnavailable: "The card form could not be loaded, so the time is no longer held for you. Check your connection and try again.",
  openBooking: "Book a time",
  closeBooking: "Close",
  holdRemaining: "This time is held for you for {time}.",
  holdLost: "Your hold on this time ran out and the time was taken. Please choose another.",
  slotTaken: "That time was just taken. Here are the free times now.",
  slotBusy: "Someone else is booking that time right now. Please choose another or try again.",
  fixErrors: "Please correct the marked fields.",
  errorRequired: "This field is required.",
  errorEmail: "Enter a valid email address.",
  errorPhone: "Enter a phone number: digits, spaces, + ( ) . -",
  errorTooLong: "At most {max} characters.",
  errorNumber: "Enter a number.",
  errorDate: "Enter a date.",
  errorChoice: "Choose one of the options.",
  errorTooMany: "At most {max} guests.",
  errorDuplicate: "Each guest once, and not the booker.",
  invalidRequest: "That time could not be booked as sent. Please choose it again.",
  "refused.unauthenticated": "This calendar cannot be loaded: The API token is not valid.",
  "refused.not_found": "This booking could not be found.",
  confirmedTitle: "You are booked",
  confirmedText: "A confirmation goes to {email}.",
  addToCalendar: "Add to calendar",
  addToGoogle: "Google Calendar",
  addToOutlook: "Outlook",
  downloadIcs: "Download .ics",
  joinMeeting: "Join the meeting",
  manageBooking: "Reschedule or cancel",
  when: "When",
  awayUntil: "{host} is away until {date}.",
  awayBetween: "{host} is away from {from} until {date}.",
  awayColleague: "Meanwhile, book with {colleague}.",
} as const;

/** A key of the element's UI strings: those every visitor may see, and those of the manage screens (i18n/manage-texts.ts). */
export type TextKey = keyof typeof DEFAULT_TEXTS | keyof typeof MANAGE_TEXTS | keyof typeof SERIES_TEXTS;

/** Looks up UI strings with the event type's overrides first. */
export type Texts = (key: TextKey, values?: Record<string, string | number>) => string;

/** One entry of a catalog: a text, or a text per plural category (`one`, `few`, `many`, `other`). */
export type CatalogEntry = string | Partial<Record<Intl.LDMLPluralRule, string>>;

/** The texts of one language as loaded (a built-in catalog, or JSON built from one). */
export type LoadedCatalog = Partial<Record<TextKey, CatalogEntry>>;

/** The value whose number chooses the plural form of a text, by key. */
export const PLURAL_KEYS = { freeTimes: "count", seatsLeft: "count", retryIn: "seconds", errorTooLong: "max", errorTooMany: "max" } as const satisfies Partial<
  Record<TextKey, string>
>;

/** A text whose words change with a number. */
export type PluralKey = keyof typeof PLURAL_KEYS;

/**
 * The text lookup for one set of overrides (the configuration's `locale.texts`), which win, then
 * the catalog of `language`, then English. A plural text takes the form `Intl.PluralRules` picks.
 */
export function textsWith(overrides: Record<string, string> = {}, catalog: LoadedCatalog = {}, language = "en"): Texts {
  return (key, values = {}) => {
    const override = overrides[key];
    if (typeof override === "string") return fill(override, values);
    const entry = catalog[key];
    if (typeof entry === "string") return fill(entry, values);
    if (entry && key in PLURAL_KEYS) {
      const count = Number(values[PLURAL_KEYS[key as PluralKey]]);
      const form = Number.isFinite(count) ? pluralForm(entry, language, count) : entry.other;
      if (form !== undefined) return fill(form, values);
    }
    // The manage screens' English joins DEFAULT_TEXTS when their part loads (only they ask for it).
    return fill((DEFAULT_TEXTS as Record<string, string>)[key] ?? key, values);
  };
}

/** How a failure of the API reads to the visitor, by the kind `ApiFailure` sorted it into. */
export function failureText(texts: Texts, failure: { kind: string; code: string; message: string }): string {
  switch (failure.kind) {
    case "network":
      return texts("networkError");
    case "rate_limited":
      return texts("rateLimited");
    case "server":
      return texts("serverError");
    case "refused": {
      const key = `refused.${failure.code}`;
      return key in DEFAULT_TEXTS
        ? texts(key as TextKey)
        : failure.code === "event_type_disabled"
          ? texts("notBookable")
          : texts("refusedError", { message: failure.message });
    }
    default:
      return texts("unexpectedError");
  }
}

/** A locale `Intl` supports, else English. */
export function safeLocale(tag: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag])[0] ?? "en";
  } catch {
    return "en";
  }
}
