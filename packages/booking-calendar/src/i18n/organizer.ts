/**
 * The organizer's own texts (title, description, field labels and options, place names, overrides
 * of UI texts) in the visitor's language, when the event type gives them in more than one
 * (`configuration.translations`). Chosen like the UI language: the first of the wanted tags (the
 * `locale` attribute, `locale.preset`, the browser's languages) that has organizer texts, exactly
 * or by its base language, unless a tag with a built-in catalog comes first: then the event type's
 * own texts, which the organizer wrote for that language or as their default.
 */
import type { CustomField, EventTypeConfiguration, InitData, OrganizerTexts } from "@booking/wire";
import { languageOf } from "./catalog.ts";

/** The organizer's texts for the wanted tags, if the event type has some for them. */
export function organizerTexts(config: EventTypeConfiguration | null, wanted: readonly (string | null | undefined)[]): OrganizerTexts | undefined {
  const all = config?.translations;
  if (!all) return undefined;
  const keys = Object.keys(all);
  for (const tag of wanted) {
    if (!tag) continue;
    const lower = tag.toLowerCase();
    const key = keys.find((k) => k.toLowerCase() === lower) ?? keys.find((k) => k.toLowerCase() === lower.split(/[-_]/)[0]);
    if (key) return all[key];
    if (languageOf(tag)) return undefined;
  }
  return undefined;
}

/** The loaded event type with its texts in the visitor's language; a field's options keep their values and show `optionLabels`. */
export function localizedInit(init: InitData, wanted: readonly (string | null | undefined)[]): InitData {
  const own = organizerTexts(init.configuration, wanted);
  if (!own) return init;
  const c = init.configuration;
  return {
    ...init,
    configuration: { ...c, title: own.title ?? c.title, description: own.description ?? c.description, calendarTitle: own.calendarTitle ?? c.calendarTitle },
    customFields: init.customFields.map((f): CustomField & { optionLabels?: string[] } => {
      const t = own.customFields?.[f.name];
      return t
        ? { ...f, label: t.label ?? f.label, ...(t.placeholder ? { placeholder: t.placeholder } : {}), ...(t.options ? { optionLabels: t.options } : {}) }
        : f;
    }),
  };
}

/** The UI texts the event type overrides: `locale.texts`, its places' names (`location.<type>`), then its texts in the visitor's language. */
export function textOverrides(config: EventTypeConfiguration | null, wanted: readonly (string | null | undefined)[]): Record<string, string> | undefined {
  if (!config) return undefined;
  const own = organizerTexts(config, wanted);
  const overrides: Record<string, string> = { ...config.locale.texts };
  for (const { type, label } of config.locations) {
    const name = own?.locations?.[type] ?? label;
    if (name) overrides[`location.${type}`] = name;
  }
  return { ...overrides, ...own?.texts };
}
