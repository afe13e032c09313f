import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { TimeSlot } from "@booking/wire";
import type { BookingApi } from "../api.ts";
import { firstDayOf, lastDayOf, monthOf, type PlainDate, type PlainMonth } from "../dates.ts";

/** The calls the calendar asks its times with (a stand-in in unit tests). */
export type TimesApi = Pick<BookingApi, "timeSlots" | "firstFreeDay">;

/** What the calendar needs from the element that shows it. */
export interface CalendarOptions {
  /** The zone times are asked in: the visitor's. */
  zone(): string;
  /** A month's times arrived (a notice about an earlier failure is over). */
  arrived(): void;
  /** Asking for a month's times failed; `retry` asks again. */
  failed(error: unknown, retry: () => void): void;
}

const NO_SLOTS: TimeSlot[] = [];

/**
 * The calendar's view and the free times behind it, so the element only asks and renders: the
 * month shown and the day chosen in it, each month's times in the visitor's zone, and after an
 * empty month the first free day to jump to. A month is asked for once per start and zone, however
 * often it is shown while on its way; an answer for an older start or another zone is dropped. When
 * the visitor's zone changes, the months known are forgotten and the shown one is asked for again.
 */
export class CalendarController implements ReactiveController {
  /** The month shown. */
  month: PlainMonth = "1970-01";
  /** The day chosen in the shown month, whose times are listed. */
  day: PlainDate | null = null;
  #api: TimesApi | null = null;
  /** The zone the known months' times are in. */
  #zone = "";
  /** Bumped by every start, so what was asked under an older one is asked again and its answer dropped. */
  #start = 0;
  #months = new Map<PlainMonth, TimeSlot[]>();
  /** Months whose times are on their way, as "start zone month". */
  readonly #asking = new Set<string>();
  /** The first free day after an empty month, by "zone month" (null: none within the horizon). */
  #nextFreeBy = new Map<string, PlainDate | null>();
  #freeDaysOf: { slots: TimeSlot[]; days: Map<PlainDate, number> } | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CalendarOptions,
  ) {
    host.addController(this);
  }

  /** Before each update: times in another zone than the known months' are asked for afresh. */
  hostUpdate(): void {
    const zone = this.options.zone();
    if (zone === this.#zone) return;
    this.#zone = zone;
    if (this.#api) this.refresh();
  }

  /** A new start begins: what was known is forgotten, and answers to the start before are dropped. */
  restart(): void {
    this.#api = null;
    this.#start++;
    this.#months = new Map();
    this.#nextFreeBy = new Map();
  }

  /** The event type is loaded through `api`: the month of `opening` shown with no day chosen. */
  open(api: TimesApi, opening: PlainDate): void {
    this.#api = api;
    this.#zone = this.options.zone();
    this.day = null;
    this.show(monthOf(opening));
  }

  /** Shows `month`, asking for its times unless they are known or on their way. */
  show(month: PlainMonth): void {
    this.month = month;
    void this.#load(month);
    this.host.requestUpdate();
  }

  /** Chooses `day` of the shown month. */
  choose(day: PlainDate): void {
    this.day = day;
    this.host.requestUpdate();
  }

  /** Forgets every month's times and asks for the shown one again (e.g. a time was taken meanwhile). */
  refresh(): void {
    this.#months = new Map();
    void this.#load(this.month);
  }

  /** Whether the shown month's own times are on their way. */
  get loading(): boolean {
    return this.#asking.has(this.#key(this.month));
  }

  /** Whether the shown month's times arrived, and it has none free. */
  get empty(): boolean {
    return !this.loading && this.#months.get(this.month)?.length === 0;
  }

  /** The chosen day's times (none until its month's arrive). */
  get daySlots(): TimeSlot[] {
    return this.#slots().filter((slot) => slot.date === this.day);
  }

  /** Free times per day of the shown month; the same map until its times change, so the grid re-renders only then. */
  get freeDays(): Map<PlainDate, number> {
    const slots = this.#slots();
    if (this.#freeDaysOf?.slots !== slots) {
      const days = new Map<PlainDate, number>();
      for (const slot of slots) days.set(slot.date, (days.get(slot.date) ?? 0) + 1);
      this.#freeDaysOf = { slots, days };
    }
    return this.#freeDaysOf.days;
  }

  /** After the shown month turned out empty: the first free day after it, null when none, undefined while not known. */
  get nextFree(): PlainDate | null | undefined {
    return this.#nextFreeBy.get(`${this.#zone} ${this.month}`);
  }

  #slots(): TimeSlot[] {
    return this.#months.get(this.month) ?? NO_SLOTS;
  }

  #key(month: PlainMonth): string {
    return `${this.#start} ${this.#zone} ${month}`;
  }

  async #load(month: PlainMonth, again = false): Promise<void> {
    const api = this.#api,
      start = this.#start,
      zone = this.#zone;
    const key = this.#key(month);
    if (!api || (!again && this.#months.has(month)) || this.#asking.has(key)) return;
    this.#asking.add(key);
    this.host.requestUpdate();
    try {
      const slots = await api.timeSlots(firstDayOf(month), lastDayOf(month), zone);
      if (start !== this.#start || zone !== this.#zone) return;
      this.#months.set(month, slots);
      this.options.arrived();
      if (slots.length === 0) void this.#findNextFree(api, month, zone, start);
    } catch (error) {
      if (start === this.#start) this.options.failed(error, () => void this.#load(month, true));
    } finally {
      this.#asking.delete(key);
      this.host.requestUpdate();
    }
  }

  /**
   * An empty month: asks the server for the first free day after it (one request, not a scan of
   * months). Not knowing it only leaves the jump out; the visitor can page on by hand.
   */
  async #findNextFree(api: TimesApi, month: PlainMonth, zone: string, start: number): Promise<void> {
    const key = `${zone} ${month}`;
    if (this.#nextFreeBy.has(key)) return;
    try {
      const date = await api.firstFreeDay(firstDayOf(month), zone);
      if (start !== this.#start) return;
      this.#nextFreeBy.set(key, date);
      this.host.requestUpdate();
    } catch {
      // Left out: the month still says it has no free times.
    }
  }
}
