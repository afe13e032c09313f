import type { CountedKey, Language, Translation } from "@booking/wire/i18n";
import type en from "./en.ts";

/**
 * A language emails and invites are written in: one of the element's built-in languages, each with
 * the plural categories `Intl.PluralRules` names for it (one table for both, `@booking/wire/languages`).
 */
export type MailLanguage = Language;

/**
 * Every text of the emails and invites in one language, declared from the English catalog (en.ts)
 * as the element's and the console's catalogs are (`@booking/wire/i18n`). Written as a typed object
 * literal, a catalog missing a text or a plural form its language needs, or keeping a text English
 * does not have, fails typecheck.
 */
export type MailCatalog<L extends MailLanguage> = Translation<typeof en, L>;

/** Texts with a count: durations. */
export type MailPluralKey = CountedKey<typeof en>;

/** The texts of a catalog without the counted ones, the same shape in every language. */
export type MailTexts = Omit<MailCatalog<"en">, MailPluralKey>;
