/**
 * The zone picker's list and search, in the part fetched when the visitor first reaches for the
 * picker (see parts/zones.ts): nothing here runs for hundreds of zones before that. Each zone is
 * named in the visitor's language (a city name from `CITY_NAMES`, the long generic name `Intl`
 * gives, such as "Mitteleuropäische Zeit") and found by its city in any of the element's languages,
 * its country (`Intl.DisplayNames`), its names and abbreviations in the visitor's language and in
 * English (winter and summer: EST and EDT), and its UTC offset (+05:30, UTC+5:30, GMT+5:30).
 */
import { CITY_LANGUAGES, CITY_NAMES, CONTINENT_NAMES, ZONE_LINKS, ZONE_WORDS } from "./aliases.ts";
import { ZONE_COUNTRIES } from "./countries.ts";

/** One zone as the picker lists and searches it. */
export interface ZoneEntry {
  zone: string;
  /** The zone's continent or ocean in the visitor's language; empty for zones of neither (UTC, Etc). */
  group: string;
  /** The city (or place) in the visitor's language, with the zone's generic name once known. */
  name: string;
  /** Minutes ahead of UTC now; null until learnt. */
  minutes: number | null;
  /** Folded words the search matches. */
  haystack: string;
}

/** Europe's abbreviations by winter and summer offsets in minutes (Intl writes most as offsets). */
const EUROPE: Record<string, string> = { "060": "WET WEST", "60120": "CET CEST MEZ MESZ", "120180": "EET EEST OEZ OESZ", "6060": "CET", "120120": "EET" };

/** Zones learnt per task: a slice stays well under a frame on a slow phone. */
const SLICE = 8;

/** Lower case without accents: "Zürich" and "zurich" are one word to the search. */
export const fold = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Splits names into search words: spaces, slashes, underscores, brackets, hyphens and commas part them. */
const words = (text: string): string =>
  fold(text)
    .replace(/[\s/_(),.'’-]+/g, " ")
    .trim();

let countryOfZone: Map<string, string> | null = null;

/** The ISO 3166 country of a zone, if it has one. */
export function countryOf(zone: string): string | undefined {
  if (!countryOfZone) {
    countryOfZone = new Map();
    for (const row of ZONE_COUNTRIES.split(",")) for (const z of row.slice(2).split(" ")) countryOfZone.set(z, row.slice(0, 2));
  }
  return countryOfZone.get(ZONE_LINKS[zone] ?? zone);
}

/** The name in `language` from a slot of `CITY_LANGUAGES` names (the first of a slot's), else `english`. */
const inLanguage = (names: string | undefined, language: string, english: string): string =>
  names?.split("|")[CITY_LANGUAGES.indexOf(language as (typeof CITY_LANGUAGES)[number])]?.split("/")[0] || english;

/** The zone's city in `language` (the first of its names there), else the English one of its id. */
export function cityName(zone: string, language: string): string {
  return inLanguage(CITY_NAMES[ZONE_LINKS[zone] ?? zone], language, zone.slice(zone.lastIndexOf("/") + 1).replace(/_/g, " "));
}

/** The offset Intl writes as "GMT+05:30" (or "GMT"), in minutes. */
function minutesOf(text: string): number {
  const m = /([+-])(\d{1,2}):?(\d{2})?/.exec(text);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

/** The ways people write an offset: +05:30, 05:30, UTC+05:30, UTC+5:30, GMT+5:30, +5:30. */
function offsetWords(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const mins = abs % 60;
  const long = `${String(hours).padStart(2, "0")}:${String(mins).padStart(2, "0")}`;
  const short = mins ? `${hours}:${String(mins).padStart(2, "0")}` : String(hours);
  return [long, `${sign}${long}`, `utc${sign}${long}`, `${sign}${short}`, `utc${sign}${short}`, `gmt${sign}${short}`].join(" ");
}

/**
 * The zones of one list in one language: the cheap words at once (cities, countries, continents),
 * the names `Intl` writes a slice of zones at a time when asked (`learn`), calling `changed` as
 * they arrive. The search sees the names learnt so far.
 */
export class ZoneIndex {
  readonly entries: ZoneEntry[];
  #next = 0;
  #learning = false;
  readonly #language: string;

  constructor(
    readonly zones: readonly string[],
    readonly locale: string,
    private readonly changed: () => void,
  ) {
    this.#language = locale.split("-")[0]!.toLowerCase();
    const regions = (tag: string) => {
      try {
        return new Intl.DisplayNames([tag], { type: "region" });
      } catch {
        return null;
      }
    };
    const here = regions(locale);
    const english = regions("en");
    this.entries = zones.map((zone) => {
      const own = ZONE_LINKS[zone] ?? zone;
      const slash = zone.indexOf("/");
      const continent = slash > 0 ? zone.slice(0, slash) : "";
      const country = countryOf(zone);
      const cities = (CITY_NAMES[own] ?? "").replace(/[|/]/g, " ");
      const countries = country ? `${here?.of(country) ?? ""} ${english?.of(country) ?? ""}` : "";
      return {
        zone,
        group: continent in CONTINENT_NAMES ? inLanguage(CONTINENT_NAMES[continent], this.#language, continent === "Indian" ? "Indian Ocean" : continent) : "",
        name: cityName(zone, this.#language),
        minutes: null,
        haystack: ` ${words(`${zone} ${own} ${cities} ${ZONE_WORDS[own] ?? ""} ${countries}`)} `,
      };
    });
  }

  /** Whether every zone's names are learnt. */
  get complete(): boolean {
    return this.#next >= this.entries.length;
  }

  /** Learns one zone's names at once (the chosen zone, shown before the others). */
  learnNow(zone: string): void {
    const entry = this.entries.find((e) => e.zone === zone);
    if (entry && entry.minutes === null) this.#learn(entry);
  }

  /** Learns the names of every zone, a slice per task, telling `changed` now and then and at the end. */
  learn(): void {
    if (this.#learning || this.complete) return;
    this.#learning = true;
    const step = () => {
      const until = Math.min(this.entries.length, this.#next + SLICE);
      for (; this.#next < until; this.#next++) {
        const entry = this.entries[this.#next]!;
        if (entry.minutes === null) this.#learn(entry);
      }
      if (this.complete || this.#next % (SLICE * 12) === 0) this.changed();
      if (!this.complete) setTimeout(step, 0);
    };
    setTimeout(step, 0);
  }

  /** The zones matching every word of `query`; the chosen zone `keep` always stays in. */
  matching(query: string, keep: string): ZoneEntry[] {
    const wanted = fold(query)
      .split(/[\s/_,]+/)
      .filter(Boolean);
    if (wanted.length === 0) return this.entries;
    return this.entries.filter((e) => e.zone === keep || wanted.every((word) => matches(e.haystack, word)));
  }

  #learn(entry: ZoneEntry): void {
    const { zone } = entry;
    const now = Date.now();
    const year = new Date(now).getUTCFullYear();
    // Winter and summer of both hemispheres: EST and EDT, AEST and AEDT.
    const seasons = [Date.UTC(year, 0, 15), Date.UTC(year, 6, 15)];
    const names: string[] = [];
    const add = (locale: string, style: Intl.DateTimeFormatOptions["timeZoneName"], at: number[] = [now]) => {
      try {
        const format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: style });
        for (const instant of at) names.push(format.formatToParts(instant).find((p) => p.type === "timeZoneName")?.value ?? "");
      } catch {
        // A zone or style this browser does not know: its id and cities still find it.
      }
      return names[names.length - 1] ?? "";
    };
    const generic = add(this.locale, "longGeneric");
    add(this.locale, "shortGeneric");
    add(this.locale, "long", seasons);
    if (this.#language !== "en") add("en", "longGeneric");
    add("en", "shortGeneric");
    add("en", "short", seasons);
    if (this.#language !== "en") add("en", "long", seasons);
    const offset = add("en", "longOffset", [...seasons, now]);
    entry.minutes = minutesOf(offset);
    // Europe's abbreviations, which English writes as offsets: CET and CEST for +1/+2, and so on.
    const [winter, summer] = names.slice(-3, -1).map(minutesOf);
    if (zone.startsWith("Europe/")) names.push(EUROPE[`${winter}${summer}`] ?? "");
    // The generic name tells zones of one city name apart; an offset written as a name ("GMT+03:00") does not.
    if (generic && !/^(GMT|UTC)([+-]|$)/.test(generic) && !fold(generic).includes(fold(entry.name))) entry.name = `${entry.name} – ${generic}`;
    entry.haystack += `${words(names.join(" "))} ${offsetWords(entry.minutes)} `;
  }
}

/** A word matches at the start of one of the zone's words; digits (offsets) and scripts without spaces (東京) match anywhere. */
function matches(haystack: string, word: string): boolean {
  return /[\d\u3000-\u9fff\uac00-\ud7af]/.test(word) ? haystack.includes(word) : haystack.includes(` ${word}`);
}
