/**
 * How a PaymentIntent's fields change on update, charge, cancel and capture, as Stripe changes them for
 * card payments without 3-D Secure. Pure functions on the intent object, with no storage or HTTP:
 *
 * `requires_payment_method` → (payment method attached) `requires_confirmation` → confirm →
 * `succeeded`, or `requires_capture` with `capture_method=manual` and then capture → `succeeded`;
 * a declined charge returns the intent to `requires_payment_method` with `last_payment_error`;
 * cancel → `canceled`. Each change names the Stripe event it causes.
 */
import type Stripe from "stripe";
import { checkAmount } from "./amounts.ts";
import type { Decline } from "./cards.ts";
import { docUrl, invalidParam, unexpectedState } from "./errors.ts";
import type { PaymentIntent } from "./intent-object.ts";
import type { UpdateInput } from "./intent-params.ts";

/** The Stripe event types the stand-in emits. */
export type IntentEventType =
  | "payment_intent.succeeded"
  | "payment_intent.payment_failed"
  | "payment_intent.canceled"
  | "payment_intent.amount_capturable_updated";

/** Statuses from which an intent may be confirmed, and its amount or payment method changed. */
export const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];
const CANCELABLE = ["requires_payment_method", "requires_capture", "requires_confirmation", "requires_action", "processing"];

/** Parameters that only an unconfirmed intent accepts, with their wire names. */
const LOCKED_AFTER_CONFIRM = {
  amount: "amount",
  currency: "currency",
  captureMethod: "capture_method",
  paymentMethodTypes: "payment_method_types",
  allowedPaymentMethodTypes: "allowed_payment_method_types",
  paymentMethod: "payment_method",
} as const;

/** Refuses to confirm an intent in a status that does not allow it. */
export function assertConfirmable(intent: PaymentIntent): void {
  if (CONFIRMABLE.includes(intent.status)) return;
  const message =
    intent.status === "succeeded"
      ? "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed."
      : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${CONFIRMABLE.join(", ")}.`;
  throw unexpectedState(message, intent);
}

/**
 * Applies an update. Metadata, description and receipt email may change in any status; the amount,
 * currency and payment method settings only before confirmation. `paymentMethodId` is the resolved
 * PaymentMethod when the update attaches one.
 */
export function applyUpdate(intent: PaymentIntent, input: UpdateInput, paymentMethodId?: string): void {
  if (!CONFIRMABLE.includes(intent.status)) {
    for (const [field, name] of Object.entries(LOCKED_AFTER_CONFIRM)) {
      if (input[field as keyof typeof LOCKED_AFTER_CONFIRM] === undefined) continue;
      throw unexpectedState(
        `This PaymentIntent's ${name} could not be updated because it has a status of ${intent.status}. You may only update the ${name} of a PaymentIntent with one of the following statuses: ${CONFIRMABLE.join(", ")}.`,
        intent,
      );
    }
  }
  if (input.amount !== undefined || input.currency !== undefined) {
    checkAmount(input.amount ?? intent.amount, input.currency ?? intent.currency);
    intent.amount = input.amount ?? intent.amount;
    intent.currency = input.currency ?? intent.currency;
  }
  if (input.metadata === null) intent.metadata = {};
  for (const [key, value] of Object.entries(input.metadata ?? {})) {
    if (value === null) delete intent.metadata[key];
    else intent.metadata[key] = value;
  }
  if (input.description !== undefined) intent.description = input.description;
  if (input.receiptEmail !== undefined) intent.receipt_email = input.receiptEmail;
  if (input.captureMethod) intent.capture_method = input.captureMethod;
  if (input.paymentMethodTypes) {
    intent.payment_method_types = input.paymentMethodTypes;
    intent.automatic_payment_methods = null;
  }
  if (input.allowedPaymentMethodTypes) {
    intent.allowed_payment_method_types = input.allowedPaymentMethodTypes;
    intent.payment_method_types = input.allowedPaymentMethodTypes;
  }
  if (paymentMethodId) {
    intent.payment_method = paymentMethodId;
    intent.status = "requires_confirmation";
  }
  // Stripe clears the previous error whenever an intent is updated.
  intent.last_payment_error = null;
}

/**
 * Records the outcome of charging `paymentMethod`: paid (or authorized, for manual capture) when
 * `decline` is null, otherwise back to `requires_payment_method` with the decline as `last_payment_error`.
 */
export function applyCharge(intent: PaymentIntent, paymentMethod: Stripe.PaymentMethod, decline: Decline | null, charge: string | null): IntentEventType {
  if (charge) intent.latest_charge = charge;
  if (decline) {
    intent.status = "requires_payment_method";
    intent.payment_method = null;
    intent.last_payment_error = {
      ...(charge ? { charge } : {}),
      code: decline.code,
      ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
      doc_url: docUrl(decline.code),
      message: decline.message,
      payment_method: paymentMethod,
      type: "card_error",
    };
    return "payment_intent.payment_failed";
  }
  intent.payment_method = paymentMethod.id;
  intent.last_payment_error = null;
  if (intent.capture_method === "manual") {
    intent.status = "requires_capture";
    intent.amount_capturable = intent.amount;
    return "payment_intent.amount_capturable_updated";
  }
  intent.status = "succeeded";
  intent.amount_received = intent.amount;
  return "payment_intent.succeeded";
}

/** Cancels the intent at `nowSeconds`. */
export function applyCancel(intent: PaymentIntent, reason: Stripe.PaymentIntent.CancellationReason | null, nowSeconds: number): IntentEventType {
  if (!CANCELABLE.includes(intent.status)) {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(", ")}.`,
      intent,
    );
  }
  intent.status = "canceled";
  intent.canceled_at = nowSeconds;
  intent.cancellation_reason = reason;
  intent.amount_capturable = 0;
  return "payment_intent.canceled";
}

/** Captures an authorized intent, all of it unless `amountToCapture` says less. */
export function applyCapture(intent: PaymentIntent, amountToCapture?: number): IntentEventType {
  if (intent.status !== "requires_capture") {
    throw unexpectedState(
      `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
      intent,
    );
  }
  const amount = amountToCapture ?? intent.amount_capturable;
  if (amount > intent.amount_capturable) {
    throw invalidParam(
      "amount_to_capture",
      `The amount_to_capture (${amount}) must be less than or equal to the amount_capturable (${intent.amount_capturable}).`,
    );
  }
  intent.status = "succeeded";
  intent.amount_received = amount;
  intent.amount_capturable = 0;
  return "payment_intent.succeeded";
}
