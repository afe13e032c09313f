import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandin, type StripeEvent, type StripeStandin } from "../src/index.ts";
import { closedPortUrl, startReceiver, type Receiver } from "./receiver.ts";

// Every API call below goes through the real `stripe` SDK pointed at the stand-in, so what passes here is
// what the booking server's own SDK calls will see.
const SECRET = "whsec_standin_test_secret";
let standin: StripeStandin;
let receiver: Receiver;
let stripe: Stripe;
let accountCount = 0;

/** A connected account id no other test uses, so tests cannot see each other's intents. */
function newAccount(): string {
  accountCount += 1;
  return `acct_test${accountCount}`;
}

function client(key: string, on: StripeStandin = standin): Stripe {
  return new Stripe(key, { host: on.host, port: on.port, protocol: "http", maxNetworkRetries: 0 });
}

/** The error a call fails with; fails the test when the call succeeds. */
async function failure(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error("expected the call to fail, and it succeeded");
}

/** How many requests the receiver has had once earlier tests' deliveries are done: the start of this test's events. */
async function mark(): Promise<number> {
  await standin.settled();
  return receiver.received.length;
}

/** The events delivered to the receiver since `from`, verified with the SDK exactly as a server would. */
function verifiedEvents(from = 0): StripeEvent[] {
  return receiver.received.slice(from).map((r) => stripe.webhooks.constructEvent(r.body, r.signature!, SECRET) as unknown as StripeEvent);
}

beforeAll(async () => {
  receiver = startReceiver();
  standin = await startStripeStandin({ webhookSecret: SECRET, webhookUrl: receiver.url });
  stripe = client("sk_test_booking_server");
});

afterAll(async () => {
  await standin.stop();
  await receiver.stop();
});

describe("PaymentIntents through the stripe SDK", () => {
  it("creates an intent on a connected account with metadata, waiting for a payment method", async () => {
    const account = newAccount();
    const intent = await stripe.paymentIntents.create(
      { amount: 2500, currency: "EUR", metadata: { reservation_uuid: "r-1" }, description: "Intro call", receipt_email: "ada@example.org" },
      { stripeAccount: account },
    );
    expect(intent).toMatchObject({
      object: "payment_intent",
      amount: 2500,
      currency: "eur",
      status: "requires_payment_method",
      metadata: { reservation_uuid: "r-1" },
      description: "Intro call",
      receipt_email: "ada@example.org",
      livemode: false,
      latest_charge: null,
      last_payment_error: null,
      automatic_payment_methods: { enabled: true, allow_redirects: "always" },
    });
    expect(intent.id).toMatch(/^pi_\w{24}$/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`));
    expect(Math.abs(intent.created - Date.now() / 1000)).toBeLessThan(5);
    expect(intent.lastResponse.headers["stripe-account"]).toBe(account);
    expect(intent.lastResponse.requestId).toMatch(/^req_/);
  });

  it("takes allowed_payment_method_types on the SDK's pinned API version and refuses the older payment_method_types", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 900, currency: "usd", allowed_payment_method_types: ["card"] });
    expect(intent).toMatchObject({ allowed_payment_method_types: ["card"], payment_method_types: ["card"] });
    const legacy = { amount: 900, currency: "usd", payment_method_types: ["card"] } as unknown as Stripe.PaymentIntentCreateParams;
    const error = await failure(stripe.paymentIntents.create(legacy));
    expect(error).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "payment_method_types" });
    expect(error.message).toContain("allowed_payment_method_types");
  });

  it("still takes payment_method_types from a client on an API version before endive", async () => {
    const older = new Stripe("sk_test_booking_server", {
      host: standin.host,
      port: standin.port,
      protocol: "http",
      apiVersion: "2026-08-26.dahlia" as Stripe.LatestApiVersion,
    });
    const params = { amount: 900, currency: "usd", payment_method_types: ["card"] } as unknown as Stripe.PaymentIntentCreateParams;
    const intent = await older.paymentIntents.create(params);
    expect(intent).toMatchObject({ payment_method_types: ["card"], automatic_payment_methods: null });
    expect(intent.lastResponse.apiVersion).toBe("2026-08-26.dahlia");
  });

  it("retrieves an intent on the account that owns it, and from nowhere else", async () => {
    const account = newAccount();
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: "usd", metadata: { reservation_uuid: "r-2" } }, { stripeAccount: account });
    const again = await stripe.paymentIntents.retrieve(created.id, {}, { stripeAccount: account });
    expect(again).toMatchObject({ id: created.id, metadata: { reservation_uuid: "r-2" }, status: "requires_payment_method" });

    for (const elsewhere of [{ stripeAccount: newAccount() }, {}]) {
      const error = await failure(stripe.paymentIntents.retrieve(created.id, {}, elsewhere));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: "resource_missing", param: "intent", message: `No such payment_intent: '${created.id}'` });
    }
  });

  it("updates amount, description and receipt email and merges metadata, dropping keys set to empty", async () => {
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: "usd", metadata: { reservation_uuid: "r-3", note: "first" } });
    const updated = await stripe.paymentIntents.update(created.id, {
      amount: 1500,
      description: "Longer call",
      receipt_email: "grace@example.org",
      metadata: { note: "", seats: "2" },
    });
    expect(updated).toMatchObject({ amount: 1500, description: "Longer call", receipt_email: "grace@example.org", status: "requires_payment_method" });
    expect(updated.metadata).toEqual({ reservation_uuid: "r-3", seats: "2" });
  });

  it("refuses a receipt email outside ASCII with email_invalid, as Stripe does, and takes its punycode domain", async () => {
    for (const receipt_email of ["jürgen@example.de", "ada@münchen.de"]) {
      const error = await failure(stripe.paymentIntents.create({ amount: 1000, currency: "eur", receipt_email }));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, code: "email_invalid", param: "receipt_email" });
    }
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: "eur", receipt_email: "ada@xn--mnchen-3ya.de" });
    expect(created.receipt_email).toBe("ada@xn--mnchen-3ya.de");
    await expect(stripe.paymentIntents.update(created.id, { receipt_email: "jürgen@example.de" })).rejects.toMatchObject({
      code: "email_invalid",
      param: "receipt_email",
    });
    expect((await stripe.paymentIntents.update(created.id, { receipt_email: "" })).receipt_email).toBeNull();
  });

  it("pays with pm_card_visa, recording the charge and payment method", async () => {
    const created = await stripe.paymentIntents.create({ amount: 4200, currency: "usd" });
    const paid = await stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa", return_url: "http://localhost:5173/booked" });
    expect(paid).toMatchObject({ status: "succeeded", amount_received: 4200, last_payment_error: null });
    expect(paid.latest_charge).toMatch(/^ch_/);
    expect(paid.payment_method).toMatch(/^pm_/);
  });

  it("throws StripeCardError for a declined card and puts the intent back to requires_payment_method", async () => {
    const account = newAccount();
    const created = await stripe.paymentIntents.create({ amount: 3000, currency: "usd" }, { stripeAccount: account });
    const error = await failure(stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_chargeDeclined" }, { stripeAccount: account }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({
      statusCode: 402,
      type: "StripeCardError",
      rawType: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
    });
    expect(error.payment_intent).toMatchObject({ id: created.id, status: "requires_payment_method" });

    const after = await stripe.paymentIntents.retrieve(created.id, {}, { stripeAccount: account });
    expect(after.status).toBe("requires_payment_method");
    expect(after.payment_method).toBeNull();
    expect(after.last_payment_error).toMatchObject({ type: "card_error", code: "card_declined", decline_code: "generic_decline" });
    expect(after.latest_charge).toBe(error.charge);
  });

  it("declines the insufficient-funds test cards with insufficient_funds", async () => {
    for (const token of ["pm_card_visa_chargeDeclinedInsufficientFunds", "pm_card_insufficientFunds"]) {
      const created = await stripe.paymentIntents.create({ amount: 3000, currency: "usd" });
      const error = await failure(stripe.paymentIntents.confirm(created.id, { payment_method: token }));
      expect(error).toMatchObject({ statusCode: 402, code: "card_declined", decline_code: "insufficient_funds" });
    }
  });

  it("refuses to change the amount of a paid intent but still updates its metadata", async () => {
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: "usd" });
    await stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa" });
    const error = await failure(stripe.paymentIntents.update(created.id, { amount: 2000 }));
    expect(error).toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
    const tagged = await stripe.paymentIntents.update(created.id, { metadata: { booked: "yes" } });
    expect(tagged).toMatchObject({ status: "succeeded", amount: 1000, metadata: { booked: "yes" } });
  });

  it("cancels an intent, which can then no longer be confirmed", async () => {
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: "usd" });
    const canceled = await stripe.paymentIntents.cancel(created.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });
    const error = await failure(stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa" }));
    expect(error).toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
  });

  it("holds the money with capture_method=manual until the intent is captured", async () => {
    const created = await stripe.paymentIntents.create({ amount: 5000, currency: "usd", capture_method: "manual" });
    const held = await stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa" });
    expect(held).toMatchObject({ status: "requires_capture", amount_capturable: 5000, amount_received: 0 });
    const captured = await stripe.paymentIntents.capture(created.id);
    expect(captured).toMatchObject({ status: "succeeded", amount_capturable: 0, amount_received: 5000 });
  });
});

describe("idempotent requests", () => {
  it("replays the first response for the same key and parameters", async () => {
    const params = { amount: 1200, currency: "usd", metadata: { reservation_uuid: "r-idem" } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: "reservation-r-idem" });
    const count = standin.intents().length;
    const second = await stripe.paymentIntents.create(params, { idempotencyKey: "reservation-r-idem" });
    expect(second.id).toBe(first.id);
    expect(second.client_secret).toBe(first.client_secret);
    expect(second.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(standin.intents().length).toBe(count);
  });

  it("answers StripeIdempotencyError when the key comes back with other parameters", async () => {
    await stripe.paymentIntents.create({ amount: 1200, currency: "usd" }, { idempotencyKey: "reused-key" });
    const error = await failure(stripe.paymentIntents.create({ amount: 1300, currency: "usd" }, { idempotencyKey: "reused-key" }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error).toMatchObject({ statusCode: 400, rawType: "idempotency_error" });
    expect(error.message).toContain("same parameters");
  });
});

describe("keys and parameters", () => {
  it("answers StripeAuthenticationError for a key it does not accept", async () => {
    const strict = await startStripeStandin({ webhookSecret: SECRET, secretKey: "sk_test_the_right_one" });
    try {
      expect(await client("sk_test_the_right_one", strict).paymentIntents.create({ amount: 100, currency: "usd" })).toHaveProperty("id");
      for (const key of ["sk_test_another_one", "sk_live_real_money", "not_a_key"]) {
        const error = await failure(client(key, strict).paymentIntents.create({ amount: 100, currency: "usd" }));
        expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
        expect(error.statusCode).toBe(401);
        expect(error.message).toMatch(/^Invalid API Key provided: /);
        expect(error.message).not.toContain(key);
      }
    } finally {
      await strict.stop();
    }
  });

  it("answers StripeInvalidRequestError naming the parameter for a bad or missing amount", async () => {
    const zero = await failure(stripe.paymentIntents.create({ amount: 0, currency: "usd" }));
    expect(zero).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(zero).toMatchObject({ statusCode: 400, param: "amount", code: "parameter_invalid_integer" });
    const fraction = await failure(stripe.paymentIntents.create({ amount: 10.5, currency: "usd" }));
    expect(fraction).toMatchObject({ statusCode: 400, param: "amount", message: "Invalid integer: 10.5" });
    const tiny = await failure(stripe.paymentIntents.create({ amount: 10, currency: "usd" }));
    expect(tiny).toMatchObject({ statusCode: 400, param: "amount", code: "amount_too_small" });
    const noCurrency = await failure(stripe.paymentIntents.create({ amount: 1000 } as Stripe.PaymentIntentCreateParams));
    expect(noCurrency).toMatchObject({ statusCode: 400, param: "currency", code: "parameter_missing" });
  });

  it("refuses parameters it does not implement instead of ignoring them", async () => {
    const error = await failure(stripe.paymentIntents.create({ amount: 1000, currency: "usd", customer: "cus_123" }));
    expect(error).toMatchObject({ statusCode: 400, param: "customer", code: "parameter_unknown" });
  });

  it("answers 404 with Stripe's error body for a route it does not have", async () => {
    const error = await failure(stripe.customers.create({ email: "ada@example.org" }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.statusCode).toBe(404);
    expect(error.message).toMatch(/^Unrecognized request URL \(POST: \/v1\/customers\)/);
  });
});

describe("publishable key with the client secret, as Stripe.js calls", () => {
  it("retrieves the intent's publishable fields only", async () => {
    const account = newAccount();
    const created = await stripe.paymentIntents.create({ amount: 1800, currency: "usd", metadata: { reservation_uuid: "r-pk" } }, { stripeAccount: account });
    const browser = client("pk_test_booking_widget");
    const seen = await browser.paymentIntents.retrieve(created.id, { client_secret: created.client_secret! }, { stripeAccount: account });
    expect(seen).toMatchObject({ id: created.id, amount: 1800, currency: "usd", status: "requires_payment_method", client_secret: created.client_secret });
    expect(seen).not.toHaveProperty("metadata");
    expect(seen).not.toHaveProperty("latest_charge");

    const wrong = await failure(browser.paymentIntents.retrieve(created.id, { client_secret: `${created.id}_secret_wrong` }, { stripeAccount: account }));
    expect(wrong).toMatchObject({ statusCode: 400, param: "client_secret" });
    const none = await failure(browser.paymentIntents.retrieve(created.id, {}, { stripeAccount: account }));
    expect(none).toBeInstanceOf(Stripe.errors.StripePermissionError);
    const create = await failure(browser.paymentIntents.create({ amount: 1000, currency: "usd" }));
    expect(create.statusCode).toBe(403);
  });

  it("confirms with a raw test card number, which a secret key may not send", async () => {
    const created = await stripe.paymentIntents.create({ amount: 2000, currency: "usd" });
    const browser = client("pk_test_booking_widget");
    const card = (number: string) =>
      ({
        client_secret: created.client_secret!,
        payment_method_data: { type: "card", card: { number, exp_month: 12, exp_year: 2034, cvc: "123" } },
      }) as unknown as Stripe.PaymentIntentConfirmParams;

    const refused = await failure(
      stripe.paymentIntents.confirm(created.id, {
        payment_method_data: { type: "card", card: { number: "4242424242424242" } },
      } as unknown as Stripe.PaymentIntentConfirmParams),
    );
    expect(refused).toMatchObject({ statusCode: 400 });
    expect(refused.message).toMatch(/^Sending credit card numbers directly/);

    const declined = await failure(browser.paymentIntents.confirm(created.id, card("4000000000000002")));
    expect(declined).toMatchObject({ statusCode: 402, code: "card_declined", decline_code: "generic_decline" });
    expect(declined.payment_intent).not.toHaveProperty("metadata");

    const paid = await browser.paymentIntents.confirm(created.id, card("4242 4242 4242 4242"));
    expect(paid).toMatchObject({ id: created.id, status: "succeeded" });
    expect(paid).not.toHaveProperty("metadata");
  });
});

describe("webhooks", () => {
  it("delivers payment_intent.succeeded signed so constructEvent verifies it, naming the connected account", async () => {
    const account = newAccount();
    const from = await mark();
    const created = await stripe.paymentIntents.create({ amount: 2500, currency: "usd", metadata: { reservation_uuid: "r-hook" } }, { stripeAccount: account });
    await stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa" }, { stripeAccount: account, idempotencyKey: "confirm-r-hook" });
    await standin.settled();

    const [event, ...more] = verifiedEvents(from);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      object: "event",
      type: "payment_intent.succeeded",
      account,
      livemode: false,
      api_version: Stripe.API_VERSION,
      request: { idempotency_key: "confirm-r-hook" },
      data: { object: { id: created.id, object: "payment_intent", status: "succeeded", amount_received: 2500, metadata: { reservation_uuid: "r-hook" } } },
    });
    expect(event!.id).toMatch(/^evt_/);
    expect(event!.request.id).toMatch(/^req_/);
    expect(receiver.received[from]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // Under plain Bun the SDK only has async crypto, which is what the booking server must use there.
    await expect(stripe.webhooks.constructEventAsync(receiver.received[from]!.body, receiver.received[from]!.signature!, SECRET)).resolves.toMatchObject({
      id: event!.id,
    });
    expect(standin.deliveries().at(-1)).toMatchObject({ event: event!.id, type: "payment_intent.succeeded", status: 200, ok: true });
  });

  it("delivers payment_intent.payment_failed with the decline, and no account for a platform intent", async () => {
    const from = await mark();
    const created = await stripe.paymentIntents.create({ amount: 2500, currency: "usd" });
    await failure(stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa_chargeDeclined" }));
    await standin.settled();
    const [event] = verifiedEvents(from);
    expect(event).toMatchObject({ type: "payment_intent.payment_failed", data: { object: { id: created.id, status: "requires_payment_method" } } });
    expect(event).not.toHaveProperty("account");
    expect(event!.data.object.last_payment_error).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
  });

  it("signs so that a tampered payload or the wrong secret fails verification", async () => {
    const from = await mark();
    const created = await stripe.paymentIntents.create({ amount: 2500, currency: "usd" });
    await standin.succeed(created.id);
    const { body, signature } = receiver.received[from]!;
    expect(() => stripe.webhooks.constructEvent(body, signature!, SECRET)).not.toThrow();
    const tampered = body.replace('"amount": 2500', '"amount": 1');
    expect(tampered).not.toBe(body);
    expect(() => stripe.webhooks.constructEvent(tampered, signature!, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(body, signature!, "whsec_someone_else")).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it("records the receiver's error status, and keeps answering the API when the receiver is down", async () => {
    receiver.answer(500);
    try {
      await standin.succeed((await stripe.paymentIntents.create({ amount: 700, currency: "usd" })).id);
      expect(standin.deliveries().at(-1)).toMatchObject({ status: 500, ok: false });
    } finally {
      receiver.answer(200);
    }
    standin.setWebhookUrl(await closedPortUrl());
    try {
      const created = await stripe.paymentIntents.create({ amount: 700, currency: "usd" });
      expect(await stripe.paymentIntents.confirm(created.id, { payment_method: "pm_card_visa" })).toHaveProperty("status", "succeeded");
      await standin.settled();
      expect(standin.deliveries().at(-1)).toMatchObject({ type: "payment_intent.succeeded", status: null, ok: false });
    } finally {
      standin.setWebhookUrl(receiver.url);
    }
  });
});

describe("control surface", () => {
  it("fails and then pays an intent over /_standin, delivering each event", async () => {
    const account = newAccount();
    const created = await stripe.paymentIntents.create({ amount: 1600, currency: "usd" }, { stripeAccount: account });
    const from = await mark();

    const failed = await fetch(`${standin.url}/_standin/payment_intents/${created.id}/fail`, {
      method: "POST",
      body: new URLSearchParams({ decline_code: "insufficient_funds" }),
    });
    expect(failed.status).toBe(200);
    const failedBody = (await failed.json()) as { account: string; payment_intent: Stripe.PaymentIntent; deliveries: { status: number }[] };
    expect(failedBody).toMatchObject({
      account,
      payment_intent: { status: "requires_payment_method", last_payment_error: { decline_code: "insufficient_funds" } },
    });
    expect(failedBody.deliveries).toMatchObject([{ status: 200, ok: true }]);

    const paid = await fetch(`${standin.url}/_standin/payment_intents/${created.id}/succeed`, { method: "POST" });
    expect(((await paid.json()) as { payment_intent: Stripe.PaymentIntent }).payment_intent.status).toBe("succeeded");
    expect(verifiedEvents(from).map((e) => [e.type, e.account])).toEqual([
      ["payment_intent.payment_failed", account],
      ["payment_intent.succeeded", account],
    ]);
    expect(standin.paymentIntent(created.id)).toMatchObject({ status: "succeeded" });
  });

  it("answers 404 in Stripe's shape for an intent it does not have", async () => {
    const response = await fetch(`${standin.url}/_standin/payment_intents/pi_missing/succeed`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error", code: "resource_missing" } });
    await expect(standin.succeed("pi_missing")).rejects.toThrow("No such payment_intent");
  });
});

describe("Refunds through the stripe SDK", () => {
  /** A paid intent of `amount` on a new connected account. */
  async function paid(amount = 5000): Promise<{ account: string; intent: Stripe.PaymentIntent }> {
    const account = newAccount();
    const intent = await stripe.paymentIntents.create(
      { amount, currency: "eur", confirm: true, payment_method: "pm_card_visa", automatic_payment_methods: { enabled: true, allow_redirects: "never" } },
      { stripeAccount: account },
    );
    expect(intent.status).toBe("succeeded");
    return { account, intent };
  }

  it("refunds a succeeded intent in full on its connected account, once per idempotency key, and reads the refund back", async () => {
    const { account, intent } = await paid();
    const options = { stripeAccount: account, idempotencyKey: `refund-${intent.id}` };
    const refund = await stripe.refunds.create({ payment_intent: intent.id, metadata: { reservation_uuid: "r-9" } }, options);
    expect(refund).toMatchObject({
      id: expect.stringMatching(/^re_/),
      object: "refund",
      amount: 5000,
      currency: "eur",
      status: "succeeded",
      payment_intent: intent.id,
      charge: intent.latest_charge,
      metadata: { reservation_uuid: "r-9" },
      reason: null,
    });
    // A retry with the same key replays the same refund instead of refusing or refunding twice.
    expect((await stripe.refunds.create({ payment_intent: intent.id, metadata: { reservation_uuid: "r-9" } }, options)).id).toBe(refund.id);
    expect(standin.refunds().filter((r) => r.payment_intent === intent.id)).toHaveLength(1);
    expect(await stripe.refunds.retrieve(refund.id, {}, { stripeAccount: account })).toEqual(refund);
    // The intent itself stays succeeded, as on Stripe.
    expect((await stripe.paymentIntents.retrieve(intent.id, {}, { stripeAccount: account })).status).toBe("succeeded");

    const again = await failure(stripe.refunds.create({ payment_intent: intent.id }, { stripeAccount: account }));
    expect(again).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400, code: "charge_already_refunded" });
    const elsewhere = await failure(stripe.refunds.retrieve(refund.id, {}, { stripeAccount: newAccount() }));
    expect(elsewhere).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("refunds part of a charge named by its id, and refuses more than is left", async () => {
    const { account, intent } = await paid(3000);
    const part = await stripe.refunds.create(
      { charge: intent.latest_charge as string, amount: 1000, reason: "requested_by_customer" },
      { stripeAccount: account },
    );
    expect(part).toMatchObject({ amount: 1000, payment_intent: intent.id, reason: "requested_by_customer" });
    const tooMuch = await failure(stripe.refunds.create({ payment_intent: intent.id, amount: 2500 }, { stripeAccount: account }));
    expect(tooMuch).toMatchObject({ statusCode: 400, param: "amount" });
    expect((await stripe.refunds.create({ payment_intent: intent.id }, { stripeAccount: account })).amount).toBe(2000);
  });

  it("lists an intent's refunds in Stripe's list format, newest first, paged, on its own account only", async () => {
    const { account, intent } = await paid(3000);
    const first = await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 }, { stripeAccount: account });
    const second = await stripe.refunds.create({ payment_intent: intent.id, amount: 500 }, { stripeAccount: account });
    const other = await paid();
    await stripe.refunds.create({ payment_intent: other.intent.id }, { stripeAccount: other.account });

    const listed = await stripe.refunds.list({ payment_intent: intent.id }, { stripeAccount: account });
    expect(listed).toMatchObject({ object: "list", has_more: false, url: "/v1/refunds" });
    expect(listed.data).toEqual([second, first]);
    expect((await stripe.refunds.list({ charge: intent.latest_charge as string }, { stripeAccount: account })).data.map((r) => r.id)).toEqual([
      second.id,
      first.id,
    ]);
    const page = await stripe.refunds.list({ payment_intent: intent.id, limit: 1 }, { stripeAccount: account });
    expect(page).toMatchObject({ has_more: true, data: [{ id: second.id }] });
    expect(
      (await stripe.refunds.list({ payment_intent: intent.id, limit: 1, starting_after: second.id }, { stripeAccount: account })).data.map((r) => r.id),
    ).toEqual([first.id]);
    expect((await stripe.refunds.list({ payment_intent: intent.id, ending_before: first.id }, { stripeAccount: account })).data.map((r) => r.id)).toEqual([
      second.id,
    ]);
    // The SDK's auto-pagination walks the pages with starting_after.
    const all: string[] = [];
    for await (const refund of stripe.refunds.list({ payment_intent: intent.id, limit: 1 }, { stripeAccount: account })) all.push(refund.id);
    expect(all).toEqual([second.id, first.id]);

    expect(await failure(stripe.refunds.list({ payment_intent: intent.id }, { stripeAccount: newAccount() }))).toMatchObject({
      statusCode: 400,
      code: "resource_missing",
      param: "payment_intent",
    });
    expect(await failure(stripe.refunds.list({ limit: 101 }, { stripeAccount: account }))).toMatchObject({ statusCode: 400, param: "limit" });
    expect(await failure(client("pk_test_browser").refunds.list({ payment_intent: intent.id }))).toMatchObject({ statusCode: 403 });
  });

  it("refuses an intent that was not paid, one on another account, a missing target and unknown parameters", async () => {
    const account = newAccount();
    const open = await stripe.paymentIntents.create({ amount: 2000, currency: "eur" }, { stripeAccount: account });
    expect(await failure(stripe.refunds.create({ payment_intent: open.id }, { stripeAccount: account }))).toMatchObject({
      statusCode: 400,
      param: "payment_intent",
    });
    expect(await failure(stripe.refunds.create({ payment_intent: open.id }, { stripeAccount: newAccount() }))).toMatchObject({
      statusCode: 400,
      code: "resource_missing",
    });
    expect(await failure(stripe.refunds.create({}, { stripeAccount: account }))).toMatchObject({ statusCode: 400, code: "parameter_missing" });
    const { intent } = await paid();
    expect(
      await failure(stripe.refunds.create({ payment_intent: intent.id, customer: "cus_1" } as Stripe.RefundCreateParams, { stripeAccount: account })),
    ).toMatchObject({
      statusCode: 400,
      code: "parameter_unknown",
    });
    expect(await failure(client("pk_test_browser").refunds.create({ payment_intent: intent.id }))).toMatchObject({ statusCode: 403 });
  });
});
