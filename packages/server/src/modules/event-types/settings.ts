import { MAX_SERIES_OCCURRENCES, setLimits, THEME_COLOR_KEYS, type EventTypePatch } from "@booking/wire";
import { checkAvailability } from "../../domain/availability.ts";
import type { CustomFieldDefinition, EventTypeSettings } from "../../domain/event-type.ts";
import { addError, codedAsInvalid, FieldErrors, ValidationFailed } from "../../domain/errors.ts";
import { checkConditions } from "./conditions.ts";
import { isHttpUrl } from "../../lib/links.ts";
import { canonicalZone } from "../../lib/time.ts";
import { webhookUrlProblem } from "../webhooks/address.ts";

const CSS_LENGTH = /^(0|\d{1,4}(\.\d{1,3})?(px|rem|em|%))$/;
// Colours reach the calendar's style sheet; allow colour syntax, never a way out of the declaration.
const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|rgba|hsl|hsla|oklch|oklab|lab|lch|color)\([0-9a-zA-Z.,%/ +-]{1,80}\))$/;

/**
 * Applies a checked change to settings. Top-level keys replace, except `locale` and `theme`, which
 * merge one level deep so a change of `theme.mode` keeps the colours. Rules a schema cannot say
 * (real zones and dates, ordered ranges, unique names) are checked here, all at once.
 */
export function resolveSettings(base: EventTypeSettings, change: Omit<EventTypePatch, "disabled" | "slug">, allowPrivateWebhooks = true): EventTypeSettings {
  const errors: Record<string, string[]> = {};
  // Problems with a code of their own (the fields' conditions); the others are `invalid`.
  const coded = new FieldErrors();
  const next: EventTypeSettings = {
    ...base,
    ...stripUndefined(change),
    locale: { ...base.locale, ...stripUndefined(change.locale ?? {}) },
    theme: { ...base.theme, ...stripUndefined(change.theme ?? {}) },
    availability: change.availability ? { weekly: { ...change.availability.weekly }, overrides: change.availability.overrides ?? [] } : base.availability,
    locations: change.locations
      ? change.locations.map((l) => ({ type: l.type, value: l.value ?? null, ...(l.label ? { label: l.label } : {}) }))
      : base.locations,
    customFields: change.customFields ? resolveCustomFields(change.customFields, errors, coded) : base.customFields,
    limits: change.limits === undefined ? base.limits : setLimits(change.limits),
    payment: change.payment === undefined ? base.payment : change.payment && { ...change.payment, currency: change.payment.currency.toLowerCase() },
  };

  const zone = canonicalZone(next.timezone);
  if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
  else next.timezone = zone;
  checkAvailability(next.availability, errors);
  if (new Set(next.locations.map((l) => l.type)).size !== next.locations.length) addError(errors, "locations", "Each location type may appear once.");
  if (next.locations.length === 0) addError(errors, "locations", "Enable at least one location.");
  next.translations = checkTranslations(next, change.translations !== undefined, errors);
  const webhookProblem = next.webhookUrl === null ? null : webhookUrlProblem(next.webhookUrl, allowPrivateWebhooks);
  if (webhookProblem) addError(errors, "webhookUrl", webhookProblem);
  if (next.profileImage !== null && next.profileImage !== "" && !isHttpUrl(next.profileImage)) addError(errors, "profileImage", "Expected an http(s) URL.");
  if (next.recurrence) checkRecurrence(next, errors);
  if (next.reminderMinutes) {
    // Latest reminder last, whatever order they were given in; one offset twice would send twice.
    if (new Set(next.reminderMinutes).size !== next.reminderMinutes.length) addError(errors, "reminderMinutes", "Each reminder offset may appear once.");
    next.reminderMinutes = [...next.reminderMinutes].sort((a, b) => b - a);
  }
  if (typeof next.hostName === "string") {
    // A name is one line of visible text: surrounding space is dropped, blank or control characters refused.
    next.hostName = next.hostName.trim();
    if (next.hostName === "" || /[\u0000-\u001f\u007f]/.test(next.hostName))
      addError(errors, "hostName", "Expected a name: visible text on one line, or null.");
  }
  if (typeof next.contact === "string") {
    // One line of visible text (an address, a link or a sentence); surrounding space is dropped.
    next.contact = next.contact.trim();
    if (next.contact === "" || /[\u0000-\u001f\u007f]/.test(next.contact))
      addError(errors, "contact", "Expected an email address, a web address or one line of text, or null.");
  }
  try {
    // Empty leaves the language to the visitor's browser.
    if (next.locale.preset !== "") Intl.getCanonicalLocales(next.locale.preset);
  } catch {
    addError(errors, "locale.preset", "Expected a BCP 47 language tag such as en or de-AT.");
  }
  if (!CSS_LENGTH.test(next.theme.borderRadius)) addError(errors, "theme.borderRadius", "Expected a CSS length such as 8px or 0.5rem.");
  for (const [key, value] of Object.entries(next.theme.colors)) {
    if (!(THEME_COLOR_KEYS as readonly string[]).includes(key))
      addError(errors, `theme.colors.${key}`, `Unknown colour key; use ${THEME_COLOR_KEYS.join(", ")}.`);
    else if (!CSS_COLOR.test(value)) addError(errors, `theme.colors.${key}`, "Expected a CSS colour such as #2563eb or rgb(37 99 235).");
  }
  if (coded.list.length > 0) {
    const messages = { ...errors };
    for (const e of coded.list) addError(messages, e.field, e.message);
    throw new ValidationFailed(messages, [...codedAsInvalid(errors), ...coded.list]);
  }
  ValidationFailed.check(errors);
  return next;
}

function resolveCustomFields(
  fields: NonNullable<EventTypePatch["customFields"]>,
  errors: Record<string, string[]>,
  coded: FieldErrors,
): CustomFieldDefinition[] {
  const names = new Set<string>();
  const uuids = new Set<string>();
  const resolved = fields.map((f, i) => {
    const uuid = f.uuid?.toLowerCase() ?? crypto.randomUUID();
    if (names.has(f.name)) addError(errors, `customFields.${i}.name`, "Field names must be unique.");
    if (uuids.has(uuid)) addError(errors, `customFields.${i}.uuid`, "Field uuids must be unique.");
    names.add(f.name);
    uuids.add(uuid);
    const choice = f.type === "select" || f.type === "multiselect";
    if (choice && (!f.options || f.options.length === 0)) addError(errors, `customFields.${i}.options`, "A select field needs options.");
    if (!choice && f.options) addError(errors, `customFields.${i}.options`, "Only select and multiselect fields take options.");
    const field: CustomFieldDefinition = { uuid, label: f.label, name: f.name, type: f.type, required: f.required ?? false, order: f.order ?? i };
    if (f.options) field.options = [...f.options];
    if (f.placeholder) field.placeholder = f.placeholder;
    if (f.showIf) field.showIf = structuredClone(f.showIf);
    return field;
  });
  checkConditions(resolved, coded);
  return resolved;
}

/**
 * The organizer's texts per language must name the event type's own fields and places, with one
 * label per option. Given in this change, a mismatch is refused; kept from before, the entries of
 * fields or places this change removed are dropped (and an option list that no longer fits), so
 * removing a field never needs its translations removed first.
 */
function checkTranslations(next: EventTypeSettings, given: boolean, errors: Record<string, string[]>): EventTypeSettings["translations"] {
  const all = next.translations;
  if (!all || Object.keys(all).length === 0) return undefined;
  const fields = new Map(next.customFields.map((f) => [f.name, f]));
  const places = new Set<string>(next.locations.map((l) => l.type));
  const kept: NonNullable<EventTypeSettings["translations"]> = {};
  for (const [tag, texts] of Object.entries(all)) {
    try {
      Intl.getCanonicalLocales(tag);
    } catch {
      addError(errors, `translations.${tag}`, "Expected a BCP 47 language tag such as de or pt-BR.");
    }
    const entry = { ...texts };
    if (texts.customFields) {
      const customFields: NonNullable<typeof texts.customFields> = {};
      for (const [name, field] of Object.entries(texts.customFields)) {
        const own = fields.get(name);
        const path = `translations.${tag}.customFields.${name}`;
        if (!own) {
          if (given) addError(errors, path, "No custom field has this name.");
          continue;
        }
        const fits = field.options === undefined || field.options.length === (own.options?.length ?? 0);
        if (!fits && given)
          addError(errors, `${path}.options`, `Expected ${own.options?.length ?? 0} option labels, one per option of the field, in its order.`);
        const { options, ...rest } = field;
        customFields[name] = fits && options ? { ...rest, options } : rest;
      }
      entry.customFields = customFields;
    }
    if (texts.locations) {
      const locations: Record<string, string> = {};
      for (const [type, label] of Object.entries(texts.locations)) {
        if (places.has(type)) locations[type] = label;
        else if (given) addError(errors, `translations.${tag}.locations.${type}`, "The event type offers no location of this type.");
      }
      entry.locations = locations;
    }
    kept[tag] = entry;
  }
  return kept;
}

/** A series repeats at distinct intervals; paid series are not offered (their one payment for all occurrences is not built). */
function checkRecurrence(next: EventTypeSettings, errors: Record<string, string[]>): void {
  const r = next.recurrence!;
  if (r.maxOccurrences < 2 || r.maxOccurrences > MAX_SERIES_OCCURRENCES)
    addError(errors, "recurrence.maxOccurrences", `Expected a whole number from 2 to ${MAX_SERIES_OCCURRENCES}.`);
  if (r.intervals.length === 0) addError(errors, "recurrence.intervals", "Allow at least one interval: weekly, biweekly or both.");
  if (new Set(r.intervals).size !== r.intervals.length) addError(errors, "recurrence.intervals", "Each interval may appear once.");
  if (next.payment) addError(errors, "recurrence", "A paid event type cannot take recurring bookings yet; set payment to null or recurrence to null.");
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
