import type { LocationType, CustomFieldType, OrganizerTexts, TimeRange, Translations, Weekday } from "@booking/wire";

/** A custom field as stored: every property resolved. */
export interface CustomFieldDefinition {
  uuid: string;
  label: string;
  name: string;
  type: CustomFieldType;
  required: boolean;
  order: number;
  options?: string[];
  placeholder?: string;
}

/** Opening hours of an event type in its own zone. */
export interface AvailabilityRules {
  weekly: Partial<Record<Weekday, TimeRange[]>>;
  overrides: { date: string; ranges: TimeRange[] }[];
}

/** Every setting of an event type with its defaults applied; what the store keeps. */
export interface EventTypeSettings {
  title: string;
  description: string;
  timezone: string;
  durationMinutes: number;
  slotIntervalMinutes: number;
  seats: number;
  holdMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
  rescheduleNoticeMinutes: number;
  cancelNoticeMinutes: number;
  availability: AvailabilityRules;
  /** `label`: the organizer's name for the place (absent on event types stored before labels existed). */
  locations: { type: LocationType; value: string | null; label?: string | null }[];
  customFields: CustomFieldDefinition[];
  payment: { amount: number; currency: string; providerAccountId: string } | null;
  webhookUrl: string | null;
  /**
   * Minutes before a confirmed booking's start when the visitor (and guests) get a reminder email,
   * latest reminder last; [] sends none. Absent on event types stored before reminders existed,
   * which remind as new ones do (`DEFAULT_REMINDER_MINUTES`).
   */
  reminderMinutes?: number[];
  /** Where the organizer's copy of each confirmation email goes; none when null (or absent, on event types stored before it existed). */
  organizerEmail?: string | null;
  /**
   * How visitors reach the organizer once a booking can no longer be changed online: an email
   * address, a web address or a line of text; null (or absent) shows `organizerEmail` instead.
   */
  contact?: string | null;
  /**
   * The CalDAV calendar confirmed bookings are written into: a collection of one of the event
   * type's CalDAV busy sources (whose credentials are used). Set through the busy source's
   * `write-bookings` route, never by the event type's own update; none when null or absent.
   */
  bookingsCalendar?: { sourceId: number; calendarUrl: string } | null;
  /** `preset` empty: the visitor's browser languages (the default of new event types). */
  locale: { preset: string; startDayOfWeek: "monday" | "sunday"; texts: Record<string, string> };
  /**
   * The organizer's texts in more languages, by BCP 47 tag (see `Translations` in @booking/wire);
   * absent on event types stored before they existed, and when none are given.
   */
  translations?: Translations;
  theme: { mode: "light" | "dark" | "auto"; borderRadius: string; colors: Record<string, string> };
  profileImage: string | null;
  calendarTitle: string | null;
  /** The organizer's name as visitors read it beside the avatar (`profileImage`); null shows none. */
  hostName: string | null;
  compact: boolean;
  externalBooking: boolean;
  maxGuests: number;
}

const workday = [{ start: "09:00", end: "17:00" }];

/** Reminders of a new event type: a day and an hour before the start. */
const DEFAULT_REMINDER_MINUTES: readonly number[] = [1440, 60];

/** The reminder offsets an event type uses, the default for one stored before reminders existed. */
export const reminderMinutesOf = (settings: Pick<EventTypeSettings, "reminderMinutes">): number[] => [...(settings.reminderMinutes ?? DEFAULT_REMINDER_MINUTES)];

/** Defaults of a new event type: weekdays 9-17, 30-minute meetings, one seat, a day's notice rules. */
export const DEFAULT_SETTINGS: Omit<EventTypeSettings, "title"> = {
  description: "",
  timezone: "UTC",
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  seats: 1,
  holdMinutes: 10,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minNoticeMinutes: 60,
  horizonDays: 60,
  rescheduleNoticeMinutes: 1440,
  cancelNoticeMinutes: 1440,
  availability: {
    weekly: { monday: workday, tuesday: workday, wednesday: workday, thursday: workday, friday: workday, saturday: [], sunday: [] },
    overrides: [],
  },
  locations: [{ type: "video-meet", value: null }],
  customFields: [],
  payment: null,
  webhookUrl: null,
  organizerEmail: null,
  contact: null,
  reminderMinutes: [...DEFAULT_REMINDER_MINUTES],
  // Empty: each visitor gets their browser's language (event types stored with "en" keep it).
  locale: { preset: "", startDayOfWeek: "monday", texts: {} },
  theme: { mode: "light", borderRadius: "8px", colors: {} },
  profileImage: null,
  calendarTitle: null,
  hostName: null,
  compact: false,
  externalBooking: false,
  maxGuests: 10,
};

/** Upper-case merge tag of a field name (`company_size` -> `COMPANY_SIZE`). */
export const mergeTagOf = (name: string): string => name.toUpperCase();

/**
 * The organizer's texts in `language` (the BCP 47 tag a visitor booked in): the translation for the
 * tag, else for its base language (`de-AT` → `de`); none when the event type has neither, and then
 * its own texts apply. What a translation leaves out falls back to the event type's own text.
 */
export function translationFor(settings: Pick<EventTypeSettings, "translations">, language: string | null | undefined): OrganizerTexts | undefined {
  const all = settings.translations;
  if (!all || !language) return undefined;
  const lower = language.toLowerCase();
  const keys = Object.keys(all);
  const key = keys.find((k) => k.toLowerCase() === lower) ?? keys.find((k) => k.toLowerCase() === lower.split(/[-_]/)[0]);
  return key === undefined ? undefined : all[key];
}
