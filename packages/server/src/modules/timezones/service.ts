import { IANAZone } from "luxon";

let cached: string[] | null = null;

/**
 * The IANA zone identifiers this runtime knows (from Intl), plus UTC, sorted; every one of them is
 * accepted wherever the API takes a `timezone`.
 */
export function supportedTimezones(): string[] {
  cached ??= [...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])].filter((z) => IANAZone.isValidZone(z)).sort();
  return cached;
}
