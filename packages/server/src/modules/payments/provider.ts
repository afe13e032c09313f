/**
 * The payment provider as the payment rules see it: what PaymentService asks of card payments on an
 * organizer's connected account. Stripe is the one implementation (./stripe.ts); the shapes follow
 * Stripe's objects (their field names and intent states) since they are the vocabulary the stored
 * payments and the wire already use. Every call names the connected account it acts on.
 */
export interface PaymentProvider {
  /** An intent as the provider has it now. */
  retrieveIntent(id: string, options: CallOptions): Promise<ProviderIntent>;
  /** A new intent; the same `idempotencyKey` answers the same intent however often it is sent. */
  createIntent(intent: NewIntent, options: CallOptions & { idempotencyKey: string }): Promise<ProviderIntent>;
  /** Changes where the receipt goes; null sends none. */
  updateReceiptEmail(id: string, email: string | null, options: CallOptions): Promise<ProviderIntent>;
  /** Cancels a payable intent; refused (ProviderRefusal) when it succeeded, is processing or was cancelled. */
  cancelIntent(id: string, options: CallOptions): Promise<void>;
  /** Refunds the whole payment of an intent; refused with code `charge_already_refunded` when refunded already. */
  createRefund(refund: NewRefund, options: CallOptions & { idempotencyKey: string }): Promise<ProviderRefund>;
  /** The refunds made of an intent's payment, newest first (at most `limit`). */
  listRefunds(intentId: string, limit: number, options: CallOptions): Promise<ProviderRefund[]>;
  /** The event a webhook delivery carries, once its signature is verified with `secret`; throws when it does not verify. */
  verifyEvent(rawBody: string, signature: string, secret: string): Promise<ProviderEvent>;
}

/** Options of every provider call. */
export interface CallOptions {
  /** The connected account acted on; none acts on the platform's own (only for events without one). */
  account: string | undefined;
  /** A short wait and no retries, for calls on the way of a visitor's request that may fail. */
  bestEffort?: boolean;
}

/** Intent states, as Stripe names them. */
export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "canceled"
  | "succeeded";

/** A payment intent: one attempt at taking an amount, which the visitor's browser completes. */
export interface ProviderIntent {
  id: string;
  status: IntentStatus;
  amount: number;
  currency: string;
  client_secret: string | null;
  receipt_email: string | null;
  metadata: Record<string, string>;
}

/** What a new intent asks for. */
export interface NewIntent {
  amount: number;
  currency: string;
  /** Where the receipt goes; none is sent without it. */
  receipt_email?: string;
  description: string;
  metadata: Record<string, string>;
}

/** What a refund is of, and what is noted on it. */
export interface NewRefund {
  payment_intent: string;
  metadata: Record<string, string>;
}

/** A refund and where it stands (`pending`, `succeeded`, `failed`, `canceled`, ...). */
export interface ProviderRefund {
  id: string;
  status: string;
}

/** A verified webhook event; `intent` is set for `payment_intent.*` events. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** The connected account the event happened on, or null for the platform's own. */
  account: string | null;
  intent: ProviderIntent | null;
}

/** The provider refused the request itself (invalid for its current state); sending it again changes nothing. */
export class ProviderRefusal extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly param: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The provider refused the platform's credentials or the connected account: the organizer's set-up is at fault. */
export class ProviderNotAuthorized extends Error {}
