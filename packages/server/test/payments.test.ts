import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { startStripeStandin, type StripeStandin } from "@booking/stripe-standin";
import type { EventTypeCreate } from "@booking/wire";
import type { ServerConfig } from "../src/config.ts";
import { STRIPE_WEBHOOK_PATH } from "../src/modules/payments/index.ts";
import { newStripeWebhookSecret, standinForSuite } from "./stripe-suite.ts";
import { closeAll, expectFailure, setup, type Answer, DEFAULT_HOST_ID } from "./utils.ts";

// Card payments through the real `stripe` SDK, pointed (by `config.stripe.apiBase`) at the local
// Stripe stand-in of @booking/stripe-standin: NOT Stripe, but it speaks Stripe's REST protocol and
// signs its webhook events as Stripe does. Storage is real SQLite.
//
// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague. The default event type
// offers 30-minute weekday slots 09:00-17:00 Prague with a video meeting, one seat and 10-minute holds.

/** Tuesday 2026-11-24 09:00-09:30 Prague, well inside the horizon and notice rules. */
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
/** Tuesday 2026-11-24 10:00-10:30 Prague. */
const TUE_1000 = { start: "2026-11-24T10:00:00+01:00", end: "2026-11-24T10:30:00+01:00" };

const ACCOUNT = "acct_1Organizer";
const PAID: Partial<EventTypeCreate> = { payment: { amount: 5000, currency: "eur", providerAccountId: ACCOUNT } };
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const MEET_LINK = /^https:\/\/meet\.jit\.si\/booking-[A-Za-z0-9_-]{16}$/;
const MISSING_UUID = "0b8a3a3e-6d1c-4f3e-9a55-2f7b6d1e9c01";
const WEBHOOK_SECRET = newStripeWebhookSecret();

/** Only used to sign test events, exactly as Stripe (and the stand-in) sign them; it makes no requests. */
const signer = new Stripe("sk_test_signer_only");

let standin!: StripeStandin;
standinForSuite(WEBHOOK_SECRET, (started) => (standin = started));

afterEach(() => {
  // A test that delivers webhooks points the stand-in at its own server; the next test starts without.
  standin.setWebhookUrl(null);
});

/** The platform's Stripe settings of an app that talks to the shared stand-in. */
function stripeSettings(change: Partial<ServerConfig["stripe"]> = {}): ServerConfig["stripe"] {
  return { secretKey: "sk_test_booking", publishableKey: "pk_test_booking", webhookSecret: WEBHOOK_SECRET, apiBase: standin.url, ...change };
}

let visitors = 0;

/** A ReservationInput for the slot, from a new visitor. */
function input(slot: { start: string; end: string } = TUE_0900): Record<string, unknown> {
  visitors++;
  return { ...slot, email: `visitor${visitors}@example.com`, firstname: "Ada", lastname: "Lovelace" };
}

/** A fresh app on fresh SQLite with one event type (paid unless `settings` says otherwise), and calls of its routes. */
async function world(settings: Partial<EventTypeCreate> = PAID, stripe: ServerConfig["stripe"] = stripeSettings(), client?: Stripe) {
  const env = await setup({ config: { ...NO_RATE_LIMIT, stripe }, ...(client ? { stripe: client } : {}) });
  const et = await env.eventType(settings);
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    env.call(method, path, { token: et.token, body, headers });
  return {
    ...env,
    et,
    prepare: (body: unknown = input()) => call("POST", "/reservations/prepare", body),
    pay: (uuid: string, body: unknown = { email: "payer@example.com" }, headers: Record<string, string> = {}) =>
      call("POST", `/reservations/${uuid}/payments`, body, headers),
    confirm: (uuid: string, body?: unknown) => call("POST", `/reservations/${uuid}/confirm`, body),
    cancel: (uuid: string) => call("DELETE", `/reservations/${uuid}`),
    /** POSTs a Stripe event body to the webhook route as Stripe would, with this Stripe-Signature (or none). */
    webhook: (payload: string, signature: string | null) =>
      env.call("POST", STRIPE_WEBHOOK_PATH, {
        rawBody: payload,
        headers: { "content-type": "application/json; charset=utf-8", ...(signature === null ? {} : { "stripe-signature": signature }) },
      }),
    /** The reservation as stored. */
    stored: async (uuid: string) => {
      const r = await env.store.reservations.byUuid(et.id, uuid);
      if (!r) throw new Error(`reservation ${uuid} is not stored`);
      return r;
    },
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** Prepares a hold and answers its uuid. */
async function held(w: World, body: unknown = input()): Promise<string> {
  const r = await w.prepare(body);
  expect(r.status).toBe(200);
  expect(r.body.success).toBe(true);
  return r.body.data.uuid;
}

/** Starts paying a held reservation and answers the PaymentIntent id. */
async function paying(w: World, uuid: string, body?: unknown): Promise<string> {
  const r = await w.pay(uuid, body);
  expect(r.status).toBe(200);
  expect(r.body.success).toBe(true);
  return r.body.data.paymentIntentId;
}

/** A Stripe client of the platform's own, acting beside the booking server (as the organizer's dashboard would). */
function dashboard(): Stripe {
  return new Stripe("sk_test_booking", { host: standin.host, port: standin.port, protocol: "http", maxNetworkRetries: 0 });
}

/** Every intent in the stand-in created for this reservation. */
function intentsOf(uuid: string) {
  return standin.intents().filter((i) => i.metadata.reservation_uuid === uuid);
}

/** Serves the app on a real local port and points the stand-in's webhooks at its Stripe route. */
function listening(w: World): { stop: () => Promise<void> } {
  w.app.listen({ port: 0, hostname: "127.0.0.1" });
  standin.setWebhookUrl(`http://127.0.0.1:${w.app.server!.port}${STRIPE_WEBHOOK_PATH}`);
  return {
    stop: async () => {
      standin.setWebhookUrl(null);
      await w.app.stop(true);
    },
  };
}

let events = 0;

/** A Stripe event body as Stripe sends it (pretty-printed), about the stand-in's intent as it is now, changed by `intent`. */
function eventPayload(type: string, intentId: string, options: { intent?: Record<string, unknown>; account?: string | null } = {}): string {
  const current = standin.paymentIntent(intentId);
  if (!current) throw new Error(`no intent ${intentId} in the stand-in`);
  events++;
  const account = options.account === undefined ? ACCOUNT : options.account;
  const event = {
    id: `evt_test${events}`,
    object: "event",
    ...(account === null ? {} : { account }),
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object: { ...current, ...options.intent } },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  return JSON.stringify(event, null, 2);
}

/** An intent as a `payment_intent.succeeded` event reports it, whatever the stand-in says. */
const SUCCEEDED = { status: "succeeded", amount_received: 5000 };

/** Signs the payload as Stripe does, with the given secret and timestamp (now by default). */
function sign(payload: string, secret = WEBHOOK_SECRET, timestamp?: number): Promise<string> {
  return signer.webhooks.generateTestHeaderStringAsync({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) });
}

/** Asserts the spec's full error body (part 7) with this status and code. */
function expectError(r: Answer, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body).toEqual({
    success: false,
    status,
    code,
    message: expect.any(String),
    hint: expect.any(String),
    docs: `http://localhost/docs#error-${code}`,
    ...(code === "validation_failed" ? { errors: expect.any(Object), fieldErrors: expect.any(Array) } : {}),
  });
  if (code === "validation_failed") {
    // The coded list says the same as `errors`, message for message.
    const errors = (r.body as { errors: Record<string, string[]> }).errors;
    const coded = (r.body as { fieldErrors: { field: string; code: string; message: string }[] }).fieldErrors;
    expect(coded.map((f) => [f.field, f.message]).sort()).toEqual(
      Object.entries(errors)
        .flatMap(([field, messages]) => messages.map((m) => [field, m]))
        .sort(),
    );
    for (const f of coded) expect(f.code).toMatch(/^[a-z_]+$/);
  }
}

describe("POST /reservations/{uuid}/payments", () => {
  it("creates a PaymentIntent on the organizer's connected account for the event type's price and answers its client secret", async () => {
    const w = await world();
    const uuid = await held(w);
    const r = await w.pay(uuid, { email: "payer@example.com", name: "Ada Lovelace" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      data: {
        clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
        paymentIntentId: expect.stringMatching(/^pi_/),
        providerAccountId: ACCOUNT,
        amount: 5000,
      },
    });
    const { paymentIntentId, clientSecret } = r.body.data;
    const intent = standin.paymentIntent(paymentIntentId);
    expect(intent).toMatchObject({
      id: paymentIntentId,
      client_secret: clientSecret,
      amount: 5000,
      currency: "eur",
      status: "requires_payment_method",
      receipt_email: "payer@example.com",
      metadata: { reservation_uuid: uuid, event_type_id: String(w.et.id) },
    });
    // The intent lives on the connected account: the platform itself cannot see it.
    await expect(dashboard().paymentIntents.retrieve(paymentIntentId)).rejects.toMatchObject({ statusCode: 404, code: "resource_missing" });
    await expect(dashboard().paymentIntents.retrieve(paymentIntentId, {}, { stripeAccount: ACCOUNT })).resolves.toMatchObject({
      id: paymentIntentId,
      amount: 5000,
    });

    const stored = await w.stored(uuid);
    expect(stored.status).toBe("held");
    expect(stored.payment).toMatchObject({
      intentId: paymentIntentId,
      account: ACCOUNT,
      amount: 5000,
      currency: "eur",
      status: "pending",
      succeededAtMs: null,
    });
    await closeAll(w.store);
  });

  it("reuses the same intent when the visitor asks again while it is still payable", async () => {
    const w = await world();
    const uuid = await held(w);
    const first = await w.pay(uuid);
    expect(first.status).toBe(200);
    w.clock.advance(2);
    const second = await w.pay(uuid, { email: "ada@example.com", name: "Ada Lovelace" });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(intentsOf(uuid).map((i) => i.id)).toEqual([first.body.data.paymentIntentId]);
    // The receipt follows the address given last.
    expect(standin.paymentIntent(first.body.data.paymentIntentId)!.receipt_email).toBe("ada@example.com");
    expect((await w.stored(uuid)).payment).toMatchObject({ intentId: first.body.data.paymentIntentId, status: "pending" });
    await closeAll(w.store);
  });

  it("books and pays for jürgen@example.de end to end, sending Stripe no receipt address it would refuse", async () => {
    const w = await world();
    const uuid = await held(w, { ...input(), email: "jürgen@example.de" });
    const intentId = await paying(w, uuid, { email: "jürgen@example.de" });
    // Stripe refuses addresses outside ASCII (the stand-in too): the intent goes without a receipt address.
    expect(standin.paymentIntent(intentId)!.receipt_email).toBeNull();
    // A domain outside ASCII goes in its punycode spelling; back to jürgen, the receipt address is unset.
    await paying(w, uuid, { email: "ada@münchen.de" });
    expect(standin.paymentIntent(intentId)!.receipt_email).toBe("ada@xn--mnchen-3ya.de");
    await paying(w, uuid, { email: "jürgen@example.de" });
    expect(standin.paymentIntent(intentId)!.receipt_email).toBeNull();
    expect(intentsOf(uuid).map((i) => i.id)).toEqual([intentId]);

    await standin.succeed(intentId);
    const r = await w.confirm(uuid);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    // The answer names the booking's host (the default host, unnamed here); the visitor's address is stored as given.
    expect(r.body.data).toMatchObject({ userId: DEFAULT_HOST_ID, userEmail: null });
    expect(await w.stored(uuid)).toMatchObject({
      status: "confirmed",
      email: "jürgen@example.de",
      payment: { intentId, status: "succeeded", billing: { email: "jürgen@example.de" } },
    });
    await closeAll(w.store);
  });

  it("stores the billing details the visitor sent with the payment", async () => {
    const w = await world();
    const uuid = await held(w);
    const billing = {
      email: "billing@example.com",
      name: "Ada Lovelace",
      company: "Analytical Engines s.r.o.",
      street: "Na Příkopě 1",
      city: "Praha",
      postalCode: "110 00",
      country: "CZ",
      taxId: "CZ12345678",
      crn: "12345678",
    };
    await paying(w, uuid, billing);
    expect((await w.stored(uuid)).payment!.billing).toEqual(billing);
    // A later request with other details replaces them.
    await paying(w, uuid, { email: "accounts@example.com", company: "Difference Engines a.s." });
    expect((await w.stored(uuid)).payment!.billing).toEqual({ email: "accounts@example.com", company: "Difference Engines a.s." });
    await closeAll(w.store);
  });

  it("takes the amount only from the event type: a client's amount or currency is refused, and a new price makes a new intent", async () => {
    const w = await world();
    const uuid = await held(w);
    // The body has no amount: a client that sends one anyway is told so, and nothing is created.
    const tampered = await w.pay(uuid, { email: "payer@example.com", amount: 1, currency: "usd" });
    expectError(tampered, 422, "validation_failed");
    expect(Object.keys(tampered.body.errors).sort()).toEqual(["amount", "currency"]);
    expect(intentsOf(uuid)).toEqual([]);
    expect((await w.stored(uuid)).payment).toBeNull();

    const first = await paying(w, uuid);
    expect(standin.paymentIntent(first)).toMatchObject({ amount: 5000, currency: "eur" });

    // The organizer changes the price while the visitor is paying: the old intent no longer fits.
    const patched = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { payment: { amount: 7000, currency: "EUR", providerAccountId: ACCOUNT } });
    expect(patched.status).toBe(200);
    const r = await w.pay(uuid);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ amount: 7000, providerAccountId: ACCOUNT });
    expect(r.body.data.paymentIntentId).not.toBe(first);
    expect(standin.paymentIntent(r.body.data.paymentIntentId)).toMatchObject({ amount: 7000, currency: "eur", metadata: { reservation_uuid: uuid } });
    expect((await w.stored(uuid)).payment).toMatchObject({ intentId: r.body.data.paymentIntentId, amount: 7000, currency: "eur", status: "pending" });
    // The replaced intent is cancelled, so a page still open on it cannot take money no reservation counts.
    expect(standin.paymentIntent(first)!.status).toBe("canceled");
    await closeAll(w.store);
  });

  it.each([
    ["recorded from the webhook", true],
    ["not yet reported by the webhook", false],
  ])("keeps a payment that went through (%s) when the visitor asks again after the price changed", async (_name, reported) => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    await standin.succeed(intentId);
    if (reported) {
      const payload = eventPayload("payment_intent.succeeded", intentId);
      expect((await w.webhook(payload, await sign(payload))).status).toBe(200);
    }
    const paidAt = w.clock.now();
    expect((await w.stored(uuid)).payment!.status).toBe(reported ? "succeeded" : "pending");

    w.clock.advance(3);
    const patched = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, {
      payment: { amount: 7000, currency: "eur", providerAccountId: "acct_2NewAccount" },
    });
    expect(patched.status).toBe(200);
    const r = await w.pay(uuid);
    expect(r.status).toBe(200);
    // The intent that was paid, on the account and for the amount it was paid with: nothing more to pay.
    expect(r.body.data).toEqual({
      clientSecret: standin.paymentIntent(intentId)!.client_secret,
      paymentIntentId: intentId,
      providerAccountId: ACCOUNT,
      amount: 5000,
    });
    expect(intentsOf(uuid).map((i) => i.id)).toEqual([intentId]);
    expect((await w.stored(uuid)).payment).toMatchObject({
      intentId,
      account: ACCOUNT,
      amount: 5000,
      currency: "eur",
      status: "succeeded",
      // When it was first known to have succeeded, not when the visitor asked again.
      succeededAtMs: reported ? paidAt : w.clock.now(),
    });
    expect((await w.confirm(uuid)).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("replays the first answer for a retry with the same Idempotency-Key and body, without touching Stripe or the reservation", async () => {
    const w = await world();
    const uuid = await held(w);
    const body = { email: "payer@example.com", name: "Ada Lovelace" };
    const first = await w.pay(uuid, body, { "idempotency-key": "pay-once-1" });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const before = await w.stored(uuid);
    w.clock.advance(1);

    const retry = await w.pay(uuid, body, { "idempotency-key": "pay-once-1" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(intentsOf(uuid)).toHaveLength(1);
    expect(await w.stored(uuid)).toEqual(before);

    const other = await w.pay(uuid, { email: "someone-else@example.com" }, { "idempotency-key": "pay-once-1" });
    expectError(other, 422, "validation_failed");
    expect(Object.keys(other.body.errors)).toEqual(["Idempotency-Key"]);
    await closeAll(w.store);
  });
});

describe("payments that cannot be made", () => {
  it("answers 400 provider_not_configured for a free event type and records nothing", async () => {
    const w = await world({});
    const uuid = await held(w);
    const r = await w.pay(uuid);
    expectError(r, 400, "provider_not_configured");
    expect((await w.stored(uuid)).payment).toBeNull();
    expect(intentsOf(uuid)).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 400 provider_not_configured for a paid event type on a server without a Stripe secret key", async () => {
    const w = await world(PAID, stripeSettings({ secretKey: null, webhookSecret: null, apiBase: null }));
    const uuid = await held(w);
    const r = await w.pay(uuid);
    expectError(r, 400, "provider_not_configured");
    expect((await w.stored(uuid)).payment).toBeNull();
    await closeAll(w.store);
  });

  it("answers 400 provider_not_configured when Stripe refuses the event type's account, leaving the reservation exactly as it was", async () => {
    // Only the admin API's schema checks the id's form, so the organizer service stores this one as given.
    // Stripe answers an account the platform cannot act for with 403 account_invalid, and so does the stand-in.
    const w = await world({ payment: { amount: 5000, currency: "eur", providerAccountId: "acct_not-a-real-id" } });
    const uuid = await held(w);
    const before = await w.stored(uuid);
    const r = await w.pay(uuid);
    expectError(r, 400, "provider_not_configured");
    expect(await w.stored(uuid)).toEqual(before);
    expect(intentsOf(uuid)).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 422 invalid_email when Stripe refuses the receipt address anyway, keeping the hold for another address", async () => {
    const refused = "ada@exa_mple.org";
    // The real SDK on the stand-in, except that Stripe's answer to this one address is its refusal
    // (Stripe's own address rules are not published, so the stand-in cannot know them all).
    const client = new Stripe("sk_test_booking", {
      host: standin.host,
      port: standin.port,
      protocol: "http",
      maxNetworkRetries: 0,
      httpClient: Stripe.createFetchHttpClient((async (url: string, init?: RequestInit) => {
        if (new URLSearchParams(String(init?.body ?? "")).get("receipt_email") === refused) {
          const error = { type: "invalid_request_error", code: "email_invalid", param: "receipt_email", message: `Invalid email address: ${refused}` };
          return Response.json({ error }, { status: 400 });
        }
        return fetch(url, init);
      }) as typeof fetch),
    });
    const w = await world(PAID, stripeSettings(), client);
    const uuid = await held(w);
    const before = await w.stored(uuid);
    const r = await w.pay(uuid, { email: refused });
    expectError(r, 422, "validation_failed");
    expect(r.body.fieldErrors).toEqual([{ field: "email", code: "invalid_email", message: expect.any(String) }]);
    expect(await w.stored(uuid)).toEqual(before);
    expect(intentsOf(uuid)).toEqual([]);
    // Refused on an update of the intent too.
    const intentId = await paying(w, uuid, { email: "ada@example.org" });
    expectError(await w.pay(uuid, { email: refused }), 422, "validation_failed");
    expect(standin.paymentIntent(intentId)!.receipt_email).toBe("ada@example.org");
    expect((await w.stored(uuid)).status).toBe("held");
    await closeAll(w.store);
  });

  it("refuses a payer email with control characters with 422 invalid_email before asking Stripe", async () => {
    const w = await world();
    const uuid = await held(w);
    for (const email of ["ada\u0000@example.org", "ada\u0085@example.org", "ada@exa\u007fmple.org"]) {
      const r = await w.pay(uuid, { email });
      expectError(r, 422, "validation_failed");
      expect(r.body.fieldErrors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`)).toEqual(["email invalid_email"]);
    }
    expect(intentsOf(uuid)).toEqual([]);
    await closeAll(w.store);
  });

  it("answers 500 internal_error when Stripe cannot be reached, and changes nothing", async () => {
    // A stand-in of this test's own, stopped half-way: its port no longer answers, as when Stripe is unreachable.
    const flaky = await startStripeStandin({ port: 0, webhookSecret: WEBHOOK_SECRET });
    const w = await world(PAID, stripeSettings({ apiBase: flaky.url }));
    const paid = await held(w);
    const intentId = await paying(w, paid);
    const unpaid = await held(w, input(TUE_1000));
    await flaky.stop();

    const before = await w.stored(paid);
    expectError(await w.pay(paid), 500, "internal_error");
    expect(await w.stored(paid)).toEqual(before);
    expect(before.payment).toMatchObject({ intentId, status: "pending" });
    // Confirm has to ask Stripe about the recorded intent, and cannot: the reservation stays held.
    expectError(await w.confirm(paid), 500, "internal_error");
    expect(await w.stored(paid)).toEqual(before);

    const fresh = await w.stored(unpaid);
    expectError(await w.pay(unpaid), 500, "internal_error");
    expect(await w.stored(unpaid)).toEqual(fresh);
    expect(fresh.payment).toBeNull();
    expect(w.logs.some((l) => l.level === "error" && l.message === "Stripe request failed")).toBe(true);
    await closeAll(w.store);
  });

  it.each([
    { state: "confirmed", reservation: "a confirmed reservation" },
    { state: "cancelled", reservation: "a cancelled reservation" },
    { state: "expired", reservation: "an expired hold" },
  ] as const)("answers HTTP 200 success false reservation_finished for $reservation and creates no intent", async ({ state }) => {
    const w = await world();
    const uuid = await held(w);
    if (state === "confirmed") {
      const intentId = await paying(w, uuid);
      await standin.succeed(intentId);
      expect((await w.confirm(uuid)).body.success).toBe(true);
    } else if (state === "cancelled") {
      expect((await w.cancel(uuid)).body.success).toBe(true);
    } else {
      w.clock.advance(10); // the 10-minute hold has ended
    }
    const intentsBefore = intentsOf(uuid).map((i) => i.id);
    const before = await w.stored(uuid);
    expectFailure(await w.pay(uuid), "reservation_finished");
    expect(intentsOf(uuid).map((i) => i.id)).toEqual(intentsBefore);
    expect(await w.stored(uuid)).toEqual(before);
    await closeAll(w.store);
  });

  it("answers 404 not_found for an unknown uuid, a malformed one and another event type's reservation", async () => {
    const w = await world();
    const other = await w.eventType(PAID);
    const foreign = await w.call("POST", "/reservations/prepare", { token: other.token, body: input(TUE_1000) });
    expect(foreign.body.success).toBe(true);
    for (const uuid of [MISSING_UUID, "not-a-uuid", foreign.body.data.uuid]) {
      expectError(await w.pay(uuid), 404, "not_found");
    }
    expect((await w.store.reservations.byUuid(other.id, foreign.body.data.uuid))!.payment).toBeNull();
    expect(intentsOf(foreign.body.data.uuid)).toEqual([]);
    await closeAll(w.store);
  });

  it.each([
    ["no email", { name: "Ada Lovelace" }, ["email"]],
    ["an email that is not one", { email: "ada at example" }, ["email"]],
    ["a lower-case country code", { email: "payer@example.com", country: "cz" }, ["country"]],
    ["a three-letter country code", { email: "payer@example.com", country: "CZE" }, ["country"]],
    ["a wrong email and country together", { email: "nope", country: "Czechia" }, ["country", "email"]],
  ])("answers 422 validation_failed keyed by field for %s, creating no intent", async (_name, body, fields) => {
    const w = await world();
    const uuid = await held(w);
    const r = await w.pay(uuid, body);
    expectError(r, 422, "validation_failed");
    expect(Object.keys(r.body.errors).sort()).toEqual(fields);
    for (const field of fields) expect(r.body.errors[field]).toEqual([expect.any(String)]);
    expect((await w.stored(uuid)).payment).toBeNull();
    expect(intentsOf(uuid)).toEqual([]);
    await closeAll(w.store);
  });
});

describe("confirming a paid reservation", () => {
  it("answers 422 payment_required before any payment and keeps the hold", async () => {
    const w = await world();
    const uuid = await held(w);
    expectError(await w.confirm(uuid), 422, "payment_required");
    await paying(w, uuid);
    // An intent alone is not a payment.
    expectError(await w.confirm(uuid), 422, "payment_required");
    const stored = await w.stored(uuid);
    expect(stored).toMatchObject({ status: "held", confirmedAtMs: null, meetLink: null, payment: { status: "pending" } });
    await closeAll(w.store);
  });

  it("refuses to let go of a hold whose payment went through, so the visitor's money and booking stay together; an unpaid one may go", async () => {
    const w = await world();
    const paid = await held(w);
    const intentId = await paying(w, paid);
    await standin.succeed(intentId);
    const payload = eventPayload("payment_intent.succeeded", intentId);
    expect((await w.webhook(payload, await sign(payload))).status).toBe(200);
    expectError(await w.cancel(paid), 403, "forbidden");
    expect(await w.stored(paid)).toMatchObject({ status: "held", cancelledAtMs: null, payment: { status: "succeeded" } });
    expect((await w.confirm(paid)).body.success).toBe(true);

    const unpaid = await held(w, input(TUE_1000));
    await paying(w, unpaid);
    const letGo = await w.cancel(unpaid);
    expect(letGo.status).toBe(200);
    expect((await w.stored(unpaid)).status).toBe("cancelled");
    await closeAll(w.store);
  });

  it("cancels the PaymentIntent of an unpaid hold that is let go, so a page still open on it cannot pay for a seat that is gone", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    expect((await w.cancel(uuid)).status).toBe(200);
    expect(standin.paymentIntent(intentId)!.status).toBe("canceled");
    await expect(dashboard().paymentIntents.confirm(intentId, { payment_method: "pm_card_visa" }, { stripeAccount: ACCOUNT })).rejects.toMatchObject({
      code: "payment_intent_unexpected_state",
    });
    expect(await w.stored(uuid)).toMatchObject({ status: "cancelled", payment: { intentId, status: "pending" } });
    // Letting it go again changes nothing, at Stripe or here.
    expect((await w.cancel(uuid)).status).toBe(200);
    expect(standin.paymentIntent(intentId)!.status).toBe("canceled");
    await closeAll(w.store);
  });

  it("still lets an unpaid hold go when Stripe cannot be reached, and says so in the log", async () => {
    const flaky = await startStripeStandin({ port: 0, webhookSecret: WEBHOOK_SECRET });
    const w = await world(PAID, stripeSettings({ apiBase: flaky.url }));
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    await flaky.stop();
    expect((await w.cancel(uuid)).status).toBe(200);
    expect(await w.stored(uuid)).toMatchObject({ status: "cancelled", payment: { intentId, status: "pending" } });
    expect(w.logs.some((l) => l.level === "warn" && l.message === `could not cancel payment intent ${intentId} of a released hold`)).toBe(true);
    await closeAll(w.store);
  });

  it("asks Stripe before the visitor lets go of a hold whose payment went through unreported: the success is recorded, the hold kept, and confirm books", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    // Paid at Stripe; its webhook has not arrived (none is delivered here).
    await standin.succeed(intentId);
    expect((await w.stored(uuid)).payment).toMatchObject({ status: "pending" });
    expectError(await w.cancel(uuid), 403, "forbidden");
    expect(standin.paymentIntent(intentId)!.status).toBe("succeeded");
    expect(await w.stored(uuid)).toMatchObject({ status: "held", cancelledAtMs: null, payment: { intentId, status: "succeeded" } });
    expect((await w.confirm(uuid)).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("confirms with a meeting link once Stripe's signed webhook reported the payment to the listening server", async () => {
    const w = await world();
    const server = listening(w);
    try {
      const uuid = await held(w, { ...input(), email: "ada@example.com", location: { type: "video-meet" } });
      const intentId = await paying(w, uuid);
      expectError(await w.confirm(uuid), 422, "payment_required");

      await standin.succeed(intentId);
      await standin.settled();
      const delivery = standin
        .deliveries()
        .filter((d) => d.type === "payment_intent.succeeded")
        .at(-1);
      expect(delivery).toMatchObject({ account: ACCOUNT, status: 200, ok: true });
      // Recorded by the webhook itself, before anyone confirms.
      expect((await w.stored(uuid)).payment).toMatchObject({ intentId, status: "succeeded", succeededAtMs: w.clock.now() });
      expect(w.logs.some((l) => l.message === `payment ${intentId} succeeded for reservation ${uuid}`)).toBe(true);

      const r = await w.confirm(uuid);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        success: true,
        data: {
          uuid,
          userId: DEFAULT_HOST_ID,
          userName: null,
          userEmail: null,
          meetLink: expect.stringMatching(MEET_LINK),
          location: { type: "video-meet", value: null },
          manageUrl: null,
        },
      });
      expect(await w.stored(uuid)).toMatchObject({ status: "confirmed", heldUntilMs: null, meetLink: r.body.data.meetLink, payment: { status: "succeeded" } });
    } finally {
      await server.stop();
    }
    await closeAll(w.store);
  });

  it("confirms by asking Stripe itself when the webhook has not arrived", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    await standin.succeed(intentId);
    expect(
      standin
        .deliveries()
        .filter((d) => d.type === "payment_intent.succeeded")
        .at(-1),
    ).toMatchObject({ url: null, status: null });
    expect((await w.stored(uuid)).payment!.status).toBe("pending");

    const r = await w.confirm(uuid);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.meetLink).toMatch(MEET_LINK);
    expect(await w.stored(uuid)).toMatchObject({ status: "confirmed", payment: { intentId, status: "succeeded" } });
    await closeAll(w.store);
  });

  it("keeps a declined payment's reservation held, and the visitor can pay again with the same intent and then confirm", async () => {
    const w = await world();
    const server = listening(w);
    try {
      const uuid = await held(w);
      const intentId = await paying(w, uuid);
      await standin.fail(intentId, "insufficient_funds");
      expect(
        standin
          .deliveries()
          .filter((d) => d.type === "payment_intent.payment_failed")
          .at(-1),
      ).toMatchObject({ status: 200, ok: true });
      expect(await w.stored(uuid)).toMatchObject({ status: "held", payment: { intentId, status: "failed" } });
      expectError(await w.confirm(uuid), 422, "payment_required");
      expect((await w.stored(uuid)).status).toBe("held");

      // The declined intent went back to requires_payment_method, so the visitor retries on it.
      const again = await w.pay(uuid);
      expect(again.status).toBe(200);
      expect(again.body.data.paymentIntentId).toBe(intentId);
      expect((await w.stored(uuid)).payment).toMatchObject({ intentId, status: "pending" });

      await standin.succeed(intentId);
      expect((await w.stored(uuid)).payment!.status).toBe("succeeded");
      expect((await w.confirm(uuid)).body).toMatchObject({ success: true, data: { uuid } });
    } finally {
      await server.stop();
    }
    await closeAll(w.store);
  });

  it("asks for a new intent when the old one can no longer be paid", async () => {
    const w = await world();
    const uuid = await held(w);
    const first = await paying(w, uuid);
    await dashboard().paymentIntents.cancel(first, {}, { stripeAccount: ACCOUNT });

    const second = await paying(w, uuid);
    expect(second).not.toBe(first);
    expect(standin.paymentIntent(second)).toMatchObject({
      status: "requires_payment_method",
      amount: 5000,
      currency: "eur",
      metadata: { reservation_uuid: uuid },
    });
    expect((await w.stored(uuid)).payment).toMatchObject({ intentId: second, status: "pending" });
    await closeAll(w.store);
  });

  it("does not count a payment whose amount was changed at Stripe, and the visitor pays the full price on a new intent", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    await dashboard().paymentIntents.update(intentId, { amount: 100 }, { stripeAccount: ACCOUNT });
    await standin.succeed(intentId);
    expect(standin.paymentIntent(intentId)).toMatchObject({ status: "succeeded", amount: 100 });

    expectError(await w.confirm(uuid), 422, "payment_required");
    expect(await w.stored(uuid)).toMatchObject({ status: "held", payment: { intentId, status: "pending" } });
    const again = await paying(w, uuid);
    expect(again).not.toBe(intentId);
    expect(standin.paymentIntent(again)).toMatchObject({ amount: 5000, currency: "eur", status: "requires_payment_method" });
    expect((await w.stored(uuid)).payment).toMatchObject({ intentId: again, amount: 5000, status: "pending" });
    await closeAll(w.store);
  });
});

describe("POST /webhooks/stripe", () => {
  it("verifies a correctly signed payment_intent.succeeded event and records the payment", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    const payload = eventPayload("payment_intent.succeeded", intentId, { intent: SUCCEEDED });
    const r = await w.webhook(payload, await sign(payload));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ received: true });
    expect((await w.stored(uuid)).payment).toMatchObject({ intentId, status: "succeeded", succeededAtMs: w.clock.now() });
    // The webhook alone is enough to confirm (the stand-in itself was never paid here).
    expect((await w.confirm(uuid)).body.success).toBe(true);
    await closeAll(w.store);
  });

  it.each([
    ["signed with another secret", async (payload: string) => ({ payload, signature: await sign(payload, "whsec_someone_else") })],
    [
      "changed after signing",
      async (payload: string) => ({ payload: payload.replace('"livemode": false', '"livemode": true'), signature: await sign(payload) }),
    ],
    ["without a Stripe-Signature header", async (payload: string) => ({ payload, signature: null })],
    [
      "signed ten minutes ago, beyond the five-minute tolerance",
      async (payload: string) => ({ payload, signature: await sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600) }),
    ],
  ])("answers 400 bad_request for an event %s and records nothing", async (_name, forge) => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    const before = await w.stored(uuid);
    const original = eventPayload("payment_intent.succeeded", intentId, { intent: SUCCEEDED });
    const { payload, signature } = await forge(original);
    expect(payload).toContain(intentId);
    const r = await w.webhook(payload, signature);
    expectError(r, 400, "bad_request");
    expect(await w.stored(uuid)).toEqual(before);
    await closeAll(w.store);
  });

  it.each([
    ["for another connected account", { account: "acct_2Somebody" }],
    ["for the platform account instead of the connected one", { account: null }],
    ["for a smaller amount than asked", { intent: { ...SUCCEEDED, amount: 100, amount_received: 100 } }],
    ["in another currency than asked", { intent: { ...SUCCEEDED, currency: "usd" } }],
    ["naming another reservation in its metadata", { intent: { ...SUCCEEDED, metadata: { reservation_uuid: MISSING_UUID } } }],
  ] as const)("acknowledges but ignores a signed success %s: the payment stays pending and confirm still asks for it", async (_name, change) => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    const payload = eventPayload("payment_intent.succeeded", intentId, { intent: SUCCEEDED, ...change });
    const r = await w.webhook(payload, await sign(payload));
    expect(r.status).toBe(200);
    expect((await w.stored(uuid)).payment).toMatchObject({ intentId, status: "pending", succeededAtMs: null });
    expect(w.logs.some((l) => l.level === "warn")).toBe(true);
    expectError(await w.confirm(uuid), 422, "payment_required");
    expect((await w.stored(uuid)).status).toBe("held");
    await closeAll(w.store);
  });

  it("acknowledges an event type it does not handle and changes nothing", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    const before = await w.stored(uuid);
    const payload = eventPayload("payment_intent.amount_capturable_updated", intentId, { intent: SUCCEEDED });
    const r = await w.webhook(payload, await sign(payload));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ received: true });
    expect(await w.stored(uuid)).toEqual(before);
    await closeAll(w.store);
  });

  it("acknowledges an event about an intent no reservation knows and changes nothing", async () => {
    const w = await world();
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    const before = await w.stored(uuid);
    const payload = eventPayload("payment_intent.succeeded", intentId, { intent: { ...SUCCEEDED, id: "pi_NobodysIntent" } });
    const r = await w.webhook(payload, await sign(payload));
    expect(r.status).toBe(200);
    expect(await w.stored(uuid)).toEqual(before);
    await closeAll(w.store);
  });

  it("answers 404 not_found as JSON when the server has no webhook secret, even for a paid event type", async () => {
    const w = await world(PAID, stripeSettings({ webhookSecret: null }));
    const uuid = await held(w);
    const intentId = await paying(w, uuid);
    const before = await w.stored(uuid);
    const payload = eventPayload("payment_intent.succeeded", intentId, { intent: SUCCEEDED });
    const r = await w.webhook(payload, await sign(payload));
    expectError(r, 404, "not_found");
    expect(await w.stored(uuid)).toEqual(before);
    await closeAll(w.store);
  });
});
