import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import type { StripeStandin } from "@booking/stripe-standin";
import { newStripeWebhookSecret, standinForSuite } from "./stripe-suite.ts";
import { DEFAULT_CONFIG } from "../src/config.ts";
import { STRIPE_WEBHOOK_PATH } from "../src/modules/payments/index.ts";
import { PaymentService } from "../src/modules/payments/service.ts";
import { StripeProvider } from "../src/modules/payments/stripe.ts";
import { ReservationService } from "../src/modules/reservations/service.ts";
import { ENGINE, closeAll, expectFailure, reservation, setup, hostOf } from "./utils.ts";

// Seats of paid holds, through the real `stripe` SDK against the local Stripe stand-in (NOT Stripe),
// on the suite's engine: a claim is judged at the instant of its write, a paid hold keeps its seat
// past its hold time, and a payment that succeeds after its seat was given away is refunded.
//
// The clock of setup() starts on Monday 2026-11-23T07:00:00Z; the event type offers 30-minute weekday
// slots 09:00-17:00 Prague, one seat, 10-minute holds.

const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const TUE_0930 = { start: "2026-11-24T09:30:00+01:00", end: "2026-11-24T10:00:00+01:00" };
const ACCOUNT = "acct_1SeatsOrganizer";
const WEBHOOK_SECRET = newStripeWebhookSecret();
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
/** The organizer's webhook receiver; nothing listens there (no worker runs here): the outbox is what is checked. */
const ORGANIZER_HOOK = "http://127.0.0.1:9/booking-events";
const signer = new Stripe("sk_test_signer_only");

let standin!: StripeStandin;
standinForSuite(WEBHOOK_SECRET, (started) => (standin = started));

/**
 * The platform's Stripe client, the real SDK on the stand-in, whose answers about one intent can be
 * held back: `slowAnswer(id)` lets the next GET of that intent reach Stripe, then keeps its answer
 * until released, as a slow Stripe would. `refundsDown` makes refund calls fail to connect
 * (`refundsDownFor` those of the given intents only), `cancelDown` cancelling an intent,
 * `refundsPending` makes Stripe list refunds as still pending, and
 * `reportStatus` makes Stripe report an intent in another status (the stand-in cannot keep one
 * `processing`).
 */
function slowStripe() {
  let gate: { path: string; reached: () => void; released: Promise<void> } | null = null;
  const reported = new Map<string, string>();
  const faults = { refundsDown: false, refundsDownFor: new Set<string>(), cancelDown: false, refundsPending: false };
  const stripe = new Stripe("sk_test_booking", {
    host: standin.host,
    port: standin.port,
    protocol: "http",
    maxNetworkRetries: 0,
    httpClient: Stripe.createFetchHttpClient((async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = init?.method ?? "GET";
      if (
        url.pathname === "/v1/refunds" &&
        method === "POST" &&
        (faults.refundsDown || [...faults.refundsDownFor].some((id) => String(init?.body).includes(id)))
      ) {
        throw new TypeError("fetch failed: connection refused");
      }
      if (faults.cancelDown && url.pathname.endsWith("/cancel")) throw new TypeError("fetch failed: connection refused");
      let response = await fetch(input, init);
      if (faults.refundsPending && url.pathname === "/v1/refunds" && method === "GET") {
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        const list = await response.json();
        response = new Response(JSON.stringify({ ...list, data: list.data.map((r: object) => ({ ...r, status: "pending" })) }), {
          status: response.status,
          headers,
        });
      }
      const status = reported.get(url.pathname);
      if (status && (init?.method ?? "GET") === "GET") {
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        response = new Response(JSON.stringify({ ...(await response.json()), status }), { status: response.status, headers });
      }
      const held = gate;
      if (held && (init?.method ?? "GET") === "GET" && url.pathname === held.path) {
        gate = null;
        held.reached();
        await held.released;
      }
      return response;
    }) as typeof fetch),
  });
  return {
    stripe,
    faults,
    reportStatus: (intentId: string, status: string | null) =>
      status ? reported.set(`/v1/payment_intents/${intentId}`, status) : reported.delete(`/v1/payment_intents/${intentId}`),
    slowAnswer(intentId: string) {
      let reached!: () => void;
      let release!: () => void;
      const reachedStripe = new Promise<void>((resolve) => (reached = resolve));
      gate = { path: `/v1/payment_intents/${intentId}`, reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reachedStripe, release };
    },
  };
}

let visitors = 0;

async function world() {
  const slow = slowStripe();
  const env = await setup({
    config: {
      ...NO_RATE_LIMIT,
      stripe: { secretKey: "sk_test_booking", publishableKey: "pk_test_booking", webhookSecret: WEBHOOK_SECRET, apiBase: standin.url },
    },
    stripe: slow.stripe,
  });
  const et = await env.eventType({ payment: { amount: 5000, currency: "eur", providerAccountId: ACCOUNT }, webhookUrl: ORGANIZER_HOOK });
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  const w = {
    ...env,
    et,
    stripe: slow.stripe,
    faults: slow.faults,
    reportStatus: slow.reportStatus,
    slowAnswer: slow.slowAnswer,
    async prepare(slot = TUE_0900) {
      visitors++;
      return call("POST", "/reservations/prepare", { ...slot, email: `payer${visitors}@example.com`, firstname: "Ada", lastname: "Lovelace" });
    },
    /** The sweep's services, with the platform's Stripe client, as main.ts builds them. */
    sweeper(log: (entry: unknown) => void = () => {}, store = env.store) {
      const payments = new PaymentService(store, new StripeProvider(slow.stripe), WEBHOOK_SECRET, () => env.clock.now(), log);
      return { payments, reservations: new ReservationService(store, payments, DEFAULT_CONFIG, () => env.clock.now(), log) };
    },
    reschedule: (uuid: string, slot: { start: string; end: string }) => call("PUT", `/reservations/${uuid}`, slot),
    cancel: (uuid: string) => call("DELETE", `/reservations/${uuid}`),
    async held(slot = TUE_0900): Promise<string> {
      const r = await w.prepare(slot);
      expect(r.body.success).toBe(true);
      return r.body.data.uuid;
    },
    async paying(uuid: string): Promise<string> {
      const r = await call("POST", `/reservations/${uuid}/payments`, { email: "payer@example.com" });
      expect(r.body.success).toBe(true);
      return r.body.data.paymentIntentId;
    },
    /** A visitor holds the first time and asks to pay: the hold's uuid and its intent. */
    async heldAndPaying(slot = TUE_0900): Promise<{ first: string; intent: string }> {
      const first = await w.held(slot);
      return { first, intent: await w.paying(first) };
    },
    /** A first visitor starts paying and lets the hold lapse; a second takes the seat, pays and books it. */
    async seatTakenWhilePaying(): Promise<{ first: string; intent: string; second: string }> {
      const { first, intent } = await w.heldAndPaying();
      w.clock.advance(11);
      const second = await w.held();
      await standin.succeed(await w.paying(second));
      expect((await w.confirm(second)).body.success).toBe(true);
      return { first, intent, second };
    },
    confirm: (uuid: string) => call("POST", `/reservations/${uuid}/confirm`, {}),
    /** The visitor's payment request, answered as it is. */
    pay: (uuid: string) => call("POST", `/reservations/${uuid}/payments`, { email: "payer@example.com" }),
    refresh: (uuid: string) => call("POST", `/reservations/${uuid}/refresh`, {}),
    /** Stripe's signed event about the intent as the stand-in has it now, POSTed to the server's Stripe route. */
    async stripeEvent(type: string, intentId: string, change: Record<string, unknown> = {}) {
      const { payload, signature } = await w.signedEvent(type, intentId, change);
      return env.call("POST", STRIPE_WEBHOOK_PATH, { rawBody: payload, headers: { "content-type": "application/json", "stripe-signature": signature } });
    },
    /** Stripe's signed event about the intent as the stand-in has it now: its payload and Stripe-Signature. */
    async signedEvent(type: string, intentId: string, change: Record<string, unknown> = {}) {
      const payload = JSON.stringify({
        id: `evt_seats${++visitors}`,
        object: "event",
        account: ACCOUNT,
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...standin.paymentIntent(intentId), ...change } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
      const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET });
      return { payload, signature };
    },
    /**
     * Stripe's processing event, with Stripe answering `processing` about the intent while the server
     * checks it (the stand-in cannot keep one processing); afterwards it reports the intent as it is.
     */
    async processing(intentId: string) {
      slow.reportStatus(intentId, "processing");
      const answer = await w.stripeEvent("payment_intent.processing", intentId, { status: "processing" });
      slow.reportStatus(intentId, null);
      return answer;
    },
    stored: async (uuid: string) => (await env.store.reservations.byUuid(et.id, uuid))!,
    /** The organizer's list of Tuesday's reservations. */
    listed: async () => (await env.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-11-24&until=2026-11-24`)).body.data as any[],
    /** Events in the organizer's webhook outbox, oldest first. */
    outbox: async () =>
      (await env.store.webhooks.recent(et.id, 50)).reverse().map((e) => ({ kind: e.kind, uuid: e.reservationUuid, data: JSON.parse(e.payload).data })),
    at: (ms: number) => env.clock.set(new Date(ms).toISOString()),
  };
  return w;
}

describe(`seats judged at the instant of the write (${ENGINE})`, () => {
  it("a claim given a clock reads it inside its transaction, so a hold that lapsed while the request waited no longer counts", async () => {
    const env = await setup();
    const et = await env.eventType();
    const T = Date.parse("2026-11-24T08:00:00Z");
    const hold = reservation(et.id, "2026-11-24T08:00:00Z", 30, { status: "held", heldUntilMs: T - 1000, confirmedAtMs: null });
    await env.store.reservations.insertMany([hold]);
    let reads = 0;
    // The request started while the hold still held (T - 2000); the clock says T when the write happens.
    const clock = () => (reads++, T);
    const seen: { holders: string[]; at: number }[] = [];
    const outcome = await env.store.reservations.claim(
      { eventTypeId: et.id, fromMs: hold.startMs, untilMs: hold.endMs, nowMs: clock },
      (holders, _current, at) => {
        seen.push({ holders: holders.map((h) => h.uuid), at });
        return { refuse: "slot_unavailable" };
      },
    );
    expect(outcome).toEqual({ refused: "slot_unavailable" });
    expect(reads).toBe(1);
    expect(seen).toEqual([{ holders: [], at: T }]);
    await closeAll(env.store);
  });

  it("a paid confirm whose Stripe answer arrives after the hold ended does not double-book: the visitor who took the freed seat keeps it, the late payer is refunded", async () => {
    const w = await world();
    const { first, intent: firstIntent } = await w.heldAndPaying();
    // Paid at Stripe; its webhook has not arrived, so the server knows nothing yet.
    await standin.succeed(firstIntent);
    const heldUntil = (await w.stored(first)).heldUntilMs!;

    // Confirm starts 0.4 s before the hold ends; Stripe takes 0.8 s to answer it.
    w.at(heldUntil - 400);
    const stripeAnswer = w.slowAnswer(firstIntent);
    const firstConfirm = w.confirm(first);
    await stripeAnswer.reachedStripe;
    w.at(heldUntil + 400);

    // Meanwhile a second visitor prepares, pays and confirms the freed seat.
    const second = await w.held();
    await standin.succeed(await w.paying(second));
    expect((await w.confirm(second)).body.success).toBe(true);

    stripeAnswer.release();
    const late = await firstConfirm;
    expectFailure(late, "reservation_finished");
    expect(late.body.message).toMatch(/refunded/);
    const listed = await w.listed();
    expect(listed.filter((r) => r.status === "confirmed").map((r) => r.uuid)).toEqual([second]);
    expect(listed.find((r) => r.uuid === first)).toMatchObject({
      status: "cancelled",
      payment: { status: "refunded", paymentIntentId: firstIntent, refundId: expect.stringMatching(/^re_/) },
    });
    expect(standin.refunds().filter((r) => r.payment_intent === firstIntent)).toEqual([
      expect.objectContaining({ amount: 5000, currency: "eur", status: "succeeded" }),
    ]);
    await closeAll(w.store);
  });
});

describe(`a paid hold (${ENGINE})`, () => {
  it("keeps its seat past heldUntil against a second visitor, through the sweep, until its payer confirms", async () => {
    const w = await w_paidHold();
    const { first, firstIntent } = w;
    w.clock.advance(11);
    expect(await w.store.reservations.sweep(w.clock.now())).toMatchObject({ expired: 0 });
    expect((await w.stored(first)).status).toBe("held");
    expectFailure(await w.prepare(), "slot_unavailable");
    const slots = await w.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token: w.et.token });
    const starts = JSON.stringify(slots.body);
    expect(starts).toContain("2026-11-24T08:30:00");
    expect(starts).not.toContain("2026-11-24T08:00:00");

    const confirmed = await w.confirm(first);
    expect(confirmed.body.success).toBe(true);
    expect((await w.listed()).find((r) => r.uuid === first)).toMatchObject({
      status: "confirmed",
      payment: { status: "succeeded", paymentIntentId: firstIntent },
    });
    expect((await w.outbox()).map((e) => e.kind)).toEqual(["reservation.created"]);
    await closeAll(w.store);
  });

  it("keeps its seat while its payment is processing, and gives it back when the payment fails after the hold time", async () => {
    const w = await world();
    const { intent } = await w.heldAndPaying();
    expect((await w.processing(intent)).body.outcome).toBe("processing recorded");
    w.clock.advance(11);
    expect(await w.store.reservations.sweep(w.clock.now())).toMatchObject({ expired: 0 });
    expectFailure(await w.prepare(), "slot_unavailable");
    expect((await w.stripeEvent("payment_intent.payment_failed", intent, { status: "requires_payment_method" })).body.outcome).toBe("failure recorded");
    expect((await w.prepare()).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("is confirmed by the sweep once its hold time is over, with the organizer told, and its visitor's late confirm answers the booking", async () => {
    const w = await w_paidHold();
    const sweeper = new ReservationService(
      w.store,
      new PaymentService(
        w.store,
        null,
        null,
        () => w.clock.now(),
        () => {},
      ),
      DEFAULT_CONFIG,
      () => w.clock.now(),
    );
    w.clock.advance(5);
    // Within its hold time the visitor may still confirm with new answers: left alone.
    expect(await sweeper.confirmPaidHolds("https://booking.example")).toBe(0);
    w.clock.advance(6);
    expect(await sweeper.confirmPaidHolds("https://booking.example")).toBe(1);
    expect(await w.stored(w.first)).toMatchObject({ status: "confirmed", heldUntilMs: null, confirmedAtMs: w.clock.now(), payment: { status: "succeeded" } });
    expect((await w.outbox()).map((e) => [e.kind, e.uuid])).toEqual([["reservation.created", w.first]]);
    expect(await sweeper.confirmPaidHolds("https://booking.example")).toBe(0);
    const late = await w.confirm(w.first);
    expect(late.body).toMatchObject({ success: true, data: { uuid: w.first } });
    expect(await w.outbox()).toHaveLength(1);
    await closeAll(w.store);
  });

  async function w_paidHold() {
    const w = await world();
    const { first, intent: firstIntent } = await w.heldAndPaying();
    await standin.succeed(firstIntent);
    expect((await w.stripeEvent("payment_intent.succeeded", firstIntent)).body).toMatchObject({ received: true, outcome: "success recorded" });
    return Object.assign(w, { first, firstIntent });
  }
});

describe(`a payment that succeeds after its seat is gone (${ENGINE})`, () => {
  it("is refunded at Stripe, the reservation cancelled with its payment refunded, the organizer told by webhook, and the payer told on confirm and refresh", async () => {
    const w = await world();
    // The unpaid hold lapsed: a second visitor takes the seat and books it.
    const { first, intent: firstIntent, second } = await w.seatTakenWhilePaying();

    // Now the first visitor's payment goes through, and Stripe reports it.
    await standin.succeed(firstIntent);
    const event = await w.stripeEvent("payment_intent.succeeded", firstIntent);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ received: true, outcome: "refunded" });

    const refunds = standin.refunds().filter((r) => r.payment_intent === firstIntent);
    expect(refunds).toEqual([
      expect.objectContaining({ amount: 5000, currency: "eur", status: "succeeded", metadata: expect.objectContaining({ reservation_uuid: first }) }),
    ]);
    const listed = await w.listed();
    expect(listed.find((r) => r.uuid === first)).toMatchObject({
      status: "cancelled",
      payment: { status: "refunded", amount: 5000, currency: "eur", paymentIntentId: firstIntent, refundId: refunds[0]!.id },
    });
    expect(listed.find((r) => r.uuid === second)).toMatchObject({ status: "confirmed" });
    const cancelled = (await w.outbox()).filter((e) => e.uuid === first);
    expect(cancelled).toEqual([
      {
        kind: "reservation.cancelled",
        uuid: first,
        data: expect.objectContaining({ status: "cancelled", payment: expect.objectContaining({ status: "refunded", refundId: refunds[0]!.id }) }),
      },
    ]);

    for (const answer of [await w.confirm(first), await w.refresh(first)]) {
      expectFailure(answer, "reservation_finished");
      expect(answer.body.message).toMatch(/refunded/);
    }
    // Stripe sending the event again refunds nothing twice and writes nothing new.
    expect((await w.stripeEvent("payment_intent.succeeded", firstIntent)).body.outcome).toBe("refunded");
    expect(standin.refunds().filter((r) => r.payment_intent === firstIntent)).toHaveLength(1);
    expect((await w.outbox()).filter((e) => e.uuid === first)).toHaveLength(1);
    await closeAll(w.store);
  });

  it("takes the seat back instead when it is still free", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    w.clock.advance(11);
    await w.store.reservations.sweep(w.clock.now());
    expect((await w.stored(first)).status).toBe("expired");
    await standin.succeed(intent);
    expect((await w.stripeEvent("payment_intent.succeeded", intent)).body.outcome).toBe("success recorded");
    expect(await w.stored(first)).toMatchObject({ status: "held", payment: { status: "succeeded" } });
    expectFailure(await w.prepare(), "slot_unavailable");
    expect((await w.confirm(first)).body.success).toBe(true);
    expect(standin.refunds().filter((r) => r.payment_intent === intent)).toHaveLength(0);
    await closeAll(w.store);
  });

  it("is refunded when the organizer's calendar filled the time after the hold lapsed, though no visitor took the seat", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    w.clock.advance(11);
    await w.store.reservations.sweep(w.clock.now());
    const lapsed = await w.stored(first);
    expect(lapsed.status).toBe("expired");
    // A meeting lands in the organizer's calendar over the lapsed hold's time.
    const source = await w.store.busy.add(
      {
        hostId: await hostOf(w.store, lapsed.eventTypeId),
        kind: "ical",
        url: "https://example.com/organizer.ics",
        username: null,
        secret: null,
        calendars: [],
        freshnessMinutes: null,
      },
      w.clock.now(),
    );
    await w.store.busy.recordSync(source.id, {
      atMs: w.clock.now(),
      syncState: {},
      upserts: [],
      deletes: [],
      intervals: [{ startMs: lapsed.startMs, endMs: lapsed.endMs }],
      expandedUntilMs: null,
    });
    await standin.succeed(intent);
    expect((await w.stripeEvent("payment_intent.succeeded", intent)).body.outcome).toBe("refunded");
    expect(await w.stored(first)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
    expect(standin.refunds().filter((r) => r.payment_intent === intent)).toHaveLength(1);
    expectFailure(await w.confirm(first), "reservation_finished");
    await closeAll(w.store);
  });
});

describe(`a processing payment (${ENGINE})`, () => {
  it("is not set back to pending by a new payment request, so the hold keeps its seat past its hold time", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    expect((await w.processing(intent)).body.outcome).toBe("processing recorded");
    // The visitor's page asks again (a reload): the same intent is answered, the record left processing.
    expect(await w.paying(first)).toBe(intent);
    expect((await w.stored(first)).payment).toMatchObject({ intentId: intent, status: "processing" });
    w.clock.advance(11);
    expect(await w.store.reservations.sweep(w.clock.now())).toMatchObject({ expired: 0 });
    expectFailure(await w.prepare(), "slot_unavailable");
    await closeAll(w.store);
  });

  it("is not reported as processing when Stripe's processing event arrives after the failure that ended it", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    expect((await w.stripeEvent("payment_intent.payment_failed", intent, { status: "requires_payment_method" })).body.outcome).toBe("failure recorded");
    expect((await w.stripeEvent("payment_intent.processing", intent, { status: "processing" })).body.outcome).toBe("stale processing event ignored");
    expect((await w.stored(first)).payment?.status).toBe("failed");
    w.clock.advance(11);
    await w.store.reservations.sweep(w.clock.now());
    expect((await w.prepare()).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("is checked at Stripe by the sweep once its hold time is over: a payment that did not go through gives the seat back", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await w.processing(intent);
    w.clock.advance(11);
    // Stripe's failure event was lost; the stand-in has the intent asking for a payment method again.
    expect(await w.sweeper().reservations.confirmPaidHolds("https://booking.example")).toBe(0);
    expect((await w.stored(first)).payment?.status).toBe("failed");
    expect((await w.prepare()).body.success).toBe(true);
    await closeAll(w.store);
  });

  it("is confirmed by the sweep when Stripe says it succeeded meanwhile", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await w.processing(intent);
    await standin.succeed(intent);
    w.clock.advance(11);
    expect(await w.sweeper().reservations.confirmPaidHolds("https://booking.example")).toBe(1);
    expect(await w.stored(first)).toMatchObject({ status: "confirmed", payment: { status: "succeeded" } });
    await closeAll(w.store);
  });

  it("keeps its seat while Stripe still processes it, but not past the slot's start: then the hold is cancelled, and money arriving later is refunded", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await w.processing(intent);
    w.reportStatus(intent, "processing");
    w.clock.advance(11);
    expect(await w.sweeper().reservations.confirmPaidHolds("https://booking.example")).toBe(0);
    expect(await w.stored(first)).toMatchObject({ status: "held", payment: { status: "processing" } });
    expectFailure(await w.prepare(), "slot_unavailable");

    w.at(Date.parse("2026-11-24T08:00:00Z"));
    expect(await w.store.reservations.sweep(w.clock.now())).toMatchObject({ expired: 1, cancelled: 1 });
    expect((await w.listed()).find((r) => r.uuid === first)).toMatchObject({ status: "cancelled" });
    await standin.succeed(intent);
    expect((await w.stripeEvent("payment_intent.succeeded", intent)).body.outcome).toBe("refunded");
    expect(standin.refunds().filter((r) => r.payment_intent === intent)).toHaveLength(1);
    await closeAll(w.store);
  });
});

describe(`a reservation rescheduled while a payment request waits on Stripe (${ENGINE})`, () => {
  it("makes the confirm answer slot_locked (never a 500), the success recorded on its new seat, and the next confirm book it", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await standin.succeed(intent);
    const stripeAnswer = w.slowAnswer(intent);
    const confirm = w.confirm(first);
    await stripeAnswer.reachedStripe;
    expect((await w.reschedule(first, TUE_0930)).body.success).toBe(true);
    stripeAnswer.release();
    const answer = await confirm;
    expect(answer.status).toBeLessThan(500);
    expectFailure(answer, "slot_locked");
    expect(await w.stored(first)).toMatchObject({ status: "held", startMs: Date.parse("2026-11-24T08:30:00Z"), payment: { status: "succeeded" } });
    expect((await w.confirm(first)).body.success).toBe(true);
    // The old seat is free, the new one taken.
    expect((await w.prepare(TUE_0900)).body.success).toBe(true);
    expectFailure(await w.prepare(TUE_0930), "slot_unavailable");
    await closeAll(w.store);
  });

  it("makes the sweep's check of a processing hold record the success on the new seat", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await w.processing(intent);
    await standin.succeed(intent);
    w.clock.advance(11);
    const stripeAnswer = w.slowAnswer(intent);
    const swept = w.sweeper().reservations.confirmPaidHolds("https://booking.example");
    await stripeAnswer.reachedStripe;
    expect((await w.reschedule(first, TUE_0930)).body.success).toBe(true);
    stripeAnswer.release();
    expect(await swept).toBe(1);
    expect(await w.stored(first)).toMatchObject({ status: "confirmed", startMs: Date.parse("2026-11-24T08:30:00Z"), payment: { status: "succeeded" } });
    await closeAll(w.store);
  });
});

describe(`refunds of payments whose seat was gone (${ENGINE})`, () => {
  /** A hold whose payment went through at Stripe after its seat was given to a second visitor; nothing recorded yet. */
  async function paidTooLate() {
    const w = await world();
    const { first, intent } = await w.seatTakenWhilePaying();
    await standin.succeed(intent);
    return Object.assign(w, { first, intent });
  }

  it("tells the payer on confirm that the refund is under way when Stripe could not be reached, and makes it on their next confirm", async () => {
    const w = await paidTooLate();
    w.faults.refundsDown = true;
    const answer = await w.confirm(w.first);
    expectFailure(answer, "reservation_finished");
    expect(answer.body.message).toMatch(/refund of its payment is under way/);
    expect((await w.stored(w.first)).payment?.status).toBe("refunding");
    expectFailure(await w.refresh(w.first), "reservation_finished");

    w.faults.refundsDown = false;
    const again = await w.confirm(w.first);
    expectFailure(again, "reservation_finished");
    expect(again.body.message).toMatch(/payment refunded/);
    expect((await w.stored(w.first)).payment).toMatchObject({ status: "refunded", refundId: expect.stringMatching(/^re_/) });
    expect(standin.refunds().filter((r) => r.payment_intent === w.intent)).toHaveLength(1);
    expect((await w.outbox()).filter((e) => e.uuid === w.first).map((e) => e.kind)).toEqual(["reservation.cancelled"]);
    await closeAll(w.store);
  });

  it("answers the payer's DELETE of the lapsed hold with the cancellation and its refund, not with 'confirm it instead'", async () => {
    const w = await paidTooLate();
    const answer = await w.cancel(w.first);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true });
    expect(JSON.stringify(answer.body)).toMatch(/payment refunded/);
    expect(await w.stored(w.first)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
    expect(standin.refunds().filter((r) => r.payment_intent === w.intent)).toHaveLength(1);
    await closeAll(w.store);
  });

  it("are retried by the sweep, without Stripe sending its event again nor the payer coming back", async () => {
    const w = await paidTooLate();
    w.faults.refundsDown = true;
    expect((await w.stripeEvent("payment_intent.succeeded", w.intent)).status).toBe(500);
    expect((await w.stored(w.first)).payment?.status).toBe("refunding");
    const { payments } = w.sweeper();
    expect(await payments.retryRefunds("https://booking.example")).toBe(0);
    w.faults.refundsDown = false;
    expect(await payments.retryRefunds("https://booking.example")).toBe(1);
    expect((await w.stored(w.first)).payment).toMatchObject({ status: "refunded", refundId: standin.refunds().find((r) => r.payment_intent === w.intent)!.id });
    expect((await w.outbox()).filter((e) => e.uuid === w.first).map((e) => e.kind)).toEqual(["reservation.cancelled"]);
    expect(await payments.retryRefunds("https://booking.example")).toBe(0);
    await closeAll(w.store);
  });

  it("record the refund Stripe already made when a retry is told the charge is already refunded (its idempotency key forgotten)", async () => {
    const w = await paidTooLate();
    w.faults.refundsDown = true;
    await w.stripeEvent("payment_intent.succeeded", w.intent);
    // The first refund went through at Stripe, but its answer was lost; a day later Stripe has forgotten its key.
    const made = await new Stripe("sk_test_booking", { host: standin.host, port: standin.port, protocol: "http", maxNetworkRetries: 0 }).refunds.create(
      { payment_intent: w.intent },
      { stripeAccount: ACCOUNT },
    );
    w.faults.refundsDown = false;
    expect(await w.sweeper().payments.retryRefunds("https://booking.example")).toBe(1);
    expect((await w.stored(w.first)).payment).toMatchObject({ status: "refunded", refundId: made.id });
    expect(standin.refunds().filter((r) => r.payment_intent === w.intent)).toHaveLength(1);
    await closeAll(w.store);
  });
});

describe(`the sweep's confirming of paid holds (${ENGINE})`, () => {
  it("goes on past a hold that fails, logging it", async () => {
    const w = await world();
    const holds: string[] = [];
    for (const slot of [TUE_0900, TUE_0930]) {
      const { first: uuid, intent } = await w.heldAndPaying(slot);
      await standin.succeed(intent);
      await w.stripeEvent("payment_intent.succeeded", intent);
      holds.push(uuid);
      w.clock.advance(1);
    }
    w.clock.advance(11);
    // The real store, whose claim fails for the first hold (a lost connection, a full disk).
    const broken = {
      ...w.store,
      reservations: {
        ...w.store.reservations,
        claim: ((claim, decide) =>
          claim.uuid === holds[0]
            ? Promise.reject(new Error("disk I/O error"))
            : w.store.reservations.claim(claim, decide)) as typeof w.store.reservations.claim,
      },
    };
    const logged: any[] = [];
    expect(await w.sweeper((e) => logged.push(e), broken).reservations.confirmPaidHolds("https://booking.example")).toBe(1);
    expect((await w.stored(holds[0]!)).status).toBe("held");
    expect((await w.stored(holds[1]!)).status).toBe("confirmed");
    expect(logged).toEqual([expect.objectContaining({ level: "error", message: expect.stringContaining(holds[0]!) })]);
    await closeAll(w.store);
  });
});

describe(`Stripe events that arrive out of order (${ENGINE})`, () => {
  it("a failure event about an earlier attempt does not end a payment that Stripe says is processing now, so the hold keeps its seat", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    expect((await w.processing(intent)).body.outcome).toBe("processing recorded");
    w.reportStatus(intent, "processing");
    expect((await w.stripeEvent("payment_intent.payment_failed", intent, { status: "requires_payment_method" })).body.outcome).toBe(
      "stale failure event ignored",
    );
    expect((await w.stored(first)).payment?.status).toBe("processing");
    w.clock.advance(11);
    expectFailure(await w.prepare(), "slot_unavailable");
    await closeAll(w.store);
  });

  it("a failure whose save loses to a concurrent change is judged again and recorded, not acknowledged unrecorded", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await standin.fail(intent);
    // Someone changes the reservation between the server's read and its save (once).
    let raced = false;
    const racing = {
      ...w.store,
      reservations: {
        ...w.store.reservations,
        save: (async (record, expected, events) => {
          if (!raced) {
            raced = true;
            const now = (await w.store.reservations.byUuid(w.et.id, first))!;
            expect(await w.store.reservations.save({ ...now, updatedAtMs: now.updatedAtMs + 1 }, now.updatedAtMs)).toBe(true);
          }
          return w.store.reservations.save(record, expected, events);
        }) as typeof w.store.reservations.save,
      },
    };
    const { payload, signature } = await w.signedEvent("payment_intent.payment_failed", intent);
    expect(await w.sweeper(() => {}, racing).payments.receiveWebhook(payload, signature, "https://booking.example")).toBe("failure recorded");
    expect(raced).toBe(true);
    expect((await w.stored(first)).payment?.status).toBe("failed");
    await closeAll(w.store);
  });

  it("a processing event about an attempt that failed is ignored after the visitor's retry set the payment back to pending", async () => {
    const w = await world();
    const { first, intent } = await w.heldAndPaying();
    await standin.fail(intent);
    expect((await w.stripeEvent("payment_intent.payment_failed", intent)).body.outcome).toBe("failure recorded");
    expect(await w.paying(first)).toBe(intent);
    expect((await w.stored(first)).payment?.status).toBe("pending");
    expect((await w.stripeEvent("payment_intent.processing", intent, { status: "processing" })).body.outcome).toBe("stale processing event ignored");
    expect((await w.stored(first)).payment?.status).toBe("pending");
    w.clock.advance(11);
    await w.store.reservations.sweep(w.clock.now());
    expect((await w.prepare()).body.success).toBe(true);
    await closeAll(w.store);
  });
});

describe(`processing payments of reservations no longer held (${ENGINE})`, () => {
  it("are checked by the sweep after the hold lapsed at the slot's start: money that arrived without its webhook is refunded, a payment that failed recorded failed", async () => {
    const w = await world();
    const { first: paid, intent: paidIntent } = await w.heldAndPaying(TUE_0900);
    const { first: unpaid, intent: unpaidIntent } = await w.heldAndPaying(TUE_0930);
    for (const intent of [paidIntent, unpaidIntent]) {
      expect((await w.processing(intent)).body.outcome).toBe("processing recorded");
      w.reportStatus(intent, "processing");
    }
    w.at(Date.parse("2026-11-24T08:30:00Z"));
    await w.store.reservations.sweep(w.clock.now());
    expect((await w.stored(paid)).status).toBe("cancelled");
    expect((await w.stored(unpaid)).status).toBe("cancelled");
    // Stripe settles both; its webhooks are lost.
    w.reportStatus(paidIntent, null);
    w.reportStatus(unpaidIntent, null);
    await standin.succeed(paidIntent);
    expect(await w.sweeper().reservations.confirmPaidHolds("https://booking.example")).toBe(0);
    expect(await w.stored(paid)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
    expect(standin.refunds().filter((r) => r.payment_intent === paidIntent)).toHaveLength(1);
    expect((await w.outbox()).filter((e) => e.uuid === paid).map((e) => e.kind)).toEqual(["reservation.cancelled"]);
    expect(await w.stored(unpaid)).toMatchObject({ status: "cancelled", payment: { status: "failed" } });
    await closeAll(w.store);
  });
});

describe(`the sweep's batches (${ENGINE})`, () => {
  it("confirm a paid hold even when more payments still processing than a batch holds were due before it", async () => {
    const w = await world();
    const { first: slow, intent: slowIntent } = await w.heldAndPaying(TUE_0900);
    await w.processing(slowIntent);
    w.reportStatus(slowIntent, "processing");
    w.clock.advance(1);
    const { first: paid, intent: paidIntent } = await w.heldAndPaying(TUE_0930);
    await standin.succeed(paidIntent);
    await w.stripeEvent("payment_intent.succeeded", paidIntent);
    w.clock.advance(11);
    expect(await w.sweeper().reservations.confirmPaidHolds("https://booking.example", 1)).toBe(1);
    expect((await w.stored(paid)).status).toBe("confirmed");
    expect(await w.stored(slow)).toMatchObject({ status: "held", payment: { status: "processing" } });
    await closeAll(w.store);
  });

  it("check payments that stay processing in turn, so one that lasts for days does not keep a later one from being checked", async () => {
    const w = await world();
    const { first: slow, intent: slowIntent } = await w.heldAndPaying(TUE_0900);
    await w.processing(slowIntent);
    w.reportStatus(slowIntent, "processing");
    w.clock.advance(1);
    const { first: later, intent: laterIntent } = await w.heldAndPaying(TUE_0930);
    await w.processing(laterIntent);
    await standin.succeed(laterIntent);
    w.clock.advance(11);
    const { reservations } = w.sweeper();
    expect(await reservations.confirmPaidHolds("https://booking.example", 1)).toBe(0);
    w.clock.advance(1);
    expect(await reservations.confirmPaidHolds("https://booking.example", 1)).toBe(1);
    expect(await w.stored(later)).toMatchObject({ status: "confirmed", payment: { status: "succeeded" } });
    expect(await w.stored(slow)).toMatchObject({ status: "held", payment: { status: "processing" } });
    await closeAll(w.store);
  });

  it("do not let a refund that keeps failing hold up a later one", async () => {
    const w = await world();
    const { first, intent: firstIntent } = await w.heldAndPaying(TUE_0900);
    const { first: later, intent: laterIntent } = await w.heldAndPaying(TUE_0930);
    w.clock.advance(11);
    for (const slot of [TUE_0900, TUE_0930]) {
      const other = await w.held(slot);
      await standin.succeed(await w.paying(other));
      expect((await w.confirm(other)).body.success).toBe(true);
    }
    w.faults.refundsDown = true;
    for (const intent of [firstIntent, laterIntent]) {
      await standin.succeed(intent);
      expect((await w.stripeEvent("payment_intent.succeeded", intent)).status).toBe(500);
      w.clock.advance(1);
    }
    w.faults.refundsDown = false;
    w.faults.refundsDownFor.add(firstIntent);
    const { payments } = w.sweeper();
    expect(await payments.retryRefunds("https://booking.example", 1)).toBe(0);
    w.clock.advance(1);
    expect(await payments.retryRefunds("https://booking.example", 1)).toBe(1);
    expect((await w.stored(later)).payment?.status).toBe("refunded");
    expect((await w.stored(first)).payment?.status).toBe("refunding");
    await closeAll(w.store);
  });
});

describe(`refunds, reviewed (${ENGINE})`, () => {
  it("the payer's payment request on a reservation cancelled for a refund answers the refund, retrying one under way", async () => {
    const w = await world();
    const { first, intent } = await w.seatTakenWhilePaying();
    await standin.succeed(intent);
    w.faults.refundsDown = true;
    expect((await w.stripeEvent("payment_intent.succeeded", intent)).status).toBe(500);
    const underWay = await w.pay(first);
    expectFailure(underWay, "reservation_finished");
    expect(underWay.body.message).toMatch(/refund of its payment is under way/);
    w.faults.refundsDown = false;
    const done = await w.pay(first);
    expectFailure(done, "reservation_finished");
    expect(done.body.message).toMatch(/payment refunded/);
    expect((await w.stored(first)).payment?.status).toBe("refunded");
    expect(standin.refunds().filter((r) => r.payment_intent === intent)).toHaveLength(1);
    await closeAll(w.store);
  });

  it("a success on an intent replaced after a price change (its cancelling failed) is refunded, and the reservation keeps its current intent", async () => {
    const w = await world();
    const { first, intent: old } = await w.heldAndPaying();
    w.faults.cancelDown = true;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { payment: { amount: 7000, currency: "eur", providerAccountId: ACCOUNT } })).status).toBe(
      200,
    );
    const current = await w.paying(first);
    expect(current).not.toBe(old);
    await standin.succeed(old);
    const answer = await w.stripeEvent("payment_intent.succeeded", old);
    expect(answer.status).toBe(200);
    expect(answer.body.outcome).toBe("replaced intent refunded");
    expect(standin.refunds().filter((r) => r.payment_intent === old)).toEqual([expect.objectContaining({ amount: 5000, status: "succeeded" })]);
    expect((await w.stored(first)).payment).toMatchObject({ intentId: current, status: "pending" });
    // Stripe sending it again refunds nothing twice.
    expect((await w.stripeEvent("payment_intent.succeeded", old)).body.outcome).toBe("replaced intent refunded");
    expect(standin.refunds().filter((r) => r.payment_intent === old)).toHaveLength(1);
    await closeAll(w.store);
  });

  it("a refund Stripe already made but lists as pending keeps the payment refunding until it went through", async () => {
    const w = await world();
    const { first, intent } = await w.seatTakenWhilePaying();
    await standin.succeed(intent);
    w.faults.refundsDown = true;
    await w.stripeEvent("payment_intent.succeeded", intent);
    // The first refund reached Stripe, its answer was lost, and Stripe has forgotten its key since.
    const made = await new Stripe("sk_test_booking", { host: standin.host, port: standin.port, protocol: "http", maxNetworkRetries: 0 }).refunds.create(
      { payment_intent: intent },
      { stripeAccount: ACCOUNT },
    );
    w.faults.refundsDown = false;
    w.faults.refundsPending = true;
    const { payments } = w.sweeper();
    expect(await payments.retryRefunds("https://booking.example")).toBe(0);
    expect((await w.stored(first)).payment?.status).toBe("refunding");
    w.faults.refundsPending = false;
    expect(await payments.retryRefunds("https://booking.example")).toBe(1);
    expect((await w.stored(first)).payment).toMatchObject({ status: "refunded", refundId: made.id });
    await closeAll(w.store);
  });
});
