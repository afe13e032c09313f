import { LitElement, html, nothing, type PropertyValues } from "lit";
import { ContextProvider } from "@lit/context";
import { Task } from "@lit/task";
import type { EventTypeConfiguration, InitData, ReservationInput, ReservationResult } from "@booking/wire";
import { ApiFailure, BookingApi, idempotencyKey } from "./api.ts";
import { CalendarController } from "./calendar-controller.ts";
import { HoldController } from "./hold-controller.ts";
import { calendarStyles, controlStyles, themeStyles } from "./booking-calendar.styles.ts";
import { environmentContext, type CalendarEnvironment } from "./context.ts";
import { addDays, browserZone, DateTexts, isKnownZone, localeUses12Hours, monthOf, todayIn, type PlainDate } from "./dates.ts";
import { answersOf, checkDraft, emptyDraft, locationOf, personOf, placeOf, prefilled, PREFILL_KEYS } from "./draft.ts";
import { emit } from "./events.ts";
import { LIMITS } from "@booking/wire/limits";
import * as flows from "./flow.ts";
import type { Flow, FlowOf, SlotFlow } from "./flow.ts";
import { failureText, safeLocale, textsWith, type TextKey, type Texts } from "./texts.ts";
import { chooseLanguage, type Language } from "./i18n/catalog.ts";
import { fieldProblems } from "./i18n/field-errors.ts";
import { loadCatalog, loadedCatalog } from "./i18n/load.ts";
import { adoptTheme, themeMode } from "./theme.ts";
import { PageSchemeController } from "./page-scheme.ts";
import { loadPart } from "./parts.ts";
import type { BookingFormEvents } from "./booking-form.ts";
import type { MonthGridEvents } from "./month-grid.ts";
import type { PaymentStepEvents } from "./payment-step.ts";
import type { SlotListEvents } from "./slot-list.ts";
import type { TimezonePickerEvents } from "./timezone-picker.ts";
import { renderChosen, renderDone, renderHeader, renderReservationSummary, renderSkeleton, type DoneState } from "./views.ts";

/** Where the visitor's 12h/24h choice is kept for the visit (the tab's session). */
const HOUR_CYCLE_KEY = "booking-calendar:hour12";

function rememberedHour12(): boolean | null {
  try {
    const kept = sessionStorage.getItem(HOUR_CYCLE_KEY);
    return kept === null ? null : kept === "true";
  } catch {
    // Storage can be off (privacy settings, sandboxed frames): the locale's clock then.
    return null;
  }
}

/** A message above the current view; `retry` offers to repeat what failed. */
interface Notice {
  text: string;
  danger: boolean;
  retry?: () => void;
  /** Epoch ms before which the retry waits (429 `Retry-After`); it then runs by itself. */
  retryAt?: number;
}

let scriptApiBase = "";

/** Sets the API origin used when `api-base` is not given: the script-tag build passes the origin it was served from. */
export function setDefaultApiBase(origin: string): void {
  scriptApiBase = origin;
}

/**
 * A booking calendar for one event type: a visitor picks a day and a time, gives their details,
 * pays when the event type costs money, and gets a confirmation with a calendar file. Opened with
 * `reservation-uuid`, it shows that booking and lets the visitor move or cancel it.
 *
 * @attr token - The event type's public API token (or its booking-link token). Required.
 * @attr api-base - Origin of the booking API; defaults to the origin the script was served from.
 * @attr reservation-uuid - Reschedule mode: the reservation to move or cancel.
 * @attr timezone - IANA zone for the times shown; defaults to the visitor's. The visitor can change it
 *   in the always-shown zone picker, and switch 12h/24h (kept for the visit; default from the locale).
 * @attr locale - BCP 47 tag for the language and the dates; defaults to the event type's `locale.preset`,
 *   then the visitor's browser languages. Texts come from the built-in catalog of its language (exact or
 *   base: `de-AT` → `de`), else English; the event type's `locale.texts` override them.
 * @attr theme - `light`, `dark` or `auto`; overrides the event type's `theme.mode`.
 * @attr email - Prefill. @attr firstname - Prefill. @attr lastname - Prefill. @attr phone - Prefill.
 *
 * @event booking-ready - The event type is loaded ({ configuration, disabled, rescheduling }).
 * @event booking-date-selected - A day was chosen ({ date, timezone }).
 * @event booking-slot-selected - A time was chosen ({ slot, timezone }); cancelable.
 * @event booking-reservation-held - A seat is held while the visitor pays ({ uuid, start, end, heldUntil }).
 * @event booking-payment-started - The card form is shown ({ uuid, paymentIntentId, amount, currency }).
 * @event booking-reservation-confirmed - The booking exists ({ uuid, start, end, result }).
 * @event booking-rescheduled - The booking moved ({ uuid, start, end, previousStart }).
 * @event booking-cancelled - The booking was cancelled ({ uuid }).
 * @event booking-error - Something failed that the visitor was told about ({ code, message, status }).
 *
 * @slot payment-element - Filled by the element itself with the node Stripe's Payment Element mounts into.
 *
 * @csspart frame - The outer box. @csspart header - Title, description and image.
 * @csspart notice - Messages above the view. @csspart retry - Retry buttons.
 * @csspart month-title - @csspart month-nav - @csspart grid - @csspart day - @csspart day-free -
 * @csspart slots - @csspart slot - @csspart timezone - @csspart timezone-select -
 * @csspart form - @csspart input - @csspart field - @csspart locations - @csspart guests - @csspart submit -
 * @csspart hold-timer - @csspart payment-element - @csspart pay - @csspart test-badge -
 * @csspart summary - @csspart confirmation - @csspart add-to-calendar - @csspart cancel -
 * @csspart avatar - The host's image (or initials). @csspart skeleton - Placeholders while loading.
 * @csspart empty-month - @csspart next-available - The jump to the next free day after an empty month.
 * @csspart success-mark - @csspart amount-paid - @csspart cancel-reason - @csspart book-another -
 *
 * @cssproperty --bc-primary - Accent colour (theme.colors.primary).
 * @cssproperty --bc-on-primary - Text on the accent colour.
 * @cssproperty --bc-background - Background (theme.colors.background).
 * @cssproperty --bc-surface - Background of summaries and notices.
 * @cssproperty --bc-text - Text colour (theme.colors.text).
 * @cssproperty --bc-muted - Secondary text (theme.colors.muted).
 * @cssproperty --bc-border - Borders (theme.colors.border).
 * @cssproperty --bc-danger - Errors and the cancel button (theme.colors.danger).
 * @cssproperty --bc-on-danger - Text on the danger colour.
 * @cssproperty --bc-success - The success mark. @cssproperty --bc-on-success - The tick on it.
 * @cssproperty --bc-skeleton - Loading placeholders.
 * @cssproperty --bc-radius - Corner radius (theme.borderRadius).
 * @cssproperty --bc-font - Font family.
 */
export class BookingCalendar extends LitElement {
  static override styles = [themeStyles, controlStyles, calendarStyles];

  static override properties = {
    token: { type: String },
    apiBase: { type: String, attribute: "api-base" },
    reservationUuid: { type: String, attribute: "reservation-uuid" },
    timezone: { type: String },
    locale: { type: String },
    theme: { type: String },
    email: { type: String },
    firstname: { type: String },
    lastname: { type: String },
    phone: { type: String },
    flow: { state: true },
    notice: { state: true },
    busy: { state: true },
    hour12: { state: true },
    now: { state: true },
  };

  declare token: string;
  declare apiBase: string;
  declare reservationUuid: string;
  declare timezone: string;
  declare locale: string;
  declare theme: string;
  declare email: string;
  declare firstname: string;
  declare lastname: string;
  declare phone: string;

  /** Where the visitor is in booking, with what that step needs (see flow.ts). */
  declare flow: Flow;
  declare notice: Notice | null;
  /** A request of the step shown is under way (its buttons wait). */
  declare busy: boolean;
  /** The visitor's 12h/24h choice for this visit; null follows the locale. */
  declare hour12: boolean | null;
  /** The time a 429's countdown was last drawn at. */
  declare now: number;

  private readonly environment = new ContextProvider(this, { context: environmentContext });
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private paymentMount: HTMLElement | null = null;
  /** The seat held while the visitor pays, with the payment opened for it. */
  private readonly holds = new HoldController(this, {
    holdMinutes: () => this.configuration?.holdMinutes ?? 0,
    lost: () => this.backToSlots("holdLost"),
    ended: () => {
      this.paymentMount?.remove();
      this.paymentMount = null;
    },
  });
  /** The month shown, the day chosen, and their free times. */
  private readonly calendar = new CalendarController(this, {
    zone: () => this.visitorZone,
    arrived: () => {
      if (this.notice?.retry) this.notice = null;
    },
    failed: (error, retry) => this.report(error, retry),
  });
  /** The zones the picker offers: the server's list; without it, the visitor's and the organizer's. */
  private readonly zones = new Task(this, {
    autoRun: false,
    task: ([api, own]: [BookingApi, string[]]) => api.timezones().catch(() => own),
  });

  constructor() {
    super();
    // `theme.mode: auto` follows the host page's own light or dark where it fixes one.
    new PageSchemeController(this);
    this.token = "";
    this.apiBase = "";
    this.reservationUuid = "";
    this.timezone = "";
    this.locale = "";
    this.theme = "";
    this.email = "";
    this.firstname = "";
    this.lastname = "";
    this.phone = "";
    this.flow = flows.initialFlow;
    this.notice = null;
    this.busy = false;
    this.hour12 = rememberedHour12();
    this.now = Date.now();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.retryTimer);
  }

  /** The visitor's zone: the `timezone` attribute when the browser knows it, else the browser's own. */
  get visitorZone(): string {
    return this.timezone && isKnownZone(this.timezone) ? this.timezone : browserZone();
  }

  /** The loaded event type (during a new start, the one loaded before). */
  private get init(): InitData | null {
    return this.flow.init;
  }

  private get configuration(): EventTypeConfiguration | null {
    return this.init?.configuration ?? null;
  }

  private get env(): CalendarEnvironment {
    return this.environment.value;
  }

  private t(key: TextKey, values?: Record<string, string | number>): string {
    return this.env.texts(key, values);
  }

  /** Focuses what `selector` finds once the next render is done (the heading of a new step, the times of a day). */
  private focusAfterUpdate(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("token") || changed.has("apiBase") || changed.has("reservationUuid")) {
      // Run here rather than by the task itself, so the new start shows (loading) in this same update.
      if (this.token) void this.loader.run();
    }
    // Times are shown in the visitor's zone: in another, the chosen one is no longer marked (the calendar asks again).
    if (changed.has("timezone")) this.flow = flows.slotCleared(this.flow);
    if (changed.has("locale") || changed.has("hour12") || this.init !== this.environmentInit || changed.has("timezone") || !this.environment.value || this.catalogArrived) this.provideEnvironment();
    const flow = this.flow;
    if (flows.isBooking(flow)) {
      const draft = prefilled(flow.draft, this, PREFILL_KEYS.filter((key) => changed.has(key)));
      if (draft !== flow.draft) this.flow = flows.drafted(flow, draft);
    }
    this.dataset.mode = themeMode(this.theme, this.configuration?.theme.mode);
  }

  protected override updated(): void {
    const config = this.configuration;
    if (this.init === this.themedInit) return;
    this.themedInit = this.init;
    if (this.shadowRoot && config) adoptTheme(this.shadowRoot, BookingCalendar.elementStyles, config.theme.colors, config.theme.borderRadius);
  }

  /** The init the environment and the theme were last made from (a new one makes them again). */
  private environmentInit: InitData | null = null;
  private themedInit: InitData | null = null;

  /** Set when a catalog asked for after the first paint arrives, so the next update speaks it. */
  private catalogArrived = false;

  private provideEnvironment(): void {
    this.environmentInit = this.init;
    this.catalogArrived = false;
    const wanted = this.locale || this.configuration?.locale.preset || navigator.language || "en";
    const locale = safeLocale(wanted);
    const dates = new DateTexts(locale, this.hour12 ?? localeUses12Hours(locale));
    this.environment.setValue({ texts: this.textsFor(this.configuration), dates, timezone: this.visitorZone });
  }

  /** The language of the texts: the `locale` attribute, the event type's preset, the browser's languages, English. */
  private languageFor(config: EventTypeConfiguration | null): Language {
    return chooseLanguage([this.locale, config?.locale.preset, ...(navigator.languages ?? []), navigator.language]);
  }

  /**
   * The texts for a configuration in its language when that catalog is loaded; else English for
   * now, and the catalog is asked for so the element speaks it once it arrives.
   */
  private textsFor(config: EventTypeConfiguration | null): Texts {
    const language = this.languageFor(config);
    const catalog = loadedCatalog(language);
    if (!catalog) {
      void loadCatalog(language).then(() => {
        this.catalogArrived = true;
        this.requestUpdate();
      }, () => undefined);
    }
    return textsWith(config?.locale.texts, catalog ?? loadedCatalog("en"), catalog ? language : "en");
  }

  /**
   * (Re)loads the event type: gives back the holds of the start before, then asks init. Only the
   * latest run's answer or failure counts (an older start's is dropped).
   */
  private readonly loader = new Task(this, {
    autoRun: false,
    args: () => [this.token, this.apiBase, this.reservationUuid] as const,
    task: async ([token, apiBase, reservationUuid]) => {
      const api = new BookingApi((apiBase || scriptApiBase || location.origin).replace(/\/+$/, ""), token);
      this.flow = flows.starting(this.flow);
      this.notice = null;
      this.calendar.restart();
      // A hold made under another token or API is given back (through the API it was made with),
      // and so are the holds this tab left behind under the new ones.
      await this.holds.restart(api, token);
      const init = await api.init(reservationUuid || undefined);
      // The first paint of the calendar waits for its language, so it does not flash English;
      // a catalog that cannot be loaded leaves it in English.
      await loadCatalog(this.languageFor(init.configuration)).catch(() => undefined);
      return { api, init };
    },
    onComplete: ({ api, init }) => this.opened(init, api),
    onError: (error) => this.loadFailed(error),
  });

  /** The event type is loaded: the month that holds the closest bookable day, and the zones to offer. */
  private opened(init: InitData, api: BookingApi): void {
    // A Task drops what its onComplete throws, so a configuration this browser cannot open (a zone
    // it does not know) is caught here and shown like a failed load, with Retry.
    try {
      const config = init.configuration;
      this.flow = flows.loaded(init, api, prefilled(emptyDraft(), this));
      if (!init.disabled) {
        const today = todayIn(config.timezone);
        if (config.closestBookableDay < 0) this.notice = { text: this.textsFor(config)("nothingFree"), danger: false };
        this.calendar.open(api, addDays(today, config.closestBookableDay >= 0 ? config.closestBookableDay : config.min));
        void this.zones.run([api, [...new Set([this.visitorZone, config.timezone])]]);
      }
      emit(this, "booking-ready", { configuration: config, disabled: init.disabled, rescheduling: !!init.reservation });
    } catch (error) {
      this.loadFailed(error);
    }
  }

  private loadFailed(error: unknown): void {
    this.flow = flows.loadFailed(this.flow);
    this.report(error, () => void this.loader.run());
  }

  /** The visitor's 12h/24h choice, kept for the rest of the visit. */
  private setHour12(hour12: boolean): void {
    this.hour12 = hour12;
    try {
      sessionStorage.setItem(HOUR_CYCLE_KEY, String(hour12));
    } catch {
      // Kept for this page only.
    }
  }

  /** Shows a failure as a notice with a retry (after `Retry-After` for 429) and tells the host page. */
  private report(error: unknown, retry: () => void): void {
    const failure = error instanceof ApiFailure ? error : new ApiFailure("unexpected", "unexpected_response", String(error));
    const texts = this.environment.value?.texts ?? textsWith();
    const notice: Notice = { text: failureText(texts, failure), danger: true, retry };
    if (failure.kind === "rate_limited") {
      notice.retryAt = Date.now() + failure.retryAfter * 1000;
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.runRetry(notice), failure.retryAfter * 1000);
    }
    this.notice = notice;
    // The countdown ticks only while its notice is the one shown.
    if (notice.retryAt) this.tick(notice);
    this.tellError(failure);
  }

  /** Tells the host page what the visitor was told went wrong. */
  private tellError({ code, message, status }: Pick<ApiFailure, "code" | "message" | "status">): void {
    emit(this, "booking-error", { code, message, status });
  }

  /** Re-renders each second while a 429 retry waits, for its countdown. */
  private tick(notice: Notice): void {
    this.now = Date.now();
    if (this.notice === notice && notice.retryAt && notice.retryAt > this.now) setTimeout(() => this.tick(notice), 1000);
  }

  private runRetry(notice: Notice): void {
    if (this.notice !== notice) return;
    clearTimeout(this.retryTimer);
    this.notice = null;
    notice.retry?.();
  }

  // ---- choosing a time ----

  private pickDay(date: PlainDate): void {
    this.calendar.choose(date);
    this.flow = flows.slotCleared(this.flow);
    emit(this, "booking-date-selected", { date, timezone: this.visitorZone });
    this.focusAfterUpdate("#times");
  }

  /** Jumps to the offered day: its month, the day chosen, its times in view. */
  private jumpTo(date: PlainDate): void {
    this.calendar.show(monthOf(date));
    this.pickDay(date);
  }

  private onSlotPick(event: CustomEvent<SlotListEvents["bc-slot-pick"]>): void {
    const slot = event.detail.slot;
    const flow = this.flow;
    if (flow.kind !== "picking" || !emit(this, "booking-slot-selected", { slot, timezone: this.visitorZone }, true)) return;
    this.notice = null;
    this.flow = flows.slotChosen(flow, slot);
    this.focusAfterUpdate("h3[tabindex]");
  }

  /** One step back (see flows.back); the notice was about the step left. */
  private goBack(): void {
    this.flow = flows.back(this.flow);
    this.notice = null;
  }

  /** Back to the days and times with fresh slots, e.g. after the chosen time was taken. */
  private backToSlots(message: TextKey | null): void {
    this.flow = flows.backToSlots(this.flow);
    // A hold still standing (e.g. the payment could not be opened) is given back; a lost one is gone.
    void this.holds.release();
    this.holds.end();
    this.calendar.refresh();
    this.notice = message ? { text: this.t(message), danger: true } : null;
  }

  // ---- booking ----

  private reservationInput({ init, slot, draft }: FlowOf<"details">): ReservationInput {
    const location = locationOf(draft, init.configuration.locations);
    const guests = draft.guests.map((g) => g.trim()).filter(Boolean);
    const customFields = answersOf(draft, init.customFields);
    return {
      start: slot.start,
      end: slot.end,
      email: draft.email.trim(),
      timezone: this.visitorZone,
      ...personOf(draft),
      ...(location ? { location } : {}),
      ...(guests.length ? { guests } : {}),
      ...(customFields.length ? { customFields } : {}),
    };
  }

  private async submitDetails(): Promise<void> {
    const flow = this.flow;
    if (flow.kind !== "details") return;
    const config = flow.init.configuration;
    const found = Object.entries(checkDraft(flow.draft, flow.init.customFields, config.locations));
    this.flow = flows.problemsFound(flow, Object.fromEntries(found.map(([field, p]) => [field, [this.t(p.key, p.values)]])));
    if (found.length > 0) return this.showProblems("fixErrors");
    this.notice = null;
    const key = idempotencyKey();
    await (config.payment ? this.prepareAndPay(key) : this.book(key));
  }

  /** Says the form has problems and focuses the first of them. */
  private showProblems(text: TextKey): void {
    this.notice = { text: this.t(text), danger: true };
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement & { focusFirstProblem(): void }>("bc-booking-form")?.focusFirstProblem());
  }

  /** Free event types book in one step. */
  private async book(key: string): Promise<void> {
    const flow = this.flow;
    if (flow.kind !== "details") return;
    const input = this.reservationInput(flow);
    await this.attempt(() => this.book(key), async () => {
      this.finish(flow, "booked", await flow.api.create(input, key));
    });
  }

  /**
   * Paid event types: hold the seat, open a payment for it, then show the card form. A visitor back
   * from the payment gives their earlier hold back first, so it cannot stand in their own way; once a
   * card payment was sent, they return to it instead.
   */
  private async prepareAndPay(key: string): Promise<void> {
    const flow = this.flow;
    const price = flow.init?.configuration.payment;
    if (flow.kind !== "details" || !price) return;
    const hold = this.holds.current;
    if (hold?.charging && hold.payment) {
      // Money may have moved for that time: back to its payment, showing its time.
      this.flow = flows.paymentOpened(flow, hold.slot);
      return;
    }
    const input = this.reservationInput(flow);
    await this.attempt(() => this.prepareAndPay(key), async () => {
      // The payment step's code first (fetched on the first payment): nothing is held if it cannot be loaded.
      await loadPart("payment").catch((error: unknown) => {
        throw new ApiFailure("network", "network_error", error instanceof Error ? error.message : String(error));
      });
      // A retry of this same attempt keeps its hold and only opens the payment again.
      if (hold && hold.key === key) return this.openPayment(flow, price, hold.uuid, `${key}:pay`);
      await this.holds.release();
      const { uuid } = await flow.api.prepare(input, key);
      const held = this.holds.hold(flow.api, uuid, key, flow.slot);
      emit(this, "booking-reservation-held", { uuid, start: input.start, end: input.end, heldUntil: new Date(held.heldUntil).toISOString() });
      await this.openPayment(flow, price, uuid, `${key}:pay`);
    });
  }

  /** Opens the payment for the held seat `uuid` and shows the card form. */
  private async openPayment(flow: FlowOf<"details">, price: NonNullable<EventTypeConfiguration["payment"]>, uuid: string, key: string): Promise<void> {
    const { draft, api } = flow;
    const name = [draft.firstname.trim(), draft.lastname.trim()].filter(Boolean).join(" ");
    const intent = await api.pay(uuid, { email: draft.email.trim(), ...(name ? { name } : {}) }, key);
    this.holds.paymentOpened({
      publishableKey: price.publishableKey ?? "",
      providerAccountId: intent.providerAccountId,
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.paymentIntentId,
      amountText: this.env.dates.money(intent.amount, price.currency),
      ...(price.stripeJsUrl ? { stripeJsUrl: price.stripeJsUrl } : {}),
    });
    this.ensurePaymentMount();
    // What the visitor typed while the payment was opened goes along to the card form (and back).
    const now = this.flow;
    this.flow = flows.paymentOpened(now.kind === "details" ? now : flow, flow.slot);
    emit(this, "booking-payment-started", { uuid, paymentIntentId: intent.paymentIntentId, amount: intent.amount, currency: price.currency });
  }

  /** Stripe.js could not be loaded: the seat is given back, and the visitor can try again from the form. */
  private paymentUnavailable(message: string): void {
    void this.holds.release();
    this.flow = flows.back(this.flow);
    this.notice = { text: this.t("paymentUnavailable"), danger: true, retry: () => void this.submitDetails() };
    this.tellError({ code: "payment_unavailable", message, status: null });
  }

  /** A card payment is being confirmed (true: the hold is never given back now), or that is over. */
  private cardConfirming(confirming: boolean): void {
    this.flow = flows.cardConfirming(this.flow, confirming);
    if (confirming) this.holds.charging(true);
  }

  /** The card form could not be shown, or the payment did not go through (when clearly refused, no money moved). */
  private paymentFailed({ message, refused, unavailable }: PaymentStepEvents["bc-payment-error"]): void {
    if (unavailable) return this.paymentUnavailable(message);
    this.cardConfirming(false);
    if (refused) this.holds.charging(false);
    this.notice = { text: this.t("paymentFailed", { message }), danger: true };
    this.tellError({ code: "payment_failed", message, status: null });
  }

  private async confirmPaid(): Promise<void> {
    const flow = this.flow;
    const hold = this.holds.current;
    if (flow.kind !== "paying" || !hold) return;
    const key = idempotencyKey();
    await this.attempt(() => this.confirmPaid(), async () => {
      this.finish(flow, "booked", await flow.api.confirm(hold.uuid, {}, key));
    });
  }

  /** Runs one step of a flow with the busy flag; sorts its failures into the visitor's next move. */
  private async attempt(retry: () => void, step: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await step();
    } catch (error) {
      this.handleFlowError(error, retry);
    } finally {
      this.busy = false;
    }
  }

  private handleFlowError(error: unknown, retry: () => void): void {
    if (!(error instanceof ApiFailure)) return this.report(error, retry);
    const { code, kind } = error;
    // The time is gone for this visitor: taken, being taken, or their hold on it ended.
    const timeLost = code === "reservation_finished" ? "holdLost" : kind !== "business" ? null : code === "slot_locked" ? "slotBusy" : code === "slot_unavailable" ? "slotTaken" : null;
    if (timeLost) {
      this.tellError(error);
      return this.backToSlots(timeLost);
    }
    if (code === "payment_required") {
      this.flow = flows.paymentRequired(this.flow);
      this.notice = { text: this.t("paymentRequired"), danger: true };
      return;
    }
    if (kind === "validation") {
      const onForm = Object.keys(error.errors).some((k) => !["start", "end", "timezone"].includes(k));
      // Problems of the time alone (start, end, zone) have no field to show at.
      if (onForm) this.flow = flows.problemsFound(this.flow, fieldProblems(this.env.texts, error.errors, error.fieldErrors));
      this.showProblems(onForm ? "fixErrors" : "invalidRequest");
      return this.tellError(error);
    }
    this.report(error, retry);
  }

  private finish(flow: SlotFlow, kind: DoneState["kind"], result: ReservationResult): void {
    const { init, slot, draft } = flow;
    const uuid = result.uuid ?? this.holds.current?.uuid ?? "";
    this.holds.end();
    const email = draft.email.trim() || init.reservation?.email || "";
    // A move keeps the booking's place; a new booking has the one chosen, with the organizer's address or number.
    const location = kind === "rescheduled" ? (init.reservation?.location ?? null) : placeOf(draft, init.configuration.locations);
    this.flow = flows.finished(flow, { kind, slot, result, email, location });
    this.notice = null;
    if (kind === "booked") emit(this, "booking-reservation-confirmed", { uuid, start: slot.startIso8601, end: slot.endIso8601, result });
    this.focusAfterUpdate("h3[tabindex]");
  }

  /** Stripe's iframes are mounted in the page's light DOM and slotted in, not inside the shadow root. */
  private ensurePaymentMount(): void {
    if (this.paymentMount?.isConnected) return;
    const mount = document.createElement("div");
    mount.slot = "payment-element";
    this.append(mount);
    this.paymentMount = mount;
  }

  // ---- reschedule and cancel ----

  private async move(): Promise<void> {
    const flow = this.flow;
    if (flow.kind !== "moving") return;
    const { reservation, slot } = flow;
    await this.attempt(() => void this.move(), async () => {
      const result = await flow.api.reschedule(reservation.uuid, { start: slot.start, end: slot.end, timezone: this.visitorZone });
      this.finish(flow, "rescheduled", result);
      emit(this, "booking-rescheduled", { uuid: reservation.uuid, start: slot.startIso8601, end: slot.endIso8601, previousStart: reservation.start });
    });
  }

  private async cancelReservation(): Promise<void> {
    const flow = this.flow;
    const reservation = flow.init?.reservation;
    if (flow.kind !== "picking" || !reservation) return;
    await this.attempt(() => void this.cancelReservation(), async () => {
      await flow.api.cancel(reservation.uuid, flow.cancelReason ?? "");
      this.flow = flows.reservationCancelled(flow, reservation);
      emit(this, "booking-cancelled", { uuid: reservation.uuid });
      this.focusAfterUpdate("h3[tabindex]");
    });
  }

  /** After a cancellation: a fresh booking of the same event type. */
  private bookAnother(): void {
    // Leaving reschedule mode starts the event type afresh (willUpdate runs the loader).
    if (this.reservationUuid) this.reservationUuid = "";
    else void this.loader.run();
  }

  // ---- rendering ----

  protected override render() {
    const config = this.configuration;
    return html`
      <section class="frame ${config?.compact ? "compact" : ""}" part="frame" aria-label=${config?.calendarTitle ?? config?.title ?? "Booking calendar"}>
        ${config ? renderHeader(config, this.env) : nothing}
        ${this.renderNotice()}
        ${this.renderStep()}
      </section>`;
  }

  private renderNotice() {
    const notice = this.notice;
    const live = html`<div role="status" aria-live="polite" class="visually-hidden">${this.flow.kind === "picking" ? this.t("monthShown", { month: this.env.dates.monthTitle(this.calendar.month) }) : ""}</div>`;
    if (!notice) return live;
    const waitSeconds = notice.retryAt ? Math.max(0, Math.ceil((notice.retryAt - this.now) / 1000)) : 0;
    return html`${live}<div class="notice ${notice.danger ? "danger" : ""}" part="notice" role="alert">
      <p style="margin:0">${notice.text}${waitSeconds > 0 ? html` ${this.t("retryIn", { seconds: waitSeconds })}` : nothing}</p>
      ${notice.retry ? html`<div class="actions"><button type="button" part="retry" ?disabled=${waitSeconds > 0}
        @click=${() => this.runRetry(notice)}>${this.t("retry")}</button></div>` : nothing}
    </div>`;
  }

  private renderStep() {
    const flow = this.flow;
    switch (flow.kind) {
      case "loading":
        return renderSkeleton(this.t("loading"));
      case "failed":
        return nothing;
      case "disabled":
        return html`<div class="state" part="disabled"><p>${this.t("notBookable")}</p></div>`;
      case "picking":
        return this.renderPick(flow);
      case "details":
        return this.renderDetails(flow);
      case "moving":
        return this.renderMove(flow);
      case "paying":
        return this.renderPay(flow);
      case "done":
        return html`${renderDone(flow.done, flow.init.configuration, this.env, flow.init.reservation?.uuid)}${flow.done.kind === "cancelled" ? this.renderBookAnother() : nothing}`;
    }
  }

  private renderPick(flow: FlowOf<"picking">) {
    const config = flow.init.configuration;
    const reservation = flow.init.reservation;
    if (reservation && reservation.status === "cancelled") {
      return html`${renderReservationSummary(reservation, this.env, config)}<p>${this.t("alreadyCancelled")}</p>${this.renderBookAnother()}`;
    }
    const today = todayIn(config.timezone);
    const calendar = this.calendar;
    const daySlots = calendar.daySlots;
    return html`
      ${reservation ? html`${renderReservationSummary(reservation, this.env, config)}${this.renderCancel(flow)}<h3>${this.t("pickNewTime")}</h3>` : nothing}
      <div class="pick">
        <div>
          <h3 class=${reservation ? "visually-hidden" : ""}>${this.t("chooseDate")}</h3>
          <bc-month-grid exportparts="month-title, month-nav, grid, day, day-free"
            .month=${calendar.month} .freeDays=${calendar.freeDays} .selected=${calendar.day}
            .minDate=${addDays(today, config.min - 1)} .maxDate=${addDays(today, config.max + 1)} .today=${todayIn(this.visitorZone)}
            .weekStart=${config.locale.startDayOfWeek === "sunday" ? 6 : 0} ?loading=${calendar.loading}
            @bc-month-change=${(e: CustomEvent<MonthGridEvents["bc-month-change"]>) => calendar.show(e.detail.month)}
            @bc-day-pick=${(e: CustomEvent<MonthGridEvents["bc-day-pick"]>) => this.pickDay(e.detail.date)}></bc-month-grid>
          ${calendar.empty ? this.renderEmptyMonth() : nothing}
          <bc-timezone-picker exportparts="timezone, timezone-select" style="margin-top:1rem" .value=${this.visitorZone} .zones=${this.zones.value ?? []}
            @bc-zone-change=${(e: CustomEvent<TimezonePickerEvents["bc-zone-change"]>) => { this.timezone = e.detail.timezone; }}
            @bc-hour-cycle-change=${(e: CustomEvent<TimezonePickerEvents["bc-hour-cycle-change"]>) => this.setHour12(e.detail.hour12)}></bc-timezone-picker>
        </div>
        <div>
          ${calendar.day ? html`<h4 id="times" tabindex="-1">${this.env.dates.fullDate(calendar.day)}</h4>
            <bc-slot-list exportparts="slots, slot" .slots=${daySlots} .selected=${flow.slot?.startIso8601 ?? null}
              ?loading=${calendar.loading && daySlots.length === 0} @bc-slot-pick=${this.onSlotPick}></bc-slot-list>`
            : html`<p class="muted">${this.t("chooseTime")}</p>`}
        </div>
      </div>`;
  }

  /** A month without free times: the next free day to jump to, when the server knows one. */
  private renderEmptyMonth() {
    const next = this.calendar.nextFree;
    return html`<div class="empty-month" part="empty-month">
      <p class="muted">${this.t("noTimesThisMonth")}</p>
      ${next ? html`<button type="button" class="primary" part="next-available" @click=${() => this.jumpTo(next)}>${this.t("nextAvailable", { date: this.env.dates.fullDate(next) })}</button>`
        : next === null ? html`<p class="muted">${this.t("noTimesAhead")}</p>` : nothing}
    </div>`;
  }

  /** After a cancellation: a fresh booking of the same event type. */
  private renderBookAnother() {
    return html`<div class="actions center"><button type="button" class="primary" part="book-another" @click=${() => this.bookAnother()}>${this.t("bookAnother")}</button></div>`;
  }

  private renderBack(onBack: () => void, disabled = false) {
    return html`<button type="button" class="link" ?disabled=${disabled} @click=${onBack}>← ${this.t("back")}</button>`;
  }

  private renderDetails(flow: FlowOf<"details">) {
    const config = flow.init.configuration;
    return html`
      ${this.renderBack(() => { this.goBack(); void this.holds.release(); })}
      <div class="details">
        ${renderChosen(flow, this.env)}
        <div class="details-form">
          <h3 tabindex="-1">${this.t("yourDetails")}</h3>
          <bc-booking-form exportparts="form, input, field, locations, guests, submit"
            .draft=${flow.draft} .fields=${flow.init.customFields} .locations=${config.locations} .problems=${flow.problems}
            ?busy=${this.busy} .submitLabel=${config.payment ? this.t("continueToPayment") : this.t("book")}
            @bc-draft-change=${(e: CustomEvent<BookingFormEvents["bc-draft-change"]>) => { this.flow = flows.drafted(this.flow, e.detail.draft); }}
            @bc-submit=${() => void this.submitDetails()}></bc-booking-form>
        </div>
      </div>`;
  }

  private renderPay(flow: FlowOf<"paying">) {
    const hold = this.holds.current;
    return html`
      ${this.renderBack(() => this.goBack(), flow.confirming)}
      <h3 tabindex="-1">${this.t("payment")}</h3>
      ${renderChosen(flow, this.env)}
      ${hold ? html`<bc-hold-timer exportparts="hold-timer" .heldUntil=${hold.heldUntil}></bc-hold-timer>` : nothing}
      <bc-payment-step exportparts="payment-element, pay, test-badge" .setup=${hold?.payment ?? null} .mountPoint=${this.paymentMount}
        @bc-paying=${() => this.cardConfirming(true)}
        @bc-paid=${() => { this.cardConfirming(false); void this.confirmPaid(); }}
        @bc-payment-error=${(e: CustomEvent<PaymentStepEvents["bc-payment-error"]>) => this.paymentFailed(e.detail)}><slot name="payment-element"></slot></bc-payment-step>`;
  }

  private renderMove(flow: FlowOf<"moving">) {
    const { dates, timezone } = this.env;
    const start = flow.slot.startIso8601;
    return html`
      ${this.renderBack(() => this.goBack())}
      <h3 tabindex="-1">${this.t("moveTo", { time: `${dates.instantDate(start, timezone)} ${dates.time(start, timezone)}` })}</h3>
      ${renderChosen(flow, this.env)}
      <div class="actions"><button class="primary" type="button" part="submit" ?disabled=${this.busy} @click=${() => void this.move()}>${this.t("confirmMove")}</button></div>`;
  }

  /** Reschedule mode: the button to cancel, which asks first, with an optional reason. */
  private renderCancel({ cancelReason }: FlowOf<"picking">) {
    const ask = (reason: string | null) => { this.flow = flows.cancelAsked(this.flow, reason); };
    if (cancelReason === null) {
      return html`<div class="actions"><button type="button" part="cancel" @click=${() => ask("")}>${this.t("cancelBooking")}</button></div>`;
    }
    return html`<div class="notice danger" role="group" aria-labelledby="cancel-question">
      <p id="cancel-question" style="margin:0 0 0.75rem">${this.t("cancelQuestion")}</p>
      <label for="cancel-reason" class="field-label">${this.t("cancelReason")}</label>
      <textarea id="cancel-reason" part="cancel-reason" maxlength=${LIMITS.textMaxLength} .value=${cancelReason}
        @input=${(e: Event) => ask((e.target as HTMLTextAreaElement).value)}></textarea>
      <div class="actions">
        <button type="button" class="danger" part="cancel" ?disabled=${this.busy} @click=${() => void this.cancelReservation()}>${this.t("confirmCancel")}</button>
        <button type="button" @click=${() => ask(null)}>${this.t("keepBooking")}</button>
      </div>
    </div>`;
  }
}
