/**
 * The PaymentIntent object as Stripe serializes it, typed by the `stripe` SDK's own `Stripe.PaymentIntent`
 * so a field the SDK expects cannot be forgotten. Fields for features the stand-in does not model
 * (customers, Connect fees, shipping, ...) are present with Stripe's empty values.
 */
import type Stripe from "stripe";
import { newClientSecret, newId } from "./ids.ts";

/** A PaymentIntent as the API returns it to a secret key. */
export type PaymentIntent = Stripe.PaymentIntent;

/** An intent and the account that owns it. */
export interface IntentRecord {
  account: string | null;
  intent: PaymentIntent;
}

/** What a new intent is made of; everything else starts at Stripe's defaults. */
export interface NewIntent {
  amount: number;
  currency: string;
  created: number;
  metadata: Record<string, string>;
  description: string | null;
  receiptEmail: string | null;
  captureMethod: Stripe.PaymentIntent.CaptureMethod;
  allowedPaymentMethodTypes: string[] | null;
  paymentMethodTypes: string[];
  automaticPaymentMethods: Stripe.PaymentIntent.AutomaticPaymentMethods | null;
  statementDescriptorSuffix: string | null;
}

/** A new intent in `requires_payment_method`, with a fresh id and client secret. */
export function newPaymentIntent(fields: NewIntent): PaymentIntent {
  const id = newId("pi");
  return {
    id,
    object: "payment_intent",
    allowed_payment_method_types: fields.allowedPaymentMethodTypes,
    amount: fields.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: fields.automaticPaymentMethods,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: fields.captureMethod,
    client_secret: newClientSecret(id),
    confirmation_method: "automatic",
    created: fields.created,
    currency: fields.currency,
    customer: null,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: fields.paymentMethodTypes,
    payment_record: null,
    processing: null,
    receipt_email: fields.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: fields.statementDescriptorSuffix,
    status: "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
  };
}

/** The fields Stripe returns when a PaymentIntent is fetched with a publishable key and its client secret. */
const PUBLISHABLE_FIELDS = [
  "id",
  "object",
  "amount",
  "amount_details",
  "automatic_payment_methods",
  "canceled_at",
  "cancellation_reason",
  "capture_method",
  "client_secret",
  "confirmation_method",
  "created",
  "currency",
  "description",
  "excluded_payment_method_types",
  "last_payment_error",
  "livemode",
  "next_action",
  "payment_method",
  "payment_method_configuration_details",
  "payment_method_types",
  "processing",
  "receipt_email",
  "setup_future_usage",
  "shipping",
  "status",
] as const satisfies readonly (keyof PaymentIntent)[];

/** The subset of an intent a browser may see: no metadata, charges, customer or Connect details. */
export type PublishableIntent = Pick<PaymentIntent, (typeof PUBLISHABLE_FIELDS)[number]>;

/** The publishable-key view of an intent, as Stripe.js receives it. */
export function publishableView(intent: PaymentIntent): PublishableIntent {
  const view: Partial<Record<keyof PaymentIntent, unknown>> = {};
  for (const field of PUBLISHABLE_FIELDS) view[field] = intent[field];
  return view as PublishableIntent;
}
