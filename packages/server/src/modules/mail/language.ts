import { fill, pluralForm } from "@booking/wire/i18n";
import { PLURAL_CATEGORIES } from "@booking/wire/languages";
import type { MailLanguage, MailPluralKey, MailTexts } from "./locales/catalog.ts";
import { MAIL_CATALOGS } from "./locales/index.ts";

/** How a message is written: its language and, when the visitor chose one, their clock (12 or 24 hours). */
export interface MailLocale {
  language: MailLanguage;
  /** true for a 12-hour clock, false for 24 hours, null for the language's usual clock. */
  hour12: boolean | null;
  /** The booked tag's language with its region (`en-GB`), which dates follow; absent: the language alone. */
  region?: string;
}

/** The mail language of a BCP 47 tag: its base language when it has texts (`de-AT` → `de`), else null. */
export function mailLanguageOf(tag: string | null | undefined): MailLanguage | null {
  const base = /^([a-z]{2,8})/i.exec(tag ?? "")?.[1]?.toLowerCase();
  return base && base in PLURAL_CATEGORIES ? (base as MailLanguage) : null;
}

/**
 * The language and clock of a booking's messages: the tag it was booked in (`pl-u-hc-h12`), else
 * the event type's preset language, else English. The clock is the tag's `hc` extension when it has
 * one (h11 and h12 are 12-hour clocks, h23 and h24 24-hour ones), as `Intl.Locale` reads the tag; a
 * tag that names the extension twice (`de-u-hc-h12-u-hc-h23`, which older clients sent) is read by
 * its last one, the visitor's choice. `region` keeps the tag's language with its script and region
 * (`en-GB`), which dates are written in.
 */
export function mailLocale(tag: string | null | undefined, preset: string | null | undefined): MailLocale {
  // Read once per tag and preset (Intl.Locale and the supported-locales lookup cost more than the rest of a booking's email payload).
  const key = `${tag ?? ""}\n${preset ?? ""}`;
  let locale = locales.get(key);
  if (!locale) {
    if (locales.size >= MOST_LOCALES_KEPT) locales.clear();
    locales.set(key, (locale = readMailLocale(tag, preset)));
  }
  return { ...locale };
}

/** Tags and presets read, with their locale (see `mailLocale`); few in practice, bounded all the same, since tags come from visitors. */
const locales = new Map<string, MailLocale>();
const MOST_LOCALES_KEPT = 1_000;

function readMailLocale(tag: string | null | undefined, preset: string | null | undefined): MailLocale {
  const language = mailLanguageOf(tag) ?? mailLanguageOf(preset) ?? "en";
  const cycle = hourCycleOf(tag);
  const region = regionalTag(mailLanguageOf(tag) ? tag : preset, language);
  return { language, hour12: cycle ? cycle === "h11" || cycle === "h12" : null, ...(region !== language ? { region } : {}) };
}

/** The `hc` of a tag: Intl.Locale's reading; for a tag it refuses, the last `-hc-` the tag holds. */
function hourCycleOf(tag: string | null | undefined): string | undefined {
  if (!tag) return undefined;
  try {
    const cycle = new Intl.Locale(tag).hourCycle;
    if (cycle) return cycle;
  } catch {
    // Not a well-formed tag (a repeated extension): read its last hc below.
  }
  return [...tag.matchAll(/-hc-(h11|h12|h23|h24)(?=-|$)/gi)].pop()?.[1]?.toLowerCase();
}

/** A tag's language, script and region (`en-GB`, `zh-Hant-TW`) when Intl knows them for `language`, else `language`. */
function regionalTag(tag: string | null | undefined, language: MailLanguage): string {
  try {
    const base = new Intl.Locale(tag?.split(/-u-|-x-/i)[0] ?? "").baseName;
    return base.toLowerCase().startsWith(language) && Intl.DateTimeFormat.supportedLocalesOf([base]).length ? base : language;
  } catch {
    return language;
  }
}

/** A counted text in the language's plural form for `count` (Intl.PluralRules), with `{count}` filled. */
export function counted(language: MailLanguage, key: MailPluralKey, count: number): string {
  const forms = MAIL_CATALOGS[language][key];
  return fill(pluralForm(forms, language, count) ?? forms.other, { count: count.toLocaleString(language) });
}

/** The texts of a language (the counted ones through `counted`). */
export function catalogOf(language: MailLanguage): MailTexts {
  return MAIL_CATALOGS[language];
}

/** 1440 -> "1 day", 90 -> "90 minutes", in the language: the largest whole unit. */
export function durationText(language: MailLanguage, minutes: number): string {
  if (minutes % 1440 === 0) return counted(language, "days", minutes / 1440);
  if (minutes % 60 === 0) return counted(language, "hours", minutes / 60);
  return counted(language, "minutes", minutes);
}

// Intl formats are costly to build (tens of microseconds) and cheap to use: built once per language, zone and clock.
const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: MailLocale, zone: string, what: "date" | "time" | "zone"): Intl.DateTimeFormat {
  const tag = locale.region ?? locale.language;
  const key = `${tag} ${locale.hour12} ${zone} ${what}`;
  let f = formats.get(key);
  if (!f) {
    const clock = locale.hour12 === null ? {} : { hour12: locale.hour12 };
    const options: Intl.DateTimeFormatOptions =
      what === "date"
        ? { weekday: "long", day: "numeric", month: "long", year: "numeric" }
        : what === "time"
          ? { hour: "numeric", minute: "2-digit", ...clock }
          : { timeZoneName: "long" };
    f = new Intl.DateTimeFormat(tag, { ...options, timeZone: zone });
    formats.set(key, f);
  }
  return f;
}

/**
 * A meeting's time in a zone, in the language and clock: `Wednesday, 2 December 2026, 10:00–10:30
 * (Central European Standard Time)`; the end with its date when it falls on another day.
 */
export function spanText(locale: MailLocale, zone: string, startMs: number, endMs: number): string {
  const date = format(locale, zone, "date");
  const time = format(locale, zone, "time");
  const startDay = date.format(startMs);
  const endDay = date.format(endMs);
  const end = endDay === startDay ? time.format(endMs) : `${endDay}, ${time.format(endMs)}`;
  const zoneName =
    format(locale, zone, "zone")
      .formatToParts(startMs)
      .find((p) => p.type === "timeZoneName")?.value ?? zone;
  return `${startDay}, ${time.format(startMs)}–${end} (${zoneName})`;
}
