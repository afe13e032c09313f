import type { EventTypeHostInput, EventTypePatch, EventTypeView } from "@booking/wire";
import type { ApiFailure } from "../../api.ts";
import type { Texts } from "../../i18n/index.ts";

/** Settings the event type form edits (availability has its own page), as the admin API names them. */
const EDITABLE = [
  "title",
  "slug",
  "description",
  "timezone",
  "durationMinutes",
  "slotIntervalMinutes",
  "seats",
  "holdMinutes",
  "bufferBeforeMinutes",
  "bufferAfterMinutes",
  "minNoticeMinutes",
  "horizonDays",
  "rescheduleNoticeMinutes",
  "cancelNoticeMinutes",
  "locations",
  "customFields",
  "payment",
  "webhookUrl",
  "organizerEmail",
  "reminderMinutes",
  "locale",
  "theme",
  "profileImage",
  "calendarTitle",
  "hostName",
  "compact",
  "externalBooking",
  "maxGuests",
  "limits",
  "recurrence",
] as const;

/** The settings the event type form edits, as the admin API takes them (any subset: `EventTypePatch`). */
export type Draft = Pick<EventTypePatch, (typeof EDITABLE)[number] | "hosts">;

/** The settings a new event type starts with. */
export const NEW_DRAFT: Draft = {
  title: "",
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  seats: 1,
  locations: [{ type: "video-meet", value: null }],
  customFields: [],
  locale: { preset: "", startDayOfWeek: "monday", texts: {} },
  theme: { mode: "light", borderRadius: "8px", colors: {} },
};

/**
 * The event type form as each of its sections sees it: the texts, the draft, the refused save's
 * errors (shown at their fields), and the one way to change a setting (which marks the page unsaved).
 */
export interface DraftEditor {
  readonly t: Texts;
  readonly draft: Draft | null;
  readonly failure: ApiFailure | null;
  set<K extends keyof Draft>(key: K, value: Draft[K]): void;
}

/** The event type's hosts as the admin API takes them back, with their names. */
export function hostsOf(view: EventTypeView): (Required<EventTypeHostInput> & { name: string })[] {
  return view.hosts.map((h) => ({ hostId: h.hostId, name: h.name, priority: h.priority, scheduleId: h.scheduleId }));
}

/** The editable settings of an event type as the API answered them. */
export function pick(view: EventTypeView): Draft {
  const draft: Draft = {};
  // Stored fields carry their uuid and order; the editor keeps both.
  for (const key of EDITABLE) if (view[key] !== undefined) Object.assign(draft, { [key]: structuredClone(view[key]) });
  return draft;
}
