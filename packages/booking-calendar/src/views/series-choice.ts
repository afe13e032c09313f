import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import type { RecurrenceRequest, RecurrenceSetting, SeriesSlot } from "@booking/wire";
import { environmentContext } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";
import type { TextKey } from "../i18n/texts.ts";

/** Internal: the visitor chose to repeat the booking (`detail.repeat`), or not (null). */
export type SeriesChoiceEvents = { "bc-repeat-change": { repeat: RecurrenceRequest | null } };

/** What the choice asks the booking API: the dates of a series, each with whether it is free. */
export interface SeriesSource {
  seriesSlots(start: string, interval: string, count: number): Promise<SeriesSlot[]>;
}

/**
 * "Repeat this booking": for event types whose `recurrence` allows a series, the visitor may book
 * the chosen time every week or two weeks, a number of times, and sees every date with whether it
 * is free (asked of `GET /time-slots/series` whenever the choice or the time changes, and again
 * after each attempt to book, so dates taken meanwhile show). Holds nothing itself: each change
 * goes up as `bc-repeat-change`.
 */
export class SeriesChoice extends LitElement {
  static override styles = [
    controlStyles,
    css`
    :host { display: block; }
    fieldset { border: none; padding: 0; margin: 0; display: grid; gap: 0.5rem; }
    .choice { display: flex; align-items: center; gap: 0.5rem; }
    .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
    .field { display: grid; gap: 0.3rem; }
    label { font-size: 0.9rem; }
    .field label { font-weight: 600; }
    ul { margin: 0; padding-left: 1.1rem; display: grid; gap: 0.15rem; font-size: 0.9rem; }
    .taken span { font-weight: 600; color: var(--bc-danger); }
  `,
  ];

  static override properties = {
    recurrence: { attribute: false },
    start: { type: String },
    repeat: { attribute: false },
    source: { attribute: false },
    busy: { type: Boolean },
    dates: { state: true },
  };

  declare recurrence: RecurrenceSetting;
  /** The first date's start, as GET /time-slots gave it. */
  declare start: string;
  declare repeat: RecurrenceRequest | null;
  declare source: SeriesSource;
  declare busy: boolean;
  declare dates: SeriesSlot[] | null;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });
  /** The newest question asked: an older answer arriving late is dropped. */
  #asked = 0;

  constructor() {
    super();
    this.repeat = null;
    this.busy = false;
    this.dates = null;
  }

  #t(key: TextKey): string {
    return this.#env.value!.texts(key);
  }

  #change(repeat: RecurrenceRequest | null): void {
    this.dispatchEvent(new CustomEvent("bc-repeat-change", { detail: { repeat } }));
  }

  protected override updated(changed: Map<string, unknown>): void {
    const attempted = changed.has("busy") && changed.get("busy") === true && !this.busy;
    if (changed.has("repeat") || changed.has("start") || attempted) void this.#load();
  }

  async #load(): Promise<void> {
    const asked = ++this.#asked;
    if (!this.repeat || !this.source) {
      this.dates = null;
      return;
    }
    try {
      const dates = await this.source.seriesSlots(this.start, this.repeat.interval, this.repeat.count);
      if (asked === this.#asked) this.dates = dates;
    } catch {
      // Booking still tells whether the series can be had; the list is only a preview.
      if (asked === this.#asked) this.dates = null;
    }
  }

  protected override render() {
    if (!this.#env.value || !this.recurrence) return nothing;
    const { intervals, maxOccurrences } = this.recurrence;
    const repeat = this.repeat;
    const first: RecurrenceRequest = { interval: intervals[0]!, count: Math.min(4, maxOccurrences) };
    return html`<fieldset part="series">
      <label class="choice"><input type="checkbox" .checked=${repeat !== null} @change=${(e: Event) => this.#change((e.target as HTMLInputElement).checked ? first : null)}>
        ${this.#t("repeatBooking")}</label>
      ${repeat ? this.#renderChoice(repeat, intervals, maxOccurrences) : nothing}
    </fieldset>`;
  }

  #renderChoice(repeat: RecurrenceRequest, intervals: RecurrenceSetting["intervals"], most: number) {
    const counts = Array.from({ length: most - 1 }, (_, i) => i + 2);
    const taken = this.dates?.some((d) => !d.available) ?? false;
    return html`<div class="pair">
        <div class="field"><label for="series-interval">${this.#t("repeatEvery")}</label>
          <select id="series-interval" part="input" @change=${(e: Event) => this.#change({ ...repeat, interval: (e.target as HTMLSelectElement).value as RecurrenceRequest["interval"] })}>
            ${intervals.map((i) => html`<option .value=${i} ?selected=${i === repeat.interval}>${this.#t(`repeat.${i}`)}</option>`)}
          </select></div>
        <div class="field"><label for="series-count">${this.#t("repeatCount")}</label>
          <select id="series-count" part="input" @change=${(e: Event) => this.#change({ ...repeat, count: Number((e.target as HTMLSelectElement).value) })}>
            ${counts.map((n) => html`<option .value=${String(n)} ?selected=${n === repeat.count}>${n}</option>`)}
          </select></div>
      </div>
      ${this.dates ? this.#renderDates(this.dates, taken) : html`<p class="muted" role="status">${this.#t("loading")}</p>`}`;
  }

  #renderDates(dates: SeriesSlot[], taken: boolean) {
    const { dates: format, timezone } = this.#env.value!;
    return html`<ul part="series-dates" aria-label=${this.#t("seriesDates")}>
        ${dates.map(
          (d) => html`<li class=${d.available ? "" : "taken"}>${format.instantDate(d.start, timezone)}, ${format.time(d.start, timezone)}
            ${d.available ? nothing : html`<span>(${this.#t("occurrenceTaken")})</span>`}</li>`,
        )}
      </ul>
      <p role="status" class=${taken ? "error" : "muted"}>${this.#t(taken ? "seriesSomeTaken" : "seriesAllFree")}</p>`;
  }
}
