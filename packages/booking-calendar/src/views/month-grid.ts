import { LitElement, css, html, nothing, type PropertyValues } from "lit";
import { ContextConsumer } from "@lit/context";
import { environmentContext } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";
import { addDays, addMonths, monthOf, monthWeeks, weekBounds, type PlainDate, type PlainMonth } from "../dates.ts";

/** Internal: the visitor moved to another month (`detail.month`) or picked a day (`detail.date`). */
export type MonthGridEvents = {
  "bc-month-change": { month: PlainMonth; focus: PlainDate | null };
  "bc-day-pick": { date: PlainDate };
  "bc-unavailable-pick": { date: PlainDate };
};

/**
 * A month of days as a WAI-ARIA date-picker grid: one day is in the tab order (roving tabindex),
 * arrows move by day and week, Home/End to the week's edges, PageUp/PageDown by month (with Shift
 * by year), Enter/Space picks. Days without free times stay focusable but are marked unavailable;
 * picking one says so (`bc-unavailable-pick`) and changes nothing.
 */
export class MonthGrid extends LitElement {
  static override styles = [
    controlStyles,
    css`
    :host { display: block; }
    .nav { display: flex; align-items: center; justify-content: space-between; gap: 0.5rem; margin-bottom: 0.5rem; }
    .nav h4 { margin: 0; font-size: 1rem; text-transform: capitalize; }
    .nav button { width: 2.5rem; padding: 0; font-size: 1.1rem; }
    table { border-collapse: collapse; width: 100%; table-layout: fixed; }
    th { font-size: 0.75rem; font-weight: 600; color: var(--bc-muted); padding: 0.25rem 0; text-transform: uppercase; }
    td { padding: 2px; text-align: center; }
    .day {
      width: 100%; min-height: 2.5rem; aspect-ratio: 1 / 1; max-height: 3rem; padding: 0; border-color: transparent;
      background: transparent; position: relative; font-variant-numeric: tabular-nums;
    }
    .day.free { background: color-mix(in srgb, var(--bc-primary) 12%, var(--bc-background)); font-weight: 600; color: var(--bc-text); }
    .day.free::after { content: ""; position: absolute; left: 50%; bottom: 0.3rem; width: 0.3rem; height: 0.3rem; margin-left: -0.15rem; border-radius: 50%; background: var(--bc-primary); }
    .day[aria-disabled="true"] { color: var(--bc-muted); opacity: 0.75; cursor: default; }
    .day.today { border-color: var(--bc-border); }
    .day[aria-pressed="true"] { background: var(--bc-primary); color: var(--bc-on-primary); }
    .day[aria-pressed="true"]::after { background: var(--bc-on-primary); }
    .loading { opacity: 0.6; }
  `,
  ];

  static override properties = {
    month: { type: String },
    freeDays: { attribute: false },
    selected: { type: String },
    minDate: { type: String },
    maxDate: { type: String },
    today: { type: String },
    weekStart: { type: Number },
    loading: { type: Boolean },
    focusDate: { state: true },
  };

  declare month: PlainMonth;
  /** Days with at least one free time, with how many. */
  declare freeDays: Map<PlainDate, number>;
  declare selected: PlainDate | null;
  declare minDate: PlainDate;
  declare maxDate: PlainDate;
  declare today: PlainDate;
  /** 0 = Monday, 6 = Sunday. */
  declare weekStart: number;
  declare loading: boolean;
  declare focusDate: PlainDate | null;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });
  #moveFocus = false;

  constructor() {
    super();
    this.month = "1970-01";
    this.freeDays = new Map();
    this.selected = null;
    this.minDate = "0000-01-01";
    this.maxDate = "9999-12-31";
    this.today = "1970-01-01";
    this.weekStart = 0;
    this.loading = false;
    this.focusDate = null;
  }

  /** Moves keyboard focus to `date` once it is rendered (after a month change by keyboard). */
  focusDay(date: PlainDate): void {
    this.focusDate = date;
    this.#moveFocus = true;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (this.#moveFocus && (changed.has("focusDate") || changed.has("month"))) {
      // After a month change by keyboard the day appears only once the new month is rendered.
      const day = this.renderRoot.querySelector<HTMLButtonElement>(`button[data-date="${this.focusDate}"]`);
      if (day) {
        this.#moveFocus = false;
        day.focus();
      }
    }
  }

  /** The one day in the tab order: the focused, the selected, the first free, or the first of the month. */
  #tabbableDay(): PlainDate {
    const inMonth = (d: PlainDate | null): d is PlainDate => d !== null && monthOf(d) === this.month;
    if (inMonth(this.focusDate)) return this.focusDate;
    if (inMonth(this.selected)) return this.selected;
    const firstFree = [...this.freeDays.keys()].filter((d) => monthOf(d) === this.month).sort()[0];
    if (firstFree) return firstFree;
    if (inMonth(this.today)) return this.today;
    return `${this.month}-01`;
  }

  #canShow(month: PlainMonth): boolean {
    return month >= monthOf(this.minDate) && month <= monthOf(this.maxDate);
  }

  #changeMonth(month: PlainMonth, focus: PlainDate | null): void {
    if (!this.#canShow(month)) return;
    this.dispatchEvent(new CustomEvent("bc-month-change", { detail: { month, focus } }));
  }

  #pick(date: PlainDate): void {
    const free = this.freeDays.has(date) && date >= this.minDate && date <= this.maxDate;
    this.dispatchEvent(new CustomEvent(free ? "bc-day-pick" : "bc-unavailable-pick", { detail: { date } }));
  }

  #onKeydown(event: KeyboardEvent, date: PlainDate): void {
    let target: PlainDate | null = null;
    switch (event.key) {
      case "ArrowLeft":
        target = addDays(date, -1);
        break;
      case "ArrowRight":
        target = addDays(date, 1);
        break;
      case "ArrowUp":
        target = addDays(date, -7);
        break;
      case "ArrowDown":
        target = addDays(date, 7);
        break;
      case "Home":
        target = weekBounds(date, this.weekStart)[0];
        break;
      case "End":
        target = weekBounds(date, this.weekStart)[1];
        break;
      case "PageUp":
        target = shiftMonths(date, event.shiftKey ? -12 : -1);
        break;
      case "PageDown":
        target = shiftMonths(date, event.shiftKey ? 12 : 1);
        break;
      case "Enter":
      case " ":
        event.preventDefault();
        this.#pick(date);
        return;
      default:
        return;
    }
    event.preventDefault();
    // Days outside the bookable range are out of reach: the move stops at the range's edge.
    target = target < this.minDate ? this.minDate : target > this.maxDate ? this.maxDate : target;
    if (target === date) return;
    this.focusDay(target);
    if (monthOf(target) !== this.month) this.#changeMonth(monthOf(target), target);
  }

  protected override render() {
    const env = this.#env.value;
    if (!env) return nothing;
    const { texts, dates } = env;
    const tabbable = this.#tabbableDay();
    const weekdays = Array.from({ length: 7 }, (_, i) => (i + this.weekStart) % 7);
    const title = dates.monthTitle(this.month);
    return html`
      <div class="nav">
        <button type="button" part="month-nav" aria-label=${texts("previousMonth")}
          ?disabled=${!this.#canShow(addMonths(this.month, -1))}
          @click=${() => this.#changeMonth(addMonths(this.month, -1), null)}>‹</button>
        <h4 id="title" part="month-title">${title}</h4>
        <button type="button" part="month-nav" aria-label=${texts("nextMonth")}
          ?disabled=${!this.#canShow(addMonths(this.month, 1))}
          @click=${() => this.#changeMonth(addMonths(this.month, 1), null)}>›</button>
      </div>
      <table role="grid" aria-labelledby="title" part="grid" class=${this.loading ? "loading" : ""} aria-busy=${this.loading ? "true" : "false"}>
        <thead><tr>${weekdays.map((d) => html`<th scope="col" abbr=${dates.weekday(d, "long")}>${dates.weekday(d, "short")}</th>`)}</tr></thead>
        <tbody>
          ${monthWeeks(this.month, this.weekStart).map(
            (week) => html`<tr>${week.map((date) => (date === null ? html`<td></td>` : this.#renderDay(date, date === tabbable)))}</tr>`,
          )}
        </tbody>
      </table>
    `;
  }

  #renderDay(date: PlainDate, tabbable: boolean) {
    const { texts, dates } = this.#env.value!;
    const free = this.freeDays.get(date) ?? 0;
    const inRange = date >= this.minDate && date <= this.maxDate;
    const selected = date === this.selected;
    const label = [dates.fullDate(date), date === this.today ? texts("today") : "", free > 0 ? texts("freeTimes", { count: free }) : texts("noFreeTimes")]
      .filter(Boolean)
      .join(", ");
    const classes = ["day", free > 0 ? "free" : "", date === this.today ? "today" : ""].join(" ");
    return html`<td role="gridcell" aria-selected=${selected ? "true" : "false"}>
      <button type="button" class=${classes} part=${free > 0 ? "day day-free" : "day"} data-date=${date}
        tabindex=${tabbable ? 0 : -1} aria-label=${label} aria-pressed=${selected ? "true" : "false"}
        aria-disabled=${free > 0 && inRange ? "false" : "true"}
        @click=${() => this.#pick(date)} @keydown=${(e: KeyboardEvent) => this.#onKeydown(e, date)}
        @focus=${() => {
          this.focusDate = date;
        }}>${dates.dayNumber(date)}</button>
    </td>`;
  }
}

/** The same day number `months` away, clamped to that month's length. */
function shiftMonths(date: PlainDate, months: number): PlainDate {
  const month = addMonths(monthOf(date), months);
  const day = Number(date.slice(8));
  const lastDay = Number(addDays(`${addMonths(month, 1)}-01`, -1).slice(8));
  return `${month}-${String(Math.min(day, lastDay)).padStart(2, "0")}`;
}
