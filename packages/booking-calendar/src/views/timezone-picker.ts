import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import { environmentContext, type CalendarEnvironment } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";
import { offsetMinutes, offsetText } from "../dates.ts";
import { loadPart, zonesPart } from "../parts/load.ts";
import type { ZoneEntry, ZoneIndex } from "../zones/zone-index.ts";

/** Internal: the visitor chose another zone, or another clock (12 or 24 hours), or reached for the list (which is then asked for). */
export type TimezonePickerEvents = {
  "bc-zone-change": { timezone: string };
  "bc-hour-cycle-change": { hour12: boolean };
  "bc-zones-wanted": Record<string, never>;
};

/**
 * The visitor's time zone, always in view: a search box narrows a native select (which every screen
 * reader knows) grouped by continent, each zone named in the visitor's language with its UTC offset
 * and its current local time, and a 12h/24h switch for every time the calendar shows. Until the
 * visitor reaches for the list (focus, pointer) or searches, the select holds the chosen zone alone;
 * then the list and its search are fetched as a part (`parts/zones.js`) and named a few zones at a
 * time, so nothing is done for hundreds of zones while the page starts.
 */
export class TimezonePicker extends LitElement {
  static override styles = [
    controlStyles,
    css`
    :host { display: block; }
    .zone { display: grid; gap: 0.4rem; }
    .head { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
    label { font-size: 0.85rem; font-weight: 600; }
    .cycle { display: inline-flex; border: 1px solid var(--bc-border); border-radius: var(--bc-radius); overflow: hidden; }
    .cycle button { border: none; border-radius: 0; min-height: 2rem; padding: 0.2rem 0.6rem; font-size: 0.85rem; }
    .cycle button[aria-pressed="true"] { background: var(--bc-primary); color: var(--bc-on-primary); font-weight: 600; }
  `,
  ];

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
  /** Whether every zone is listed: once the visitor reaches for the list or searches. */
  declare expanded: boolean;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });
  #clock: ReturnType<typeof setInterval> | undefined;
  /** The list and search of the zones part, for the zones and language it was made for. */
  #index: ZoneIndex | null = null;

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
    // A pointer over the picker fetches the list's code ahead of the press (nothing is named yet).
    this.addEventListener("pointerenter", () => void loadPart("zones").catch(() => undefined), { once: true });
    this.#clock = setInterval(() => {
      this.now = Date.now();
    }, 30_000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#clock);
  }

  /** The zones part's index for the zones and language shown, once the part is here and the list is wanted. */
  #list(locale: string): ZoneIndex | null {
    const part = zonesPart();
    if (!part || !this.expanded) return null;
    const zones = this.zones.includes(this.value) ? this.zones : [this.value, ...this.zones];
    const index = this.#index;
    if (!index || index.locale !== locale || index.zones.length !== zones.length || index.zones.some((z, i) => z !== zones[i])) {
      this.#index = new part.ZoneIndex(zones, locale, () => this.requestUpdate());
    }
    this.#index!.learnNow(this.value);
    this.#index!.learn();
    return this.#index;
  }

  /** A zone's option: its name, then its offset and local time once known. */
  #label(env: CalendarEnvironment, name: string, minutes: number | null): string {
    // The local time is UTC's moved by the offset, written by one UTC format: no format per zone.
    return minutes === null
      ? name
      : env.texts("zoneOption", { city: name, offset: offsetText(minutes), time: env.dates.time(this.now + minutes * 60_000, "UTC") });
  }

  /** The list is wanted: the server's zones and the part that names them are fetched (once). */
  readonly #expand = (): Promise<void> => {
    if (!this.expanded) {
      this.expanded = true;
      this.dispatchEvent(new CustomEvent("bc-zones-wanted"));
    }
    return loadPart("zones").then(
      () => this.requestUpdate(),
      () => undefined,
    );
  };

  /**
   * A press on the list before its part is here would open a list of one zone: the browser's list
   * opens once the zones are named instead (Lit renders in a microtask, before the browser opens it).
   */
  readonly #press = (event: PointerEvent) => {
    if (zonesPart()) return void this.#expand();
    event.preventDefault();
    const select = event.currentTarget as HTMLSelectElement;
    void this.#expand()
      .then(() => this.updateComplete)
      .then(() => {
        select.focus();
        try {
          select.showPicker();
        } catch {
          // No showPicker, or the press is too long ago: the list is focused and opens on the next press.
        }
      });
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
    const { texts, dates } = env;
    const index = this.#list(dates.locale);
    const groups = new Map<string, ZoneEntry[]>();
    for (const entry of index?.matching(this.query, this.value) ?? []) {
      const group = groups.get(entry.group);
      if (group) group.push(entry);
      else groups.set(entry.group, [entry]);
    }
    const regions = [...groups.keys()].sort((a, b) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)));
    const hour12 = dates.hour12 === true;
    return html`<div class="zone" part="timezone">
      <div class="head">
        <label for="zone">${texts("timezone")}</label>
        <div class="cycle" role="group" aria-label=${texts("timeFormat")}>
          <button type="button" aria-pressed=${hour12 ? "true" : "false"} @click=${() => this.#cycle(true)}>${texts("hours12")}</button>
          <button type="button" aria-pressed=${hour12 ? "false" : "true"} @click=${() => this.#cycle(false)}>${texts("hours24")}</button>
        </div>
      </div>
      <input type="search" autocomplete="off" aria-label=${texts("searchTimezones")} placeholder=${texts("searchTimezones")} .value=${this.query}
        @input=${(e: Event) => {
          this.query = (e.target as HTMLInputElement).value;
          this.#expand();
        }}>
      <select id="zone" part="timezone-select" @change=${(e: Event) => this.#choose((e.target as HTMLSelectElement).value)}
        @focus=${this.#expand} @pointerdown=${this.#press}>
        ${index ? nothing : html`<option value=${this.value} selected>${this.#label(env, dates.zoneName(this.value), offsetMinutes(this.value, this.now))}</option>`}
        ${regions.map(
          (region) => html`<optgroup label=${region || texts("otherZones")}>
          ${groups.get(region)!.map((e) => html`<option value=${e.zone} ?selected=${e.zone === this.value}>${this.#label(env, e.name, e.minutes)}</option>`)}
        </optgroup>`,
        )}
      </select>
    </div>`;
  }
}
