/**
 * The stand-in's Refunds: `POST /v1/refunds` gives back all or part of a succeeded PaymentIntent's
 * charge, `GET /v1/refunds/:id` reads one. As on Stripe, a refund names the intent (`payment_intent`)
 * or its charge (`charge`), lives on the intent's account, succeeds at once for card payments, and
 * leaves the intent itself `succeeded`; refunding more than what is left of the charge is refused.
 */
import type Stripe from "stripe";
import { invalidParam, missingParam, noSuchObject, noSuchReference, StripeApiError } from "./errors.ts";
import type { FormObject } from "./form.ts";
import { newId } from "./ids.ts";
import { readMetadata } from "./intent-params.ts";
import type { IntentRecord } from "./intents.ts";
import { Params } from "./params.ts";

const REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

/** What a create call asks for, read from its parameters. */
export interface RefundInput {
  paymentIntent?: string;
  charge?: string;
  amount?: number;
  reason: Stripe.Refund.Reason | null;
  metadata: Record<string, string>;
}

/** Reads and checks the parameters of `POST /v1/refunds`. */
export function readRefund(form: FormObject): RefundInput {
  const p = new Params(form, ["payment_intent", "charge", "amount", "reason", "metadata", "expand"]);
  const paymentIntent = p.text("payment_intent");
  const charge = p.text("charge");
  if (paymentIntent === undefined && charge === undefined) throw missingParam("charge");
  const amount = p.integer("amount", 1);
  const metadata = Object.fromEntries(Object.entries(readMetadata(p, false) ?? {}).filter((e): e is [string, string] => e[1] !== null));
  return {
    ...(paymentIntent !== undefined ? { paymentIntent } : {}),
    ...(charge !== undefined ? { charge } : {}),
    ...(amount !== undefined ? { amount } : {}),
    reason: p.choice("reason", REASONS) ?? null,
    metadata,
  };
}

/** Every refund of every account, and the checks Stripe makes before one. */
export class Refunds {
  private readonly refunds = new Map<string, { account: string | null; refund: Stripe.Refund }>();

  constructor(private readonly seconds: () => number) {}

  /** POST /v1/refunds: refunds `input.amount` (default: all that is left) of the intent found by `find`. */
  create(account: string | null, input: RefundInput, intents: IntentRecord[]): Stripe.Refund {
    const record = input.paymentIntent !== undefined
      ? intents.find((r) => r.account === account && r.intent.id === input.paymentIntent)
      : intents.find((r) => r.account === account && r.intent.latest_charge === input.charge);
    if (!record) throw input.paymentIntent !== undefined ? noSuchReference("payment_intent", input.paymentIntent, "payment_intent") : noSuchReference("charge", input.charge!, "charge");
    const intent = record.intent;
    if (input.paymentIntent !== undefined && input.charge !== undefined && intent.latest_charge !== input.charge) {
      throw invalidParam("charge", `The charge ${input.charge} does not belong to the PaymentIntent ${intent.id}.`);
    }
    const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : null;
    if (intent.status !== "succeeded" || charge === null) {
      throw new StripeApiError(400, { type: "invalid_request_error", message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, param: "payment_intent" });
    }
    const refunded = this.ofCharge(charge).reduce((sum, r) => sum + r.amount, 0);
    const left = intent.amount_received - refunded;
    if (left <= 0) throw new StripeApiError(400, { type: "invalid_request_error", code: "charge_already_refunded", message: `Charge ${charge} has already been refunded.` });
    const amount = input.amount ?? left;
    if (amount > left) {
      throw invalidParam("amount", `Refund amount (${amount} ${intent.currency}) is greater than unrefunded amount on charge (${left} ${intent.currency})`);
    }
    const refund = {
      id: newId("re"),
      object: "refund",
      amount,
      balance_transaction: null,
      charge,
      created: this.seconds(),
      currency: intent.currency,
      destination_details: { card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" }, type: "card" },
      metadata: input.metadata,
      payment_intent: intent.id,
      reason: input.reason,
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
    } as Stripe.Refund;
    this.refunds.set(refund.id, { account, refund });
    return refund;
  }

  /** GET /v1/refunds/:id, on the account that made it. */
  get(account: string | null, id: string): Stripe.Refund {
    const found = this.refunds.get(id);
    if (!found || found.account !== account) throw noSuchObject("refund", id, "id");
    return found.refund;
  }

  /** Every refund on every account, oldest first. */
  all(): { account: string | null; refund: Stripe.Refund }[] {
    return [...this.refunds.values()];
  }

  private ofCharge(charge: string): Stripe.Refund[] {
    return [...this.refunds.values()].map((r) => r.refund).filter((r) => r.charge === charge);
  }
}
