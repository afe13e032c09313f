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
const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** What luxon read of the parts of instants seen before (see `offsetInstant`), bounded: a calendar's requests repeat a few days and times. */
const MOST_PARTS_KEPT = 10_000;
const midnights = new Map<string, number | null>();
const timesOfDay = new Map<string, number | null>();

/** `read` of `key`, luxon's answer memoized in `memo`. */
function memoized(memo: Map<string, number | null>, key: string, read: () => number | null): number | null {
  let ms = memo.get(key);
  if (ms === undefined) {
    ms = read();
    if (memo.size >= MOST_PARTS_KEPT) memo.clear();
    memo.set(key, ms);
  }
  return ms;
}

/** luxon's reading of an ISO 8601 date-time with its own offset, as epoch ms (null when invalid). */
const luxonInstant = (value: string): number | null => {
  const parsed = DateTime.fromISO(value, { setZone: true });
  return parsed.isValid ? parsed.toMillis() : null;
};

/**
 * An ISO 8601 date-time with an explicit offset as epoch ms; null for anything else (a local time
 * alone is ambiguous). The one reading of such a time: the public API's reservation times and the
 * assistant server's new starts both go through it, so neither takes what the other refuses.
 * luxon reads the date with its offset and the time of day apart, each once (a fixed offset makes
 * the instant their sum, as luxon itself adds them); a booking's two instants then cost two lookups
 * instead of two parses with their zone and calendar work.
 */
export function offsetInstant(value: string): number | null {
  const parts = WITH_OFFSET.exec(value);
  if (!parts) return null;
  const [, date, time, offset] = parts as unknown as [string, string, string, string];
  // A lower-case separator as luxon takes it or not, unmemoized.
  if (value.charCodeAt(10) !== 0x54) return luxonInstant(value);
  const midnight = memoized(midnights, `${date}${offset}`, () => luxonInstant(`${date}T00:00${offset}`));
  const sinceMidnight = memoized(timesOfDay, time, () => luxonInstant(`1970-01-01T${time}Z`));
  return midnight === null || sinceMidnight === null ? null : midnight + sinceMidnight;
}
