import { LitElement, html, nothing, type PropertyValues } from "lit";
import { Task } from "@lit/task";
import type { EventTypeConfiguration, InitData, ReservationResult } from "@booking/wire";
import { ApiFailure, BookingApi, idempotencyKey } from "./api.ts";
import { CalendarController } from "./controllers/calendar-controller.ts";
import { HoldController } from "./controllers/hold-controller.ts";
import { calendarStyles, controlStyles, themeStyles } from "./booking-calendar.styles.ts";
import type { CalendarEnvironment } from "./context.ts";
import { addDays, browserZone, isKnownZone, monthOf, todayIn, type PlainDate } from "./dates.ts";
import { checkDraft, emptyDraft, placeOf, prefilled, PREFILL_KEYS, reservationOf } from "./flow/draft.ts";
import { EnvironmentController } from "./controllers/environment-controller.ts";
import { emit } from "./events.ts";
import * as flows from "./flow/flow.ts";
import type { Booking, Flow, FlowOf, SlotFlow } from "./flow/flow.ts";
import { NoticeController } from "./controllers/notice-controller.ts";
import { failureText, type TextKey } from "./i18n/texts.ts";
import { fieldProblems } from "./i18n/field-errors.ts";
import { loadCatalog } from "./i18n/load.ts";
import { localizedInit } from "./i18n/organizer.ts";
import { adoptTheme, themeMode } from "./theme.ts";
import { PageSchemeController } from "./controllers/page-scheme.ts";
import { loadPart, managePart } from "./parts/load.ts";
import type { BookingFormEvents } from "./views/booking-form.ts";
import type { MonthGridEvents } from "./views/month-grid.ts";
import type { PaymentStepEvents } from "./views/payment-step.ts";
import type { SlotListEvents } from "./views/slot-list.ts";
import type { TimezonePickerEvents } from "./views/timezone-picker.ts";
import { renderBack, renderChosen, renderDone, renderEmptyMonth, renderHeader, renderSkeleton } from "./views/screens.ts";

let scriptApiBase = "";
/** Whether this page was told that it carries an API token, so the warning shows once, not per element. */
let warnedOfApiToken = false;

/** Sets the API origin used when `api-base` is not given: the script-tag build passes the origin it was served from. */
export function setDefaultApiBase(origin: string): void {
  scriptApiBase = origin;
}

// This comment is the element's reference: the build turns its tags, one a line, into `custom-elements.json`
// (the Custom Elements Manifest that IDEs, Storybook and framework wrappers read); test/manifest.spec.ts holds it to the code.
/**
 * A booking calendar for one event type: a visitor picks a day and a time, gives their details,
 * pays when the event type costs money, and gets a confirmation with a calendar file. Opened with
 * `reservation-uuid`, it shows that booking and lets the visitor move or cancel it.
 *
 * @tagname booking-calendar
 *
 * @attr token - The event type's publishable link token (`bcl_…`); an API token works too but belongs on servers. Required.
 * @attr api-base - Origin of the booking API; defaults to the origin the script was served from.
 * @attr reservation-uuid - Reschedule mode: the reservation to move or cancel.
 * @attr manage-action - With `reservation-uuid`: `cancel` opens the question to cancel at once, `reschedule` takes the visitor to the new times (the email's buttons link to each).
 * @attr timezone - IANA zone for the times shown; defaults to the visitor's. The visitor can change it
 *   in the always-shown zone picker, and switch 12h/24h (kept for the visit; default from the locale).
 * @attr locale - BCP 47 tag for the language and the dates; defaults to the event type's `locale.preset`,
 *   then the visitor's browser languages. Texts come from the built-in catalog of its language (exact or
 *   base: `de-AT` → `de`), else English; the event type's `locale.texts` override them.
 * @attr theme - `light`, `dark` or `auto`; overrides the event type's `theme.mode`.
 * @attr email - Prefills the visitor's email.
 * @attr firstname - Prefills the visitor's first name.
 * @attr lastname - Prefills the visitor's last name.
 * @attr phone - Prefills the visitor's phone number.
 *
 * @event {CustomEvent<BookingReadyDetail>} booking-ready - The event type is loaded ({ configuration, disabled, rescheduling }).
 * @event {CustomEvent<BookingDateSelectedDetail>} booking-date-selected - A day was chosen ({ date, timezone }).
 * @event {CustomEvent<BookingSlotSelectedDetail>} booking-slot-selected - A time was chosen ({ slot, timezone }); cancelable.
 * @event {CustomEvent<BookingReservationHeldDetail>} booking-reservation-held - A seat is held while the visitor pays ({ uuid, start, end, heldUntil }).
 * @event {CustomEvent<BookingPaymentStartedDetail>} booking-payment-started - The card form is shown ({ uuid, paymentIntentId, amount, currency }).
 * @event {CustomEvent<BookingReservationConfirmedDetail>} booking-reservation-confirmed - The booking exists ({ uuid, start, end, result }).
 * @event {CustomEvent<BookingRescheduledDetail>} booking-rescheduled - The booking moved ({ uuid, start, end, previousStart }).
 * @event {CustomEvent<BookingCancelledDetail>} booking-cancelled - The booking was cancelled ({ uuid }).
 * @event {CustomEvent<BookingErrorDetail>} booking-error - Something failed that the visitor was told about ({ code, message, status }).
 *
 * @slot payment-element - Filled by the element itself with the node Stripe's Payment Element mounts into.
 *
 * @csspart frame - The outer box.
 * @csspart header - Title, description and image.
 * @csspart avatar - The host's image (or initials).
 * @csspart notice - Messages above the view.
 * @csspart retry - Retry buttons.
 * @csspart skeleton - Placeholders while loading.
 * @csspart disabled - The message of an event type that takes no bookings.
 * @csspart month-title - The shown month's name.
 * @csspart month-nav - The previous and next month buttons.
 * @csspart grid - The month grid.
 * @csspart day - A day of the grid.
 * @csspart day-free - A day with free times (beside `day`).
 * @csspart empty-month - The message of a month without free times.
 * @csspart next-available - The jump to the next free day after an empty month.
 * @csspart timezone - The zone picker with its 12h/24h switch.
 * @csspart timezone-select - The list of zones.
 * @csspart slots - The free times of the chosen day.
 * @csspart slot - One free time.
 * @csspart form - The details form.
 * @csspart input - A text field, list or choice of the form.
 * @csspart field - A group of choices of a custom field.
 * @csspart locations - The choice of place.
 * @csspart guests - The guests' emails.
 * @csspart submit - The button that sends the form, or confirms the move.
 * @csspart hold-timer - How long the held seat stays held.
 * @csspart payment-element - The box the card form mounts in.
 * @csspart pay - The pay button.
 * @csspart test-badge - The mark of a payment in test mode.
 * @csspart summary - What is being booked, or the booking being moved.
 * @csspart confirmation - The confirmation after booking, moving or cancelling.
 * @csspart success-mark - The tick of a booking that went through.
 * @csspart amount-paid - The amount paid, on the confirmation.
 * @csspart add-to-calendar - The calendar links on the confirmation.
 * @csspart manage - The link to move or cancel the booking later.
 * @csspart cancel - The buttons that ask to cancel the booking and confirm it.
 * @csspart cancel-reason - The reason given for cancelling.
 * @csspart book-another - The way to book again after a cancellation.
 * @csspart change-rules - Until when a booking can be moved or cancelled online, and past that whom to ask.
 * @csspart contact - How to reach the organizer: a mail link, a web link or the text.
 *
 * @cssproperty --bc-primary - Accent colour: the brand colour of the palette shown (else blue).
 * @cssproperty --bc-brand - The brand colour the light palette shows (theme.colors.primary).
 * @cssproperty --bc-brand-dark - The brand colour the dark palette shows (theme.colors.primaryDark: lightened where it reads too dark).
 * @cssproperty --bc-on-primary - Text on the accent colour.
 * @cssproperty --bc-background - Background (theme.colors.background).
 * @cssproperty --bc-surface - Background of summaries and notices.
 * @cssproperty --bc-text - Text colour (theme.colors.text).
 * @cssproperty --bc-muted - Secondary text (theme.colors.muted).
 * @cssproperty --bc-border - Borders (theme.colors.border).
 * @cssproperty --bc-danger - Errors and the cancel button (theme.colors.danger).
 * @cssproperty --bc-on-danger - Text on the danger colour.
 * @cssproperty --bc-success - The success mark.
 * @cssproperty --bc-on-success - The tick on the success mark.
 * @cssproperty --bc-skeleton - Loading placeholders.
 * @cssproperty --bc-radius - Corner radius (theme.borderRadius).
 * @cssproperty --bc-font - Font family.
 * @cssproperty --bc-focus - The ring (a `box-shadow`) around the control that has keyboard focus.
 */
export class BookingCalendar extends LitElement {
  static override styles = [themeStyles, controlStyles, calendarStyles];

  static override properties = {
    token: { type: String },
    apiBase: { type: String, attribute: "api-base" },
    reservationUuid: { type: String, attribute: "reservation-uuid" },
    manageAction: { type: String, attribute: "manage-action" },
    timezone: { type: String },
    locale: { type: String },
    theme: { type: String },
    email: { type: String },
    firstname: { type: String },
    lastname: { type: String },
    phone: { type: String },
    flow: { state: true },
    busy: { state: true },
  };

  declare token: string;
  declare apiBase: string;
  declare reservationUuid: string;
  declare manageAction: string;
  declare timezone: string;
  declare locale: string;
  declare theme: string;
  declare email: string;
  declare firstname: string;
  declare lastname: string;
  declare phone: string;

  /** Where the visitor is in booking, with what that step needs (see flow/flow.ts). */
  declare flow: Flow;
  /** A request of the step shown is under way (its buttons wait). */
  declare busy: boolean;

  /** The texts, dates and zone the element and its sub-views speak. */
  readonly #environment = new EnvironmentController(this, {
    locale: () => this.locale,
    configuration: () => this.#configuration,
    zone: () => this.visitorZone,
  });
  /** The message above the current view. */
  readonly #notices = new NoticeController(this);
  /** The seat held while the visitor pays, with the payment opened for it. */
  readonly #holds = new HoldController(this, {
    holdMinutes: () => this.#configuration?.holdMinutes ?? 0,
    lost: () => this.#backToSlots("holdLost"),
    ended: () => {
      this.#paymentMount?.remove();
      this.#paymentMount = null;
    },
  });
  /** The month shown, the day chosen, and their free times. */
  readonly #calendar = new CalendarController(this, {
    zone: () => this.visitorZone,
    arrived: () => this.#notices.recovered(),
    failed: (error, retry) => this.#report(error, retry),
  });
  /** The zones the picker offers: the server's list; without it, the visitor's and the organizer's. */
  readonly #zones = new Task(this, {
    autoRun: false,
    task: ([api, own]: [BookingApi, string[]]) => api.timezones().catch(() => own),
  });
  /** Where the zone list is asked for, and the zones to offer without it. */
  #zonesFrom: [BookingApi, string[]] | null = null;
  /** Where Stripe's Payment Element is mounted, in the page's light DOM. */
  #paymentMount: HTMLElement | null = null;
  /** The event type the theme was last adopted from. */
  #themedInit: InitData | null = null;

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
    this.busy = false;
  }

  /** The visitor's zone: the `timezone` attribute when the browser knows it, else the browser's own. */
  get visitorZone(): string {
    return this.timezone && isKnownZone(this.timezone) ? this.timezone : browserZone();
  }

  /** The loaded event type (during a new start, the one loaded before). */
  get #init(): InitData | null {
    return this.flow.init;
  }

  get #configuration(): EventTypeConfiguration | null {
    return this.#init?.configuration ?? null;
  }

  get #env(): CalendarEnvironment {
    return this.#environment.value;
  }

  #t(key: TextKey, values?: Record<string, string | number>): string {
    return this.#env.texts(key, values);
  }

  /** Shows the text of `key` as a warning; `retry` offers to repeat what failed. */
  #warn(key: TextKey, retry?: () => void): void {
    this.#notices.say(this.#t(key), true, retry);
  }

  /** Focuses what `selector` finds once the next render is done (the heading of a new step, the times of a day). */
  #focusAfterUpdate(selector: string): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(selector)?.focus());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("token") && this.token.startsWith("bk_") && !warnedOfApiToken) {
      // It works, and the server counts it per visitor, but anyone who views the page can read it.
      warnedOfApiToken = true;
      console.warn("<booking-calendar>: an API token (bk_…) is for servers; pages carry the link token (bcl_…).");
    }
    if (changed.has("token") || changed.has("apiBase") || changed.has("reservationUuid")) {
      // Run here rather than by the task itself, so the new start shows (loading) in this same update.
      if (this.token) void this.#loader.run();
    }
    // Times are shown in the visitor's zone: in another, the chosen one is no longer marked (the calendar asks again).
    if (changed.has("timezone")) this.flow = flows.slotCleared(this.flow);
    const flow = this.flow;
    if (flows.isBooking(flow)) {
      const draft = prefilled(flow.draft, this, PREFILL_KEYS.filter((key) => changed.has(key)));
      if (draft !== flow.draft) this.flow = flows.drafted(flow, draft);
    }
    this.dataset.mode = themeMode(this.theme, this.#configuration?.theme.mode);
  }

  protected override updated(): void {
    const config = this.#configuration;
    if (this.#init === this.#themedInit) return;
    this.#themedInit = this.#init;
    if (this.shadowRoot && config) adoptTheme(this.shadowRoot, BookingCalendar.elementStyles, config.theme.colors, config.theme.borderRadius);
  }

  /**
   * (Re)loads the event type: gives back the holds of the start before, then asks init. Only the
   * latest run's answer or failure counts (an older start's is dropped).
   */
  readonly #loader = new Task(this, {
    autoRun: false,
    args: () => [this.token, this.apiBase, this.reservationUuid] as const,
    task: async ([token, apiBase, reservationUuid]) => {
      const api = new BookingApi((apiBase || scriptApiBase || location.origin).replace(/\/+$/, ""), token);
      this.flow = flows.starting(this.flow);
      this.#notices.clear();
      this.#calendar.restart();
      // A hold made under another token or API is given back (through the API it was made with),
      // and so are the holds this tab left behind under the new ones.
      await this.#holds.restart(api, token);
      const loaded = await api.init(reservationUuid || undefined);
      // The organizer's texts in the visitor's language, where the event type gives them.
      const init = localizedInit(loaded, this.#environment.wanted(loaded.configuration));
      // The first paint of the calendar waits for its language, so it does not flash English;
      // a catalog that cannot be loaded leaves it in English. A booking's manage screens are a part
      // of their own, fetched meanwhile; without them there is nothing to show (Retry).
      await Promise.all([
        loadCatalog(this.#environment.languageFor(init.configuration)).catch(() => undefined),
        init.reservation && loadPart("manage").catch((error: unknown) => {
          throw new ApiFailure("network", "network_error", String(error));
        }),
      ]);
      return { api, init };
    },
    onComplete: ({ api, init }) => this.#opened(init, api),
    onError: (error) => this.#loadFailed(error),
  });

  /** The event type is loaded: the month that holds the closest bookable day, and the zones to offer. */
  #opened(init: InitData, api: BookingApi): void {
    // A Task drops what its onComplete throws, so a configuration this browser cannot open (a zone
    // it does not know) is caught here and shown like a failed load, with Retry.
    try {
      const config = init.configuration;
      const kept = this.flow.kind === "loading" ? this.flow.kept : null;
      this.flow = flows.loaded(init, api, prefilled(kept ?? emptyDraft(), this));
      if (!init.disabled) {
        const today = todayIn(config.timezone);
        if (config.closestBookableDay < 0) this.#notices.say(this.#environment.textsFor(config)("nothingFree"), false);
        this.#calendar.open(api, addDays(today, config.closestBookableDay >= 0 ? config.closestBookableDay : config.min));
        // The zone list is asked for when the visitor reaches for the picker, not while the page starts.
        this.#zonesFrom = [api, [...new Set([this.visitorZone, config.timezone])]];
      }
      // A manage link's action: the question to cancel, open, or the new times, in view.
      if (init.reservation && this.manageAction === "cancel") {
        this.flow = flows.cancelAsked(this.flow, "");
        this.#focusAfterUpdate("#cancel-reason");
      } else if (init.reservation && this.manageAction === "reschedule") this.#focusAfterUpdate("#new-times");
      emit(this, "booking-ready", { configuration: config, disabled: init.disabled, rescheduling: !!init.reservation });
    } catch (error) {
      this.#loadFailed(error);
    }
  }

  /** The visitor reached for the zone picker: the server's zone list, asked once per start. */
  #wantZones(): void {
    const from = this.#zonesFrom;
    this.#zonesFrom = null;
    if (from) void this.#zones.run(from);
  }

  #loadFailed(error: unknown): void {
    this.flow = flows.loadFailed(this.flow);
    this.#report(error, () => void this.#loader.run());
  }

  /** Shows a failure as a notice with a retry (after `Retry-After` for 429) and tells the host page. */
  #report(error: unknown, retry: () => void): void {
    const failure = error instanceof ApiFailure ? error : new ApiFailure("unexpected", "unexpected_response", String(error));
    this.#notices.say(failureText(this.#env.texts, failure), true, retry, failure.kind === "rate_limited" ? failure.retryAfter : 0);
    this.#tellError(failure);
  }

  /** Tells the host page what the visitor was told went wrong. */
  #tellError({ code, message, status }: Pick<ApiFailure, "code" | "message" | "status">): void {
    emit(this, "booking-error", { code, message, status });
  }

  // ---- choosing a time ----

  /** The details form's code (a part), fetched when a day is picked so it is here once a time is. */
  #loadForm(): void {
    loadPart("form").catch((error: unknown) => this.#report(new ApiFailure("network", "network_error", error instanceof Error ? error.message : String(error)), () => this.#loadForm()));
  }

  #pickDay(date: PlainDate): void {
    this.#loadForm();
    this.#calendar.choose(date);
    this.flow = flows.slotCleared(this.flow);
    emit(this, "booking-date-selected", { date, timezone: this.visitorZone });
    // The day's times get the focus; on a phone, where they are below the month (not beside it), they
    // are scrolled to the top of the screen so as many as fit show.
    void this.updateComplete.then(() => {
      const times = this.renderRoot.querySelector<HTMLElement>("#times");
      times?.focus({ preventScroll: true });
      times?.scrollIntoView(times.offsetLeft < 99 ? undefined : { block: "nearest" });
    });
  }

  /** Jumps to the offered day: its month, the day chosen, its times in view. */
  #jumpTo(date: PlainDate): void {
    this.#calendar.show(monthOf(date));
    this.#pickDay(date);
  }

  #onSlotPick(event: CustomEvent<SlotListEvents["bc-slot-pick"]>): void {
    const slot = event.detail.slot;
    const flow = this.flow;
    if (flow.kind !== "picking" || !emit(this, "booking-slot-selected", { slot, timezone: this.visitorZone }, true)) return;
    this.#notices.clear();
    this.#loadForm();
    this.flow = flows.slotChosen(flow, slot);
    this.#focusAfterUpdate("h3[tabindex]");
  }

  /** One step back (see flows.back); the notice was about the step left. */
  #goBack(): void {
    this.flow = flows.back(this.flow);
    this.#notices.clear();
  }

  /** Back to the days and times with fresh slots, e.g. after the chosen time was taken. */
  #backToSlots(message: TextKey): void {
    this.flow = flows.backToSlots(this.flow);
    // A hold still standing (e.g. the payment could not be opened) is given back; a lost one is gone.
    void this.#holds.release();
    this.#holds.end();
    this.#calendar.refresh();
    this.#warn(message);
  }

  // ---- booking ----

  async #submitDetails(): Promise<void> {
    const flow = this.flow;
    if (flow.kind !== "details") return;
    const config = flow.init.configuration;
    const found = Object.entries(checkDraft(flow.draft, flow.init.customFields, config.locations));
    this.flow = flows.problemsFound(flow, Object.fromEntries(found.map(([field, p]) => [field, [this.#t(p.key, p.values)]])));
    if (found.length > 0) return this.#showProblems("fixErrors");
    this.#notices.clear();
    const key = idempotencyKey();
    await (config.payment ? this.#prepareAndPay(key) : this.#book(key));
  }

  /** Says the form has problems and focuses the first of them. */
  #showProblems(text: TextKey): void {
    this.#warn(text);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement & { focusFirstProblem(): void }>("bc-booking-form")?.focusFirstProblem());
  }

  /** Free event types book in one step. */
  async #book(key: string): Promise<void> {
    const flow = this.flow;
    if (flow.kind !== "details") return;
    const input = reservationOf(flow.draft, flow.init, flow.slot, this.visitorZone, this.#env.dates);
    await this.#attempt(flow, () => this.#book(key), async () => {
      this.#finish(flow, "booked", await flow.api.create(input, key));
    });
  }

  /**
   * Paid event types: hold the seat, open a payment for it, then show the card form. A visitor back
   * from the payment gives their earlier hold back first, so it cannot stand in their own way; once a
   * card payment was sent, they return to it instead.
   */
  async #prepareAndPay(key: string): Promise<void> {
    const flow = this.flow;
    const price = flow.init?.configuration.payment;
    if (flow.kind !== "details" || !price) return;
    const hold = this.#holds.current;
    if (hold?.charging && hold.payment) {
      // Money may have moved for that time: back to its payment, showing its time.
      this.flow = flows.paymentOpened(flow, hold.slot);
      return;
    }
    const input = reservationOf(flow.draft, flow.init, flow.slot, this.visitorZone, this.#env.dates);
    await this.#attempt(flow, () => this.#prepareAndPay(key), async () => {
      // The payment step's code first (fetched on the first payment): nothing is held if it cannot be loaded.
      await loadPart("payment").catch((error: unknown) => {
        throw new ApiFailure("network", "network_error", error instanceof Error ? error.message : String(error));
      });
      // A visitor gone on meanwhile (a new start) is not held a seat for the step left.
      if (!flows.stillAt(this.flow, flow)) return;
      // A retry of this same attempt keeps its hold and only opens the payment again.
      if (hold && hold.key === key) return this.#openPayment(flow, price, hold.uuid, `${key}:pay`);
      await this.#holds.release();
      const { uuid } = await flow.api.prepare(input, key);
      const held = this.#holds.hold(flow.api, uuid, key, flow.slot);
      // Held for a step the visitor has left meanwhile: given back at once.
      if (!flows.stillAt(this.flow, flow)) return void this.#holds.release();
      emit(this, "booking-reservation-held", { uuid, start: input.start, end: input.end, heldUntil: new Date(held.heldUntil).toISOString() });
      await this.#openPayment(flow, price, uuid, `${key}:pay`);
    });
  }

  /** Opens the payment for the held seat `uuid` and shows the card form. */
  async #openPayment(flow: FlowOf<"details">, price: NonNullable<EventTypeConfiguration["payment"]>, uuid: string, key: string): Promise<void> {
    const { draft, api } = flow;
    const name = [draft.firstname.trim(), draft.lastname.trim()].filter(Boolean).join(" ");
    const intent = await api.pay(uuid, { email: draft.email.trim(), ...(name ? { name } : {}) }, key);
    // What the visitor typed while the payment was opened goes along to the card form (and back);
    // a visitor who left the form meanwhile gives the seat back instead.
    const now = this.flow;
    if (!flows.stillAt(now, flow)) return void this.#holds.release();
    this.#holds.paymentOpened({
      publishableKey: price.publishableKey ?? "",
      providerAccountId: intent.providerAccountId,
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.paymentIntentId,
      amountText: this.#env.dates.money(intent.amount, price.currency),
      ...(price.stripeJsUrl ? { stripeJsUrl: price.stripeJsUrl } : {}),
    });
    this.#ensurePaymentMount();
    this.flow = flows.paymentOpened(now, flow.slot);
    emit(this, "booking-payment-started", { uuid, paymentIntentId: intent.paymentIntentId, amount: intent.amount, currency: price.currency });
  }

  /** Stripe's iframes are mounted in the page's light DOM and slotted in, not inside the shadow root. */
  #ensurePaymentMount(): void {
    if (this.#paymentMount?.isConnected) return;
    const mount = document.createElement("div");
    mount.slot = "payment-element";
    this.append(mount);
    this.#paymentMount = mount;
  }

  /** Stripe.js could not be loaded: the seat is given back, and the visitor can try again from the form. */
  #paymentUnavailable(message: string): void {
    void this.#holds.release();
    this.flow = flows.back(this.flow);
    this.#warn("paymentUnavailable", () => void this.#submitDetails());
    this.#tellError({ code: "payment_unavailable", message, status: null });
  }

  /** A card payment is being confirmed (true: the hold is never given back now), or that is over. */
  #cardConfirming(confirming: boolean): void {
    this.flow = flows.cardConfirming(this.flow, confirming);
    if (confirming) this.#holds.charging(true);
  }

  /** The card form could not be shown, or the payment did not go through (when clearly refused, no money moved). */
  #paymentFailed({ message, refused, unavailable }: PaymentStepEvents["bc-payment-error"]): void {
    if (unavailable) return void this.#paymentUnavailable(message);
    this.#cardConfirming(false);
    if (refused) this.#holds.charging(false);
    this.#notices.say(this.#t("paymentFailed", { message }));
    this.#tellError({ code: "payment_failed", message, status: null });
  }

  async #confirmPaid(): Promise<void> {
    const flow = this.flow;
    const hold = this.#holds.current;
    if (flow.kind !== "paying" || !hold) return;
    const key = idempotencyKey();
    await this.#attempt(flow, () => this.#confirmPaid(), async () => {
      this.#finish(flow, "booked", await flow.api.confirm(hold.uuid, {}, key));
    });
  }

  /**
   * Runs one step of `flow` with the busy flag; sorts its failures into the visitor's next move, unless
   * a new start came meanwhile (an older start's failure is not the new one's).
   */
  async #attempt(flow: Booking, retry: () => void, step: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await step();
    } catch (error) {
      if (flows.sameStart(this.flow, flow)) this.#handleFlowError(error, retry);
    } finally {
      this.busy = false;
    }
  }

  #handleFlowError(error: unknown, retry: () => void): void {
    if (!(error instanceof ApiFailure)) return void this.#report(error, retry);
    const { code, kind } = error;
    // The time is gone for this visitor: taken, being taken, or their hold on it ended.
    const timeLost = code === "reservation_finished" ? "holdLost" : kind !== "business" ? null : code === "slot_locked" ? "slotBusy" : code === "slot_unavailable" ? "slotTaken" : null;
    if (timeLost) {
      this.#tellError(error);
      return void this.#backToSlots(timeLost);
    }
    // Past the notice (it ran out, or the organizer changed it, while the visitor looked): the booking
    // again, whose rules now say whom to ask, with no retry that could only fail again.
    if (code === "forbidden") {
      this.#tellError(error);
      return void this.#loader.run().then(() => this.#warn("refused.forbidden"));
    }
    if (code === "payment_required") {
      this.flow = flows.paymentRequired(this.flow);
      return void this.#warn("paymentRequired");
    }
    if (kind === "validation") {
      const onForm = Object.keys(error.errors).some((k) => !["start", "end", "timezone"].includes(k));
      // Problems of the time alone (start, end, zone) have no field to show at.
      if (onForm) this.flow = flows.problemsFound(this.flow, fieldProblems(this.#env.texts, error.errors, error.fieldErrors));
      this.#showProblems(onForm ? "fixErrors" : "invalidRequest");
      return void this.#tellError(error);
    }
    this.#report(error, retry);
  }

  /** Booked or moved: the confirmation, unless a new start came meanwhile (then false, and nothing is shown). */
  #finish(flow: SlotFlow, kind: "booked" | "rescheduled", result: ReservationResult): boolean {
    const { init, slot, draft } = flow;
    const uuid = result.uuid ?? this.#holds.current?.uuid ?? "";
    this.#holds.end();
    if (!flows.sameStart(this.flow, flow)) return false;
    const email = draft.email.trim() || init.reservation?.email || "";
    // A move keeps the booking's place; a new booking has the one chosen, with the organizer's address or number.
    const location = kind === "rescheduled" ? (init.reservation?.location ?? null) : placeOf(draft, init.configuration.locations);
    this.flow = flows.finished(flow, { kind, slot, result, email, location });
    this.#notices.clear();
    if (kind === "booked") emit(this, "booking-reservation-confirmed", { uuid, start: slot.startIso8601, end: slot.endIso8601, result });
    this.#focusAfterUpdate("h3[tabindex]");
    return true;
  }

  // ---- reschedule and cancel ----

  async #move(): Promise<void> {
    const flow = this.flow;
    if (flow.kind !== "moving") return;
    const { reservation, slot } = flow;
    await this.#attempt(flow, () => void this.#move(), async () => {
      const result = await flow.api.reschedule(reservation.uuid, { start: slot.start, end: slot.end, timezone: this.visitorZone });
      if (this.#finish(flow, "rescheduled", result)) emit(this, "booking-rescheduled", { uuid: reservation.uuid, start: slot.startIso8601, end: slot.endIso8601, previousStart: reservation.start });
    });
  }

  async #cancelReservation(): Promise<void> {
    const flow = this.flow;
    const reservation = flow.init?.reservation;
    if (flow.kind !== "picking" || !reservation) return;
    await this.#attempt(flow, () => void this.#cancelReservation(), async () => {
      await flow.api.cancel(reservation.uuid, flow.cancelReason ?? "");
      if (!flows.sameStart(this.flow, flow)) return;
      this.flow = flows.reservationCancelled(flow, reservation);
      emit(this, "booking-cancelled", { uuid: reservation.uuid });
      this.#focusAfterUpdate("h3[tabindex]");
    });
  }

  /** After a cancellation: a fresh booking of the same event type. */
  #bookAnother(): void {
    // Leaving reschedule mode starts the event type afresh (willUpdate runs the loader).
    if (this.reservationUuid) this.reservationUuid = "";
    else void this.#loader.run();
  }

  // ---- rendering ----

  protected override render() {
    const config = this.#configuration;
    const month = this.flow.kind === "picking" ? this.#t("monthShown", { month: this.#env.dates.monthTitle(this.#calendar.month) }) : "";
    return html`
      <section class="frame ${config?.compact ? "compact" : ""} ${this.flow.kind === "done" || this.flow.init?.reservation ? "slim" : ""}" part="frame" lang=${this.#env.language} aria-label=${config?.calendarTitle ?? config?.title ?? "Booking calendar"}>
        ${config ? renderHeader(config, this.#env) : nothing}
        <div role="status" aria-live="polite" class="visually-hidden">${month}</div>${this.#notices.render(this.#env.texts)}
        ${this.#renderStep()}
      </section>`;
  }

  #renderStep() {
    const flow = this.flow;
    switch (flow.kind) {
      case "loading":
        return renderSkeleton(this.#t("loading"));
      case "failed":
        return nothing;
      case "disabled":
        return html`<div class="state" part="disabled"><p>${this.#t("notBookable")}</p></div>`;
      case "picking":
        return this.#renderPick(flow);
      case "details":
        return this.#renderDetails(flow);
      case "moving":
        return this.#renderMove(flow);
      case "paying":
        return this.#renderPay(flow);
      case "done":
        return flow.done.kind === "cancelled" ? managePart()?.renderCancelled(this.#env, () => this.#bookAnother())
          : renderDone(flow.done, flow.init.configuration, this.#env, flow.init.reservation?.uuid);
    }
  }

  #renderPick(flow: FlowOf<"picking">) {
    const config = flow.init.configuration;
    const manage = flow.init.reservation && managePart();
    const rules = manage?.changeRules(flow.init.reservation!, config, Date.now());
    const cancel = { ask: (reason: string | null) => { this.flow = flows.cancelAsked(this.flow, reason); }, cancel: () => void this.#cancelReservation(), book: () => this.#bookAnother() };
    const head = manage ? manage.renderManage(flow, this.#env, rules!, this.busy, cancel) : nothing;
    // Past the reschedule notice (or cancelled) there are no times to offer.
    if (rules && !rules.canMove) return head;
    const reservation = flow.init.reservation;
    const today = todayIn(config.timezone);
    const calendar = this.#calendar;
    const daySlots = calendar.daySlots;
    // Before a day is chosen, the times column offers the shown month's first free day rather than sitting blank.
    const first = [...calendar.freeDays.keys()].find((date) => monthOf(date) === calendar.month);
    return html`
      ${head}
      <div class="pick">
        <div>
          <h3 class=${reservation ? "visually-hidden" : ""}>${this.#t("chooseDate")}</h3>
          <bc-month-grid exportparts="month-title, month-nav, grid, day, day-free"
            .month=${calendar.month} .freeDays=${calendar.freeDays} .selected=${calendar.day}
            .minDate=${addDays(today, config.min - 1)} .maxDate=${addDays(today, config.max + 1)} .today=${todayIn(this.visitorZone)}
            .weekStart=${config.locale.startDayOfWeek === "sunday" ? 6 : 0} ?loading=${calendar.loading}
            @bc-month-change=${(e: CustomEvent<MonthGridEvents["bc-month-change"]>) => calendar.show(e.detail.month)}
            @bc-day-pick=${(e: CustomEvent<MonthGridEvents["bc-day-pick"]>) => this.#pickDay(e.detail.date)}></bc-month-grid>
          ${calendar.empty ? renderEmptyMonth(this.#env, calendar.nextFree, (date) => this.#jumpTo(date)) : nothing}
          <bc-timezone-picker exportparts="timezone, timezone-select" style="margin-top:1rem" .value=${this.visitorZone} .zones=${this.#zones.value ?? []}
            @bc-zones-wanted=${() => this.#wantZones()}
            @bc-zone-change=${(e: CustomEvent<TimezonePickerEvents["bc-zone-change"]>) => { this.timezone = e.detail.timezone; }}
            @bc-hour-cycle-change=${(e: CustomEvent<TimezonePickerEvents["bc-hour-cycle-change"]>) => this.#environment.setHour12(e.detail.hour12)}></bc-timezone-picker>
        </div>
        <div>
          ${calendar.day ? html`<h4 id="times" tabindex="-1">${this.#env.dates.fullDate(calendar.day)}</h4>
            <bc-slot-list exportparts="slots, slot" .slots=${daySlots} .selected=${flow.slot?.startIso8601 ?? null}
              ?loading=${calendar.loading && daySlots.length === 0} @bc-slot-pick=${this.#onSlotPick}></bc-slot-list>`
            : html`<p class="muted">${this.#t("chooseTime")}</p>${first ? renderEmptyMonth(this.#env, first, (date) => this.#pickDay(date), "") : nothing}`}
        </div>
      </div>`;
  }

  #renderDetails(flow: FlowOf<"details">) {
    const config = flow.init.configuration;
    return html`
      ${renderBack(this.#env, () => { this.#goBack(); void this.#holds.release(); }, this.busy)}
      <div class="details">
        ${renderChosen(flow, this.#env)}
        <div class="details-form">
          <h3 tabindex="-1">${this.#t("yourDetails")}</h3>
          <bc-booking-form exportparts="form, input, field, locations, guests, submit"
            .draft=${flow.draft} .fields=${flow.init.customFields} .locations=${config.locations} .problems=${flow.problems}
            ?busy=${this.busy} .submitLabel=${config.payment ? this.#t("continueToPayment") : this.#t("book")}
            @bc-draft-change=${(e: CustomEvent<BookingFormEvents["bc-draft-change"]>) => { this.flow = flows.drafted(this.flow, e.detail.draft); }}
            @bc-submit=${() => void this.#submitDetails()}></bc-booking-form>
        </div>
      </div>`;
  }

  #renderPay(flow: FlowOf<"paying">) {
    const hold = this.#holds.current;
    return html`
      ${renderBack(this.#env, () => this.#goBack(), flow.confirming || this.busy)}
      <h3 tabindex="-1">${this.#t("payment")}</h3>
      ${renderChosen(flow, this.#env)}
      ${hold ? html`<bc-hold-timer exportparts="hold-timer" .heldUntil=${hold.heldUntil}></bc-hold-timer>` : nothing}
      <bc-payment-step exportparts="payment-element, pay, test-badge" .setup=${hold?.payment ?? null} .mountPoint=${this.#paymentMount}
        @bc-paying=${() => this.#cardConfirming(true)}
        @bc-paid=${() => { this.#cardConfirming(false); void this.#confirmPaid(); }}
        @bc-payment-error=${(e: CustomEvent<PaymentStepEvents["bc-payment-error"]>) => this.#paymentFailed(e.detail)}><slot name="payment-element"></slot></bc-payment-step>`;
  }

  #renderMove(flow: FlowOf<"moving">) {
    return managePart()?.renderMove(flow, this.#env, this.busy, () => this.#goBack(), () => void this.#move());
  }

}
