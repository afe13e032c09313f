/**
 * Calendar arithmetic on plain `YYYY-MM-DD` days and their formatting through `Intl`: the grid
 * never needs an offset, so it stays free of time-zone maths (the server computes every slot with
 * luxon and answers in the visitor's zone). Plain days are held as UTC midnights for `Intl`.
 */

/** A plain day, `YYYY-MM-DD`. */
export type PlainDate = string;
/** A calendar month, `YYYY-MM`. */
export type PlainMonth = string;

const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function utcOf(date: PlainDate): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

function plainOf(utc: Date): PlainDate {
  return `${pad(utc.getUTCFullYear(), 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}`;
}

let ownZone: string | undefined;

/** The visitor's IANA zone as the browser reports it (asked once: each ask makes a format, about a millisecond on a phone). */
export function browserZone(): string {
  return (ownZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
}

const knownZones = new Map<string, boolean>();

/** True when `zone` is an IANA name this browser knows (asked once per zone). */
export function isKnownZone(zone: string): boolean {
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(zone, known);
  }
  return known;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date on the wall calendars of `zone`. */
export function todayIn(zone: string, now = Date.now()): PlainDate {
  let format = dayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(zone, format);
  }
  const parts = format.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "01";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

export function addDays(date: PlainDate, days: number): PlainDate {
  return plainOf(new Date(utcOf(date).getTime() + days * DAY_MS));
}

export function monthOf(date: PlainDate): PlainMonth {
  return date.slice(0, 7);
}

export function addMonths(month: PlainMonth, months: number): PlainMonth {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  return `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1)}`;
}

export function firstDayOf(month: PlainMonth): PlainDate {
  return `${month}-01`;
}

export function lastDayOf(month: PlainMonth): PlainDate {
  return addDays(firstDayOf(addMonths(month, 1)), -1);
}

/** Weekday of a day, 0 = Monday ... 6 = Sunday. */
export function weekdayOf(date: PlainDate): number {
  return (utcOf(date).getUTCDay() + 6) % 7;
}

/**
 * The weeks of a month as rows of seven days starting on `weekStart` (0 = Monday, 6 = Sunday);
 * places before the first and after the last day are null.
 */
export function monthWeeks(month: PlainMonth, weekStart: number): (PlainDate | null)[][] {
  const first = firstDayOf(month);
  const last = lastDayOf(month);
  const lead = (weekdayOf(first) - weekStart + 7) % 7;
  const weeks: (PlainDate | null)[][] = [];
  let week: (PlainDate | null)[] = Array.from({ length: lead }, () => null);
  for (let day = first; day <= last; day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

/** The first day of the week holding `date`, and the last. */
export function weekBounds(date: PlainDate, weekStart: number): [PlainDate, PlainDate] {
  const start = addDays(date, -((weekdayOf(date) - weekStart + 7) % 7));
  return [start, addDays(start, 6)];
}

/** Whether the locale writes times on a 12-hour clock (9:30 PM) rather than 24 hours (21:30). */
export function localeUses12Hours(locale: string): boolean {
  const cycle = new Intl.DateTimeFormat(locale, { hour: "numeric" }).resolvedOptions().hourCycle;
  return cycle === "h12" || cycle === "h11";
}

/** One offset format per zone, kept for the page's life: making one costs far more than using it. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the zone's clocks are ahead of UTC at `now` (negative west of Greenwich), as `Intl` knows it. */
export function offsetMinutes(zone: string, now = Date.now()): number {
  let format = offsetFormats.get(zone);
  if (!format) offsetFormats.set(zone, (format = new Intl.DateTimeFormat("en", { timeZone: zone, timeZoneName: "longOffset" })));
  const name = format.formatToParts(now).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /([+-])(\d{1,2}):?(\d{2})?/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

/** An offset in minutes as "UTC+01:00", "UTC-03:30", "UTC+00:00". */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Locale-aware names and times for one locale; built once per locale. */
export class DateTexts {
  /** Formats by what they show and the zone or currency they show it in, built on first use. */
  private readonly formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

  /** `hour12` forces a 12- or 24-hour clock (the visitor's toggle); undefined follows the locale. `cityOf` names a zone's city in the locale's language, when it can. */
  constructor(
    readonly locale: string,
    readonly hour12?: boolean,
    readonly cityOf?: (zone: string) => string | undefined,
  ) {}

  /** "December 2026" in the locale's words. */
  monthTitle(month: PlainMonth): string {
    return this.dateFormat("month", "UTC", { month: "long", year: "numeric" }).format(utcOf(firstDayOf(month)));
  }

  /** "Monday, 7 December 2026" in the locale's words. */
  fullDate(date: PlainDate): string {
    return this.instantDate(utcOf(date).getTime(), "UTC");
  }

  /** Day number as the locale writes it. */
  dayNumber(date: PlainDate): string {
    return this.format("number", () => new Intl.NumberFormat(this.locale)).format(Number(date.slice(8)));
  }

  /** Short and long weekday names, 0 = Monday. */
  weekday(index: number, style: "short" | "long"): string {
    // 2024-01-01 was a Monday.
    return this.dateFormat(style, "UTC", { weekday: style }).format(utcOf(addDays("2024-01-01", index)));
  }

  /** Time of day of an instant on the wall clocks of `zone`, in the locale's own short form (9:30 AM, 09:30, 00:00). */
  time(instant: string | number, zone: string): string {
    // hourCycle rather than hour12: with hour12 false some locales write midnight as 24:00.
    const cycle = this.hour12 === undefined ? {} : { hourCycle: this.hour12 ? ("h12" as const) : ("h23" as const) };
    return this.dateFormat("time", zone, { timeStyle: "short", ...cycle }).format(new Date(instant));
  }

  /** Full date of an instant on the wall calendars of `zone`. */
  instantDate(instant: string | number, zone: string): string {
    return this.dateFormat("date", zone, { weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(new Date(instant));
  }

  /**
   * A zone as people call it: its generic name in the locale ("Mitteleuropäische Zeit", "Pacific
   * Time"). Where the locale names only an offset: `Etc/GMT+5` as the offset it is (UTC-05:00: the
   * sign of those ids is the other way round), else the city of its id in the locale's language
   * (`cityOf`), else in English.
   */
  zoneName(zone: string): string {
    const name = this.dateFormat("zone", zone, { timeZoneName: "longGeneric" })
      .formatToParts()
      .find((p) => p.type === "timeZoneName")?.value;
    if (name && !/^(GMT|UTC)[+-]/.test(name)) return name;
    const etc = /^Etc\/GMT([+-]\d+)$/.exec(zone);
    if (etc) return offsetText(-60 * Number(etc[1]));
    const last = zone.slice(zone.lastIndexOf("/") + 1).replace(/_/g, " ");
    // UTC, Etc/UTC and the like name no city: their id is their name.
    if (!zone.includes("/") || zone.startsWith("Etc/")) return last;
    return this.cityOf?.(zone) ?? last;
  }

  /** An amount of money in the smallest currency unit, e.g. 5000 eur → €50.00. */
  money(amount: number, currency: string): string {
    const format = this.format(`money:${currency}`, () => new Intl.NumberFormat(this.locale, { style: "currency", currency: currency.toUpperCase() }));
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  }

  /** The date format `name` of the locale on the calendars of `zone`. */
  private dateFormat(name: string, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
    return this.format(`${name}:${zone}`, () => new Intl.DateTimeFormat(this.locale, { timeZone: zone, ...options }));
  }

  private format<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
    let format = this.formats.get(key) as T | undefined;
    if (!format) this.formats.set(key, (format = make()));
    return format;
  }
}
