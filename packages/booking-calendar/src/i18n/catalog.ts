import { PLURAL_CATEGORIES } from "@booking/wire/languages";
import type { PluralKey, TextKey } from "./texts.ts";

/**
 * The languages the element speaks out of the box, each with the plural categories its grammar
 * needs: a catalog must give every one of them for each text in `PLURAL_KEYS`. The table is shared
 * with the server's emails (`@booking/wire/languages`).
 */
export { PLURAL_CATEGORIES };

/** A language with a built-in catalog. */
export type Language = keyof typeof PLURAL_CATEGORIES;

/** Every built-in language, English first. */
export const LANGUAGES = Object.keys(PLURAL_CATEGORIES) as Language[];

/** The forms of one plural text in a language: exactly its categories. */
export type PluralForms<L extends Language> = { [C in (typeof PLURAL_CATEGORIES)[L][number]]: string };

/**
 * Every UI text in one language. Written as a typed object literal, a catalog that misses a key,
 * misses a plural form its language needs, or keeps a key that no longer exists fails typecheck.
 */
export type Catalog<L extends Language> = { [K in Exclude<TextKey, PluralKey>]: string } & { [K in PluralKey]: PluralForms<L> };

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
