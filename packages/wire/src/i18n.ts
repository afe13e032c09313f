// No schema library here: the element bundles the two functions below and nothing else of this package.
import type { PLURAL_CATEGORIES } from "./languages.ts";

/**
 * How the element, the console and the emails keep their texts: one catalog per language, each in
 * its own file. The English catalog is the source: a plain object of texts (`{name}` placeholders),
 * counted texts written as their English plural forms (`{ one, other }`), and groups of texts. Every
 * other language is typed `Translation<typeof en, L>`, so a catalog that misses a key or a plural
 * form its language needs, or keeps one English does not have, fails typecheck.
 */

/** A language with built-in texts (the table of `@booking/wire/languages`). */
export type Language = keyof typeof PLURAL_CATEGORIES;

/** The forms of one counted text in a language: exactly the plural categories `Intl.PluralRules` names for it. */
export type PluralForms<L extends Language> = { [C in (typeof PLURAL_CATEGORIES)[L][number]]: string };

/** What an English catalog holds: texts, counted texts, lists of texts and groups of them. */
export interface EnglishCatalog {
  readonly [key: string]: string | PluralForms<"en"> | readonly string[] | EnglishCatalog;
}

/** An English entry that is a counted text: an object of plural forms and nothing else. */
type IsPlural<E> = E extends PluralForms<"en"> ? (Exclude<keyof E, keyof PluralForms<"en">> extends never ? true : false) : false;

/** One English entry as language `L` writes it. */
type Translated<E, L extends Language> = E extends string
  ? string
  : IsPlural<E> extends true
    ? PluralForms<L>
    : { -readonly [K in keyof E]: Translated<E[K], L> };

/**
 * The catalog of language `L`, declared from the English catalog's type: the same keys (groups and
 * lists alike), a text for each text, and for each counted text exactly the plural forms of `L`.
 */
export type Translation<English, L extends Language> = { -readonly [K in keyof English]: Translated<English[K], L> };

/** The keys of an English catalog's counted texts. */
export type CountedKey<English> = { [K in keyof English]: IsPlural<English[K]> extends true ? K : never }[keyof English];

/** Fills `{name}` placeholders; unknown ones stay as written. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The form of a counted text that `Intl.PluralRules` picks for `count` in `language`, else its `other` form. */
export function pluralForm(forms: Partial<Record<Intl.LDMLPluralRule, string>>, language: string, count: number): string | undefined {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return forms[rules.select(count)] ?? forms.other;
}
