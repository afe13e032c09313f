/**
 * The stand-in's Refunds: `POST /v1/refunds` gives back all or part of a succeeded PaymentIntent's
 * charge, `GET /v1/refunds/:id` reads one, `GET /v1/refunds` lists them (newest first, filtered by
 * `payment_intent` or `charge`, paged with `limit`, `starting_after`, `ending_before`). As on Stripe, a refund names the intent (`payment_intent`)
 * or its charge (`charge`), lives on the intent's account, succeeds at once for card payments, and
 * leaves the intent itself `succeeded`; refunding more than what is left of the charge is refused.
 */
import type Stripe from "stripe";
import { invalidParam, missingParam, noSuchObject, noSuchReference, StripeApiError } from "./errors.ts";
import type { FormObject } from "./form.ts";
import { newId } from "./ids.ts";
import type { IntentRecord } from "./intent-object.ts";
import { readMetadata } from "./intent-params.ts";
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

/** What a list call asks for, read from its query string. */
export interface RefundListInput {
  paymentIntent?: string;
  charge?: string;
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

/** Reads and checks the parameters of `GET /v1/refunds`: as on Stripe, `limit` is 1 to 100 (default 10). */
export function readRefundList(form: FormObject): RefundListInput {
  const p = new Params(form, ["payment_intent", "charge", "limit", "starting_after", "ending_before", "expand"]);
  const limit = p.integer("limit", 1) ?? 10;
  if (limit > 100) throw invalidParam("limit", "This value must be less than or equal to 100.", "parameter_invalid_integer");
  const startingAfter = p.text("starting_after");
  const endingBefore = p.text("ending_before");
  const paymentIntent = p.text("payment_intent");
  const charge = p.text("charge");
  return {
    limit,
    ...(paymentIntent !== undefined ? { paymentIntent } : {}),
    ...(charge !== undefined ? { charge } : {}),
    ...(startingAfter !== undefined ? { startingAfter } : {}),
    ...(endingBefore !== undefined ? { endingBefore } : {}),
  };
}

/** Every refund of every account, and the checks Stripe makes before one. */
export class Refunds {
  private readonly refunds = new Map<string, { account: string | null; refund: Stripe.Refund }>();

  constructor(private readonly seconds: () => number) {}

  /** POST /v1/refunds: refunds `input.amount` (default: all that is left) of the intent found by `find`. */
  create(account: string | null, input: RefundInput, intents: IntentRecord[]): Stripe.Refund {
    const record =
      input.paymentIntent !== undefined
        ? intents.find((r) => r.account === account && r.intent.id === input.paymentIntent)
        : intents.find((r) => r.account === account && r.intent.latest_charge === input.charge);
    if (!record)
      throw input.paymentIntent !== undefined
        ? noSuchReference("payment_intent", input.paymentIntent, "payment_intent")
        : noSuchReference("charge", input.charge!, "charge");
    const intent = record.intent;
    if (input.paymentIntent !== undefined && input.charge !== undefined && intent.latest_charge !== input.charge) {
      throw invalidParam("charge", `The charge ${input.charge} does not belong to the PaymentIntent ${intent.id}.`);
    }
    const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : null;
    if (intent.status !== "succeeded" || charge === null) {
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        param: "payment_intent",
      });
    }
    const refunded = this.ofCharge(charge).reduce((sum, r) => sum + r.amount, 0);
    const left = intent.amount_received - refunded;
    if (left <= 0)
      throw new StripeApiError(400, { type: "invalid_request_error", code: "charge_already_refunded", message: `Charge ${charge} has already been refunded.` });
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

  /**
   * GET /v1/refunds: the account's refunds, newest first, in Stripe's list object. A `payment_intent`
   * or `charge` the account does not have is refused as on Stripe (`resource_missing`).
   */
  list(account: string | null, input: RefundListInput, intents: IntentRecord[]): Stripe.ApiList<Stripe.Refund> {
    if (input.paymentIntent !== undefined && !intents.some((r) => r.account === account && r.intent.id === input.paymentIntent)) {
      throw noSuchReference("payment_intent", input.paymentIntent, "payment_intent");
    }
    if (input.charge !== undefined && !intents.some((r) => r.account === account && r.intent.latest_charge === input.charge)) {
      throw noSuchReference("charge", input.charge, "charge");
    }
    // Insertion order is creation order; newest first is Stripe's order.
    let found = [...this.refunds.values()]
      .filter((r) => r.account === account)
      .map((r) => r.refund)
      .filter(
        (r) => (input.paymentIntent === undefined || r.payment_intent === input.paymentIntent) && (input.charge === undefined || r.charge === input.charge),
      )
      .reverse();
    const cursor = input.startingAfter ?? input.endingBefore;
    if (cursor !== undefined) {
      const at = found.findIndex((r) => r.id === cursor);
      if (at < 0) throw noSuchObject("refund", cursor, input.startingAfter !== undefined ? "starting_after" : "ending_before");
      // ending_before pages towards newer refunds: the `limit` just before the cursor.
      if (input.startingAfter === undefined) {
        const newer = found.slice(0, at);
        return { object: "list", data: newer.slice(Math.max(0, newer.length - input.limit)), has_more: newer.length > input.limit, url: "/v1/refunds" };
      }
      found = found.slice(at + 1);
    }
    const page = found.slice(0, input.limit);
    const hasMore = found.length > input.limit;
    return { object: "list", data: page, has_more: hasMore, url: "/v1/refunds" };
  }

  /** Every refund on every account, oldest first. */
  all(): { account: string | null; refund: Stripe.Refund }[] {
    return [...this.refunds.values()];
  }

  private ofCharge(charge: string): Stripe.Refund[] {
    return [...this.refunds.values()].map((r) => r.refund).filter((r) => r.charge === charge);
  }
}
