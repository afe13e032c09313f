import { DateTime } from "luxon";

const DAY_MS = 86_400_000;

/** One local day on which the zone's offset does not change. */
interface UniformDay {
  fromMs: number;
  untilMs: number;
  /** YYYY-MM-DD of the day. */
  date: string;
  /** The offset as luxon writes it, e.g. `+01:00`. */
  suffix: string;
  /** The day's first instant in UTC ISO 8601 without milliseconds. */
  startUtc: string;
}

/**
 * ISO 8601 forms of many instants in one zone, exactly as luxon's `toISO({ suppressMilliseconds:
 * true })` writes them. luxon asks Intl for the offset of every instant it formats, which made
 * formatting most of the cost of a large slot list; here luxon describes each local day once, and
 * the instants of a day whose offset holds all day are written by arithmetic. Instants on a day the
 * clock changes, or with milliseconds, are left to luxon.
 */
export class ZonedIsoWriter {
  // The day last used and the one before: a slot's start and end are on at most two days.
  private recent: (UniformDay | null)[] = [];

  constructor(private readonly zone: string) {}

  /** The instant in the zone, e.g. `2026-11-23T08:00:00+01:00`. */
  iso(ms: number): string {
    const day = ms % 1000 === 0 ? this.dayOf(ms) : null;
    if (day === null) return DateTime.fromMillis(ms, { zone: this.zone }).toISO({ suppressMilliseconds: true })!;
    // A uniform day is 24 hours from its local midnight, so the wall time is the time since its start.
    const local = ms - day.fromMs;
    return `${day.date}T${two(Math.floor(local / 3_600_000))}:${two(Math.floor(local / 60_000) % 60)}:${two(Math.floor(local / 1000) % 60)}${day.suffix}`;
  }

  /** The first instant of the instant's local day, in UTC ISO 8601 without milliseconds. */
  dayStartUtc(ms: number): string {
    const day = this.dayOf(ms);
    if (day !== null) return day.startUtc;
    return new Date(DateTime.fromMillis(ms, { zone: this.zone }).startOf("day").toMillis()).toISOString().replace(".000Z", "Z");
  }

  /** The uniform day holding `ms`, or null when its offset changes during the day. */
  private dayOf(ms: number): UniformDay | null {
    for (const day of this.recent) if (day !== null && ms >= day.fromMs && ms < day.untilMs) return day;
    const at = DateTime.fromMillis(ms, { zone: this.zone });
    const start = at.startOf("day");
    const fromMs = start.toMillis();
    const untilMs = at.plus({ days: 1 }).startOf("day").toMillis();
    // Offsets change at most once a day, so equal offsets at both ends mean none in between.
    const uniform = start.zone.offset(untilMs - 1) === start.offset && untilMs - fromMs === DAY_MS;
    const startIso = start.toISO({ suppressMilliseconds: true })!;
    const day: UniformDay | null = uniform
      ? { fromMs, untilMs, date: startIso.slice(0, 10), suffix: startIso.slice(19), startUtc: new Date(fromMs).toISOString().replace(".000Z", "Z") }
      : null;
    // A non-uniform day is not remembered: it is rare, and luxon answers for each of its instants.
    if (day !== null) this.recent = [day, this.recent[0] ?? null];
    return day;
  }
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
