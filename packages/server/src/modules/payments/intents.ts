/** A hold's PaymentIntent: made or reused while the visitor pays, read back, closed when the hold is let go. */
import type { PaymentInput, PaymentResult } from "@booking/wire";
import { domainToASCII } from "node:url";
import { nextStamp, statusAt } from "../../domain/reservation.ts";
import { BusinessFailure, DomainError } from "../../domain/errors.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { PaymentRecord, ReservationRecord } from "../../store/reservations.ts";
import { matchesTerms, providerCall, type PaymentContext } from "./context.ts";
import { ProviderRefusal, type IntentStatus, type ProviderIntent } from "./provider.ts";
import { finishRefund, refundMessage } from "./refunds.ts";
import { settleProcessing, settleSuccess } from "./settlement.ts";

/** Intent states in which the visitor can still pay; any other needs a new intent (`processing` is answered as it is, never replaced). */
const PAYABLE = new Set<IntentStatus>(["requires_payment_method", "requires_confirmation", "requires_action"]);
/** Payment states a new payment request never replaces nor downgrades: money is in, or on its way. */
const KEPT = new Set<PaymentRecord["status"]>(["processing", "succeeded"]);

/**
 * Creates, or reuses while payable, the PaymentIntent of a held reservation. An intent being
 * processed, or a payment recorded processing or succeeded, is answered as it is: never replaced,
 * its recorded status never set back to pending (which would let the hold lapse with money on its way).
 */
export async function createIntent(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  input: PaymentInput,
  origin: string,
): Promise<PaymentResult> {
  const nowMs = ctx.now();
  const status = statusAt(reservation, nowMs);
  const refund = reservation.payment?.status;
  if (status === "cancelled" && (refund === "refunding" || refund === "refunded")) {
    // Cancelled because its payment came after the seat was gone: the payer is told where their
    // money is, as confirm and refresh tell them, and a refund still under way is tried again.
    const now = refund === "refunding" && ctx.provider ? await finishRefund(ctx, eventType, reservation, origin) : reservation;
    throw new BusinessFailure("reservation_finished", refundMessage(now.payment?.status === "refunded" ? "refunded" : "refunding"));
  }
  const price = eventType.settings.payment;
  if (!ctx.provider || !price) throw new DomainError("provider_not_configured", "Card payments are not set up for this event type.");
  if (status !== "held") {
    throw new BusinessFailure(
      "reservation_finished",
      status === "confirmed" ? "The reservation is already confirmed." : "The hold has ended; refresh the reservation or pick a new time.",
    );
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
    const read = () => ctx.provider!.retrieveIntent(current.intentId, { account: current.account });
    const existing = sameTerms || kept ? await providerCall(ctx, read) : await read().catch(() => null);
    const answerOf = (i: ProviderIntent): PaymentResult => ({
      clientSecret: i.client_secret ?? "",
      paymentIntentId: i.id,
      providerAccountId: current.account,
      amount: current.amount,
    });
    if (existing?.status === "succeeded" && matchesTerms(existing, current.amount, current.currency)) {
      // A payment that went through stays the reservation's payment, even if the price changed since.
      intent = existing;
      terms = current;
    } else if (existing?.status === "processing") {
      // Money is on its way on this intent, under whatever terms it was made: it stays the payment,
      // and keeps the seat (recorded now if its webhook has not come yet). A new intent could take a second payment.
      if (current.status === "pending" || current.status === "failed") await settleProcessing(ctx, eventType, reservation, true);
      return answerOf(existing);
    } else if (kept && !(existing && sameTerms && PAYABLE.has(existing.status))) {
      // Recorded processing or succeeded while Stripe says otherwise (its webhook on the way, or the
      // sweep's check): the record stands until then, and no new intent replaces it.
      if (!existing) throw new DomainError("internal_error", "The payment provider could not be reached; nothing was changed. Try again.");
      return answerOf(existing);
    } else if (existing && sameTerms && PAYABLE.has(existing.status)) {
      intent = existing;
      if (existing.receipt_email !== receipt) {
        intent = await providerCall(ctx, () => ctx.provider!.updateReceiptEmail(existing.id, receipt, { account: current.account }), true);
      }
    } else if (existing && PAYABLE.has(existing.status)) {
      // Replaced under new terms: cancel the old intent so a page still open on it cannot take money
      // that no reservation would count. Best effort; a failure leaves it to expire at Stripe.
      await cancelIntent(ctx, existing.id, current.account, `could not cancel replaced payment intent ${existing.id}`);
    }
  }
  intent ??= await providerCall(
    ctx,
    () =>
      ctx.provider!.createIntent(
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
  const succeeded = intent.status === "succeeded" && matchesTerms(intent, terms.amount, terms.currency);
  const answer = { clientSecret: intent.client_secret ?? "", paymentIntentId: intent.id, providerAccountId: terms.account, amount: terms.amount };
  if (succeeded) {
    // Paid already (only ever the reservation's own intent: a new one is never paid): recorded like
    // any success, through the seat claim, since the hold may have lapsed meanwhile.
    const settled = await settleSuccess(ctx, eventType, reservation, origin);
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
  const saved = await ctx.store.reservations.save({ ...reservation, payment, updatedAtMs: nextStamp(reservation, nowMs) }, reservation.updatedAtMs);
  if (!saved) throw new BusinessFailure("slot_locked", "The reservation changed meanwhile; try again.");
  return answer;
}

/**
 * Whether the reservation's payment has succeeded. When no success is recorded yet, asks Stripe
 * (its webhook can lag behind the visitor) and records what it says, through the seat claim:
 * `refunded` when the payment went through after the seat was gone (the reservation is then
 * cancelled and the money given back), `refunding` while that refund has not gone through yet.
 */
export async function isPaid(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  origin: string,
): Promise<"paid" | "unpaid" | "refunded" | "refunding"> {
  const payment = reservation.payment;
  if (!payment) return "unpaid";
  if (payment.status === "succeeded") return "paid";
  if (payment.status === "refunded") return "refunded";
  if (payment.status === "refunding")
    return (await finishRefund(ctx, eventType, reservation, origin)).payment?.status === "refunded" ? "refunded" : "refunding";
  if (!ctx.provider) return "unpaid";
  const intent = await providerCall(ctx, () => ctx.provider!.retrieveIntent(payment.intentId, { account: payment.account }));
  if (intent.status === "processing") await settleProcessing(ctx, eventType, reservation, true);
  if (intent.status !== "succeeded" || !matchesTerms(intent, payment.amount, payment.currency)) return "unpaid";
  const settled = await settleSuccess(ctx, eventType, reservation, origin);
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
export async function closeIntent(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  origin: string,
): Promise<"closed" | "paid" | "refunded" | "refunding" | "processing"> {
  const payment = reservation.payment;
  if (!payment) return "closed";
  if (payment.status === "succeeded") return "paid";
  if (!ctx.provider) return "closed";
  const warning = `could not cancel payment intent ${payment.intentId} of a released hold`;
  const refusal = await cancelIntent(ctx, payment.intentId, payment.account, warning, true);
  if (!refusal) return "closed";
  // Stripe refuses to cancel an intent that succeeded, is processing or was already cancelled.
  const intent = await ctx.provider.retrieveIntent(payment.intentId, { account: payment.account, bestEffort: true }).catch(() => null);
  if (intent?.status === "succeeded" && matchesTerms(intent, payment.amount, payment.currency)) {
    const settled = await settleSuccess(ctx, eventType, reservation, origin);
    const now = settled.payment?.intentId === payment.intentId ? settled.payment.status : null;
    return now === "refunded" || now === "refunding" ? now : "paid";
  }
  if (intent?.status === "processing") return "processing";
  if (intent?.status !== "canceled") ctx.log({ level: "warn", message: warning, error: refusal });
  return "closed";
}

/**
 * Cancels an intent on a connected account, best effort: a short wait, no retries, and a failure
 * logged as `warning`. With `answerRefusal`, Stripe's refusal (the intent succeeded, is processing
 * or was cancelled already) is answered instead, unlogged, for the caller to look into; null otherwise.
 */
async function cancelIntent(ctx: PaymentContext, intentId: string, account: string, warning: string, answerRefusal = false): Promise<ProviderRefusal | null> {
  try {
    await ctx.provider!.cancelIntent(intentId, { account, bestEffort: true });
  } catch (error) {
    if (answerRefusal && error instanceof ProviderRefusal) return error;
    ctx.log({ level: "warn", message: warning, error });
  }
  return null;
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

function billingOf(input: PaymentInput): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
}
