import { DateTime, IANAZone } from "luxon";

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
    zone =
      name.length <= 64 && IANA_NAME.test(name) && IANAZone.isValidZone(name)
        ? new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone
        : null;
    if (zone !== null && !IANAZone.isValidZone(zone)) zone = null;
    if (canonical.size < 2000) canonical.set(name, zone);
  }
  return zone;
}

/** An instant as UTC ISO 8601 without milliseconds. */
export const utc = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

// Offsets as RFC 3339 has them: hours 00-23, minutes 00-59 (luxon alone would take +99:00).
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/**
 * An ISO 8601 date-time with an explicit offset as epoch ms; null for anything else (a local time
 * alone is ambiguous). The one reading of such a time: the public API's reservation times and the
 * assistant server's new starts both go through it, so neither takes what the other refuses.
 */
export function offsetInstant(value: string): number | null {
  const parsed = WITH_OFFSET.test(value) ? DateTime.fromISO(value, { setZone: true }) : null;
  return parsed?.isValid ? parsed.toMillis() : null;
}
