import Stripe from "stripe";
import type { PaymentInput, PaymentResult } from "@booking/wire";
import type { LogEntry } from "../../context.ts";
import { nextStamp, statusAt } from "../../domain/reservation.ts";
import { ApiError, BusinessFailure } from "../../http/errors.ts";
import type { EventTypeRecord, PaymentRecord, ReservationRecord, Store } from "../../store/types.ts";

/** Intent states in which the visitor can still pay; any other needs a new intent. */
const PAYABLE = new Set<Stripe.PaymentIntent.Status>(["requires_payment_method", "requires_confirmation", "requires_action", "processing"]);
/** Best effort on the way of a visitor's request: a short wait and no retries, not the client's 15 s and two retries. */
const BEST_EFFORT = { timeout: 5_000, maxNetworkRetries: 0 };

/**
 * Card payments of paid reservations through Stripe, on the organizer's connected account.
 * Amount and currency always come from the event type, never from the client, and a reported
 * success counts only when it matches what was asked for.
 */
export class PaymentService {
  constructor(
    private readonly store: Store,
    private readonly stripe: Stripe | null,
    private readonly webhookSecret: string | null,
    private readonly now: () => number,
    private readonly log: (entry: LogEntry) => void,
  ) {}

  /** Creates, or reuses while payable, the PaymentIntent of a held reservation. */
  async createIntent(eventType: EventTypeRecord, reservation: ReservationRecord, input: PaymentInput): Promise<PaymentResult> {
    const price = eventType.settings.payment;
    if (!this.stripe || !price) throw new ApiError("provider_not_configured", "Card payments are not set up for this event type.");
    const nowMs = this.now();
    const status = statusAt(reservation, nowMs);
    if (status !== "held") {
      throw new BusinessFailure("reservation_finished", status === "confirmed" ? "The reservation is already confirmed." : "The hold has ended; refresh the reservation or pick a new time.");
    }
    const billing = billingOf(input);
    const current = reservation.payment;
    const sameTerms = current && current.amount === price.amount && current.currency === price.currency && current.account === price.providerAccountId;
    let intent: Stripe.PaymentIntent | null = null;
    let terms = { account: price.providerAccountId, amount: price.amount, currency: price.currency };
    if (current) {
      // Under other terms the old intent matters only if it was paid; one that cannot be read any more was not.
      const read = () => this.stripe!.paymentIntents.retrieve(current.intentId, {}, { stripeAccount: current.account });
      const existing = sameTerms ? await this.call(read) : await read().catch(() => null);
      if (existing?.status === "succeeded" && matches(existing, current.amount, current.currency)) {
        // A payment that went through stays the reservation's payment, even if the price changed since.
        intent = existing;
        terms = current;
      } else if (existing && sameTerms && PAYABLE.has(existing.status)) {
        intent = existing;
        // The receipt goes to the address the visitor gave last.
        if (existing.receipt_email !== input.email) {
          intent = await this.call(() => this.stripe!.paymentIntents.update(existing.id, { receipt_email: input.email }, { stripeAccount: current.account }));
        }
      } else if (existing && PAYABLE.has(existing.status)) {
        // Replaced under new terms: cancel the old intent so a page still open on it cannot take money
        // that no reservation would count. Best effort; a failure leaves it to expire at Stripe.
        await this.cancelIntent(existing.id, current.account, `could not cancel replaced payment intent ${existing.id}`);
      }
    }
    intent ??= await this.call(() =>
      this.stripe!.paymentIntents.create(
        {
          amount: price.amount,
          currency: price.currency,
          automatic_payment_methods: { enabled: true },
          receipt_email: input.email,
          description: `${eventType.settings.title}, ${new Date(reservation.startMs).toISOString()}`,
          metadata: { reservation_uuid: reservation.uuid, event_type_id: String(eventType.id) },
        },
        // One intent per reservation and terms, however often the visitor retries.
        { stripeAccount: price.providerAccountId, idempotencyKey: `reservation-${reservation.uuid}-${price.amount}-${price.currency}-${reservation.updatedAtMs}` },
      ),
    );
    const succeeded = intent.status === "succeeded" && matches(intent, terms.amount, terms.currency);
    const payment: PaymentRecord = {
      intentId: intent.id,
      account: terms.account,
      amount: terms.amount,
      currency: terms.currency,
      status: succeeded ? "succeeded" : "pending",
      billing,
      // When the success was first known, not when the visitor last asked.
      succeededAtMs: succeeded ? (current?.intentId === intent.id && current.succeededAtMs) || nowMs : null,
    };
    const saved = await this.store.reservations.save({ ...reservation, payment, updatedAtMs: nextStamp(reservation, nowMs) }, reservation.updatedAtMs);
    if (!saved) throw new BusinessFailure("slot_locked", "The reservation changed meanwhile; try again.");
    return { clientSecret: intent.client_secret ?? "", paymentIntentId: intent.id, providerAccountId: terms.account, amount: terms.amount };
  }

  /**
   * True when the reservation's payment has succeeded. When no success is recorded yet, asks
   * Stripe (its webhook can lag behind the visitor) and records a matching success.
   */
  async isPaid(reservation: ReservationRecord): Promise<boolean> {
    const payment = reservation.payment;
    if (!payment) return false;
    if (payment.status === "succeeded") return true;
    if (!this.stripe) return false;
    const intent = await this.call(() => this.stripe!.paymentIntents.retrieve(payment.intentId, {}, { stripeAccount: payment.account }));
    if (intent.status !== "succeeded" || !matches(intent, payment.amount, payment.currency)) return false;
    await this.recordSuccess(reservation, intent);
    return true;
  }

  /**
   * Closes the intent of a hold being let go, so that no page still open on it can take money for a
   * seat that is gone. Answers what the intent turned out to be:
   * - `closed`: cancelled at Stripe, or no longer payable (or Stripe could not be reached within
   *   five seconds: the intent is then left open there, with a warning in the log);
   * - `paid`: it had been paid after all (its webhook not yet arrived); the success is recorded;
   * - `processing`: money may still arrive, so it is neither cancelled nor counted.
   */
  async closeIntent(reservation: ReservationRecord): Promise<"closed" | "paid" | "processing"> {
    const payment = reservation.payment;
    if (!payment) return "closed";
    if (payment.status === "succeeded") return "paid";
    if (!this.stripe) return "closed";
    const warning = `could not cancel payment intent ${payment.intentId} of a released hold`;
    const refusal = await this.cancelIntent(payment.intentId, payment.account, warning, true);
    if (!refusal) return "closed";
    // Stripe refuses to cancel an intent that succeeded, is processing or was already cancelled.
    const intent = await this.stripe.paymentIntents.retrieve(payment.intentId, {}, { stripeAccount: payment.account, ...BEST_EFFORT }).catch(() => null);
    if (intent?.status === "succeeded" && matches(intent, payment.amount, payment.currency)) {
      await this.recordSuccess(reservation, intent);
      return "paid";
    }
    if (intent?.status === "processing") return "processing";
    if (intent?.status !== "canceled") this.log({ level: "warn", message: warning, error: refusal });
    return "closed";
  }

  /** Verifies and records a Stripe webhook event; answers what was done, for the log. */
  async receiveWebhook(rawBody: string, signature: string | null): Promise<string> {
    if (!this.stripe || !this.webhookSecret) throw new ApiError("not_found", "Stripe is not configured on this server.");
    let event: Stripe.Event;
    try {
      // The asynchronous form: under Bun the SDK verifies with Web Crypto, which has no synchronous API.
      event = await this.stripe.webhooks.constructEventAsync(rawBody, signature ?? "", this.webhookSecret);
    } catch {
      throw new ApiError("bad_request", "The Stripe-Signature header does not verify this payload.");
    }
    if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed") return `ignored ${event.type}`;
    const intent = event.data.object as Stripe.PaymentIntent;
    const reservation = await this.store.reservations.byPaymentIntent(intent.id);
    const payment = reservation?.payment;
    if (!reservation || !payment) return `no reservation for ${intent.id}`;
    if (intent.metadata?.reservation_uuid !== reservation.uuid || (event.account ?? null) !== payment.account) {
      this.log({ level: "warn", message: `Stripe event ${event.id} does not belong to reservation ${reservation.uuid}; ignored` });
      return "mismatch";
    }
    if (event.type === "payment_intent.payment_failed") {
      if (payment.status === "pending") await this.store.reservations.save({ ...reservation, payment: { ...payment, status: "failed" }, updatedAtMs: this.stamp(reservation) }, reservation.updatedAtMs);
      return "failure recorded";
    }
    if (!matches(intent, payment.amount, payment.currency)) {
      this.log({ level: "warn", message: `Stripe event ${event.id} reports ${intent.amount} ${intent.currency}, expected ${payment.amount} ${payment.currency}; ignored` });
      return "mismatch";
    }
    await this.recordSuccess(reservation, intent);
    return "success recorded";
  }

  private async recordSuccess(reservation: ReservationRecord, intent: Stripe.PaymentIntent): Promise<void> {
    // A concurrent change (confirm, another event) wins; the success is then read from Stripe again on confirm.
    const payment = { ...reservation.payment!, status: "succeeded" as const, succeededAtMs: this.now() };
    await this.store.reservations.save({ ...reservation, payment, updatedAtMs: this.stamp(reservation) }, reservation.updatedAtMs);
    this.log({ level: "info", message: `payment ${intent.id} succeeded for reservation ${reservation.uuid}` });
  }

  /**
   * Cancels an intent on a connected account, best effort: a short wait, no retries, and a failure
   * logged as `warning`. With `answerRefusal`, Stripe's refusal (the intent succeeded, is processing
   * or was cancelled already) is answered instead, unlogged, for the caller to look into; null otherwise.
   */
  private async cancelIntent(intentId: string, account: string, warning: string, answerRefusal = false): Promise<Stripe.errors.StripeInvalidRequestError | null> {
    try {
      await this.stripe!.paymentIntents.cancel(intentId, {}, { stripeAccount: account, ...BEST_EFFORT });
    } catch (error) {
      if (answerRefusal && error instanceof Stripe.errors.StripeInvalidRequestError) return error;
      this.log({ level: "warn", message: warning, error });
    }
    return null;
  }

  private stamp(r: ReservationRecord): number {
    return nextStamp(r, this.now());
  }

  /** Runs a Stripe call; a configuration problem is the organizer's, anything else is a retryable failure. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Stripe.errors.StripePermissionError || error instanceof Stripe.errors.StripeAuthenticationError) {
        throw new ApiError("provider_not_configured", "The payment provider refused this event type's account.");
      }
      if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.code === "account_invalid" || error.param === "stripe_account")) {
        throw new ApiError("provider_not_configured", "The event type's payment account is not usable.");
      }
      this.log({ level: "error", message: "Stripe request failed", error });
      throw new ApiError("internal_error", "The payment provider could not be reached; nothing was changed. Try again.");
    }
  }
}

const matches = (intent: Stripe.PaymentIntent, amount: number, currency: string): boolean =>
  intent.amount === amount && intent.currency.toLowerCase() === currency.toLowerCase();

function billingOf(input: PaymentInput): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
}
