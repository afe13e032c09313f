import { afterAll, beforeAll } from "vitest";
import { startStripeStandin, type StripeStandin } from "@booking/stripe-standin";

/** A fresh `whsec_` secret, shared by a suite's stand-in and the server it signs events for. */
export function newStripeWebhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
}

/**
 * Starts one Stripe stand-in (not Stripe: it speaks Stripe's REST protocol) for the whole test file,
 * sending no webhooks of its own, and stops it after the file; `started` gets it once it listens.
 */
export function standinForSuite(webhookSecret: string, started: (standin: StripeStandin) => void): void {
  let standin: StripeStandin | null = null;
  beforeAll(async () => {
    standin = await startStripeStandin({ port: 0, webhookSecret, webhookUrl: null });
    started(standin);
  });
  afterAll(async () => {
    await standin?.stop();
  });
}
