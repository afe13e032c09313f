import type { EventTypeConfiguration, ReservationResult, TimeSlot } from "@booking/wire";
import { ApiFailure, idempotencyKey } from "../api.ts";
import { monthOf, type PlainDate } from "../dates.ts";
import { checkDraft, placeOf, reservationOf } from "../flow/draft.ts";
import * as flows from "../flow/flow.ts";
import type { Booking, FlowOf, SlotFlow } from "../flow/flow.ts";
import { emit } from "../events.ts";
import { fieldProblems } from "../i18n/field-errors.ts";
import { failureText, type TextKey } from "../i18n/texts.ts";
import { loadPart } from "../parts/load.ts";
import type { PaymentStepEvents } from "../views/payment-step.ts";
import { focusAfterUpdate, type BookingHost } from "./booking-host.ts";
import { CalendarController } from "./calendar-controller.ts";
import type { EnvironmentController } from "./environment-controller.ts";
import { HoldController } from "./hold-controller.ts";
import { NoticeController } from "./notice-controller.ts";

/**
 * The visitor's booking once the event type is loaded, from a day and a time through the details and
 * the payment to the confirmation, and in reschedule mode the move or the cancellation: each move
 * sends its request, moves the element's flow, tells the host page, and sorts a failure into the
 * visitor's next step (the form's problems, the times again, or a notice with a retry). Holds what
 * those steps show: the message above the view, the calendar, and the seat held while paying.
 */
export class BookingController {
  /** The message above the current view. */
  readonly notices: NoticeController;
  /** The month shown, the day chosen, and their free times. */
  readonly calendar: CalendarController;
  /** The seat held while the visitor pays, with the payment opened for it. */
  readonly holds: HoldController;
  /** Where Stripe's Payment Element is mounted, in the page's light DOM. */
  #paymentMount: HTMLElement | null = null;
  readonly #host: BookingHost;
  readonly #environment: EnvironmentController;
  /** Loads the event type afresh (see StartController). */
  readonly #restart: () => Promise<void>;

  constructor(host: BookingHost, environment: EnvironmentController, restart: () => Promise<void>) {
    this.#host = host;
    this.#environment = environment;
    this.#restart = restart;
    this.notices = new NoticeController(host);
    this.calendar = new CalendarController(host, {
      zone: () => host.visitorZone,
      arrived: () => this.notices.recovered(),
      failed: (error, retry) => this.report(error, retry),
    });
    this.holds = new HoldController(host, {
      holdMinutes: () => host.flow.init?.configuration.holdMinutes ?? 0,
      lost: () => this.#backToSlots("holdLost"),
      ended: () => {
        this.#paymentMount?.remove();
        this.#paymentMount = null;
      },
    });
  }

  /** Where the card form mounts, once a payment was opened. */
  get paymentMount(): HTMLElement | null {
    return this.#paymentMount;
  }

  #t(key: TextKey, values?: Record<string, string | number>): string {
    return this.#environment.value.texts(key, values);
  }

  /** Shows the text of `key` as a warning; `retry` offers to repeat what failed. */
  #warn(key: TextKey, retry?: () => void): void {
    this.notices.say(this.#t(key), true, retry);
  }

  /** Shows a failure as a notice with a retry (after `Retry-After` for 429) and tells the host page. */
  report(error: unknown, retry: () => void): void {
    const failure = error instanceof ApiFailure ? error : new ApiFailure("unexpected", "unexpected_response", String(error));
    this.notices.say(failureText(this.#environment.value.texts, failure), true, retry, failure.kind === "rate_limited" ? failure.retryAfter : 0);
    this.#tellError(failure);
  }

  /** Tells the host page what the visitor was told went wrong. */
  #tellError({ code, message, status }: Pick<ApiFailure, "code" | "message" | "status">): void {
    const host = this.#host;
    // Named `host` like every call of `emit`: test/manifest.spec.ts finds the events by their calls.
    emit(host, "booking-error", { code, message, status });
  }

  // ---- choosing a time ----

  /** The details form's code (a part), fetched when a day is picked so it is here once a time is. */
  #loadForm(): void {
    loadPart("form").catch((error: unknown) =>
      this.report(new ApiFailure("network", "network_error", error instanceof Error ? error.message : String(error)), () => this.#loadForm()),
    );
  }

  /** A day was picked: its times, in view, and no time marked. */
  pickDay(date: PlainDate): void {
    const host = this.#host;
    this.#loadForm();
    this.calendar.choose(date);
    host.flow = flows.slotCleared(host.flow);
    emit(host, "booking-date-selected", { date, timezone: host.visitorZone });
    // The day's times get the focus; on a phone, where they are below the month (not beside it), they
    // are scrolled to the top of the screen so as many as fit show.
    void host.updateComplete.then(() => {
      const times = host.renderRoot.querySelector<HTMLElement>("#times");
      times?.focus({ preventScroll: true });
      times?.scrollIntoView(times.offsetLeft < 99 ? undefined : { block: "nearest" });
    });
  }

  /** Jumps to the offered day: its month, the day chosen, its times in view. */
  jumpTo(date: PlainDate): void {
    this.calendar.show(monthOf(date));
    this.pickDay(date);
  }

  /** A time was picked: the details (or the move) for it, unless the host page cancels `booking-slot-selected`. */
  pickSlot(slot: TimeSlot): void {
    const host = this.#host;
    const flow = host.flow;
    if (flow.kind !== "picking" || !emit(host, "booking-slot-selected", { slot, timezone: host.visitorZone }, true)) return;
    this.notices.clear();
    this.#loadForm();
    host.flow = flows.slotChosen(flow, slot);
    focusAfterUpdate(host, "h3[tabindex]");
  }

  /** One step back (see flows.back); the notice was about the step left. */
  back(): void {
    this.#host.flow = flows.back(this.#host.flow);
    this.notices.clear();
  }

  /** Back to the days and times with fresh slots, e.g. after the chosen time was taken. */
  #backToSlots(message: TextKey): void {
    this.#host.flow = flows.backToSlots(this.#host.flow);
    // A hold still standing (e.g. the payment could not be opened) is given back; a lost one is gone.
    void this.holds.release();
    this.holds.end();
    this.calendar.refresh();
    this.#warn(message);
  }

  // ---- booking ----

  /** The details were sent: checked here first, then booked, or held and paid for. */
  async submit(): Promise<void> {
    const flow = this.#host.flow;
    if (flow.kind !== "details") return;
    const config = flow.init.configuration;
    const found = Object.entries(checkDraft(flow.draft, flow.init.customFields, config.locations));
    this.#host.flow = flows.problemsFound(flow, Object.fromEntries(found.map(([field, p]) => [field, [this.#t(p.key, p.values)]])));
    if (found.length > 0) return this.#showProblems("fixErrors");
    this.notices.clear();
    const key = idempotencyKey();
    await (config.payment ? this.#prepareAndPay(key) : this.#book(key));
  }

  /** Says the form has problems and focuses the first of them. */
  #showProblems(text: TextKey): void {
    this.#warn(text);
    void this.#host.updateComplete.then(() =>
      this.#host.renderRoot.querySelector<HTMLElement & { focusFirstProblem(): void }>("bc-booking-form")?.focusFirstProblem(),
    );
  }

  /** Free event types book in one step. */
  async #book(key: string): Promise<void> {
    const flow = this.#host.flow;
    if (flow.kind !== "details") return;
    const input = reservationOf(flow.draft, flow.init, flow.slot, this.#host.visitorZone, this.#environment.value.dates);
    const retry = () => this.#book(key);
    await this.#attempt(flow, retry, async () => {
      this.#finish(flow, "booked", await flow.api.create(input, key));
    });
  }

  /**
   * Paid event types: hold the seat, open a payment for it, then show the card form. A visitor back
   * from the payment gives their earlier hold back first, so it cannot stand in their own way; once a
   * card payment was sent, they return to it instead.
   */
  async #prepareAndPay(key: string): Promise<void> {
    const host = this.#host;
    const flow = host.flow;
    const price = flow.init?.configuration.payment;
    if (flow.kind !== "details" || !price) return;
    const hold = this.holds.current;
    if (hold?.charging && hold.payment) {
      // Money may have moved for that time: back to its payment, showing its time.
      host.flow = flows.paymentOpened(flow, hold.slot);
      return;
    }
    const input = reservationOf(flow.draft, flow.init, flow.slot, host.visitorZone, this.#environment.value.dates);
    const retry = () => this.#prepareAndPay(key);
    await this.#attempt(flow, retry, async () => {
      // The payment step's code first (fetched on the first payment): nothing is held if it cannot be loaded.
      await loadPart("payment").catch((error: unknown) => {
        throw new ApiFailure("network", "network_error", error instanceof Error ? error.message : String(error));
      });
      // A visitor gone on meanwhile (a new start) is not held a seat for the step left.
      if (!flows.stillAt(host.flow, flow)) return;
      // A retry of this same attempt keeps its hold and only opens the payment again.
      if (hold && hold.key === key) return this.#openPayment(flow, price, hold.uuid, `${key}:pay`);
      await this.holds.release();
      const { uuid } = await flow.api.prepare(input, key);
      const held = this.holds.hold(flow.api, uuid, key, flow.slot);
      // Held for a step the visitor has left meanwhile: given back at once.
      if (!flows.stillAt(host.flow, flow)) return void this.holds.release();
      emit(host, "booking-reservation-held", { uuid, start: input.start, end: input.end, heldUntil: new Date(held.heldUntil).toISOString() });
      await this.#openPayment(flow, price, uuid, `${key}:pay`);
    });
  }

  /** Opens the payment for the held seat `uuid` and shows the card form. */
  async #openPayment(flow: FlowOf<"details">, price: NonNullable<EventTypeConfiguration["payment"]>, uuid: string, key: string): Promise<void> {
    const host = this.#host;
    const { draft, api } = flow;
    const name = [draft.firstname.trim(), draft.lastname.trim()].filter(Boolean).join(" ");
    const intent = await api.pay(uuid, { email: draft.email.trim(), ...(name ? { name } : {}) }, key);
    // What the visitor typed while the payment was opened goes along to the card form (and back);
    // a visitor who left the form meanwhile gives the seat back instead.
    const now = host.flow;
    if (!flows.stillAt(now, flow)) return void this.holds.release();
    this.holds.paymentOpened({
      publishableKey: price.publishableKey ?? "",
      providerAccountId: intent.providerAccountId,
      clientSecret: intent.clientSecret,
      paymentIntentId: intent.paymentIntentId,
      amountText: this.#environment.value.dates.money(intent.amount, price.currency),
      ...(price.stripeJsUrl ? { stripeJsUrl: price.stripeJsUrl } : {}),
    });
    this.#ensurePaymentMount();
    host.flow = flows.paymentOpened(now, flow.slot);
    emit(host, "booking-payment-started", { uuid, paymentIntentId: intent.paymentIntentId, amount: intent.amount, currency: price.currency });
  }

  /** Stripe's iframes are mounted in the page's light DOM and slotted in, not inside the shadow root. */
  #ensurePaymentMount(): void {
    if (this.#paymentMount?.isConnected) return;
    const mount = document.createElement("div");
    mount.slot = "payment-element";
    this.#host.append(mount);
    this.#paymentMount = mount;
  }

  /** Stripe.js could not be loaded: the seat is given back, and the visitor can try again from the form. */
  #paymentUnavailable(message: string): void {
    void this.holds.release();
    this.#host.flow = flows.back(this.#host.flow);
    this.#warn("paymentUnavailable", () => void this.submit());
    this.#tellError({ code: "payment_unavailable", message, status: null });
  }

  /** A card payment is being confirmed (true: the hold is never given back now), or that is over. */
  cardConfirming(confirming: boolean): void {
    this.#host.flow = flows.cardConfirming(this.#host.flow, confirming);
    if (confirming) this.holds.charging(true);
  }

  /** The card form could not be shown, or the payment did not go through (when clearly refused, no money moved). */
  paymentFailed({ message, refused, unavailable }: PaymentStepEvents["bc-payment-error"]): void {
    if (unavailable) return void this.#paymentUnavailable(message);
    this.cardConfirming(false);
    if (refused) this.holds.charging(false);
    this.notices.say(this.#t("paymentFailed", { message }));
    this.#tellError({ code: "payment_failed", message, status: null });
  }

  /** The card payment went through: the held seat is booked. */
  async confirmPaid(): Promise<void> {
    const flow = this.#host.flow;
    const hold = this.holds.current;
    if (flow.kind !== "paying" || !hold) return;
    const key = idempotencyKey();
    const retry = () => this.confirmPaid();
    await this.#attempt(flow, retry, async () => {
      this.#finish(flow, "booked", await flow.api.confirm(hold.uuid, {}, key));
    });
  }

  /**
   * Runs one step of `flow` with the busy flag; sorts its failures into the visitor's next move, unless
   * a new start came meanwhile (an older start's failure is not the new one's).
   */
  async #attempt(flow: Booking, retry: () => void, step: () => Promise<void>): Promise<void> {
    const host = this.#host;
    if (host.busy) return;
    host.busy = true;
    try {
      await step();
    } catch (error) {
      if (flows.sameStart(host.flow, flow)) this.#handleFlowError(error, retry);
    } finally {
      host.busy = false;
    }
  }

  #handleFlowError(error: unknown, retry: () => void): void {
    if (!(error instanceof ApiFailure)) return void this.report(error, retry);
    const { code, kind } = error;
    const timeLost = flows.timeLostBy(error);
    if (timeLost) {
      this.#tellError(error);
      return void this.#backToSlots(timeLost);
    }
    // Past the notice (it ran out, or the organizer changed it, while the visitor looked): the booking
    // again, whose rules now say whom to ask, with no retry that could only fail again.
    if (code === "forbidden") {
      this.#tellError(error);
      return void this.#restart().then(() => this.#warn("refused.forbidden"));
    }
    if (code === "payment_required") {
      this.#host.flow = flows.paymentRequired(this.#host.flow);
      return void this.#warn("paymentRequired");
    }
    if (kind === "validation") {
      const onForm = Object.keys(error.errors).some((k) => !["start", "end", "timezone"].includes(k));
      // Problems of the time alone (start, end, zone) have no field to show at.
      if (onForm) this.#host.flow = flows.problemsFound(this.#host.flow, fieldProblems(this.#environment.value.texts, error.errors, error.fieldErrors));
      this.#showProblems(onForm ? "fixErrors" : "invalidRequest");
      return void this.#tellError(error);
    }
    this.report(error, retry);
  }

  /** Booked or moved: the confirmation, unless a new start came meanwhile (then false, and nothing is shown). */
  #finish(flow: SlotFlow, kind: "booked" | "rescheduled", result: ReservationResult): boolean {
    const host = this.#host;
    const { init, slot, draft } = flow;
    const uuid = result.uuid ?? this.holds.current?.uuid ?? "";
    this.holds.end();
    if (!flows.sameStart(host.flow, flow)) return false;
    const email = draft.email.trim() || init.reservation?.email || "";
    // A move keeps the booking's place; a new booking has the one chosen, with the organizer's address or number.
    const location = kind === "rescheduled" ? (init.reservation?.location ?? null) : placeOf(draft, init.configuration.locations);
    host.flow = flows.finished(flow, { kind, slot, result, email, location });
    this.notices.clear();
    if (kind === "booked") emit(host, "booking-reservation-confirmed", { uuid, start: slot.startIso8601, end: slot.endIso8601, result });
    focusAfterUpdate(host, "h3[tabindex]");
    return true;
  }

  // ---- reschedule and cancel ----

  /** Reschedule mode: moves the booking to the chosen time. */
  async move(): Promise<void> {
    const host = this.#host;
    const flow = host.flow;
    if (flow.kind !== "moving") return;
    const { reservation, slot } = flow;
    const retry = () => void this.move();
    await this.#attempt(flow, retry, async () => {
      const result = await flow.api.reschedule(reservation.uuid, { start: slot.start, end: slot.end, timezone: host.visitorZone });
      if (this.#finish(flow, "rescheduled", result))
        emit(host, "booking-rescheduled", { uuid: reservation.uuid, start: slot.startIso8601, end: slot.endIso8601, previousStart: reservation.start });
    });
  }

  /** Reschedule mode: cancels the booking (`series`: and every later date of its series), with the reason typed. */
  async cancel(series = false): Promise<void> {
    const host = this.#host;
    const flow = host.flow;
    const reservation = flow.init?.reservation;
    if (flow.kind !== "picking" || !reservation) return;
    const retry = () => void this.cancel(series);
    await this.#attempt(flow, retry, async () => {
      await (series ? flow.api.endSeries(reservation.uuid, flow.cancelReason ?? "") : flow.api.cancel(reservation.uuid, flow.cancelReason ?? ""));
      if (!flows.sameStart(host.flow, flow)) return;
      host.flow = flows.reservationCancelled(flow, reservation);
      emit(host, "booking-cancelled", { uuid: reservation.uuid });
      focusAfterUpdate(host, "h3[tabindex]");
    });
  }

  /** After a cancellation: a fresh booking of the same event type. */
  bookAnother(): void {
    // Leaving reschedule mode starts the event type afresh (willUpdate runs the loader).
    if (this.#host.reservationUuid) this.#host.reservationUuid = "";
    else void this.#restart();
  }
}
