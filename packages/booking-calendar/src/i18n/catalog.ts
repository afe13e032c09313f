import { PLURAL_CATEGORIES } from "@booking/wire/languages";
import type { Language, Translation } from "@booking/wire/i18n";
import type { en } from "./locales/en.ts";
import type { MANAGE_TEXTS } from "./manage-texts.ts";
import type { SERIES_TEXTS } from "./series-texts.ts";

/**
 * The languages the element speaks out of the box, each with the plural categories its grammar
 * needs: a catalog must give every one of them for each text in `PLURAL_KEYS`. The table is shared
 * with the console and the server's emails (`@booking/wire/languages`).
 */
export { PLURAL_CATEGORIES };
export type { Language, PluralForms } from "@booking/wire/i18n";

/** Every built-in language, English first. */
export const LANGUAGES = Object.keys(PLURAL_CATEGORIES) as Language[];

/**
 * Every UI text in one language, declared from the English catalog (locales/en.ts with the manage
 * screens' texts) as the console's and the emails' catalogs are (`@booking/wire/i18n`). Written as a
 * typed object literal, a catalog that misses a key, misses a plural form its language needs, or
 * keeps a key that no longer exists fails typecheck.
 */
export type Catalog<L extends Language> = Translation<typeof en & typeof MANAGE_TEXTS & typeof SERIES_TEXTS, L>;

/** The built-in language for a BCP 47 tag: the exact tag, else its base language (`de-AT` → `de`). */
export function languageOf(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  if (lower in PLURAL_CATEGORIES) return lower as Language;
  const base = lower.split(/[-_]/)[0]!;
  return base in PLURAL_CATEGORIES ? (base as Language) : null;
}

/** The first of the wanted tags (in order of preference) with a built-in catalog, else English. */
export function chooseLanguage(wanted: readonly (string | null | undefined)[]): Language {
  for (const tag of wanted) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return "en";
}
