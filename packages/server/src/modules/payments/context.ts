/** The record every part of the payment rules works with, and the way they all call the provider. */
import type { LogEntry } from "../../context.ts";
import { DomainError, FieldErrors, ValidationFailed } from "../../domain/errors.ts";
import type { Store } from "../../store/store.ts";
import type { MailPolicy } from "../mail/events.ts";
import { ProviderNotAuthorized, ProviderRefusal, type PaymentProvider, type ProviderIntent } from "./provider.ts";

/**
 * What the payment rules work with, one record shared by intents, webhook intake, settlement and
 * refunds (PaymentService builds it once).
 */
export interface PaymentContext {
  readonly store: Store;
  /** Null on a server without Stripe: no intent is made, and paid event types cannot be booked. */
  readonly provider: PaymentProvider | null;
  /** The secret Stripe signs its webhook events with; null when none is configured. */
  readonly webhookSecret: string | null;
  readonly now: () => number;
  readonly log: (entry: LogEntry) => void;
  /** Whether a refund's cancellation is emailed too (see MailPolicy). */
  readonly mail: MailPolicy;
}

/**
 * A provider call, its refusals turned into domain errors. `payerEmail`: the call sends the payer's
 * address (as the receipt's), so a refusal of that address is the visitor's to correct (422).
 */
export async function providerCall<T>(ctx: PaymentContext, run: () => Promise<T>, payerEmail = false): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderNotAuthorized) {
      throw new DomainError("provider_not_configured", "The payment provider refused this event type's account.");
    }
    if (error instanceof ProviderRefusal && (error.code === "account_invalid" || error.param === "stripe_account")) {
      throw new DomainError("provider_not_configured", "The event type's payment account is not usable.");
    }
    if (payerEmail && error instanceof ProviderRefusal && (error.param === "receipt_email" || error.code === "email_invalid")) {
      // Stripe's own address rules are stricter than ours in ways it does not publish: the payer can
      // give another address, which a 500 would never have told them.
      const errors = new FieldErrors();
      errors.add("email", "invalid_email", "The payment provider does not accept this email address for the receipt; use another one.");
      throw new ValidationFailed(errors.messages, errors.list);
    }
    ctx.log({ level: "error", message: "Stripe request failed", error });
    throw new DomainError("internal_error", "The payment provider could not be reached; nothing was changed. Try again.");
  }
}

/** Whether Stripe's intent is for the amount and currency the payment was asked for: a success counts only then. */
export const matchesTerms = (intent: ProviderIntent, amount: number, currency: string): boolean =>
  intent.amount === amount && intent.currency.toLowerCase() === currency.toLowerCase();
