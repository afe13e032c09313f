/**
 * The stand-in's PaymentIntents: storage, account scoping and charging, with no HTTP in it.
 *
 * Intents belong to the account that created them (the platform, `null`, or a connected `acct_...` named
 * by the Stripe-Account header) and are invisible from any other account, as on Stripe. The field changes
 * themselves live in `transitions.ts`; every change that Stripe would announce is passed to `emit` as the
 * event type it causes, with a snapshot of the intent.
 */
import type Stripe from "stripe";
import { cardForNumber, declineFor, type Decline } from "./cards.ts";
import { noSuchObject, rawCardDataRefused, unexpectedState } from "./errors.ts";
import { newId } from "./ids.ts";
import { newPaymentIntent, type IntentRecord, type PaymentIntent } from "./intent-object.ts";
import type { ConfirmInput } from "./confirm-params.ts";
import type { CreateInput, UpdateInput } from "./intent-params.ts";
import { PaymentMethods, type StoredPaymentMethod } from "./payment-methods.ts";
import { Refunds, type RefundInput } from "./refunds.ts";
import { applyCancel, applyCapture, applyCharge, applyUpdate, assertConfirmable, CONFIRMABLE, type IntentEventType } from "./transitions.ts";

/** A change worth a webhook: the event type, a snapshot of the intent, and the account it happened on. */
export interface IntentEvent {
  type: IntentEventType;
  intent: PaymentIntent;
  account: string | null;
}

/** A declined charge, with what Stripe's card_error reports about it. */
export interface CardFailure {
  decline: Decline;
  charge: string | null;
  paymentMethod: Stripe.PaymentMethod;
}

/** The result of a confirm: the intent, and the failure when the card was declined. */
export interface ConfirmOutcome {
  intent: PaymentIntent;
  failure: CardFailure | null;
}

/** All intents of all accounts, and the operations Stripe's endpoints perform on them. */
export class PaymentIntents {
  private readonly records = new Map<string, IntentRecord>();
  private readonly methods: PaymentMethods;
  /** Refunds of these intents' charges (`refunds.ts`). */
  readonly refunds: Refunds;

  constructor(
    private readonly now: () => number,
    private readonly emit: (event: IntentEvent) => void,
  ) {
    this.methods = new PaymentMethods(() => this.seconds());
    this.refunds = new Refunds(() => this.seconds());
  }

  /** POST /v1/refunds. */
  refund(account: string | null, input: RefundInput): Stripe.Refund {
    return this.refunds.create(account, input, this.all());
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  private announce(type: IntentEventType, record: IntentRecord): void {
    this.emit({ type, intent: structuredClone(record.intent), account: record.account });
  }

  private record(account: string | null, id: string): IntentRecord {
    const record = this.records.get(id);
    if (!record || record.account !== account) throw noSuchObject("payment_intent", id, "intent");
    return record;
  }

  /** POST /v1/payment_intents; with `confirm=true` also confirms. `secretKey` decides whether raw cards are refused. */
  create(account: string | null, input: CreateInput, secretKey = true): ConfirmOutcome {
    const intent = newPaymentIntent({ ...input, created: this.seconds() });
    const record = { account, intent };
    if (!input.confirm) {
      if (input.paymentMethod) applyUpdate(intent, {}, this.methods.resolve(account, input.paymentMethod).object.id);
      this.records.set(intent.id, record);
      return { intent, failure: null };
    }
    const confirm = input.paymentMethod ? { ...input.confirm, paymentMethod: input.paymentMethod } : input.confirm;
    // Resolved before the intent is stored: a create that cannot confirm creates nothing.
    const method = this.paymentMethodFor(record, confirm, secretKey);
    this.records.set(intent.id, record);
    return this.charge(record, method, method.card.decline);
  }

  /** The intent `id` as seen from `account`; 404 `resource_missing` from any other account. */
  get(account: string | null, id: string): PaymentIntent {
    return this.record(account, id).intent;
  }

  /** POST /v1/payment_intents/:id. */
  update(account: string | null, id: string, input: UpdateInput): PaymentIntent {
    const { intent } = this.record(account, id);
    // Resolved only while it may still be attached; afterwards applyUpdate refuses with Stripe's message.
    const attached = input.paymentMethod && CONFIRMABLE.includes(intent.status) ? this.methods.resolve(account, input.paymentMethod).object.id : undefined;
    applyUpdate(intent, input, attached);
    return intent;
  }

  /** POST /v1/payment_intents/:id/confirm: charges the test card and moves the intent on. */
  confirm(account: string | null, id: string, input: ConfirmInput, secretKey = true): ConfirmOutcome {
    const record = this.record(account, id);
    assertConfirmable(record.intent);
    const method = this.paymentMethodFor(record, input, secretKey);
    if (input.receiptEmail !== undefined) record.intent.receipt_email = input.receiptEmail;
    if (input.captureMethod) record.intent.capture_method = input.captureMethod;
    return this.charge(record, method, method.card.decline);
  }

  private paymentMethodFor(record: IntentRecord, input: ConfirmInput, secretKey: boolean): StoredPaymentMethod {
    if (input.paymentMethod) return this.methods.resolve(record.account, input.paymentMethod);
    if (input.paymentMethodData) {
      if (secretKey) throw rawCardDataRefused();
      return this.methods.fromRawCard(record.account, input.paymentMethodData);
    }
    const attached = record.intent.payment_method;
    if (typeof attached === "string") return this.methods.resolve(record.account, attached);
    throw unexpectedState(
      "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      record.intent,
    );
  }

  private charge(record: IntentRecord, method: StoredPaymentMethod, decline: Decline | null): ConfirmOutcome {
    // A number that fails validation never reaches the card network, so no charge is made.
    const charge = decline?.code === "incorrect_number" ? null : newId("ch");
    this.announce(applyCharge(record.intent, method.object, decline, charge), record);
    return { intent: record.intent, failure: decline ? { decline, charge, paymentMethod: method.object } : null };
  }

  /** POST /v1/payment_intents/:id/cancel. */
  cancel(account: string | null, id: string, reason: Stripe.PaymentIntent.CancellationReason | null): PaymentIntent {
    const record = this.record(account, id);
    this.announce(applyCancel(record.intent, reason, this.seconds()), record);
    return record.intent;
  }

  /** POST /v1/payment_intents/:id/capture, for intents created with `capture_method=manual`. */
  capture(account: string | null, id: string, amountToCapture?: number): PaymentIntent {
    const record = this.record(account, id);
    this.announce(applyCapture(record.intent, amountToCapture), record);
    return record.intent;
  }

  /** The intent with this id on whichever account owns it; for the stand-in's control surface. */
  find(id: string): IntentRecord | undefined {
    return this.records.get(id);
  }

  /** Every intent on every account, oldest first. */
  all(): IntentRecord[] {
    return [...this.records.values()];
  }

  /** Pays the intent as if the customer confirmed it with `pm_card_visa`. */
  succeed(id: string): ConfirmOutcome {
    const record = this.records.get(id);
    if (!record) throw noSuchObject("payment_intent", id, "intent");
    return this.confirm(record.account, id, { paymentMethod: "pm_card_visa" });
  }

  /** Declines the intent's payment as if the customer's card was refused with `declineCode`. */
  fail(id: string, declineCode = "generic_decline"): ConfirmOutcome {
    const record = this.records.get(id);
    if (!record) throw noSuchObject("payment_intent", id, "intent");
    assertConfirmable(record.intent);
    const method = this.methods.create(record.account, cardForNumber("4000000000000002"));
    return this.charge(record, method, declineFor(declineCode));
  }
}
