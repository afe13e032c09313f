/**
 * The parameters of creating, updating, canceling and capturing a PaymentIntent, read into plain inputs
 * for `intents.ts` (confirm parameters are in `confirm-params.ts`). The allow-lists are the stand-in's
 * contract: any other top-level parameter is refused with Stripe's `parameter_unknown`, so an integration
 * that relies on something the stand-in does not model finds out here rather than in production.
 * `expand` is accepted and ignored.
 *
 * Versioned: from API version 2026-09-30.endive (pinned by stripe-node 23) PaymentIntents no longer take
 * `payment_method_types`; the list is `allowed_payment_method_types`. Requests on older versions (an SDK
 * configured with an older `apiVersion`, or a Stripe-Version header) may still send `payment_method_types`.
 */
import type { NewIntent } from "./intent-object.ts";
import type Stripe from "stripe";
import { checkAmount, normalizeCurrency } from "./amounts.ts";
import { CAPTURE_METHODS, CONFIRM_PARAMS, confirmFrom, readEmail, type ConfirmInput } from "./confirm-params.ts";
import { invalidParam, missingParam, unknownParam } from "./errors.ts";
import type { FormObject } from "./form.ts";
import { Params } from "./params.ts";

const CANCELLATION_REASONS = ["duplicate", "fraudulent", "requested_by_customer", "abandoned"] as const;

/** Parameters of POST /v1/payment_intents: what a new intent is made of (but its creation time), and how to proceed. */
export type CreateInput = Omit<NewIntent, "created"> & {
  paymentMethod?: string;
  /** `confirm=true`: create and confirm in one call, with the confirm parameters below. */
  confirm: ConfirmInput | null;
};

/** Parameters of POST /v1/payment_intents/:id; `undefined` leaves a field as it is. */
export interface UpdateInput {
  amount?: number;
  currency?: string;
  /** Key → value to set, or `null` to delete the key; `null` for the whole map clears it. */
  metadata?: Record<string, string | null> | null;
  description?: string | null;
  receiptEmail?: string | null;
  captureMethod?: Stripe.PaymentIntent.CaptureMethod;
  /** `allowed_payment_method_types` (endive and later). */
  allowedPaymentMethodTypes?: string[];
  /** `payment_method_types` (before endive). */
  paymentMethodTypes?: string[];
  paymentMethod?: string;
}

/** Stripe's metadata limits (refunds share them): 50 keys, keys up to 40 characters, values up to 500. */
export function readMetadata(p: Params, forUpdate: boolean): Record<string, string | null> | null | undefined {
  const raw = p.value("metadata");
  if (raw === undefined) return undefined;
  if (raw === "") return null;
  if (typeof raw === "string") throw invalidParam("metadata", "Invalid hash: metadata must be a hash of string keys and string values.");
  const entries = Object.entries(raw);
  if (entries.length > 50) throw invalidParam("metadata", "Invalid metadata: metadata can have at most 50 keys.");
  const out: Record<string, string | null> = {};
  for (const [key, value] of entries) {
    const param = `metadata[${key}]`;
    if (typeof value !== "string") throw invalidParam(param, `Invalid string: ${param} must be a string, not a hash.`);
    if (key.length > 40) throw invalidParam(param, `Invalid metadata: keys can be at most 40 characters long (${param}).`);
    if (value.length > 500) throw invalidParam(param, `Invalid metadata: values can be at most 500 characters long (${param}).`);
    if (value === "") {
      if (forUpdate) out[key] = null;
    } else out[key] = value;
  }
  return out;
}

function readAutomaticPaymentMethods(p: Params): Stripe.PaymentIntent.AutomaticPaymentMethods | undefined {
  const apm = p.hash("automatic_payment_methods", ["enabled", "allow_redirects"]);
  if (!apm) return undefined;
  const enabled = apm.boolean("enabled");
  if (enabled === undefined) throw missingParam("automatic_payment_methods[enabled]");
  const allowRedirects = apm.choice("allow_redirects", ["always", "never"] as const);
  return enabled ? { allow_redirects: allowRedirects ?? "always", enabled } : { enabled };
}

const ENDIVE = "2026-09-30";

/** The name of the payment-method list parameter in `apiVersion`, refusing the other one with a hint. */
function typesParams(form: FormObject, apiVersion: string): string[] {
  if (apiVersion.slice(0, 10) < ENDIVE) return ["payment_method_types", "allowed_payment_method_types"];
  if (form.payment_method_types !== undefined) {
    throw unknownParam(
      "payment_method_types",
      `Since API version ${ENDIVE}.endive PaymentIntents take allowed_payment_method_types instead (this request is on ${apiVersion}).`,
    );
  }
  return ["allowed_payment_method_types"];
}

/** Reads and checks the parameters of a create call made on `apiVersion`. */
export function readCreate(form: FormObject, apiVersion: string): CreateInput {
  const p = new Params(form, [
    "amount",
    "currency",
    "metadata",
    "description",
    "receipt_email",
    "automatic_payment_methods",
    "capture_method",
    "confirm",
    "payment_method",
    "statement_descriptor_suffix",
    ...typesParams(form, apiVersion),
    ...CONFIRM_PARAMS,
  ]);
  const amount = p.integer("amount", 1);
  if (amount === undefined) throw missingParam("amount");
  const rawCurrency = p.text("currency");
  if (rawCurrency === undefined) throw missingParam("currency");
  const currency = normalizeCurrency(rawCurrency);
  checkAmount(amount, currency);
  const types = p.list("payment_method_types");
  const allowed = p.list("allowed_payment_method_types");
  const automatic = readAutomaticPaymentMethods(p);
  if (types && automatic?.enabled) {
    throw invalidParam(
      "payment_method_types",
      "You may only specify one of these parameters: automatic_payment_methods, payment_method_types.",
      "parameters_exclusive",
    );
  }
  if (types && allowed) {
    throw invalidParam(
      "payment_method_types",
      "You may only specify one of these parameters: allowed_payment_method_types, payment_method_types.",
      "parameters_exclusive",
    );
  }
  const metadata = readMetadata(p, false) ?? {};
  const confirm = p.boolean("confirm") ?? false;
  if (!confirm) {
    for (const name of ["return_url", "payment_method_data"]) {
      if (p.has(name)) throw invalidParam(name, `You can only pass ${name} when confirm=true.`);
    }
  }
  const paymentMethod = p.text("payment_method");
  return {
    amount,
    currency,
    metadata: metadata as Record<string, string>,
    description: p.string("description", { unsettable: true }) ?? null,
    receiptEmail: readEmail(p, true) ?? null,
    captureMethod: p.choice("capture_method", CAPTURE_METHODS) ?? "automatic_async",
    allowedPaymentMethodTypes: allowed ?? null,
    // The stand-in treats every listed type as compatible; with no list, only cards are simulated.
    paymentMethodTypes: types ?? allowed ?? ["card"],
    // Since API version 2023-08-16 Stripe turns on automatic payment methods unless payment_method_types is sent.
    automaticPaymentMethods: types ? null : (automatic ?? { allow_redirects: "always", enabled: true }),
    statementDescriptorSuffix: p.text("statement_descriptor_suffix") ?? null,
    ...(paymentMethod ? { paymentMethod } : {}),
    confirm: confirm ? confirmFrom(p) : null,
  };
}

/** Reads and checks the parameters of an update call made on `apiVersion`. */
export function readUpdate(form: FormObject, apiVersion: string): UpdateInput {
  const p = new Params(form, [
    "amount",
    "currency",
    "metadata",
    "description",
    "receipt_email",
    "capture_method",
    "payment_method",
    "expand",
    ...typesParams(form, apiVersion),
  ]);
  const input: UpdateInput = {};
  const amount = p.integer("amount", 1);
  if (amount !== undefined) input.amount = amount;
  const currency = p.text("currency");
  if (currency !== undefined) input.currency = normalizeCurrency(currency);
  const metadata = readMetadata(p, true);
  if (metadata !== undefined) input.metadata = metadata;
  const description = p.string("description", { unsettable: true });
  if (description !== undefined) input.description = description;
  const email = readEmail(p, true);
  if (email !== undefined) input.receiptEmail = email;
  const captureMethod = p.choice("capture_method", CAPTURE_METHODS);
  if (captureMethod) input.captureMethod = captureMethod;
  const types = p.list("payment_method_types");
  if (types) input.paymentMethodTypes = types;
  const allowed = p.list("allowed_payment_method_types");
  if (allowed) input.allowedPaymentMethodTypes = allowed;
  const paymentMethod = p.text("payment_method");
  if (paymentMethod) input.paymentMethod = paymentMethod;
  return input;
}

/** Reads the optional `cancellation_reason` of a cancel call. */
export function readCancel(form: FormObject): Stripe.PaymentIntent.CancellationReason | null {
  return new Params(form, ["cancellation_reason", "expand"]).choice("cancellation_reason", CANCELLATION_REASONS) ?? null;
}

/** Reads the optional `amount_to_capture` of a capture call. */
export function readCapture(form: FormObject): number | undefined {
  return new Params(form, ["amount_to_capture", "expand"]).integer("amount_to_capture", 1);
}
