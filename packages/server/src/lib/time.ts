import { IANAZone } from "luxon";

const canonical = new Map<string, string | null>();
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The canonical spelling of an IANA zone name (`europe/prague` becomes `Europe/Prague`), or null
 * for anything else: offsets like `+05:00` are not zones, as they know nothing of daylight saving.
 * Memoized: luxon's check and Intl's canonical form each build a formatter.
 */
export function canonicalZone(name: string): string | null {
  let zone = canonical.get(name);
  if (zone === undefined) {
    zone = name.length <= 64 && IANA_NAME.test(name) && IANAZone.isValidZone(name) ? new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone : null;
    if (zone !== null && !IANAZone.isValidZone(zone)) zone = null;
    if (canonical.size < 2000) canonical.set(name, zone);
  }
  return zone;
}

/** An instant as UTC ISO 8601 without milliseconds. */
export const utc = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
