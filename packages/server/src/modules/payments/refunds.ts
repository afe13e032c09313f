/** Giving money back: a payment whose seat was gone, or one made on an intent that was replaced. */
import { nextStamp } from "../../domain/reservation.ts";
import { DomainError } from "../../domain/errors.ts";
import { manageUrlOf } from "../../lib/links.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { PaymentRecord, ReservationRecord } from "../../store/reservations.ts";
import { outboxEvents } from "../outbox/events.ts";
import type { PaymentContext } from "./context.ts";
import { ProviderRefusal, type ProviderEvent, type ProviderIntent } from "./provider.ts";

/** What a visitor is told about a reservation cancelled because its seat was gone when its payment went through. */
export const REFUNDED_MESSAGE = "The seat was taken by someone else after the hold ended, so the reservation was cancelled and its payment refunded.";
/** As REFUNDED_MESSAGE, while the refund has not gone through at Stripe yet (it is retried until it does). */
export const REFUNDING_MESSAGE =
  "The seat was taken by someone else after the hold ended, so the reservation was cancelled; the refund of its payment is under way.";

/** What the payer is told about a reservation cancelled with its payment refunded or being refunded. */
export function refundMessage(status: "refunded" | "refunding"): string {
  return status === "refunded" ? REFUNDED_MESSAGE : REFUNDING_MESSAGE;
}

/**
 * Gives back the money of a reservation cancelled with its payment `refunding`: a refund at Stripe
 * (one per intent, however often this runs), then the payment recorded `refunded` and the organizer's
 * `reservation.cancelled` webhook written with it. When Stripe cannot be reached the payment stays
 * `refunding` (visible to the organizer) and the sweep (`retryRefunds`), the payer's next confirm or
 * refresh, or Stripe sending its event again retries. A refund Stripe already made (its idempotency
 * key forgotten after 24 hours, so a retry is told `charge_already_refunded`) is looked up and recorded.
 */
export async function finishRefund(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  origin: string,
): Promise<ReservationRecord> {
  let r = reservation;
  const payment = r.payment!;
  let refundId: string;
  try {
    const refund = await ctx.provider!.createRefund(
      { payment_intent: payment.intentId, metadata: { reservation_uuid: r.uuid, reason: "seat_taken_after_hold_ended" } },
      { account: payment.account, idempotencyKey: `refund-${payment.intentId}`, bestEffort: true },
    );
    refundId = refund.id;
  } catch (error) {
    const made = error instanceof ProviderRefusal && error.code === "charge_already_refunded" ? await existingRefund(ctx, payment) : null;
    if (made?.status === "succeeded") refundId = made.id;
    else if (made) {
      // Made but not through yet: the payment stays refunding until Stripe says it is (the sweep asks again).
      ctx.log({
        level: "warn",
        message: `refund ${made.id} of payment ${payment.intentId} of reservation ${r.uuid} is ${made.status} at Stripe; checked again later`,
      });
      return postpone(ctx, r);
    } else {
      ctx.log({
        level: "error",
        message: `could not refund payment ${payment.intentId} of reservation ${r.uuid}, whose seat was gone; retried on the next attempt`,
        error,
      });
      return postpone(ctx, r);
    }
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    if (r.payment?.intentId !== payment.intentId || r.payment.status !== "refunding") return r;
    const nowMs = ctx.now();
    const refunded: ReservationRecord = { ...r, payment: { ...r.payment, status: "refunded", refundId }, updatedAtMs: nextStamp(r, nowMs) };
    const events = outboxEvents(ctx.mail, eventType, "reservation.cancelled", refunded, nowMs, manageUrlOf(origin, eventType.slug, r.uuid));
    if (await ctx.store.reservations.save(refunded, r.updatedAtMs, events)) {
      ctx.log({
        level: "warn",
        message: `payment ${payment.intentId} of reservation ${r.uuid} refunded (${refundId}): its seat was taken after the hold ended`,
      });
      return refunded;
    }
    const again = await ctx.store.reservations.byUuid(r.eventTypeId, r.uuid);
    if (!again) return r;
    r = again;
  }
  return r;
}

/**
 * The refund Stripe already made of the payment's intent: a succeeded one first, else the newest
 * still on its way (pending, requires_action), or null if none can be found.
 */
async function existingRefund(ctx: PaymentContext, payment: PaymentRecord): Promise<{ id: string; status: string } | null> {
  try {
    const list = await ctx.provider!.listRefunds(payment.intentId, 10, { account: payment.account, bestEffort: true });
    const made = list.find((refund) => refund.status === "succeeded") ?? list.find((refund) => refund.status !== "failed" && refund.status !== "canceled");
    return made ? { id: made.id, status: made.status } : null;
  } catch (error) {
    ctx.log({ level: "error", message: `could not list the refunds of payment ${payment.intentId}`, error });
    return null;
  }
}

/**
 * Moves a reservation whose refund could not be finished to the back of the sweep's line
 * (`refundsDue` takes the least recently changed first), so refunds that keep failing never hold up
 * the others. Answers the reservation as saved, or as given when it changed meanwhile.
 */
export async function postpone(ctx: PaymentContext, r: ReservationRecord): Promise<ReservationRecord> {
  const later: ReservationRecord = { ...r, updatedAtMs: nextStamp(r, ctx.now()) };
  return (await ctx.store.reservations.save(later, r.updatedAtMs).catch(() => false)) ? later : r;
}

/**
 * Retries the refunds that could not be made when a payment's seat was gone (run by the sweep),
 * so no refund waits for Stripe to send its event again or for the payer to come back. A failure
 * of one is logged and leaves it for the next sweep; the others go on. Answers how many were refunded.
 */
export async function retryRefunds(ctx: PaymentContext, origin: string, limit = 50): Promise<number> {
  if (!ctx.provider) return 0;
  let refunded = 0;
  for (const r of await ctx.store.reservations.refundsDue(limit)) {
    try {
      const eventType = await ctx.store.eventTypes.byId(r.eventTypeId);
      if (!eventType) continue;
      if ((await finishRefund(ctx, eventType, r, origin)).payment?.status === "refunded") refunded++;
    } catch (error) {
      ctx.log({ level: "error", message: `retrying the refund of reservation ${r.uuid} failed`, error });
    }
  }
  return refunded;
}

/**
 * A success on an intent that no reservation has as its payment any more: one replaced under new
 * terms (the price changed during the hold) whose cancelling failed, then paid from a page still
 * open on it. Its reservation (named in the metadata the server gives every intent) counts only
 * its current intent, so this money would be kept for nothing: it is refunded (one refund per
 * intent, however often the event arrives). A failure answers an error, so Stripe sends the event again.
 */
export async function refundReplaced(ctx: PaymentContext, event: ProviderEvent, intent: ProviderIntent): Promise<string> {
  const uuid = intent.metadata?.reservation_uuid;
  const eventTypeId = Number(intent.metadata?.event_type_id);
  const reservation = uuid && Number.isSafeInteger(eventTypeId) ? await ctx.store.reservations.byUuid(eventTypeId, uuid) : null;
  if (!reservation || reservation.payment?.intentId === intent.id) return `no reservation for ${intent.id}`;
  const account = event.account ?? undefined;
  try {
    const refund = await ctx.provider!.createRefund(
      { payment_intent: intent.id, metadata: { reservation_uuid: reservation.uuid, reason: "replaced_payment_intent" } },
      { account, idempotencyKey: `refund-${intent.id}`, bestEffort: true },
    );
    ctx.log({
      level: "warn",
      message: `payment ${intent.id} on a replaced intent of reservation ${reservation.uuid} refunded (${refund.id}): the reservation counts only its current intent`,
    });
  } catch (error) {
    if (error instanceof ProviderRefusal) {
      if (error.code === "charge_already_refunded") return "replaced intent refunded";
      // Stripe refuses for good (no such intent on that account, or nothing paid on it): sending the event again changes nothing.
      ctx.log({ level: "warn", message: `payment ${intent.id} on a replaced intent of reservation ${reservation.uuid} was not refunded: ${error.message}` });
      return "replaced intent not refunded";
    }
    ctx.log({ level: "error", message: `could not refund payment ${intent.id} on a replaced intent of reservation ${reservation.uuid}`, error });
    throw new DomainError("internal_error", "The refund of a payment on a replaced intent could not be made yet.");
  }
  return "replaced intent refunded";
}
