import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandin, type StripeStandin } from "../src/index.ts";

// Requests spelled as Stripe.js and curl spell them, which the SDK never does: the key and account as
// parameters, Basic auth, empty-bracket arrays, and a browser's CORS preflight.
let standin: StripeStandin;
let stripe: Stripe;

beforeAll(async () => {
  standin = await startStripeStandin({ webhookSecret: "whsec_wire_test" });
  stripe = new Stripe("sk_test_wire", { host: standin.host, port: standin.port, protocol: "http", maxNetworkRetries: 0 });
});

afterAll(() => standin.stop());

describe("the wire as browsers and curl speak it", () => {
  it("takes the publishable key and connected account as parameters, as Stripe.js sends them", async () => {
    const account = "acct_wire1";
    const intent = await stripe.paymentIntents.create({ amount: 1500, currency: "usd", metadata: { reservation_uuid: "w-1" } }, { stripeAccount: account });
    const query = new URLSearchParams({ key: "pk_test_wire", _stripe_account: account, client_secret: intent.client_secret! });
    const seen = await fetch(`${standin.url}/v1/payment_intents/${intent.id}?${query}`);
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ id: intent.id, status: "requires_payment_method" });

    const body = new URLSearchParams({ key: "pk_test_wire", _stripe_account: account, client_secret: intent.client_secret!, payment_method: "pm_card_visa" });
    const paid = await fetch(`${standin.url}/v1/payment_intents/${intent.id}/confirm`, { method: "POST", body });
    expect(paid.status).toBe(200);
    const paidBody = (await paid.json()) as Record<string, unknown>;
    expect(paidBody).toMatchObject({ status: "succeeded" });
    expect(paidBody).not.toHaveProperty("metadata");
  });

  it("takes Basic auth and empty-bracket arrays, as curl sends them", async () => {
    const response = await fetch(`${standin.url}/v1/payment_intents`, {
      method: "POST",
      headers: { Authorization: `Basic ${btoa("sk_test_wire:")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "amount=990&currency=usd&allowed_payment_method_types[]=card&metadata%5Bsource%5D=curl",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ amount: 990, allowed_payment_method_types: ["card"], metadata: { source: "curl" } });
  });

  it("answers a browser's CORS preflight and lets it read Stripe's response ids", async () => {
    const response = await fetch(`${standin.url}/v1/payment_intents/pi_x/confirm`, {
      method: "OPTIONS",
      headers: { Origin: "http://localhost:5173", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "stripe-account" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toContain("Stripe-Account");
    expect(response.headers.get("access-control-expose-headers")).toContain("Request-Id");
  });

  it("answers 401 without any key, in Stripe's words", async () => {
    const response = await fetch(`${standin.url}/v1/payment_intents`, { method: "POST", body: "amount=1000&currency=usd" });
    expect(response.status).toBe(401);
    const { error } = (await response.json()) as { error: { type: string; message: string } };
    expect(error.type).toBe("invalid_request_error");
    expect(error.message).toMatch(/^You did not provide an API key/);
  });
});
