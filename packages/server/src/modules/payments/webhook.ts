/** Stripe's webhook events, verified and turned into what the payment rules record. */
import { DomainError } from "../../domain/errors.ts";
import { matchesTerms, providerCall, type PaymentContext } from "./context.ts";
import type { ProviderEvent } from "./provider.ts";
import { refundReplaced } from "./refunds.ts";
import { recordFailed, settleProcessing, settleSuccess } from "./settlement.ts";

/** Verifies and records a Stripe webhook event; answers what was done, for the log. */
export async function receiveWebhook(ctx: PaymentContext, rawBody: string, signature: string | null, origin: string): Promise<string> {
  if (!ctx.provider || !ctx.webhookSecret) throw new DomainError("not_found", "Stripe is not configured on this server.");
  let event: ProviderEvent;
  try {
    // The asynchronous form: under Bun the SDK verifies with Web Crypto, which has no synchronous API.
    event = await ctx.provider.verifyEvent(rawBody, signature ?? "", ctx.webhookSecret);
  } catch {
    throw new DomainError("bad_request", "The Stripe-Signature header does not verify this payload.");
  }
  if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed" && event.type !== "payment_intent.processing")
    return `ignored ${event.type}`;
  const intent = event.intent;
  if (!intent) return `ignored ${event.type}`;
  const reservation = await ctx.store.reservations.byPaymentIntent(intent.id);
  const payment = reservation?.payment;
  if (!reservation || !payment) return event.type === "payment_intent.succeeded" ? refundReplaced(ctx, event, intent) : `no reservation for ${intent.id}`;
  if (intent.metadata?.reservation_uuid !== reservation.uuid || event.account !== payment.account) {
    ctx.log({ level: "warn", message: `Stripe event ${event.id} does not belong to reservation ${reservation.uuid}; ignored` });
    return "mismatch";
  }
  if (event.type === "payment_intent.payment_failed") {
    // A processing payment that fails gives its seat back (if its hold time is over): the save moves
    // seats. Stripe does not promise the order of its events, so only what Stripe says now counts:
    // a failure of an earlier attempt must not end a payment that is processing now.
    if (payment.status !== "pending" && payment.status !== "processing") return "failure ignored";
    const { written } = await recordFailed(ctx, reservation);
    return written ? "failure recorded" : "stale failure event ignored";
  }
  if (!matchesTerms(intent, payment.amount, payment.currency)) {
    ctx.log({
      level: "warn",
      message: `Stripe event ${event.id} reports ${intent.amount} ${intent.currency}, expected ${payment.amount} ${payment.currency}; ignored`,
    });
    return "mismatch";
  }
  const eventType = await ctx.store.eventTypes.byId(reservation.eventTypeId);
  if (!eventType) return `no event type for ${intent.id}`;
  if (event.type === "payment_intent.processing") {
    // Stripe does not promise the order of its events: a processing event counts only if the intent
    // is really processing now, or one arriving after the failure that ended it (even after the
    // visitor's retry set the record back to pending) would keep a seat for a payment that failed.
    const now = await providerCall(ctx, () => ctx.provider!.retrieveIntent(payment.intentId, { account: payment.account }));
    if (now.status !== "processing") return "stale processing event ignored";
    await settleProcessing(ctx, eventType, reservation, true);
    return "processing recorded";
  }
  const settled = await settleSuccess(ctx, eventType, reservation, origin);
  // Not refunded yet (Stripe could not be reached): a failed answer makes Stripe send the event again, and the refund is retried.
  if (settled.payment?.status === "refunding") throw new DomainError("internal_error", "The refund of a payment whose seat was gone could not be made yet.");
  return settled.payment?.status === "refunded" ? "refunded" : "success recorded";
}
