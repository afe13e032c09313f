/**
 * Type tests of the catalogs' shape (`src/i18n.ts`), checked by `npm run typecheck`: each line under
 * `@ts-expect-error` must fail to compile, so a check that stops catching its mistake fails the
 * typecheck. The element's, the console's and the emails' catalogs are all typed this way.
 */
import type { CountedKey, EnglishCatalog, PluralForms, Translation } from "../src/i18n.ts";

const en = {
  title: "Booking",
  greeting: "Hello {name},",
  freeTimes: { one: "{count} free time", other: "{count} free times" },
  labels: { email: "Email", phone: "Phone" },
  dayNames: ["Monday", "Tuesday"],
} satisfies EnglishCatalog;

type Catalog<L extends "de" | "pl" | "ja"> = Translation<typeof en, L>;

/** A complete catalog compiles: each text a string, each counted text the forms of its language. */
export const de: Catalog<"de"> = {
  title: "Buchung",
  greeting: "Hallo {name},",
  freeTimes: { one: "{count} freier Termin", other: "{count} freie Termine" },
  labels: { email: "E-Mail", phone: "Telefon" },
  dayNames: ["Montag", "Dienstag"],
};

export const pl: Catalog<"pl"> = {
  ...de,
  freeTimes: { one: "{count} wolny termin", few: "{count} wolne terminy", many: "{count} wolnych terminów", other: "{count} wolnego terminu" },
};

export const ja: Catalog<"ja"> = { ...de, freeTimes: { other: "空き{count}件" } };

// @ts-expect-error a text is missing
export const missingText: Catalog<"de"> = { greeting: "Hallo {name},", freeTimes: de.freeTimes, labels: de.labels, dayNames: de.dayNames };

// @ts-expect-error a key English does not have
export const extraText: Catalog<"de"> = { ...de, subtitle: "Untertitel" };

// @ts-expect-error a text of a group is missing
export const missingInGroup: Catalog<"de"> = { ...de, labels: { email: "E-Mail" } };

// @ts-expect-error a key a group of English does not have
export const extraInGroup: Catalog<"de"> = { ...de, labels: { email: "E-Mail", phone: "Telefon", fax: "Fax" } };

// @ts-expect-error a plural form the language needs is missing (Polish needs few and many)
export const missingForm: Catalog<"pl"> = { ...de, freeTimes: { one: "{count} wolny termin", other: "{count} wolnego terminu" } };

// @ts-expect-error a plural form the language does not have (Japanese has only other)
export const extraForm: Catalog<"ja"> = { ...de, freeTimes: { one: "空き{count}件", other: "空き{count}件" } };

// @ts-expect-error a counted text given as one text
export const uncounted: Catalog<"de"> = { ...de, freeTimes: "{count} freie Termine" };

// @ts-expect-error a text given as plural forms
export const countedTitle: Catalog<"de"> = { ...de, title: { one: "Buchung", other: "Buchungen" } };

// @ts-expect-error an English catalog holds texts, counted texts, lists and groups, nothing else
export const notEnglish = { title: "Booking", seats: 3 } satisfies EnglishCatalog;

/** The counted texts are found from English alone. */
export const counted: CountedKey<typeof en>[] = ["freeTimes"];
// @ts-expect-error a group is not a counted text
export const notCounted: CountedKey<typeof en>[] = ["labels"];

/** Plural forms follow the product's language table. */
export const czech: PluralForms<"cs"> = { one: "1 den", few: "2 dny", many: "1,5 dne", other: "5 dní" };
