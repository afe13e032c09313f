import type { Catalog } from "../catalog.ts";
import type { MANAGE_TEXTS } from "../manage-texts.ts";
import { DEFAULT_TEXTS } from "../texts.ts";

/**
 * English: the default texts, with the singular of the texts that count. Part of every build; the
 * manage screens' English comes with their part (i18n/manage-texts.ts).
 */
export const en: Omit<Catalog<"en">, keyof typeof MANAGE_TEXTS> = {
  ...DEFAULT_TEXTS,
  retryIn: { one: "Trying again in {seconds} s…", other: DEFAULT_TEXTS.retryIn },
  freeTimes: { one: "{count} free time", other: DEFAULT_TEXTS.freeTimes },
  seatsLeft: { one: "{count} seat left", other: DEFAULT_TEXTS.seatsLeft },
  errorTooLong: { one: "At most {max} character.", other: DEFAULT_TEXTS.errorTooLong },
  errorTooMany: { one: "At most {max} guest.", other: DEFAULT_TEXTS.errorTooMany },
};
