import type { PaymentInput, PaymentResult } from "@booking/wire";
import type { LogEntry } from "../../context.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { NO_MAIL, type MailPolicy } from "../mail/events.ts";
import type { PaymentContext } from "./context.ts";
import { closeIntent, createIntent, isPaid } from "./intents.ts";
import type { PaymentProvider } from "./provider.ts";
import { finishRefund, retryRefunds } from "./refunds.ts";
import { recheckProcessing, settleSuccess } from "./settlement.ts";
import { receiveWebhook } from "./webhook.ts";

export { refundMessage } from "./refunds.ts";

/**
 * Card payments of paid reservations through the payment provider (Stripe), on the organizer's
 * connected account.
 * Amount and currency always come from the event type, never from the client, and a reported
 * success counts only when it matches what was asked for.
 *
 * The rules live by concern: `intents.ts` (making, reading and closing a hold's intent),
 * `webhook.ts` (Stripe's events), `settlement.ts` (recording a payment through the seat claim,
 * a lapsed hold included) and `refunds.ts` (giving money back); this class binds them to one
 * store, provider, clock and log.
 */
export class PaymentService {
  private readonly ctx: PaymentContext;

  constructor(
    store: Store,
    provider: PaymentProvider | null,
    webhookSecret: string | null,
    now: () => number,
    log: (entry: LogEntry) => void,
    /** Whether a refund's cancellation is emailed too (see MailPolicy); never by default. */
    mail: MailPolicy = NO_MAIL,
  ) {
    this.ctx = { store, provider, webhookSecret, now, log, mail };
  }

  /** Creates, or reuses while payable, the PaymentIntent of a held reservation (see `createIntent` in intents.ts). */
  createIntent(eventType: EventTypeRecord, reservation: ReservationRecord, input: PaymentInput, origin: string): Promise<PaymentResult> {
    return createIntent(this.ctx, eventType, reservation, input, origin);
  }

  /** Whether the reservation's payment has succeeded, asking Stripe when none is recorded yet (see `isPaid` in intents.ts). */
  isPaid(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<"paid" | "unpaid" | "refunded" | "refunding"> {
    return isPaid(this.ctx, eventType, reservation, origin);
  }

  /** Closes the intent of a hold being let go, answering what it turned out to be (see `closeIntent` in intents.ts). */
  closeIntent(
    eventType: EventTypeRecord,
    reservation: ReservationRecord,
    origin: string,
  ): Promise<"closed" | "paid" | "refunded" | "refunding" | "processing"> {
    return closeIntent(this.ctx, eventType, reservation, origin);
  }

  /** Verifies and records a Stripe webhook event; answers what was done, for the log. */
  receiveWebhook(rawBody: string, signature: string | null, origin: string): Promise<string> {
    return receiveWebhook(this.ctx, rawBody, signature, origin);
  }

  /** Records a payment's success through the seat claim, refunding it when the seat is gone (see `settleSuccess` in settlement.ts). */
  settleSuccess(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<ReservationRecord> {
    return settleSuccess(this.ctx, eventType, reservation, origin);
  }

  /** Asks Stripe about a payment recorded processing that no hold waits for any more (the sweep; see settlement.ts). */
  recheckProcessing(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<ReservationRecord> {
    return recheckProcessing(this.ctx, eventType, reservation, origin);
  }

  /** Gives back the money of a reservation cancelled with its payment `refunding` (see `finishRefund` in refunds.ts). */
  finishRefund(eventType: EventTypeRecord, reservation: ReservationRecord, origin: string): Promise<ReservationRecord> {
    return finishRefund(this.ctx, eventType, reservation, origin);
  }

  /** Retries the refunds that could not be made (the sweep); answers how many were refunded. */
  retryRefunds(origin: string, limit = 50): Promise<number> {
    return retryRefunds(this.ctx, origin, limit);
  }
}
