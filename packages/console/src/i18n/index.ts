import type { Language as BuiltInLanguage, Translation } from "@booking/wire/i18n";
import { PLURAL_CATEGORIES } from "@booking/wire/languages";
import de from "./de.ts";
import en from "./en.ts";

/** The console's languages: English, and German from the element's catalogs' languages. */
export const LANGUAGES = ["en", "de"] as const satisfies readonly BuiltInLanguage[];
export type Language = (typeof LANGUAGES)[number];

/** Whether the console speaks `tag` (a bare language). */
export const isLanguage = (tag: string | null | undefined): tag is Language => (LANGUAGES as readonly (string | null | undefined)[]).includes(tag);

/** Groups a page looks up by a code the API sends (a status, a channel, an error code): a code they do not name reads `undefined`. */
type ByCode =
  | "statuses"
  | "fieldErrors"
  | "failures"
  | "modes"
  | "locationTypes"
  | "fieldTypes"
  | "channels"
  | "deliveryStatuses"
  | "roles"
  | "signInMethods"
  | "reasons";

/** The texts of one language as the pages read them; every language has every key of English (en.ts). */
export type Texts = Omit<Translation<typeof en, "en">, ByCode> & { [K in ByCode]: Record<string, string> };

const CATALOGS: { [L in Language]: Translation<typeof en, L> } = { en, de };

/**
 * The languages the calendar speaks out of the box (the product's table, `@booking/wire/languages`),
 * English also with its two clocks, each named in itself: an event type's calendar language is one of
 * them, or empty for the visitor's browser.
 */
export const CALENDAR_LANGUAGES: ReadonlyArray<readonly [string, string]> = Object.keys(PLURAL_CATEGORIES)
  .flatMap((tag) => (tag === "en" ? ["en", "en-US", "en-GB"] : [tag]))
  .map((tag) => [tag, nameInItself(tag)] as const);

/** A language's name in that language ("Deutsch", "British English"), or its tag where the browser has no name for it. */
export function nameInItself(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}
const STORED = "booking-console-language";

/**
 * The language as the element chooses one: the one picked here before, else the first of the
 * browser's languages the console speaks, else English.
 */
export function chooseLanguage(): Language {
  const stored = localStorage.getItem(STORED);
  if (isLanguage(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLanguage(base)) return base;
  }
  return "en";
}

/** Remembers the language picked in the console. */
export function keepLanguage(language: Language): void {
  localStorage.setItem(STORED, language);
}

/** The texts of a language. */
export const textsOf = (language: Language): Texts => CATALOGS[language];

/** The text a table gives a key, or the key itself when the table has none (a kind newer than this console). */
export const named = (names: Readonly<Record<string, string>>, key: string): string => (Object.hasOwn(names, key) ? names[key]! : key);
