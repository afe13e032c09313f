import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import { environmentContext } from "./context.ts";
import { controlStyles } from "./booking-calendar.styles.ts";

/** Internal: the visitor chose another zone. */
export type TimezonePickerEvents = { "bc-zone-change": { timezone: string } };

/** Most zone names beat a long list: a search box narrows a native select, which every screen reader knows. */
export class TimezonePicker extends LitElement {
  static override styles = [controlStyles, css`
    :host { display: block; }
    .row { display: grid; gap: 0.35rem; }
    label { font-size: 0.85rem; font-weight: 600; }
    details summary { cursor: pointer; color: var(--bc-muted); font-size: 0.9rem; padding: 0.25rem 0; }
    details[open] summary { margin-bottom: 0.5rem; }
  `];

  static override properties = {
    value: { type: String },
    zones: { attribute: false },
    query: { state: true },
  };

  declare value: string;
  declare zones: string[];
  declare query: string;

  private readonly env = new ContextConsumer(this, { context: environmentContext, subscribe: true });

  constructor() {
    super();
    this.value = "UTC";
    this.zones = [];
    this.query = "";
  }

  private matching(): string[] {
    const words = this.query.toLowerCase().replace(/[\s_]+/g, " ").trim().split(" ").filter(Boolean);
    const all = this.zones.includes(this.value) ? this.zones : [this.value, ...this.zones];
    const found = all.filter((zone) => {
      const name = zone.toLowerCase().replace(/_/g, " ");
      return words.every((word) => name.includes(word));
    });
    // The chosen zone stays listed so the select never shows a value it does not hold.
    return found.includes(this.value) ? found : [this.value, ...found];
  }

  private choose(timezone: string): void {
    if (timezone === this.value) return;
    this.dispatchEvent(new CustomEvent("bc-zone-change", { detail: { timezone } }));
  }

  protected override render() {
    const env = this.env.value;
    if (!env) return nothing;
    const { texts } = env;
    return html`<details part="timezone">
      <summary>${texts("timezone")}: ${this.value.replace(/_/g, " ")}</summary>
      <div class="row">
        <label for="search">${texts("searchTimezones")}</label>
        <input id="search" type="search" autocomplete="off" .value=${this.query}
          @input=${(e: Event) => { this.query = (e.target as HTMLInputElement).value; }}>
        <label for="zone">${texts("timezone")}</label>
        <select id="zone" part="timezone-select" @change=${(e: Event) => this.choose((e.target as HTMLSelectElement).value)}>
          ${this.matching().map((zone) => html`<option value=${zone} ?selected=${zone === this.value}>${zone.replace(/_/g, " ")}</option>`)}
        </select>
      </div>
    </details>`;
  }
}
