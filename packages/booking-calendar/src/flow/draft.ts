import type { ConfirmInput, CustomField, CustomFieldValue, InitData, Location, RecurrenceRequest, ReservationInput, TimeSlot } from "@booking/wire";
import { EMAIL_PATTERN as EMAIL, LIMITS, PHONE_PATTERN as PHONE } from "@booking/wire/limits";
import { visibleFieldNames } from "@booking/wire/visibility";
import type { DateTexts } from "../dates.ts";
import type { TextKey } from "../i18n/texts.ts";

/** Everything the visitor has typed; kept by the element across errors, retries and slot changes. */
export interface BookingDraft {
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  guests: string[];
  locationType: string;
  locationValue: string;
  /** Custom field answers by uuid: string, number, boolean or string[] by the field's type. */
  answers: Record<string, unknown>;
  /** The repeat chosen (event types that allow a series): book the time every week or two, `count` times. */
  repeat?: RecurrenceRequest | null;
}

/** An empty draft (the element's prefill attributes are copied in as they are set). */
export function emptyDraft(): BookingDraft {
  return { email: "", firstname: "", lastname: "", phone: "", guests: [], locationType: "", locationValue: "", answers: {} };
}

/** The fields the element's attributes of the same names prefill. */
export const PREFILL_KEYS = ["email", "firstname", "lastname", "phone"] as const;

/** Prefill values by field. */
export type Prefill = Record<(typeof PREFILL_KEYS)[number], string>;

/** `draft` with the prefill values of `keys` in the fields the visitor left empty (the same draft when none is). */
export function prefilled(draft: BookingDraft, values: Prefill, keys: readonly (keyof Prefill)[] = PREFILL_KEYS): BookingDraft {
  let next = draft;
  for (const key of keys) if (values[key] && !next[key]) next = { ...next, [key]: values[key] };
  return next;
}

/** Problems by field key (the server's 422 keys), each a UI text key with its values. */
export type DraftProblems = Record<string, { key: TextKey; values?: Record<string, number> }>;

/** The location types whose organizer left the value to the visitor. */
export function needsLocationValue(location: Location | undefined): location is Location {
  return !!location && (location.value ?? null) === null && (location.type === "phone" || location.type === "address");
}

/**
 * The custom fields the visitor is asked, in the given order: those without a condition and those
 * whose condition the draft's answers meet (the server's rule, `visibleFieldNames`). A hidden field's
 * answer stays in the draft, so it is back if the visitor changes their mind, but is never sent.
 */
export function shownFields<F extends CustomField>(draft: BookingDraft, fields: readonly F[]): F[] {
  const shown = visibleFieldNames(fields, (f) => draft.answers[f.uuid]);
  return fields.filter((f) => shown.has(f.name));
}

const blank = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || value === false || (Array.isArray(value) && value.length === 0);

/** Checks a draft against the event type's rules as the server will; empty when it may be sent. */
export function checkDraft(draft: BookingDraft, fields: CustomField[], locations: Location[]): DraftProblems {
  const problems: DraftProblems = {};
  const email = draft.email.trim();
  if (email === "") problems.email = { key: "errorRequired" };
  else if (email.length > LIMITS.emailMaxLength || !EMAIL.test(email)) problems.email = { key: "errorEmail" };
  for (const name of ["firstname", "lastname"] as const) {
    if (draft[name].length > LIMITS.textMaxLength) problems[name] = { key: "errorTooLong", values: { max: LIMITS.textMaxLength } };
  }
  if (draft.phone.trim() !== "" && !PHONE.test(draft.phone.trim())) problems.phone = { key: "errorPhone" };
  draft.guests.forEach((guest, i) => {
    if (!EMAIL.test(guest.trim())) problems[`guests.${i}`] = { key: "errorEmail" };
  });
  const location = locations.find((l) => l.type === draft.locationType) ?? locations[0];
  if (needsLocationValue(location)) {
    const value = draft.locationValue.trim() || (location.type === "phone" ? draft.phone.trim() : "");
    if (value === "") problems["location.value"] = { key: "errorRequired" };
    else if (location.type === "phone" && !PHONE.test(value)) problems["location.value"] = { key: "errorPhone" };
  }
  for (const field of shownFields(draft, fields)) {
    const key = `customFields.${field.uuid}`;
    const value = draft.answers[field.uuid];
    if (blank(value)) {
      if (field.required) problems[key] = { key: "errorRequired" };
      continue;
    }
    const problem = answerProblem(field, value);
    if (problem) problems[key] = problem;
  }
  return problems;
}

function answerProblem(field: CustomField, value: unknown): DraftProblems[string] | null {
  switch (field.type) {
    case "text":
    case "textarea": {
      const max = field.type === "text" ? LIMITS.textMaxLength : LIMITS.textareaMaxLength;
      return String(value).length > max ? { key: "errorTooLong", values: { max } } : null;
    }
    case "email":
      return EMAIL.test(String(value).trim()) ? null : { key: "errorEmail" };
    case "phone":
      return PHONE.test(String(value).trim()) ? null : { key: "errorPhone" };
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : { key: "errorNumber" };
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(String(value)) ? null : { key: "errorDate" };
    case "select":
      return field.options?.includes(String(value)) ? null : { key: "errorChoice" };
    case "multiselect":
      return Array.isArray(value) && value.every((v) => field.options?.includes(v)) ? null : { key: "errorChoice" };
    default:
      return null;
  }
}

/** The custom field answers worth sending: those of the fields shown, blank ones left out. */
export function answersOf(draft: BookingDraft, fields: CustomField[]): CustomFieldValue[] {
  return shownFields(draft, fields)
    .filter((f) => !blank(draft.answers[f.uuid]))
    .map((f) => ({ uuid: f.uuid, value: draft.answers[f.uuid] }));
}

/** The visitor's location choice as the API takes it. */
export function locationOf(draft: BookingDraft, locations: Location[]): Location | undefined {
  const location = locations.find((l) => l.type === draft.locationType) ?? locations[0];
  if (!location) return undefined;
  const value = needsLocationValue(location) ? draft.locationValue.trim() || (location.type === "phone" ? draft.phone.trim() : "") : null;
  return { type: location.type, value: value || null };
}

/** The chosen place as the visitor reads it: their own value, else the organizer's (an address, a number). */
export function placeOf(draft: BookingDraft, locations: Location[]): Location | null {
  const chosen = locationOf(draft, locations);
  if (!chosen) return null;
  return { type: chosen.type, value: chosen.value ?? locations.find((l) => l.type === chosen.type)?.value ?? null };
}

/** Optional text fields only when filled, so an empty box never overwrites what the server holds. */
export function personOf(draft: BookingDraft): Pick<ConfirmInput, "firstname" | "lastname" | "phone"> {
  const person: Pick<ConfirmInput, "firstname" | "lastname" | "phone"> = {};
  if (draft.firstname.trim()) person.firstname = draft.firstname.trim();
  if (draft.lastname.trim()) person.lastname = draft.lastname.trim();
  if (draft.phone.trim()) person.phone = draft.phone.trim();
  return person;
}

/**
 * The booking of `slot` as the API takes it: what the visitor typed, worth sending, with the zone
 * they read times in and their language and clock (`de-u-hc-h23`), which the emails follow: the
 * locale's language, script and region with the visitor's clock in place of any the locale named.
 */
export function reservationOf(
  draft: BookingDraft,
  { configuration, customFields: fields }: InitData,
  slot: TimeSlot,
  timezone: string,
  dates: Pick<DateTexts, "locale" | "hour12">,
): ReservationInput {
  const location = locationOf(draft, configuration.locations);
  const guests = draft.guests.map((g) => g.trim()).filter(Boolean);
  const customFields = answersOf(draft, fields);
  return {
    start: slot.start,
    end: slot.end,
    email: draft.email.trim(),
    timezone,
    locale: `${new Intl.Locale(dates.locale).baseName}-u-hc-h${dates.hour12 ? 12 : 23}`,
    ...personOf(draft),
    ...(location ? { location } : {}),
    ...(guests.length ? { guests } : {}),
    ...(customFields.length ? { customFields } : {}),
    ...(draft.repeat ? { recurrence: draft.repeat } : {}),
  };
}
