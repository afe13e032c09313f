import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import type { TimeSlot } from "@booking/wire";
import { environmentContext } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";

/** Internal: the visitor picked `detail.slot`. */
export type SlotListEvents = { "bc-slot-pick": { slot: TimeSlot } };

/** The free times of one day as buttons, in the visitor's zone, with seats left where a slot has several. */
export class SlotList extends LitElement {
  static override styles = [
    controlStyles,
    css`
    :host { display: block; }
    ul { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(7rem, 1fr)); gap: 0.5rem; max-height: 22rem; overflow-y: auto; }
    button { width: 100%; display: flex; flex-direction: column; align-items: center; gap: 0.1rem; font-variant-numeric: tabular-nums; }
    button[aria-pressed="true"] { background: var(--bc-primary); color: var(--bc-on-primary); border-color: var(--bc-primary); }
    .seats { font-size: 0.75rem; color: inherit; opacity: 0.85; }
    p { margin: 0; }
    .bone { height: 2.5rem; border-radius: var(--bc-radius); background: var(--bc-skeleton); }
  `,
  ];

  static override properties = {
    slots: { attribute: false },
    selected: { type: String },
    loading: { type: Boolean },
  };

  declare slots: TimeSlot[];
  /** `startIso8601` of the chosen slot. */
  declare selected: string | null;
  declare loading: boolean;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });

  constructor() {
    super();
    this.slots = [];
    this.selected = null;
    this.loading = false;
  }

  protected override render() {
    const env = this.#env.value;
    if (!env) return nothing;
    const { texts, dates, timezone } = env;
    // Placeholders in the shape of the times keep the layout still while they load.
    if (this.loading) {
      return html`<div role="status" aria-busy="true"><span class="visually-hidden">${texts("loading")}</span>
        <ul aria-hidden="true">${[0, 1, 2, 3, 4, 5].map(() => html`<li class="bone"></li>`)}</ul></div>`;
    }
    if (this.slots.length === 0) return html`<p class="muted">${texts("noTimesThisDay")}</p>`;
    return html`<ul part="slots" aria-label=${texts("chooseTime")}>
      ${this.slots.map((slot) => {
        const seats = slot.seats > 1 ? (slot.available_seats === 1 ? texts("oneSeatLeft") : texts("seatsLeft", { count: slot.available_seats })) : "";
        const time = dates.time(slot.startIso8601, timezone);
        // The name is the button's own text (start, then the end and seats for screen readers), so
        // what a voice-control user reads on screen is part of what they can say.
        return html`<li><button type="button" part="slot" data-start=${slot.startIso8601}
          aria-pressed=${slot.startIso8601 === this.selected ? "true" : "false"}
          @click=${() => this.dispatchEvent(new CustomEvent("bc-slot-pick", { detail: { slot } }))}>
          <span>${time}<span class="visually-hidden">–${dates.time(slot.endIso8601, timezone)}</span></span>${
            seats ? html`<span class="seats"><span class="visually-hidden">, </span>${seats}</span>` : nothing
          }
        </button></li>`;
      })}
    </ul>`;
  }
}
