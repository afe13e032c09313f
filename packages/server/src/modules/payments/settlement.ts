/**
 * Recording what a payment came to through the store's seat claim: a success or a processing
 * payment keeps (or takes back) a lapsed hold's seat while it is free, a failure lets it go.
 */
import { nextStamp, statusAt } from "../../domain/reservation.ts";
import { conflictWindow, retakable } from "../../domain/slots.ts";
import { blockedByBusy, bufferedSpan } from "../../domain/busy.ts";
import { BusinessFailure, DomainError } from "../../domain/errors.ts";
import { StoreBusyError } from "../../store/errors.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { PaymentRecord, ReservationRecord, SeatDecision } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { limitedClaim } from "../reservations/limits.ts";
import { matchesTerms, providerCall, type PaymentContext } from "./context.ts";
import type { IntentStatus, ProviderIntent } from "./provider.ts";
import { finishRefund, postpone } from "./refunds.ts";

/** Intent states that say a payment recorded as processing did not go through. */
const NOT_PAID = new Set<IntentStatus>(["requires_payment_method", "requires_confirmation", "requires_action", "canceled"]);

/**
 * Records that the reservation's payment succeeded, judged with the seats in view at the instant
 * of the write (the store's seat claim), and answers the reservation as it then is:
 * - held, confirmed, or lapsed with its seat still free: the success is recorded and the hold keeps
 *   (or takes back) its seat whatever `heldUntil` says, until confirmed or cancelled;
 * - lapsed with its seat taken by someone else, or cancelled: the reservation is cancelled and the
 *   payment refunded at Stripe, and the organizer is told (`reservation.cancelled`), so neither the
 *   money nor the booking is lost silently.
 */
export async function settleSuccess(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  origin: string,
): Promise<ReservationRecord> {
  const intentId = reservation.payment!.intentId;
  const { record: settled, written } = await settle(ctx, eventType, reservation, (holders, current, at, busy): SeatDecision => {
    const payment = current?.payment;
    // Another intent replaced this one, or the success is already written down: nothing to do.
    if (
      !current ||
      !payment ||
      payment.intentId !== intentId ||
      !(payment.status === "pending" || payment.status === "processing" || payment.status === "failed")
    )
      return { refuse: "unchanged" };
    const status = statusAt(current, at);
    const succeeded: PaymentRecord = { ...payment, status: "succeeded", succeededAtMs: at };
    if (status === "held" || status === "confirmed") return { write: { ...current, payment: succeeded, updatedAtMs: nextStamp(current, at) } };
    // A lapsed hold takes its seat back only if nobody took it and the organizer's calendar did not fill the time meanwhile.
    if (
      status === "expired" &&
      retakable(eventType.settings, current.startMs, current.endMs, holders, at) &&
      !blockedByBusy(eventType.settings, current.startMs, current.endMs, busy ?? [])
    ) {
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
    ctx.log({ level: "info", message: `payment ${intentId} succeeded for reservation ${reservation.uuid}` });
  }
  if (settled.payment?.status === "refunding" && settled.payment.intentId === intentId) return finishRefund(ctx, eventType, settled, origin);
  return settled;
}

/**
 * Records that the reservation's payment is being processed at Stripe, which keeps its hold's seat,
 * if the hold still has one (held, or lapsed with the seat free); otherwise nothing is recorded
 * and a later success is refunded. Only from `pending`, or from `failed` when the caller saw the
 * intent processing at Stripe itself (`checked`): a processing event that arrives after the
 * failure that ended it must not bring the seat back.
 */
export async function settleProcessing(ctx: PaymentContext, eventType: EventTypeRecord, reservation: ReservationRecord, checked = false): Promise<void> {
  const intentId = reservation.payment!.intentId;
  await settle(ctx, eventType, reservation, (holders, current, at, busy): SeatDecision => {
    const payment = current?.payment;
    if (!current || !payment || payment.intentId !== intentId || !(payment.status === "pending" || (checked && payment.status === "failed")))
      return { refuse: "unchanged" };
    const status = statusAt(current, at);
    const processing: PaymentRecord = { ...payment, status: "processing" };
    if (status === "held") return { write: { ...current, payment: processing, updatedAtMs: nextStamp(current, at) } };
    // A lapsed hold takes its seat back only if nobody took it and the organizer's calendar did not fill the time meanwhile.
    if (
      status === "expired" &&
      retakable(eventType.settings, current.startMs, current.endMs, holders, at) &&
      !blockedByBusy(eventType.settings, current.startMs, current.endMs, busy ?? [])
    ) {
      return { write: { ...current, status: "held", payment: processing, updatedAtMs: nextStamp(current, at) } };
    }
    return { refuse: "unchanged" };
  });
}

/**
 * Records the reservation's payment `failed` if Stripe says now that it was not paid (NOT_PAID);
 * `intent` is Stripe's answer when the caller has just asked. A save that loses its compare-and-set
 * (the reservation changed meanwhile) is read again and judged again, with Stripe asked again, so
 * a failure is never dropped silently; when it keeps losing, the error makes Stripe send its event
 * again. Never downgrades a payment recorded succeeded (or anything but pending and processing).
 */
export async function recordFailed(
  ctx: PaymentContext,
  reservation: ReservationRecord,
  intent?: ProviderIntent,
): Promise<{ record: ReservationRecord; written: boolean }> {
  let r = reservation;
  const intentId = reservation.payment!.intentId;
  for (let attempt = 0; attempt < 5; attempt++) {
    const payment = r.payment;
    if (!payment || payment.intentId !== intentId || (payment.status !== "pending" && payment.status !== "processing")) return { record: r, written: false };
    const now = intent ?? (await providerCall(ctx, () => ctx.provider!.retrieveIntent(intentId, { account: payment.account })));
    intent = undefined;
    if (!NOT_PAID.has(now.status)) return { record: r, written: false };
    const failed: ReservationRecord = { ...r, payment: { ...payment, status: "failed" }, updatedAtMs: nextStamp(r, ctx.now()) };
    if (await ctx.store.reservations.save(failed, r.updatedAtMs)) return { record: failed, written: true };
    const again = await ctx.store.reservations.byUuid(r.eventTypeId, r.uuid);
    if (!again) return { record: r, written: false };
    r = again;
  }
  throw new DomainError("internal_error", "The reservation kept changing; the payment's failure was not recorded yet.");
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
export async function recheckProcessing(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  origin: string,
): Promise<ReservationRecord> {
  const payment = reservation.payment;
  if (!ctx.provider || payment?.status !== "processing") return reservation;
  const intent = await providerCall(ctx, () => ctx.provider!.retrieveIntent(payment.intentId, { account: payment.account }));
  if (intent.status === "succeeded" && matchesTerms(intent, payment.amount, payment.currency)) return settleSuccess(ctx, eventType, reservation, origin);
  // Still processing: checked again after the others the sweep has to ask about.
  if (!NOT_PAID.has(intent.status)) return postpone(ctx, reservation);
  // Frees the seat if the hold time is over: a save may give seats back, never take them.
  const { record, written } = await recordFailed(ctx, reservation, intent);
  if (written)
    ctx.log({
      level: "info",
      message: `payment ${payment.intentId} of reservation ${reservation.uuid} is ${intent.status} at Stripe, no longer processing: recorded failed`,
    });
  return record;
}

/**
 * Runs a seat claim about a reservation's payment, on the reservation's seat as stored; answers the
 * reservation as written, or as stored when nothing was. A reservation rescheduled since it was
 * read is read again and the claim made on its new seat (the store refuses a write outside the
 * seat a claim locked).
 */
async function settle(
  ctx: PaymentContext,
  eventType: EventTypeRecord,
  reservation: ReservationRecord,
  decide: Parameters<Store["reservations"]["claim"]>[1],
): Promise<{ record: ReservationRecord; written: boolean }> {
  let r = reservation;
  for (let attempt = 0; attempt < 3; attempt++) {
    const seat = { startMs: r.startMs, endMs: r.endMs };
    let moved = false;
    let outcome: Awaited<ReturnType<Store["reservations"]["claim"]>>;
    // A hold that lapsed and takes its seat again counts against the booking limits anew.
    const limits = limitedClaim(eventType, seat.startMs, seat.endMs, r.uuid, r.hostIds.length > 0 ? r.hostIds : eventType.hosts.map((h) => h.hostId));
    try {
      outcome = await ctx.store.reservations.claim(
        {
          eventTypeId: eventType.id,
          ...conflictWindow(eventType.settings, seat.startMs, seat.endMs),
          seat,
          busySpan: bufferedSpan(eventType.settings, seat.startMs, seat.endMs),
          nowMs: ctx.now,
          uuid: r.uuid,
          ...(r.hostIds.length > 0 ? { hostIds: r.hostIds } : {}),
          ...(limits.read ? { limits: limits.read } : {}),
        },
        (holders, current, at, busy, hosts, counted) => {
          if (current && (current.startMs !== seat.startMs || current.endMs !== seat.endMs)) {
            moved = true;
            return { refuse: "moved" };
          }
          return limits.guard(decide)(holders, current, at, busy, hosts, counted);
        },
      );
    } catch (error) {
      if (error instanceof StoreBusyError) throw new BusinessFailure("slot_locked", "The reservation is being changed by another request; try again.");
      throw error;
    }
    if ("record" in outcome) return { record: outcome.record, written: true };
    const stored = await ctx.store.reservations.byUuid(r.eventTypeId, r.uuid);
    if (!stored || !moved) return { record: stored ?? r, written: false };
    r = stored;
  }
  throw new BusinessFailure("slot_locked", "The reservation is being changed by another request; try again.");
}
