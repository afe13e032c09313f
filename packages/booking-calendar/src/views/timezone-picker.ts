import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import { environmentContext, type CalendarEnvironment } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";
import { offsetKnown, offsetMinutes, offsetText } from "../dates.ts";

/** Internal: the visitor chose another zone, or another clock (12 or 24 hours). */
export type TimezonePickerEvents = { "bc-zone-change": { timezone: string }; "bc-hour-cycle-change": { hour12: boolean } };

/** One zone as the list shows it. */
interface ZoneEntry {
  zone: string;
  region: string;
  label: string;
  /** Lower-case text the search matches: the name, the offset and the local time. */
  haystack: string;
}

/**
 * The visitor's time zone, always in view: a search box narrows a native select (which every screen
 * reader knows) grouped by region, each zone with its UTC offset and its current local time, and a
 * 12h/24h switch for every time the calendar shows.
 */
export class TimezonePicker extends LitElement {
  static override styles = [controlStyles, css`
    :host { display: block; }
    .zone { display: grid; gap: 0.4rem; }
    .head { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
    label { font-size: 0.85rem; font-weight: 600; }
    .cycle { display: inline-flex; border: 1px solid var(--bc-border); border-radius: var(--bc-radius); overflow: hidden; }
    .cycle button { border: none; border-radius: 0; min-height: 2rem; padding: 0.2rem 0.6rem; font-size: 0.85rem; }
    .cycle button[aria-pressed="true"] { background: var(--bc-primary); color: var(--bc-on-primary); font-weight: 600; }
  `];

  static override properties = {
    value: { type: String },
    zones: { attribute: false },
    query: { state: true },
    now: { state: true },
    expanded: { state: true },
  };

  declare value: string;
  declare zones: string[];
  declare query: string;
  /** The minute the offsets and local times are shown for; moves on while the picker is shown. */
  declare now: number;
  /**
   * Whether every zone is listed: only once the visitor reaches for the list (focus, pointer) or
   * searches. Until then the select holds the chosen zone alone, which keeps the first paint light
   * (hundreds of options) and checkers such as axe quick.
   */
  declare expanded: boolean;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });
  #clock: ReturnType<typeof setInterval> | undefined;
  #entries: { key: string; list: ZoneEntry[] } = { key: "", list: [] };
  /** Zones whose offsets are known; the rest are learnt a few at a time, off the visitor's way. */
  #known = 0;
  #warming: string[] | null = null;

  constructor() {
    super();
    this.value = "UTC";
    this.zones = [];
    this.query = "";
    this.now = Date.now();
    this.expanded = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#clock = setInterval(() => { this.now = Date.now(); }, 30_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#clock);
  }

  /**
   * Making a zone's offset format takes about a millisecond, hundreds of them a visible pause: they
   * are made in small batches between frames, and the list is labelled again once all are known.
   */
  #warm(zones: string[]): void {
    if (this.#warming === zones) return;
    this.#warming = zones;
    let index = 0;
    const step = () => {
      if (this.#warming !== zones) return;
      const until = Math.min(zones.length, index + 24);
      for (; index < until; index++) offsetMinutes(zones[index]!, this.now);
      if (index < zones.length) setTimeout(step, 0);
      else {
        this.#known = this.zones === zones ? zones.length : 0;
        this.requestUpdate();
      }
    };
    setTimeout(step, 0);
  }

  /** Every zone with its label, made again only when the zones, the offsets known, the clock, the language or the minute change. */
  #list(env: CalendarEnvironment): ZoneEntry[] {
    const zones = this.zones.includes(this.value) ? this.zones : [this.value, ...this.zones];
    const minute = Math.floor(this.now / 60_000);
    const key = `${zones.length} ${zones[0]} ${this.#known} ${env.dates.locale} ${env.dates.hour12} ${minute}`;
    if (this.#entries.key === key) return this.#entries.list;
    const list = zones.map((zone) => {
      const slash = zone.indexOf("/");
      const region = slash > 0 ? zone.slice(0, slash) : "";
      const city = (slash > 0 ? zone.slice(slash + 1) : zone).replace(/\//g, " – ").replace(/_/g, " ");
      let label = city;
      if (zone === this.value || offsetKnown(zone)) {
        const minutes = offsetMinutes(zone, this.now);
        // The local time is UTC's moved by the offset, written by one UTC format: no format per zone.
        label = env.texts("zoneOption", { city, offset: offsetText(minutes), time: env.dates.time(this.now + minutes * 60_000, "UTC") });
      }
      return { zone, region, label, haystack: `${zone.replace(/[_/]/g, " ")} ${label}`.toLowerCase() };
    });
    this.#entries = { key, list };
    return list;
  }

  #matching(env: CalendarEnvironment): ZoneEntry[] {
    const words = this.query.toLowerCase().replace(/[\s_/]+/g, " ").trim().split(" ").filter(Boolean);
    if (this.#known < this.zones.length && (this.expanded || words.length > 0)) this.#warm(this.zones);
    // The chosen zone stays listed so the select never shows a value it does not hold.
    if (!this.expanded && words.length === 0) return this.#list(env).filter((e) => e.zone === this.value);
    return this.#list(env).filter((e) => e.zone === this.value || words.every((word) => e.haystack.includes(word)));
  }

  // Lit renders in a microtask, which runs before the browser opens the list for this event.
  readonly #expand = () => {
    this.expanded = true;
  };

  #choose(timezone: string): void {
    if (timezone === this.value) return;
    this.dispatchEvent(new CustomEvent("bc-zone-change", { detail: { timezone } }));
  }

  #cycle(hour12: boolean): void {
    this.dispatchEvent(new CustomEvent("bc-hour-cycle-change", { detail: { hour12 } }));
  }

  protected override render() {
    const env = this.#env.value;
    if (!env) return nothing;
    const { texts } = env;
    const groups = new Map<string, ZoneEntry[]>();
    for (const entry of this.#matching(env)) groups.set(entry.region, [...(groups.get(entry.region) ?? []), entry]);
    const regions = [...groups.keys()].sort((a, b) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)));
    const hour12 = env.dates.hour12 === true;
    return html`<div class="zone" part="timezone">
      <div class="head">
        <label for="zone">${texts("timezone")}</label>
        <div class="cycle" role="group" aria-label=${texts("timeFormat")}>
          <button type="button" aria-pressed=${hour12 ? "true" : "false"} @click=${() => this.#cycle(true)}>${texts("hours12")}</button>
          <button type="button" aria-pressed=${hour12 ? "false" : "true"} @click=${() => this.#cycle(false)}>${texts("hours24")}</button>
        </div>
      </div>
      <input type="search" autocomplete="off" aria-label=${texts("searchTimezones")} placeholder=${texts("searchTimezones")} .value=${this.query}
        @input=${(e: Event) => { this.query = (e.target as HTMLInputElement).value; }}>
      <select id="zone" part="timezone-select" @change=${(e: Event) => this.#choose((e.target as HTMLSelectElement).value)}
        @focus=${this.#expand} @pointerdown=${this.#expand}>
        ${regions.map((region) => html`<optgroup label=${region || texts("otherZones")}>
          ${groups.get(region)!.map((e) => html`<option value=${e.zone} ?selected=${e.zone === this.value}>${e.label}</option>`)}
        </optgroup>`)}
      </select>
    </div>`;
  }
}
