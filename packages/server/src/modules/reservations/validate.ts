import { DateTime } from "luxon";
import {
  EMAIL_PATTERN as EMAIL,
  LIMITS,
  PHONE_PATTERN as PHONE,
  type ConfirmInput,
  type FieldErrorCode,
  type CustomFieldValue,
  type Location,
  type ReservationInput,
  answerGiven,
  visibleFieldNames,
} from "@booking/wire";
import type { CustomFieldDefinition, EventTypeSettings } from "../../domain/event-type.ts";
import { FieldErrors, ValidationFailed } from "../../domain/errors.ts";
import { canonicalZone, offsetInstant } from "../../lib/time.ts";

type Errors = FieldErrors;

/** An ISO 8601 instant with an explicit offset, as epoch ms; else an error on `field`. */
export function instantOf(value: string, field: string, errors: Errors): number | null {
  const instant = offsetInstant(value);
  if (instant === null) errors.add(field, "invalid_datetime", "Expected an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:00:00+01:00.");
  return instant;
}

/** Start and end of a requested slot; the end must be one meeting length after the start. */
export function slotTimes(
  input: { start: string; end: string; timezone?: string },
  settings: EventTypeSettings,
  errors: Errors,
): { startMs: number; endMs: number; timezone: string | null } | null {
  const startMs = instantOf(input.start, "start", errors);
  const endMs = instantOf(input.end, "end", errors);
  const timezone = input.timezone === undefined ? null : canonicalZone(input.timezone);
  if (input.timezone !== undefined && timezone === null) errors.add("timezone", "invalid_timezone", "Unknown IANA timezone.");
  if (startMs === null || endMs === null) return null;
  if (endMs - startMs !== settings.durationMinutes * 60_000) {
    errors.add("end", "wrong_duration", `Must be ${settings.durationMinutes} minutes after start.`);
    return null;
  }
  return { startMs, endMs, timezone };
}

/** What a valid ReservationInput becomes. */
export interface CheckedReservation {
  startMs: number;
  endMs: number;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  timezone: string | null;
  /** The language tag the visitor booked in, as sent; null when none was. */
  locale: string | null;
  location: Location;
  guests: string[];
  customFields: CustomFieldValue[];
}

/** What a language tag may look like (BCP 47 in shape: subtags of letters and digits joined by hyphens, the first of letters). */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** Checks everything in a ReservationInput that does not need the calendar; 422 with every problem at once. */
export function checkReservationInput(input: ReservationInput, settings: EventTypeSettings): CheckedReservation {
  const errors = new FieldErrors();
  const times = slotTimes(input, settings, errors);
  const email = nfc(input.email);
  if (email === "") errors.add("email", "required", "Expected an email address.");
  else if (!EMAIL.test(email)) errors.add("email", "invalid_email", "Expected an email address.");
  const phone = checkPhone(input.phone, errors);
  const guests = checkGuests(input.guests ?? [], email, settings.maxGuests, errors);
  const location = checkLocation(input.location, phone, settings, errors);
  const customFields = checkCustomFields(input.customFields ?? [], settings.customFields, [], errors);
  if (input.locale !== undefined && !LANGUAGE_TAG.test(input.locale)) errors.add("locale", "invalid", "Expected a language tag, e.g. de or en-u-hc-h12.");
  refuseControlCharacters({ firstname: input.firstname, lastname: input.lastname, phone: input.phone, "location.value": input.location?.value }, errors);
  ValidationFailed.check(errors);
  return {
    startMs: times!.startMs,
    endMs: times!.endMs,
    email,
    firstname: nfc(input.firstname ?? ""),
    lastname: nfc(input.lastname ?? ""),
    phone,
    timezone: times!.timezone,
    locale: input.locale ?? null,
    location: location!,
    guests,
    customFields,
  };
}

/** Checks the attributes confirm may update; custom field answers merge into the ones held (a held answer of a field these answers hide is dropped). */
export function checkConfirmInput(
  input: ConfirmInput,
  held: CustomFieldValue[],
  settings: EventTypeSettings,
): { phone?: string; firstname?: string; lastname?: string; customFields: CustomFieldValue[] } {
  const errors = new FieldErrors();
  const phone = input.phone === undefined ? undefined : checkPhone(input.phone, errors);
  const customFields = checkCustomFields(input.customFields ?? [], settings.customFields, held, errors);
  refuseControlCharacters({ firstname: input.firstname, lastname: input.lastname, phone: input.phone }, errors);
  ValidationFailed.check(errors);
  return {
    ...(phone === undefined ? {} : { phone }),
    ...(input.firstname === undefined ? {} : { firstname: nfc(input.firstname) }),
    ...(input.lastname === undefined ? {} : { lastname: nfc(input.lastname) }),
    customFields,
  };
}

// Control characters (NUL above all, which PostgreSQL text cannot hold) have no place in what a
// visitor types. A single-line field (a name, a phone number, an address, a text answer) takes no
// line break of any kind either: calendar invites, feeds and mail carry these values, and a
// carriage return or a Unicode line separator there would start a line of the visitor's choosing.
const SINGLE_LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// Free text (a textarea answer, a cancel reason) keeps its line breaks, made LFs, and tabs.
const MULTI_LINE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// Line breaks of any kind, each made one LF in free text: CRLF (as browsers send a textarea), CR, NEL, LS, PS.
const LINE_BREAK = /\r\n|[\r\u0085\u2028\u2029]/g;

/** Free text with every kind of line break made LF. */
const withLineFeeds = (text: string): string => text.replace(LINE_BREAK, "\n");

function refuseControlCharacters(fields: Record<string, string | null | undefined>, errors: Errors): void {
  for (const [field, value] of Object.entries(fields))
    if (typeof value === "string" && SINGLE_LINE_CONTROL.test(value)) errors.add(field, "control_characters", "Contains control characters.");
}

/**
 * The reason a cancel gives, as stored: trimmed, line breaks made LF, null when blank; 422 on
 * `reason` when it holds any other control character (a NUL, which PostgreSQL cannot store, above all).
 */
export function checkCancelReason(reason: string | undefined): string | null {
  const text = reason === undefined ? "" : withLineFeeds(reason.normalize("NFC")).trim();
  const errors = new FieldErrors();
  if (MULTI_LINE_CONTROL.test(text)) errors.add("reason", "control_characters", "Contains control characters.");
  ValidationFailed.check(errors);
  return text === "" ? null : text;
}

function checkPhone(value: string | undefined, errors: Errors): string {
  const phone = (value ?? "").trim();
  if (phone !== "" && !PHONE.test(phone)) errors.add("phone", "invalid_phone", "Expected a phone number: digits, spaces, + ( ) . -");
  return phone;
}

function checkGuests(guests: string[], email: string, max: number, errors: Errors): string[] {
  if (guests.length > max) errors.add("guests", "too_many", `At most ${max} guests.`, max);
  const seen = new Set([email.toLowerCase()]);
  return guests.map((g, i) => {
    const guest = nfc(g);
    if (!EMAIL.test(guest)) errors.add(`guests.${i}`, "invalid_email", "Expected an email address.");
    else if (seen.has(guest.toLowerCase())) errors.add(`guests.${i}`, "duplicate", "Each guest once, and not the booker.");
    seen.add(guest.toLowerCase());
    return guest;
  });
}

/**
 * The location of the meeting: one the event type enables (the first when none is chosen). A value
 * the organizer fixed (their address, link or number) always wins over what a visitor sends; a
 * phone call or an address the organizer did not fix needs the visitor's number or address.
 */
function checkLocation(chosen: Location | undefined, phone: string, settings: EventTypeSettings, errors: Errors): Location | null {
  const type = chosen?.type ?? settings.locations[0]?.type;
  const enabled = settings.locations.find((l) => l.type === type);
  if (!enabled) {
    errors.add("location.type", "invalid_choice", `Choose one of: ${settings.locations.map((l) => l.type).join(", ")}.`);
    return null;
  }
  const given = chosen?.value?.trim() || null;
  let value = enabled.value ?? given;
  if (enabled.type === "phone" && value === null && phone !== "") value = phone;
  if ((enabled.type === "phone" || enabled.type === "address") && value === null) {
    errors.add("location.value", "required", enabled.type === "phone" ? "Give the phone number to call." : "Give the address to meet at.");
  }
  if (enabled.type === "phone" && enabled.value === null && given !== null && !PHONE.test(given))
    errors.add("location.value", "invalid_phone", "Expected a phone number.");
  return { type: enabled.type, value };
}

/**
 * Checks answers against the event type's custom fields; keys errors as `customFields.<uuid>`.
 * `held` are answers kept from before (a hold's, when it is confirmed): the answers given here
 * replace theirs, and both decide which fields are shown (`visibleFieldNames`, the element's rule).
 * A field not shown is not required; a value given for it is refused (`hidden_field`) and a held
 * one is dropped. Answers the result keeps: the held and given ones of shown fields, not empty.
 */
function checkCustomFields(values: CustomFieldValue[], fields: CustomFieldDefinition[], held: CustomFieldValue[], errors: Errors): CustomFieldValue[] {
  const byUuid = new Map(fields.map((f) => [f.uuid, f]));
  const answered = new Map<string, { field: CustomFieldDefinition; given: unknown; value: unknown }>();
  for (const v of values) {
    const uuid = String(v.uuid).toLowerCase();
    const key = `customFields.${uuid}`;
    const field = byUuid.get(uuid);
    if (!field) {
      errors.add(key, "unknown_field", "Unknown custom field.");
      continue;
    }
    if (answered.has(uuid)) {
      errors.add(key, "duplicate", "Answered twice.");
      continue;
    }
    const given = field.type === "textarea" && typeof v.value === "string" ? withLineFeeds(v.value) : v.value;
    answered.set(uuid, { field, given, value: normalize(given) });
  }
  const all = new Map<string, CustomFieldValue>(held.map((v) => [v.uuid, v]));
  for (const [uuid, { value }] of answered) all.set(uuid, { uuid, value });
  const shown = visibleFieldNames(fields, (f) => all.get(f.uuid)?.value);
  for (const [uuid, { field, given, value }] of answered) {
    const key = `customFields.${uuid}`;
    if (!shown.has(field.name)) {
      if (answerGiven(value))
        errors.add(key, "hidden_field", `${field.label} is not asked with these answers (it is shown only ${conditionText(field, byUuid)}).`);
      continue;
    }
    const control = field.type === "textarea" ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL;
    // Judged as given, before trimming, like the other fields: a line break at either end is refused too.
    const problem = [given].flat().some((x) => typeof x === "string" && control.test(x))
      ? { code: "control_characters" as const, message: "Contains control characters." }
      : valueProblem(field, value);
    if (problem) errors.add(key, problem.code, problem.message, problem.max);
  }
  for (const v of held) {
    if (answered.has(v.uuid)) continue;
    // Kept from before, judged again: the event type's fields may have changed since.
    const field = byUuid.get(v.uuid);
    const problem = !field ? { code: "unknown_field" as const, message: "Unknown custom field." } : shown.has(field.name) ? valueProblem(field, v.value) : null;
    if (problem) errors.add(`customFields.${v.uuid}`, problem.code, problem.message, problem.max);
  }
  for (const f of fields) {
    const key = `customFields.${f.uuid}`;
    const v = all.get(f.uuid);
    // An answer given here and refused above is named once.
    if (f.required && shown.has(f.name) && !errors.messages[key] && (v === undefined || isBlank(v.value, f)))
      errors.add(key, "required", `${f.label} is required.`);
  }
  const hidden = (uuid: string) => {
    const field = byUuid.get(uuid);
    return field !== undefined && !shown.has(field.name);
  };
  return [...all.values()].filter((v) => v.value !== null && v.value !== undefined && !hidden(v.uuid));
}

/** The condition of a field that has one, in English: "when plan is one of: Business". */
function conditionText(field: CustomFieldDefinition, byUuid: Map<string, CustomFieldDefinition>): string {
  const condition = field.showIf;
  if (!condition) return "never";
  const parent = [...byUuid.values()].find((f) => f.name === condition.field)?.label ?? condition.field;
  if ("equals" in condition) return `when ${parent} is one of: ${condition.equals.join(", ")}`;
  return "checked" in condition ? `when ${parent} is checked` : `when ${parent} is answered`;
}

const isBlank = (value: unknown, field: CustomFieldDefinition): boolean =>
  value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0) || (field.type === "checkbox" && value === false);

/** Text as one canonical Unicode form (a visitor's "Café" may arrive decomposed), trimmed. */
const nfc = (text: string): string => text.normalize("NFC").trim();

const normalize = (value: unknown): unknown =>
  typeof value === "string" ? nfc(value) : Array.isArray(value) ? value.map((v) => (typeof v === "string" ? nfc(v) : v)) : (value ?? null);

/** Why a value does not fit its field, or null. Empty values are judged by the required rule. */
function valueProblem(field: CustomFieldDefinition, value: unknown): { code: FieldErrorCode; message: string; max?: number } | null {
  if (value === null || value === undefined || value === "") return null;
  switch (field.type) {
    case "text":
    case "textarea": {
      const max = field.type === "text" ? LIMITS.textMaxLength : LIMITS.textareaMaxLength;
      if (typeof value !== "string") return { code: "invalid", message: `Expected text of at most ${max} characters.` };
      return value.length <= max ? null : { code: "too_long", message: `Expected text of at most ${max} characters.`, max };
    }
    case "email":
      if (typeof value === "string" && value.length > LIMITS.emailMaxLength)
        return { code: "too_long", message: "Expected an email address.", max: LIMITS.emailMaxLength };
      return typeof value === "string" && EMAIL.test(value.trim()) ? null : { code: "invalid_email", message: "Expected an email address." };
    case "phone":
      return typeof value === "string" && PHONE.test(value.trim()) ? null : { code: "invalid_phone", message: "Expected a phone number." };
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : { code: "invalid_number", message: "Expected a number." };
    case "checkbox":
      return typeof value === "boolean" ? null : { code: "invalid", message: "Expected true or false." };
    case "date":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid
        ? null
        : { code: "invalid_date", message: "Expected a date, YYYY-MM-DD." };
    case "select":
      return typeof value === "string" && field.options?.includes(value)
        ? null
        : { code: "invalid_choice", message: `Expected one of: ${field.options?.join(", ")}.` };
    case "multiselect":
      return Array.isArray(value) && value.every((v) => typeof v === "string" && field.options?.includes(v)) && new Set(value).size === value.length
        ? null
        : { code: "invalid_choice", message: `Expected distinct values among: ${field.options?.join(", ")}.` };
  }
}
