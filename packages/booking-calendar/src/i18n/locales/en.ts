import type { PluralForms } from "@booking/wire/i18n";
import { DEFAULT_TEXTS, type PluralKey } from "../texts.ts";

/**
 * English: the default texts, with the singular of the texts that count. Part of every build; the
 * manage screens' English comes with their part (i18n/manage-texts.ts). With them, the catalog every
 * other language is declared from (`Catalog` in i18n/catalog.ts).
 */
export const en = {
  ...DEFAULT_TEXTS,
  retryIn: { one: "Trying again in {seconds} s…", other: DEFAULT_TEXTS.retryIn },
  freeTimes: { one: "{count} free time", other: DEFAULT_TEXTS.freeTimes },
  seatsLeft: { one: "{count} seat left", other: DEFAULT_TEXTS.seatsLeft },
  errorTooLong: { one: "At most {max} character.", other: DEFAULT_TEXTS.errorTooLong },
  errorTooMany: { one: "At most {max} guest.", other: DEFAULT_TEXTS.errorTooMany },
} satisfies { [K in PluralKey]: PluralForms<"en"> };
