/**
 * The PaymentMethods the stand-in has seen. Stripe turns a test token such as `pm_card_visa`, or a raw
 * card from Stripe.js, into a new `pm_...` object owned by the account that used it; the intent then
 * refers to that id, and a later confirm without a payment method reuses it.
 */
import type Stripe from "stripe";
import { cardForNumber, cardForToken, paymentMethodObject, type TestCard } from "./cards.ts";
import { noSuchReference } from "./errors.ts";
import { newId } from "./ids.ts";
import type { RawCard } from "./confirm-params.ts";

/** A PaymentMethod and the test card that decides what charging it does. */
export interface StoredPaymentMethod {
  account: string | null;
  card: TestCard;
  object: Stripe.PaymentMethod;
}

/** PaymentMethods by id, each visible only to the account that created it. */
export class PaymentMethods {
  private readonly byId = new Map<string, StoredPaymentMethod>();

  constructor(private readonly nowSeconds: () => number) {}

  /** A new PaymentMethod for `card`, as Stripe creates one when a token or raw card is used. */
  create(account: string | null, card: TestCard, raw?: RawCard): StoredPaymentMethod {
    const id = newId("pm");
    const stored = { account, card, object: paymentMethodObject(id, card, this.nowSeconds(), raw?.details) };
    this.byId.set(id, stored);
    return stored;
  }

  /** The PaymentMethod named by a `payment_method` parameter: a test token, or an id this account owns. */
  resolve(account: string | null, id: string, param = "payment_method"): StoredPaymentMethod {
    const test = cardForToken(id);
    if (test) return this.create(account, test);
    const stored = this.byId.get(id);
    if (!stored || stored.account !== account) throw noSuchReference("PaymentMethod", id, param);
    return stored;
  }

  /** A PaymentMethod for a raw card number sent by Stripe.js. */
  fromRawCard(account: string | null, raw: RawCard): StoredPaymentMethod {
    return this.create(account, cardForNumber(raw.number), raw);
  }
}
