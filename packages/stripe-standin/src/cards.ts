/**
 * Stripe's documented test cards and test PaymentMethod tokens, and what confirming with each does.
 *
 * Covers https://docs.stripe.com/testing for the plain approve/decline cards: `pm_card_visa` and friends
 * approve; `pm_card_chargeDeclined`, `pm_card_visa_chargeDeclined` (4000000000000002) decline with
 * `generic_decline`; insufficient funds, lost, stolen, expired, incorrect CVC and processing-error cards
 * decline with their codes. A Luhn-valid number that is not a test card declines with
 * `live_mode_test_card`, an invalid number fails with `incorrect_number`, as in Stripe's test mode.
 * 3-D Secure, dispute and fraud cards are not simulated (they behave as non-test numbers).
 */
import type Stripe from "stripe";

/** Why a card was refused, in the fields of Stripe's card_error. */
export interface Decline {
  code: string;
  declineCode?: string;
  message: string;
}

/** A test card, as far as the stand-in needs one. */
export interface TestCard {
  number: string;
  brand: string;
  funding: "credit" | "debit";
  country: string;
  /** `null` approves. */
  decline: Decline | null;
}

const DECLINED = "Your card was declined.";

/** The declines the stand-in can produce, keyed by the `decline_code` a test (or `fail()`) may ask for. */
export const DECLINES: Record<string, Decline> = {
  generic_decline: { code: "card_declined", declineCode: "generic_decline", message: DECLINED },
  insufficient_funds: { code: "card_declined", declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
  lost_card: { code: "card_declined", declineCode: "lost_card", message: DECLINED },
  stolen_card: { code: "card_declined", declineCode: "stolen_card", message: DECLINED },
  expired_card: { code: "expired_card", declineCode: "expired_card", message: "Your card has expired." },
  incorrect_cvc: { code: "incorrect_cvc", declineCode: "incorrect_cvc", message: "Your card's security code is incorrect." },
  processing_error: {
    code: "processing_error",
    declineCode: "processing_error",
    message: "An error occurred while processing your card. Try again in a little bit.",
  },
};

/** The decline for a `decline_code`; an unlisted code still declines, with Stripe's generic message. */
export function declineFor(declineCode: string): Decline {
  return DECLINES[declineCode] ?? { code: "card_declined", declineCode, message: DECLINED };
}

function card(number: string, brand: string, decline: Decline | null = null, funding: "credit" | "debit" = "credit"): TestCard {
  return { number, brand, funding, country: "US", decline };
}

const CARDS: TestCard[] = [
  card("4242424242424242", "visa"),
  card("4000056655665556", "visa", null, "debit"),
  card("5555555555554444", "mastercard"),
  card("5200828282828210", "mastercard", null, "debit"),
  card("378282246310005", "amex"),
  card("6011111111111117", "discover"),
  card("4000000000000002", "visa", DECLINES.generic_decline!),
  card("4000000000009995", "visa", DECLINES.insufficient_funds!),
  card("4000000000009987", "visa", DECLINES.lost_card!),
  card("4000000000009979", "visa", DECLINES.stolen_card!),
  card("4000000000000069", "visa", DECLINES.expired_card!),
  card("4000000000000127", "visa", DECLINES.incorrect_cvc!),
  card("4000000000000119", "visa", DECLINES.processing_error!),
];

const BY_NUMBER = new Map(CARDS.map((c) => [c.number, c]));

/** Stripe's test PaymentMethod tokens, each standing for one test card number. */
const TOKENS: Record<string, string> = {
  pm_card_visa: "4242424242424242",
  pm_card_visa_debit: "4000056655665556",
  pm_card_mastercard: "5555555555554444",
  pm_card_mastercard_debit: "5200828282828210",
  pm_card_amex: "378282246310005",
  pm_card_discover: "6011111111111117",
  pm_card_chargeDeclined: "4000000000000002",
  pm_card_visa_chargeDeclined: "4000000000000002",
  pm_card_chargeDeclinedInsufficientFunds: "4000000000009995",
  pm_card_visa_chargeDeclinedInsufficientFunds: "4000000000009995",
  // Not one of Stripe's token names; kept as a convenient alias.
  pm_card_insufficientFunds: "4000000000009995",
  pm_card_chargeDeclinedLostCard: "4000000000009987",
  pm_card_visa_chargeDeclinedLostCard: "4000000000009987",
  pm_card_chargeDeclinedStolenCard: "4000000000009979",
  pm_card_visa_chargeDeclinedStolenCard: "4000000000009979",
  pm_card_chargeDeclinedExpiredCard: "4000000000000069",
  pm_card_chargeDeclinedIncorrectCvc: "4000000000000127",
  pm_card_chargeDeclinedProcessingError: "4000000000000119",
};

/** The card behind a test token such as `pm_card_visa`; `undefined` for anything else. */
export function cardForToken(token: string): TestCard | undefined {
  const number = TOKENS[token];
  return number === undefined ? undefined : BY_NUMBER.get(number);
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (digits.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^6(011|5)/.test(digits)) return "discover";
  return "unknown";
}

/** The card for a raw number as Stripe.js sends it (spaces allowed), with Stripe's test-mode outcome. */
export function cardForNumber(raw: string): TestCard {
  const digits = raw.replace(/[\s-]/g, "");
  const known = BY_NUMBER.get(digits);
  if (known) return known;
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return card(digits, brandOf(digits), { code: "incorrect_number", message: "Your card number is incorrect." });
  }
  return card(digits, brandOf(digits), {
    code: "card_declined",
    declineCode: "live_mode_test_card",
    message:
      "Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
  });
}

/** What a client may say about the card besides its number (`payment_method_data[...]` from Stripe.js). */
export interface CardDetails {
  name?: string;
  email?: string;
  phone?: string;
  expMonth?: number;
  expYear?: number;
}

/** Stripe's `payment_method` object for a card, as embedded in errors and `last_payment_error`. */
export function paymentMethodObject(id: string, test: TestCard, created: number, details: CardDetails = {}): Stripe.PaymentMethod {
  return {
    id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: details.email ?? null,
      name: details.name ?? null,
      phone: details.phone ?? null,
      tax_id: null,
    },
    card: {
      brand: test.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: test.country,
      display_brand: test.brand,
      // Test tokens carry no expiry; Stripe gives them a date in the future, as here.
      exp_month: details.expMonth ?? 12,
      exp_year: details.expYear ?? new Date().getUTCFullYear() + 1,
      funding: test.funding,
      generated_from: null,
      last4: test.number.slice(-4),
      networks: { available: [test.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}
