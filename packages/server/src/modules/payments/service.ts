import type { PaymentInput, PaymentResult } from "@booking/wire";
import type { LogEntry } from "../../context.ts";
import { nextStamp, statusAt } from "../../domain/reservation.ts";
import { conflictWindow, retakable } from "../../domain/slots.ts";
import { blockedByBusy, bufferedSpan } from "../../domain/busy.ts";
import { domainToASCII } from "node:url";
import { DomainError, BusinessFailure, FieldErrors, ValidationFailed } from "../../domain/errors.ts";
import { manageUrlOf } from "../../lib/links.ts";
import { StoreBusyError, type EventTypeRecord, type PaymentRecord, type ReservationRecord, type SeatDecision, type Store } from "../../store/types.ts";
import { outboxEvents } from "../outbox/events.ts";
import { NO_MAIL, type MailPolicy } from "../mail/events.ts";
import { ProviderNotAuthorized, ProviderRefusal, type IntentStatus, type PaymentProvider, type ProviderEvent, type ProviderIntent } from "./provider.ts";

/** What a visitor is told about a reservation cancelled because its seat was gone when its payment went through. */
export const REFUNDED_MESSAGE = "The seat was taken by someone else after the hold ended, so the reservation was cancelled and its payment refunded.";
/** As REFUNDED_MESSAGE, while the refund has not gone through at Stripe yet (it is retried until it does). */
export const REFUNDING_MESSAGE = "The seat was taken by someone else after the hold ended, so the reservation was cancelled; the refund of its payment is under way.";

/** What the payer is told about a reservation cancelled with its payment refunded or being refunded. */
export function refundMessage(status: "refunded" | "refunding"): string {
  return status === "refunded" ? REFUNDED_MESSAGE : REFUNDING_MESSAGE;
}

/** Intent states in which the visitor can still pay; any other needs a new intent (`processing` is answered as it is, never replaced). */
const PAYABLE = new Set<IntentStatus>(["requires_payment_method", "requires_confirmation", "requires_action"]);
/** Intent states that say a payment recorded as processing did not go through. */
const NOT_PAID = new Set<IntentStatus>(["requires_payment_method", "requires_confirmation", "requires_action", "canceled"]);
/** Payment states a new payment request never replaces nor downgrades: money is in, or on its way. */
const KEPT = new Set<PaymentRecord["status"]>(["processing", "succeeded"]);

/**
 * Card payments of paid reservations through the payment provider (Stripe), on the organizer's
 * connected account.
 * Amount and currency always come from the event type, never from the client, and a reported
 * success counts only when it matches what was asked for.
 */
export class PaymentService {
  constructor(
    private readonly store: Store,
    private readonly provider: PaymentProvider | null,
    private readonly webhookSecret: string | null,
    private readonly now: () => number,
    private readonly log: (entry: LogEntry) => void,
    /** Whether a refund's cancellation is emailed too (see MailPolicy); never by default. */
    private readonly mail: MailPolicy = NO_MAIL,
  ) {}

  /**
   * Creates, or reuses while payable, the PaymentIntent of a held reservation. An intent being
   * processed, or a payment recorded processing or succeeded, is answered as it is: never replaced,
   * its recorded status never set back to pending (which would let the hold lapse with money on its way).
   */
  async createIntent(eventType: EventTypeRecord, reservation: ReservationRecord, input: PaymentInput, origin: string): Promise<PaymentResult> {
    const nowMs = this.now();
    const status = statusAt(reservation, nowMs);
    const refund = reservation.payment?.status;
    if (status === "cancelled" && (refund === "refunding" || refund === "refunded")) {
      // Cancelled because its payment came after the seat was gone: the payer is told where their
      // money is, as confirm and refresh tell them, and a refund still under way is tried again.
      const now = refund === "refunding" && this.provider ? await this.finishRefund(eventType, reservation, origin) : reservation;
      throw new BusinessFailure("reservation_finished", refundMessage(now.payment?.status === "refunded" ? "refunded" : "refunding"));
    }
    const price = eventType.settings.payment;
    if (!this.provider || !price) throw new DomainError("provider_not_configured", "Card payments are not set up for this event type.");
    if (status !== "held") {
      throw new BusinessFailure("reservation_finished", status === "confirmed" ? "The reservation is already confirmed." : "The hold has ended; refresh the reservation or pick a new time.");
    }
    const billing = billingOf(input);
    const current = reservation.payment;
    const sameTerms = current && current.amount === price.amount && current.currency === price.currency && current.account === price.providerAccountId;
    let intent: ProviderIntent | null = null;
    let terms = { account: price.providerAccountId, amount: price.amount, currency: price.currency };
    // The receipt goes to the address the visitor gave last, or nowhere when Stripe cannot take it.
    const receipt = receiptEmailOf(input.email);
    if (current) {
      const kept = KEPT.has(current.status);
      // Under other terms the old intent matters only if it was paid; one that cannot be read any more was not.
      const read = () => this.provider!.retrieveIntent(current.intentId, { account: current.account });
      const existing = sameTerms || kept ? await this.call(read) : await read().catch(() => null);
      const answerOf = (i: ProviderIntent): PaymentResult => ({ clientSecret: i.client_secret ?? "", paymentIntentId: i.id, providerAccountId: current.account, amount: current.amount });
      if (existing?.status === "succeeded" && matches(existing, current.amount, current.currency)) {
        // A payment that went through stays the reservation's payment, even if the price changed since.
        intent = existing;
        terms = current;
      } else if (existing?.status === "processing") {
        // Money is on its way on this intent, under whatever terms it was made: it stays the payment,
        // and keeps the seat (recorded now if its webhook has not come yet). A new intent could take a second payment.
        if (current.status === "pending" || current.status === "failed") await this.settleProcessing(eventType, reservation, true);
        return answerOf(existing);
      } else if (kept && !(existing && sameTerms && PAYABLE.has(existing.status))) {
        // Recorded processing or succeeded while Stripe says otherwise (its webhook on the way, or the
        // sweep's check): the record stands until then, and no new intent replaces it.
        if (!existing) throw new DomainError("internal_error", "The payment provider could not be reached; nothing was changed. Try again.");
        return answerOf(existing);
      } else if (existing && sameTerms && PAYABLE.has(existing.status)) {
        intent = existing;
        if (existing.receipt_email !== receipt) {
          intent = await this.call(() => this.provider!.updateReceiptEmail(existing.id, receipt, { account: current.account }), true);
        }
      } else if (existing && PAYABLE.has(existing.status)) {
        // Replaced under new terms: cancel the old intent so a page still open on it cannot take money
        // that no reservation would count. Best effort; a failure leaves it to expire at Stripe.
        await this.cancelIntent(existing.id, current.account, `could not cancel replaced payment intent ${existing.id}`);
      }
    }
    intent ??= await this.call(() =>
      this.provider!.createIntent(
        {
          amount: price.amount,
          currency: price.currency,
          ...(receipt === null ? {} : { receipt_email: receipt }),
          description: `${eventType.settings.title}, ${new Date(reservation.startMs).toISOString()}`,
          metadata: { reservation_uuid: reservation.uuid, event_type_id: String(eventType.id) },
        },
        // One intent per reservation and terms, however often the visitor retries.
        { account: price.providerAccountId, idempotencyKey: `reservation-${reservation.uuid}-${price.amount}-${price.currency}-${reservation.updatedAtMs}` },
      ),
      true,
    );
    const succeeded = intent.status === "succeeded" && matches(intent, terms.amount, terms.currency);
    const answer = { clientSecret: intent.client_secret ?? "", paymentIntentId: intent.id, providerAccountId: terms.account, amount: terms.amount };
    if (succeeded) {
      // Paid already (only ever the reservation's own intent: a new one is never paid): recorded like
      // any success, through the seat claim, since the hold may have lapsed meanwhile.
      const settled = await this.settleSuccess(eventType, reservation, origin);
      const refund = settled.payment?.intentId === intent.id ? settled.payment.status : null;
      if (refund === "refunded" || refund === "refunding") throw new BusinessFailure("reservation_finished", refundMessage(refund));
      return answer;
    }
    // Only billing details and the intent change here, never what the payment keeps: a save takes no seat.
    const same = current?.intentId === intent.id ? current : null;
    const payment: PaymentRecord = {
      intentId: intent.id,
      account: terms.account,
      amount: terms.amount,
      currency: terms.currency,
      status: same && KEPT.has(same.status) ? same.status : "pending",
      billing,
      succeededAtMs: same?.status === "succeeded" ? same.succeededAtMs : null,
    };
    const saved = await this.store.reservations.save({ ...reservation, payment, updatedAtMs: nextStamp(reservation, nowMs) }, reservation.updatedAtMs);
    if (!saved) throw new BusinessFailure("slot_locked", "The reservation changed meanwhile; try again.");
    return answer;
  }

  /**
   * Whether the reservation's payment has succeeded. When no success is recorded yet, asks Stripe
   * (its webhook can lag behind the visitor) and records what it says, through the seat claim:
   * `refunded` when the payment went through after the seat was gone (the reservation is then
   * cancelled and the money given back), `refunding` while that refund has not gone through yet.
   */
  async isPaid(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<"paid" | "unpaid" | "refunded" | "refunding"> {
    const payment = reservation.payment;
    if (!payment) return "unpaid";
    if (payment.status === "succeeded") return "paid";
    if (payment.status === "refunded") return "refunded";
    if (payment.status === "refunding") return (await this.finishRefund(eventType, reservation, origin)).payment?.status === "refunded" ? "refunded" : "refunding";
    if (!this.provider) return "unpaid";
    const intent = await this.call(() => this.provider!.retrieveIntent(payment.intentId, { account: payment.account }));
    if (intent.status === "processing") await this.settleProcessing(eventType, reservation, true);
    if (intent.status !== "succeeded" || !matches(intent, payment.amount, payment.currency)) return "unpaid";
    const settled = await this.settleSuccess(eventType, reservation, origin);
    if (settled.payment?.intentId !== payment.intentId) return "unpaid";
    const now = settled.payment.status;
    return now === "refunded" || now === "refunding" ? now : now === "succeeded" ? "paid" : "unpaid";
  }

  /**
   * Closes the intent of a hold being let go, so that no page still open on it can take money for a
   * seat that is gone. Answers what the intent turned out to be:
   * - `closed`: cancelled at Stripe, or no longer payable (or Stripe could not be reached within
   *   five seconds: the intent is then left open there, with a warning in the log);
   * - `paid`: it had been paid after all (its webhook not yet arrived); the success is recorded;
   * - `refunded` or `refunding`: paid after all, but the hold's seat was gone: the reservation is
   *   cancelled and the payment refunded (or its refund under way);
   * - `processing`: money may still arrive, so it is neither cancelled nor counted.
   */
  async closeIntent(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<"closed" | "paid" | "refunded" | "refunding" | "processing"> {
    const payment = reservation.payment;
    if (!payment) return "closed";
    if (payment.status === "succeeded") return "paid";
    if (!this.provider) return "closed";
    const warning = `could not cancel payment intent ${payment.intentId} of a released hold`;
    const refusal = await this.cancelIntent(payment.intentId, payment.account, warning, true);
    if (!refusal) return "closed";
    // Stripe refuses to cancel an intent that succeeded, is processing or was already cancelled.
    const intent = await this.provider.retrieveIntent(payment.intentId, { account: payment.account, bestEffort: true }).catch(() => null);
    if (intent?.status === "succeeded" && matches(intent, payment.amount, payment.currency)) {
      const settled = await this.settleSuccess(eventType, reservation, origin);
      const now = settled.payment?.intentId === payment.intentId ? settled.payment.status : null;
      return now === "refunded" || now === "refunding" ? now : "paid";
    }
    if (intent?.status === "processing") return "processing";
    if (intent?.status !== "canceled") this.log({ level: "warn", message: warning, error: refusal });
    return "closed";
  }

  /** Verifies and records a Stripe webhook event; answers what was done, for the log. */
  async receiveWebhook(rawBody: string, signature: string | null, origin: string): Promise<string> {
    if (!this.provider || !this.webhookSecret) throw new DomainError("not_found", "Stripe is not configured on this server.");
    let event: ProviderEvent;
    try {
      // The asynchronous form: under Bun the SDK verifies with Web Crypto, which has no synchronous API.
      event = await this.provider.verifyEvent(rawBody, signature ?? "", this.webhookSecret);
    } catch {
      throw new DomainError("bad_request", "The Stripe-Signature header does not verify this payload.");
    }
    if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed" && event.type !== "payment_intent.processing") return `ignored ${event.type}`;
    const intent = event.intent;
    if (!intent) return `ignored ${event.type}`;
    const reservation = await this.store.reservations.byPaymentIntent(intent.id);
    const payment = reservation?.payment;
    if (!reservation || !payment) return event.type === "payment_intent.succeeded" ? this.refundReplaced(event, intent) : `no reservation for ${intent.id}`;
    if (intent.metadata?.reservation_uuid !== reservation.uuid || event.account !== payment.account) {
      this.log({ level: "warn", message: `Stripe event ${event.id} does not belong to reservation ${reservation.uuid}; ignored` });
      return "mismatch";
    }
    if (event.type === "payment_intent.payment_failed") {
      // A processing payment that fails gives its seat back (if its hold time is over): the save moves
      // seats. Stripe does not promise the order of its events, so only what Stripe says now counts:
      // a failure of an earlier attempt must not end a payment that is processing now.
      if (payment.status !== "pending" && payment.status !== "processing") return "failure ignored";
      const { written } = await this.recordFailed(reservation);
      return written ? "failure recorded" : "stale failure event ignored";
    }
    if (!matches(intent, payment.amount, payment.currency)) {
      this.log({ level: "warn", message: `Stripe event ${event.id} reports ${intent.amount} ${intent.currency}, expected ${payment.amount} ${payment.currency}; ignored` });
      return "mismatch";
    }
    const eventType = await this.store.eventTypes.byId(reservation.eventTypeId);
    if (!eventType) return `no event type for ${intent.id}`;
    if (event.type === "payment_intent.processing") {
      // Stripe does not promise the order of its events: a processing event counts only if the intent
      // is really processing now, or one arriving after the failure that ended it (even after the
      // visitor's retry set the record back to pending) would keep a seat for a payment that failed.
      const now = await this.call(() => this.provider!.retrieveIntent(payment.intentId, { account: payment.account }));
      if (now.status !== "processing") return "stale processing event ignored";
      await this.settleProcessing(eventType, reservation, true);
      return "processing recorded";
    }
    const settled = await this.settleSuccess(eventType, reservation, origin);
    // Not refunded yet (Stripe could not be reached): a failed answer makes Stripe send the event again, and the refund is retried.
    if (settled.payment?.status === "refunding") throw new DomainError("internal_error", "The refund of a payment whose seat was gone could not be made yet.");
    return settled.payment?.status === "refunded" ? "refunded" : "success recorded";
  }

  /**
   * Records the reservation's payment `failed` if Stripe says now that it was not paid (NOT_PAID);
   * `intent` is Stripe's answer when the caller has just asked. A save that loses its compare-and-set
   * (the reservation changed meanwhile) is read again and judged again, with Stripe asked again, so
   * a failure is never dropped silently; when it keeps losing, the error makes Stripe send its event
   * again. Never downgrades a payment recorded succeeded (or anything but pending and processing).
   */
  private async recordFailed(reservation: ReservationRecord, intent?: ProviderIntent): Promise<{ record: ReservationRecord; written: boolean }> {
    let r = reservation;
    const intentId = reservation.payment!.intentId;
    for (let attempt = 0; attempt < 5; attempt++) {
      const payment = r.payment;
      if (!payment || payment.intentId !== intentId || (payment.status !== "pending" && payment.status !== "processing")) return { record: r, written: false };
      const now = intent ?? (await this.call(() => this.provider!.retrieveIntent(intentId, { account: payment.account })));
      intent = undefined;
      if (!NOT_PAID.has(now.status)) return { record: r, written: false };
      const failed: ReservationRecord = { ...r, payment: { ...payment, status: "failed" }, updatedAtMs: this.stamp(r) };
      if (await this.store.reservations.save(failed, r.updatedAtMs)) return { record: failed, written: true };
      const again = await this.store.reservations.byUuid(r.eventTypeId, r.uuid);
      if (!again) return { record: r, written: false };
      r = again;
    }
    throw new DomainError("internal_error", "The reservation kept changing; the payment's failure was not recorded yet.");
  }

  /**
   * A success on an intent that no reservation has as its payment any more: one replaced under new
   * terms (the price changed during the hold) whose cancelling failed, then paid from a page still
   * open on it. Its reservation (named in the metadata the server gives every intent) counts only
   * its current intent, so this money would be kept for nothing: it is refunded (one refund per
   * intent, however often the event arrives). A failure answers an error, so Stripe sends the event again.
   */
  private async refundReplaced(event: ProviderEvent, intent: ProviderIntent): Promise<string> {
    const uuid = intent.metadata?.reservation_uuid;
    const eventTypeId = Number(intent.metadata?.event_type_id);
    const reservation = uuid && Number.isSafeInteger(eventTypeId) ? await this.store.reservations.byUuid(eventTypeId, uuid) : null;
    if (!reservation || reservation.payment?.intentId === intent.id) return `no reservation for ${intent.id}`;
    const account = event.account ?? undefined;
    try {
      const refund = await this.provider!.createRefund(
        { payment_intent: intent.id, metadata: { reservation_uuid: reservation.uuid, reason: "replaced_payment_intent" } },
        { account, idempotencyKey: `refund-${intent.id}`, bestEffort: true },
      );
      this.log({ level: "warn", message: `payment ${intent.id} on a replaced intent of reservation ${reservation.uuid} refunded (${refund.id}): the reservation counts only its current intent` });
    } catch (error) {
      if (error instanceof ProviderRefusal) {
        if (error.code === "charge_already_refunded") return "replaced intent refunded";
        // Stripe refuses for good (no such intent on that account, or nothing paid on it): sending the event again changes nothing.
        this.log({ level: "warn", message: `payment ${intent.id} on a replaced intent of reservation ${reservation.uuid} was not refunded: ${error.message}` });
        return "replaced intent not refunded";
      }
      this.log({ level: "error", message: `could not refund payment ${intent.id} on a replaced intent of reservation ${reservation.uuid}`, error });
      throw new DomainError("internal_error", "The refund of a payment on a replaced intent could not be made yet.");
    }
    return "replaced intent refunded";
  }

  /**
   * Records that the reservation's payment succeeded, judged with the seats in view at the instant
   * of the write (the store's seat claim), and answers the reservation as it then is:
   * - held, confirmed, or lapsed with its seat still free: the success is recorded and the hold keeps
   *   (or takes back) its seat whatever `heldUntil` says, until confirmed or cancelled;
   * - lapsed with its seat taken by someone else, or cancelled: the reservation is cancelled and the
   *   payment refunded at Stripe, and the organizer is told (`reservation.cancelled`), so neither the
   *   money nor the booking is lost silently.
   */
  async settleSuccess(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<ReservationRecord> {
    const intentId = reservation.payment!.intentId;
    const { record: settled, written } = await this.settle(eventType, reservation, (holders, current, at, busy): SeatDecision => {
      const payment = current?.payment;
      // Another intent replaced this one, or the success is already written down: nothing to do.
      if (!current || !payment || payment.intentId !== intentId || !(payment.status === "pending" || payment.status === "processing" || payment.status === "failed")) return { refuse: "unchanged" };
      const status = statusAt(current, at);
      const succeeded: PaymentRecord = { ...payment, status: "succeeded", succeededAtMs: at };
      if (status === "held" || status === "confirmed") return { write: { ...current, payment: succeeded, updatedAtMs: nextStamp(current, at) } };
      // A lapsed hold takes its seat back only if nobody took it and the organizer's calendar did not fill the time meanwhile.
      if (status === "expired" && retakable(eventType.settings, current.startMs, current.endMs, holders, at) && !blockedByBusy(eventType.settings, current.startMs, current.endMs, busy ?? [])) {
        return { write: { ...current, status: "held", payment: succeeded, updatedAtMs: nextStamp(current, at) } };
      }
      return {
        write: {
          ...current,
          status: "cancelled",
          cancelledAtMs: current.cancelledAtMs ?? at,
          sequence: current.status === "cancelled" ? current.sequence : current.sequence + 1,
          payment: { ...succeeded, status: "refunding" },
          updatedAtMs: nextStamp(current, at),
        },
      };
    });
    if (written && settled.payment?.status === "succeeded") {
      this.log({ level: "info", message: `payment ${intentId} succeeded for reservation ${reservation.uuid}` });
    }
    if (settled.payment?.status === "refunding" && settled.payment.intentId === intentId) return this.finishRefund(eventType, settled, origin);
    return settled;
  }

  /**
   * Records that the reservation's payment is being processed at Stripe, which keeps its hold's seat,
   * if the hold still has one (held, or lapsed with the seat free); otherwise nothing is recorded
   * and a later success is refunded. Only from `pending`, or from `failed` when the caller saw the
   * intent processing at Stripe itself (`checked`): a processing event that arrives after the
   * failure that ended it must not bring the seat back.
   */
  private async settleProcessing(eventType: EventTypeRecord, reservation: ReservationRecord, checked = false): Promise<void> {
    const intentId = reservation.payment!.intentId;
    await this.settle(eventType, reservation, (holders, current, at, busy): SeatDecision => {
      const payment = current?.payment;
      if (!current || !payment || payment.intentId !== intentId || !(payment.status === "pending" || (checked && payment.status === "failed"))) return { refuse: "unchanged" };
      const status = statusAt(current, at);
      const processing: PaymentRecord = { ...payment, status: "processing" };
      if (status === "held") return { write: { ...current, payment: processing, updatedAtMs: nextStamp(current, at) } };
      // A lapsed hold takes its seat back only if nobody took it and the organizer's calendar did not fill the time meanwhile.
      if (status === "expired" && retakable(eventType.settings, current.startMs, current.endMs, holders, at) && !blockedByBusy(eventType.settings, current.startMs, current.endMs, busy ?? [])) {
        return { write: { ...current, status: "held", payment: processing, updatedAtMs: nextStamp(current, at) } };
      }
      return { refuse: "unchanged" };
    });
  }

  /**
   * Gives back the money of a reservation cancelled with its payment `refunding`: a refund at Stripe
   * (one per intent, however often this runs), then the payment recorded `refunded` and the organizer's
   * `reservation.cancelled` webhook written with it. When Stripe cannot be reached the payment stays
   * `refunding` (visible to the organizer) and the sweep (`retryRefunds`), the payer's next confirm or
   * refresh, or Stripe sending its event again retries. A refund Stripe already made (its idempotency
   * key forgotten after 24 hours, so a retry is told `charge_already_refunded`) is looked up and recorded.
   */
  async finishRefund(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<ReservationRecord> {
    let r = reservation;
    const payment = r.payment!;
    let refundId: string;
    try {
      const refund = await this.provider!.createRefund(
        { payment_intent: payment.intentId, metadata: { reservation_uuid: r.uuid, reason: "seat_taken_after_hold_ended" } },
        { account: payment.account, idempotencyKey: `refund-${payment.intentId}`, bestEffort: true },
      );
      refundId = refund.id;
    } catch (error) {
      const made = error instanceof ProviderRefusal && error.code === "charge_already_refunded" ? await this.existingRefund(payment) : null;
      if (made?.status === "succeeded") refundId = made.id;
      else if (made) {
        // Made but not through yet: the payment stays refunding until Stripe says it is (the sweep asks again).
        this.log({ level: "warn", message: `refund ${made.id} of payment ${payment.intentId} of reservation ${r.uuid} is ${made.status} at Stripe; checked again later` });
        return this.postpone(r);
      } else {
        this.log({ level: "error", message: `could not refund payment ${payment.intentId} of reservation ${r.uuid}, whose seat was gone; retried on the next attempt`, error });
        return this.postpone(r);
      }
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      if (r.payment?.intentId !== payment.intentId || r.payment.status !== "refunding") return r;
      const nowMs = this.now();
      const refunded: ReservationRecord = { ...r, payment: { ...r.payment, status: "refunded", refundId }, updatedAtMs: nextStamp(r, nowMs) };
      const events = outboxEvents(this.mail, eventType, "reservation.cancelled", refunded, nowMs, manageUrlOf(origin, eventType.slug, r.uuid));
      if (await this.store.reservations.save(refunded, r.updatedAtMs, events)) {
        this.log({ level: "warn", message: `payment ${payment.intentId} of reservation ${r.uuid} refunded (${refundId}): its seat was taken after the hold ended` });
        return refunded;
      }
      const again = await this.store.reservations.byUuid(r.eventTypeId, r.uuid);
      if (!again) return r;
      r = again;
    }
    return r;
  }

  /**
   * The refund Stripe already made of the payment's intent: a succeeded one first, else the newest
   * still on its way (pending, requires_action), or null if none can be found.
   */
  private async existingRefund(payment: PaymentRecord): Promise<{ id: string; status: string } | null> {
    try {
      const list = await this.provider!.listRefunds(payment.intentId, 10, { account: payment.account, bestEffort: true });
      const made = list.find((refund) => refund.status === "succeeded") ?? list.find((refund) => refund.status !== "failed" && refund.status !== "canceled");
      return made ? { id: made.id, status: made.status } : null;
    } catch (error) {
      this.log({ level: "error", message: `could not list the refunds of payment ${payment.intentId}`, error });
      return null;
    }
  }

  /**
   * Moves a reservation whose refund could not be finished to the back of the sweep's line
   * (`refundsDue` takes the least recently changed first), so refunds that keep failing never hold up
   * the others. Answers the reservation as saved, or as given when it changed meanwhile.
   */
  private async postpone(r: ReservationRecord): Promise<ReservationRecord> {
    const later: ReservationRecord = { ...r, updatedAtMs: this.stamp(r) };
    return (await this.store.reservations.save(later, r.updatedAtMs).catch(() => false)) ? later : r;
  }

  /**
   * Asks Stripe about a payment recorded `processing` whose reservation no longer waits for it: a
   * hold past its hold time, or a reservation no longer held (run by the sweep, so a lost webhook
   * never leaves the seat kept, nor money without a booking): a success is recorded (`settleSuccess`,
   * which refunds it when the reservation lost its seat or was cancelled), a payment that did not go
   * through is recorded `failed`, so the hold lapses; one still processing stays, moved to the back
   * of the sweep's line.
   * Answers the reservation as it then is.
   */
  async recheckProcessing(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<ReservationRecord> {
    const payment = reservation.payment;
    if (!this.provider || payment?.status !== "processing") return reservation;
    const intent = await this.call(() => this.provider!.retrieveIntent(payment.intentId, { account: payment.account }));
    if (intent.status === "succeeded" && matches(intent, payment.amount, payment.currency)) return this.settleSuccess(eventType, reservation, origin);
    // Still processing: checked again after the others the sweep has to ask about.
    if (!NOT_PAID.has(intent.status)) return this.postpone(reservation);
    // Frees the seat if the hold time is over: a save may give seats back, never take them.
    const { record, written } = await this.recordFailed(reservation, intent);
    if (written) this.log({ level: "info", message: `payment ${payment.intentId} of reservation ${reservation.uuid} is ${intent.status} at Stripe, no longer processing: recorded failed` });
    return record;
  }

  /**
   * Retries the refunds that could not be made when a payment's seat was gone (run by the sweep),
   * so no refund waits for Stripe to send its event again or for the payer to come back. A failure
   * of one is logged and leaves it for the next sweep; the others go on. Answers how many were refunded.
   */
  async retryRefunds(origin: string, limit = 50): Promise<number> {
    if (!this.provider) return 0;
    let refunded = 0;
    for (const r of await this.store.reservations.refundsDue(limit)) {
      try {
        const eventType = await this.store.eventTypes.byId(r.eventTypeId);
        if (!eventType) continue;
        if ((await this.finishRefund(eventType, r, origin)).payment?.status === "refunded") refunded++;
      } catch (error) {
        this.log({ level: "error", message: `retrying the refund of reservation ${r.uuid} failed`, error });
      }
    }
    return refunded;
  }

  /**
   * Runs a seat claim about a reservation's payment, on the reservation's seat as stored; answers the
   * reservation as written, or as stored when nothing was. A reservation rescheduled since it was
   * read is read again and the claim made on its new seat (the store refuses a write outside the
   * seat a claim locked).
   */
  private async settle(eventType: EventTypeRecord, reservation: ReservationRecord, decide: Parameters<Store["reservations"]["claim"]>[1]): Promise<{ record: ReservationRecord; written: boolean }> {
    let r = reservation;
    for (let attempt = 0; attempt < 3; attempt++) {
      const seat = { startMs: r.startMs, endMs: r.endMs };
      let moved = false;
      let outcome: Awaited<ReturnType<Store["reservations"]["claim"]>>;
      try {
        outcome = await this.store.reservations.claim(
          { eventTypeId: eventType.id, ...conflictWindow(eventType.settings, seat.startMs, seat.endMs), seat, busySpan: bufferedSpan(eventType.settings, seat.startMs, seat.endMs), nowMs: this.now, uuid: r.uuid },
          (holders, current, at, busy) => {
            if (current && (current.startMs !== seat.startMs || current.endMs !== seat.endMs)) {
              moved = true;
              return { refuse: "moved" };
            }
            return decide(holders, current, at, busy);
          },
        );
      } catch (error) {
        if (error instanceof StoreBusyError) throw new BusinessFailure("slot_locked", "The reservation is being changed by another request; try again.");
        throw error;
      }
      if ("record" in outcome) return { record: outcome.record, written: true };
      const stored = await this.store.reservations.byUuid(r.eventTypeId, r.uuid);
      if (!stored || !moved) return { record: stored ?? r, written: false };
      r = stored;
    }
    throw new BusinessFailure("slot_locked", "The reservation is being changed by another request; try again.");
  }

  /**
   * Cancels an intent on a connected account, best effort: a short wait, no retries, and a failure
   * logged as `warning`. With `answerRefusal`, Stripe's refusal (the intent succeeded, is processing
   * or was cancelled already) is answered instead, unlogged, for the caller to look into; null otherwise.
   */
  private async cancelIntent(intentId: string, account: string, warning: string, answerRefusal = false): Promise<ProviderRefusal | null> {
    try {
      await this.provider!.cancelIntent(intentId, { account, bestEffort: true });
    } catch (error) {
      if (answerRefusal && error instanceof ProviderRefusal) return error;
      this.log({ level: "warn", message: warning, error });
    }
    return null;
  }

  private stamp(r: ReservationRecord): number {
    return nextStamp(r, this.now());
  }

  /** Runs a provider call; a configuration problem is the organizer's, anything else is a retryable failure. */
  /**
   * A provider call, its refusals turned into domain errors. `payerEmail`: the call sends the payer's
   * address (as the receipt's), so a refusal of that address is the visitor's to correct (422).
   */
  private async call<T>(run: () => Promise<T>, payerEmail = false): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ProviderNotAuthorized) {
        throw new DomainError("provider_not_configured", "The payment provider refused this event type's account.");
      }
      if (error instanceof ProviderRefusal && (error.code === "account_invalid" || error.param === "stripe_account")) {
        throw new DomainError("provider_not_configured", "The event type's payment account is not usable.");
      }
      if (payerEmail && error instanceof ProviderRefusal && (error.param === "receipt_email" || error.code === "email_invalid")) {
        // Stripe's own address rules are stricter than ours in ways it does not publish: the payer can
        // give another address, which a 500 would never have told them.
        const errors = new FieldErrors();
        errors.add("email", "invalid_email", "The payment provider does not accept this email address for the receipt; use another one.");
        throw new ValidationFailed(errors.messages, errors.list);
      }
      this.log({ level: "error", message: "Stripe request failed", error });
      throw new DomainError("internal_error", "The payment provider could not be reached; nothing was changed. Try again.");
    }
  }
}

/** Stripe's receipt addresses are plain ASCII ones; anything else it refuses with `email_invalid`. */
const STRIPE_EMAIL = /^[\x21-\x7e]+@[\x21-\x7e]+$/;

/**
 * The address Stripe is asked to send the payment's receipt to, or null for none. Stripe refuses
 * internationalized addresses, so a domain outside ASCII goes in its punycode (ASCII) spelling, and
 * an address whose local part is outside ASCII (`jürgen@example.de`) gets no receipt from Stripe:
 * the booking and its own emails still go to the address as given.
 */
export function receiptEmailOf(email: string): string | null {
  if (STRIPE_EMAIL.test(email)) return email;
  const at = email.lastIndexOf("@");
  const domain = domainToASCII(email.slice(at + 1));
  const ascii = `${email.slice(0, at)}@${domain}`;
  return domain !== "" && STRIPE_EMAIL.test(ascii) ? ascii : null;
}

const matches = (intent: ProviderIntent, amount: number, currency: string): boolean =>
  intent.amount === amount && intent.currency.toLowerCase() === currency.toLowerCase();

function billingOf(input: PaymentInput): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
}
