import { LitElement, html, nothing, type PropertyValues } from "lit";
import type { EventTypeConfiguration, InitData } from "@booking/wire";
import { StartController } from "./controllers/start-controller.ts";
import { BookingController } from "./controllers/booking-controller.ts";
import { calendarStyles, controlStyles, themeStyles } from "./booking-calendar.styles.ts";
import type { CalendarEnvironment } from "./context.ts";
import { addDays, browserZone, isKnownZone, monthOf, todayIn } from "./dates.ts";
import { prefilled, PREFILL_KEYS, shownFields } from "./flow/draft.ts";
import { EnvironmentController } from "./controllers/environment-controller.ts";
import * as flows from "./flow/flow.ts";
import type { Flow, FlowOf } from "./flow/flow.ts";
import type { TextKey } from "./i18n/texts.ts";
import { adoptTheme, themeMode } from "./theme.ts";
import { PageSchemeController } from "./controllers/page-scheme.ts";
import { managePart } from "./parts/load.ts";
import type { BookingFormEvents } from "./views/booking-form.ts";
import type { MonthGridEvents } from "./views/month-grid.ts";
import type { PaymentStepEvents } from "./views/payment-step.ts";
import type { SlotListEvents } from "./views/slot-list.ts";
import type { TimezonePickerEvents } from "./views/timezone-picker.ts";
import { emit } from "./events.ts";
import { renderBack, renderChosen, renderDone, renderEmptyMonth, renderHeader, renderSkeleton } from "./views/screens.ts";
export { setDefaultApiBase } from "./controllers/start-controller.ts";

/** Whether this page was told that it carries an API token, so the warning shows once, not per element. */
let warnedOfApiToken = false;

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
 * @event {CustomEvent<BookingUnavailableSelectedDetail>} booking-unavailable-selected - A greyed-out day (no free times) was picked ({ date, timezone }); nothing else happens.
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
 * @csspart away-notice - The host away: until when, the colleague who takes the bookings meanwhile, the note.
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
 * @csspart end-series - The button that cancels this and every later date of a series (with `cancel`).
 * @csspart series - The choice to repeat the booking (event types that allow a series).
 * @csspart series-dates - The dates of the repeat chosen, the taken ones marked.
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
  /** The visitor's steps from a time to the confirmation, with the notices, calendar and held seat they show. */
  readonly #booking: BookingController = new BookingController(this, this.#environment, () => this.#start.run());
  /** (Re)loads the event type, and asks for the zones the picker offers. */
  readonly #start = new StartController(this, this.#environment, this.#booking);
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

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("token") && this.token.startsWith("bk_") && !warnedOfApiToken) {
      // It works, and the server counts it per visitor, but anyone who views the page can read it.
      warnedOfApiToken = true;
      console.warn("<booking-calendar>: an API token (bk_…) is for servers; pages carry the link token (bcl_…).");
    }
    if (changed.has("token") || changed.has("apiBase") || changed.has("reservationUuid")) {
      // Run here rather than by the task itself, so the new start shows (loading) in this same update.
      if (this.token) void this.#start.run();
    }
    // Times are shown in the visitor's zone: in another, the chosen one is no longer marked (the calendar asks again).
    if (changed.has("timezone")) this.flow = flows.slotCleared(this.flow);
    const flow = this.flow;
    if (flows.isBooking(flow)) {
      const draft = prefilled(
        flow.draft,
        this,
        PREFILL_KEYS.filter((key) => changed.has(key)),
      );
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

  // ---- rendering ----

  protected override render() {
    const config = this.#configuration;
    const month = this.flow.kind === "picking" ? this.#t("monthShown", { month: this.#env.dates.monthTitle(this.#booking.calendar.month) }) : "";
    return html`
      <section class="frame ${config?.compact ? "compact" : ""} ${this.flow.kind === "done" || this.flow.init?.reservation ? "slim" : ""}" part="frame" lang=${this.#env.language} aria-label=${config?.calendarTitle ?? config?.title ?? "Booking calendar"}>
        ${config ? renderHeader(config, this.#env) : nothing}
        <div role="status" aria-live="polite" class="visually-hidden">${month}</div>${this.#booking.notices.render(this.#env.texts)}
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
        return flow.done.kind === "cancelled"
          ? managePart()?.renderCancelled(this.#env, () => this.#booking.bookAnother())
          : renderDone(flow.done, flow.init.configuration, this.#env, flow.init.reservation?.uuid);
    }
  }

  #renderPick(flow: FlowOf<"picking">) {
    const config = flow.init.configuration;
    const manage = flow.init.reservation && managePart();
    const rules = manage?.changeRules(flow.init.reservation!, config, Date.now());
    const cancel = {
      ask: (reason: string | null) => {
        this.flow = flows.cancelAsked(this.flow, reason);
      },
      cancel: (series?: boolean) => void this.#booking.cancel(series),
      book: () => this.#booking.bookAnother(),
    };
    const head = manage ? manage.renderManage(flow, this.#env, rules!, this.busy, cancel) : nothing;
    // Past the reschedule notice (or cancelled) there are no times to offer.
    if (rules && !rules.canMove) return head;
    const reservation = flow.init.reservation;
    const today = todayIn(config.timezone);
    const calendar = this.#booking.calendar;
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
            @bc-day-pick=${(e: CustomEvent<MonthGridEvents["bc-day-pick"]>) => this.#booking.pickDay(e.detail.date)}
            @bc-unavailable-pick=${(e: CustomEvent<MonthGridEvents["bc-unavailable-pick"]>) =>
              emit(this, "booking-unavailable-selected", { date: e.detail.date, timezone: this.visitorZone })}></bc-month-grid>
          ${calendar.empty ? renderEmptyMonth(this.#env, calendar.nextFree, (date) => this.#booking.jumpTo(date)) : nothing}
          <bc-timezone-picker exportparts="timezone, timezone-select" style="margin-top:1rem" .value=${this.visitorZone} .zones=${this.#start.zones}
            @bc-zones-wanted=${() => this.#start.wantZones()}
            @bc-zone-change=${(e: CustomEvent<TimezonePickerEvents["bc-zone-change"]>) => {
              this.timezone = e.detail.timezone;
            }}
            @bc-hour-cycle-change=${(e: CustomEvent<TimezonePickerEvents["bc-hour-cycle-change"]>) => this.#environment.setHour12(e.detail.hour12)}></bc-timezone-picker>
        </div>
        <div>
          ${
            calendar.day
              ? html`<h4 id="times" tabindex="-1">${this.#env.dates.fullDate(calendar.day)}</h4>
            <bc-slot-list exportparts="slots, slot" .slots=${daySlots} .selected=${flow.slot?.startIso8601 ?? null}
              ?loading=${calendar.loading && daySlots.length === 0} @bc-slot-pick=${(e: CustomEvent<SlotListEvents["bc-slot-pick"]>) => this.#booking.pickSlot(e.detail.slot)}></bc-slot-list>`
              : html`<p class="muted">${this.#t("chooseTime")}</p>${first ? renderEmptyMonth(this.#env, first, (date) => this.#booking.pickDay(date), "") : nothing}`
          }
        </div>
      </div>`;
  }

  #renderDetails(flow: FlowOf<"details">) {
    const config = flow.init.configuration;
    return html`
      ${renderBack(
        this.#env,
        () => {
          this.#booking.back();
          void this.#booking.holds.release();
        },
        this.busy,
      )}
      <div class="details">
        ${renderChosen(flow, this.#env)}
        <div class="details-form">
          <h3 tabindex="-1">${this.#t("yourDetails")}</h3>
          <bc-booking-form exportparts="form, input, field, locations, guests, submit"
            .draft=${flow.draft} .fields=${shownFields(flow.draft, flow.init.customFields)} .locations=${config.locations} .problems=${flow.problems}
            ?busy=${this.busy} .submitLabel=${config.payment ? this.#t("continueToPayment") : this.#t("book")}
            .recurrence=${config.recurrence ?? null} .slotStart=${flow.slot.start} .seriesSource=${flow.api}
            @bc-draft-change=${(e: CustomEvent<BookingFormEvents["bc-draft-change"]>) => {
              this.flow = flows.drafted(this.flow, e.detail.draft);
            }}
            @bc-submit=${() => void this.#booking.submit()}></bc-booking-form>
        </div>
      </div>`;
  }

  #renderPay(flow: FlowOf<"paying">) {
    const hold = this.#booking.holds.current;
    return html`
      ${renderBack(this.#env, () => this.#booking.back(), flow.confirming || this.busy)}
      <h3 tabindex="-1">${this.#t("payment")}</h3>
      ${renderChosen(flow, this.#env)}
      ${hold ? html`<bc-hold-timer exportparts="hold-timer" .heldUntil=${hold.heldUntil}></bc-hold-timer>` : nothing}
      <bc-payment-step exportparts="payment-element, pay, test-badge" .setup=${hold?.payment ?? null} .mountPoint=${this.#booking.paymentMount}
        @bc-paying=${() => this.#booking.cardConfirming(true)}
        @bc-paid=${() => {
          this.#booking.cardConfirming(false);
          void this.#booking.confirmPaid();
        }}
        @bc-payment-error=${(e: CustomEvent<PaymentStepEvents["bc-payment-error"]>) => this.#booking.paymentFailed(e.detail)}><slot name="payment-element"></slot></bc-payment-step>`;
  }

  #renderMove(flow: FlowOf<"moving">) {
    return managePart()?.renderMove(
      flow,
      this.#env,
      this.busy,
      () => this.#booking.back(),
      () => void this.#booking.move(),
    );
  }
}
