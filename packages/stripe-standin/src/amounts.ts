/**
 * Amount and currency rules of Stripe's PaymentIntents: a positive integer in the currency's smallest
 * unit, at most eight digits, and at least Stripe's minimum charge for the currency
 * (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). The stand-in knows the minimum
 * for the common settlement currencies below; for any other three-letter code it only requires ≥ 1.
 */
import { invalidParam } from "./errors.ts";

/** Minimum charge per currency, in the smallest unit, as Stripe documents them. */
const MINIMUM_CHARGE: Record<string, number> = {
  usd: 50,
  aed: 200,
  aud: 50,
  bgn: 100,
  brl: 50,
  cad: 50,
  chf: 50,
  czk: 1500,
  dkk: 250,
  eur: 50,
  gbp: 30,
  hkd: 400,
  huf: 17500,
  inr: 50,
  jpy: 50,
  mxn: 1000,
  myr: 200,
  nok: 300,
  nzd: 50,
  pln: 200,
  ron: 200,
  sek: 300,
  sgd: 50,
  thb: 1000,
};

const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);

const MAXIMUM_AMOUNT = 99_999_999;

/** A currency code as Stripe stores it: three letters, lowercased. */
export function normalizeCurrency(raw: string, param = "currency"): string {
  if (!/^[a-zA-Z]{3}$/.test(raw))
    throw invalidParam(param, `Invalid currency: ${raw.toLowerCase()}. Stripe currently supports three-letter ISO currency codes.`);
  return raw.toLowerCase();
}

function inMajorUnits(amount: number, currency: string): string {
  return ZERO_DECIMAL.has(currency) ? String(amount) : (amount / 100).toFixed(2);
}

/** Refuses an amount outside Stripe's limits for the currency (`amount_too_small`, `amount_too_large`). */
export function checkAmount(amount: number, currency: string, param = "amount"): void {
  const minimum = MINIMUM_CHARGE[currency] ?? 1;
  if (amount < minimum) {
    throw invalidParam(param, `Amount must be at least ${inMajorUnits(minimum, currency)} ${currency}`, "amount_too_small");
  }
  if (amount > MAXIMUM_AMOUNT) {
    throw invalidParam(param, `Amount must be no more than ${inMajorUnits(MAXIMUM_AMOUNT, currency)} ${currency}`, "amount_too_large");
  }
}
