/**
 * The parameters of confirming a PaymentIntent, on its own (POST /v1/payment_intents/:id/confirm) or at
 * creation with `confirm=true`: a `payment_method` (a test token such as `pm_card_visa`, or a `pm_...`
 * the stand-in created), or `payment_method_data` with a raw card as Stripe.js sends it, and `return_url`.
 * Stripe.js's telemetry next to the card (guid, muid, sid, payment_user_agent, ...) is accepted and ignored.
 */
import type Stripe from "stripe";
import type { CardDetails } from "./cards.ts";
import { invalidParam, missingParam } from "./errors.ts";
import type { FormObject } from "./form.ts";
import { Params } from "./params.ts";

/** Stripe's capture methods. */
export const CAPTURE_METHODS = ["automatic", "automatic_async", "manual"] as const;

/** A raw card as Stripe.js sends it in `payment_method_data`. */
export interface RawCard {
  number: string;
  details: CardDetails;
}

/** Parameters of POST /v1/payment_intents/:id/confirm. */
export interface ConfirmInput {
  paymentMethod?: string;
  paymentMethodData?: RawCard;
  returnUrl?: string;
  receiptEmail?: string | null;
  captureMethod?: Stripe.PaymentIntent.CaptureMethod;
}

/** The confirm parameters, also accepted by create with `confirm=true`. */
export const CONFIRM_PARAMS = [
  "payment_method",
  "payment_method_data",
  "return_url",
  "receipt_email",
  "capture_method",
  "use_stripe_sdk",
  "expected_payment_method_type",
  "error_on_requires_action",
  "expand",
] as const;

/**
 * `receipt_email`, checked for the shape of an address; `null` unsets it. Like Stripe, only ASCII
 * addresses: an internationalized one (`jürgen@example.de`, or a domain not in punycode) is refused
 * with `email_invalid`.
 */
export function readEmail(p: Params, unsettable: boolean): string | null | undefined {
  const email = p.string("receipt_email", { unsettable });
  if (email && !/^[\x21-\x3f\x41-\x7e]+@[\x21-\x3f\x41-\x7e]+\.[\x21-\x3f\x41-\x7e]+$/.test(email)) {
    throw invalidParam("receipt_email", `Invalid email address: ${email}`, "email_invalid");
  }
  return email;
}

/** Reads and checks the parameters of a confirm call; `client_secret` is allowed only to publishable keys. */
export function readConfirm(form: FormObject, publishable: boolean): ConfirmInput {
  return confirmFrom(new Params(form, publishable ? [...CONFIRM_PARAMS, "client_secret"] : CONFIRM_PARAMS));
}

/** Reads the confirm parameters from an already checked parameter set. */
export function confirmFrom(p: Params): ConfirmInput {
  const input: ConfirmInput = {};
  const paymentMethod = p.text("payment_method");
  const data = readPaymentMethodData(p);
  if (paymentMethod && data) {
    throw invalidParam("payment_method_data", "You may only specify one of these parameters: payment_method, payment_method_data.", "parameters_exclusive");
  }
  if (paymentMethod) input.paymentMethod = paymentMethod;
  if (data) input.paymentMethodData = data;
  const returnUrl = p.text("return_url");
  if (returnUrl !== undefined) {
    if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(returnUrl)) throw invalidParam("return_url", "Not a valid URL", "url_invalid");
    input.returnUrl = returnUrl;
  }
  const email = readEmail(p, true);
  if (email !== undefined) input.receiptEmail = email;
  const captureMethod = p.choice("capture_method", CAPTURE_METHODS);
  if (captureMethod) input.captureMethod = captureMethod;
  return input;
}

const PAYMENT_METHOD_DATA = [
  "type",
  "card",
  "billing_details",
  "allow_redisplay",
  "metadata",
  "guid",
  "muid",
  "sid",
  "payment_user_agent",
  "time_on_page",
  "referrer",
  "pasted_fields",
  "client_attribution_metadata",
];

function readPaymentMethodData(p: Params): RawCard | undefined {
  const data = p.hash("payment_method_data", PAYMENT_METHOD_DATA);
  if (!data) return undefined;
  const type = data.text("type");
  if (type === undefined) throw missingParam("payment_method_data[type]");
  if (type !== "card") throw invalidParam("payment_method_data[type]", `The stand-in only simulates card payments, not ${type}.`);
  const card = data.hash("card", ["number", "cvc", "exp_month", "exp_year", "networks"]);
  const number = card?.text("number");
  if (number === undefined) throw missingParam("payment_method_data[card][number]");
  const details: CardDetails = {};
  const expMonth = card!.integer("exp_month", 1);
  if (expMonth !== undefined) details.expMonth = expMonth;
  const expYear = card!.integer("exp_year", 0);
  if (expYear !== undefined) details.expYear = expYear < 100 ? 2000 + expYear : expYear;
  const billing = data.hash("billing_details", ["name", "email", "phone", "address"]);
  for (const field of ["name", "email", "phone"] as const) {
    const value = billing?.string(field, { unsettable: true });
    if (value) details[field] = value;
  }
  return { number, details };
}
