import type { EventTypeSettings, OrganizerTexts } from "@booking/wire";

// The stored settings are the wire's shapes: a setting renamed there is renamed here.
export type { AvailabilityRules, CustomFieldDefinition, EventTypeSettings } from "@booking/wire";

const workday = [{ start: "09:00", end: "17:00" }];

/** Reminders of a new event type: a day and an hour before the start. */
const DEFAULT_REMINDER_MINUTES: readonly number[] = [1440, 60];

/** The reminder offsets an event type uses, the default for one stored before reminders existed. */
export const reminderMinutesOf = (settings: Pick<EventTypeSettings, "reminderMinutes">): number[] => [
  ...(settings.reminderMinutes ?? DEFAULT_REMINDER_MINUTES),
];

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
