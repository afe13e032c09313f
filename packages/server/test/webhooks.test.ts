import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import type { ServerConfig } from "../src/config.ts";
import { isPrivateAddress } from "../src/modules/webhooks/address.ts";
import { WebhookWorker } from "../src/modules/webhooks/worker.ts";
import { OutboxWorker } from "../src/modules/outbox/worker.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";
import { ADMIN_KEY, closeAll, setup, waitFor, type Answer, DEFAULT_HOST_ID } from "./utils.ts";
import { rebindingDns } from "./rebinding.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague (CET, +01:00). The
// event types below offer 30-minute slots on weekdays 09:00-17:00 in Prague with no reschedule or
// cancel notice, so a reservation can change at any moment. Webhooks go to a real HTTP receiver on
// loopback that verifies every request with the `standardwebhooks` package, as a customer would.

const T0 = Date.parse("2026-11-23T07:00:00Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Tuesday 2026-11-24 09:00-09:30 Prague = 08:00Z-08:30Z. */
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
/** Thursday 2026-11-26 09:00-09:30 Prague = 08:00Z-08:30Z. */
const THU_0900 = { start: "2026-11-26T09:00:00+01:00", end: "2026-11-26T09:30:00+01:00" };
/** Thursday 2026-11-26 10:00-10:30 Prague = 09:00Z-09:30Z. */
const THU_1000 = { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" };

const COMPANY = "00000000-0000-4000-8000-00000000c0de";
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const MEET_LINK = /^https:\/\/meet\.jit\.si\/booking-[A-Za-z0-9_-]{16}$/;

/** One request the receiver got, and how it answered. */
interface Hit {
  path: string;
  body: string;
  headers: Record<string, string>;
  /** Whether `new Webhook(secret).verify(body, headers)` accepted it. */
  verified: boolean;
  status: number;
}

/** A running receiver and what it has seen. */
interface Receiver {
  url: string;
  port: number;
  hits: Hit[];
  /** The secret the receiver verifies with; set from the event type's `webhookSecret`. */
  secret: string;
  /** Payloads of the verified requests it answered with 2xx: what the customer's system acted on. */
  accepted(): any[];
  stop(): void;
}

const receivers: Receiver[] = [];
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const r of receivers.splice(0)) r.stop();
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A webhook endpoint on loopback that behaves like a customer's: it verifies the signature with
 * the event type's secret (401 when it does not verify), then answers what `answer` says (200 by
 * default). It dedupes nothing, so a duplicate delivery would show as a second accepted hit.
 */
function startReceiver(answer: (hit: { path: string; n: number }) => Response | Promise<Response> = () => new Response("ok"), port = 0): Receiver {
  const hits: Hit[] = [];
  const state = { secret: "" };
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = await request.text();
      const headers = Object.fromEntries(request.headers);
      let verified = false;
      try {
        new Webhook(state.secret).verify(body, headers);
        verified = true;
      } catch {
        verified = false;
      }
      const hit: Hit = { path: new URL(request.url).pathname, body, headers, verified, status: 0 };
      const n = hits.push(hit);
      const response = verified ? await answer({ path: hit.path, n }) : new Response("bad signature", { status: 401 });
      hit.status = response.status;
      return response;
    },
  });
  const receiver: Receiver = {
    url: `http://127.0.0.1:${server.port}/hooks`,
    port: server.port!,
    hits,
    get secret() {
      return state.secret;
    },
    set secret(value: string) {
      state.secret = value;
    },
    accepted: () => hits.filter((h) => h.verified && h.status >= 200 && h.status < 300).map((h) => JSON.parse(h.body)),
    stop: () => server.stop(true),
  };
  receivers.push(receiver);
  return receiver;
}

/** A port nothing listens on: taken from a server that is stopped at once. */
function closedPort(): number {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

/**
 * A fresh app, one event type whose webhooks go to `receiver` (none without one), a worker on the
 * app's store and clock, and the calls of the public reservation routes with its token.
 */
async function world(options: { receiver?: Receiver; settings?: Partial<EventTypeCreate>; config?: Partial<ServerConfig>; databasePath?: string } = {}) {
  const env = await setup({ config: { ...NO_RATE_LIMIT, ...options.config }, ...(options.databasePath ? { databasePath: options.databasePath } : {}) });
  const created = await env.admin("POST", "/admin/event-types", {
    title: "Intro call",
    timezone: "Europe/Prague",
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    webhookUrl: options.receiver?.url ?? null,
    ...options.settings,
  });
  expect(created.status).toBe(200);
  const et = { id: created.body.data.id as number, token: created.body.data.token as string, secret: created.body.data.webhookSecret as string };
  expect(et.secret).toMatch(/^whsec_/);
  if (options.receiver) options.receiver.secret = et.secret;
  const worker = new WebhookWorker(env.store, env.clock, { allowPrivateAddresses: true }, (e) => env.logs.push(e));
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  return {
    ...env,
    et,
    worker,
    book: (body: unknown) => call("POST", "/reservations", body),
    prepare: (body: unknown) => call("POST", "/reservations/prepare", body),
    confirm: (uuid: string, body?: unknown) => call("POST", `/reservations/${uuid}/confirm`, body),
    refresh: (uuid: string) => call("POST", `/reservations/${uuid}/refresh`),
    reschedule: (uuid: string, body: unknown) => call("PUT", `/reservations/${uuid}`, body),
    cancel: (uuid: string) => call("DELETE", `/reservations/${uuid}`),
    /** The organizer's delivery log, newest first. */
    deliveries: async (): Promise<any[]> => {
      const r = await env.admin("GET", `/admin/event-types/${et.id}/webhook-deliveries`);
      expect(r.status).toBe(200);
      return r.body.data;
    },
    /** Moves the app's clock to an instant. */
    at: (ms: number) => env.clock.set(new Date(ms).toISOString()),
  };
}

let visitors = 0;

/** A ReservationInput for the slot, from a new visitor unless `extra` says otherwise. */
function input(slot: { start: string; end: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  visitors++;
  return { ...slot, email: `visitor${visitors}@example.com`, firstname: "Ada", lastname: "Lovelace", ...extra };
}

/** Asserts a successful reservation answer and gives its uuid. */
function uuidOf(r: Answer): string {
  expect(r.status).toBe(200);
  expect(r.body.success).toBe(true);
  return r.body.data.uuid;
}

/** Runs the worker until a pass finds nothing due; answers the attempts made. */
async function runUntilIdle(worker: WebhookWorker): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < 50; pass++) {
    const made = await worker.runOnce();
    if (made === 0) return total;
    total += made;
  }
  throw new Error("the worker never went idle");
}

/** Answers the receiver gives in turn; the last one repeats. */
function answers(...list: (() => Response)[]) {
  return ({ n }: { n: number }) => list[Math.min(n, list.length) - 1]!();
}
const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(`answer ${code}`, { status: code, headers });

/** A whsec_ secret nobody was given. */
const strangerSecret = () => `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;

describe("webhook events and payloads", () => {
  it("delivers reservation.created for a one-step booking, with the reservation, its custom fields and the event type, signed per Standard Webhooks", async () => {
    const receiver = startReceiver();
    const w = await world({
      receiver,
      settings: { customFields: [{ uuid: COMPANY, label: "Company", name: "company", type: "text", required: true }] },
    });
    const uuid = uuidOf(
      await w.book(
        input(TUE_0900, {
          email: "ada@example.com",
          firstname: "Ada",
          lastname: "Lovelace",
          timezone: "Europe/Prague",
          customFields: [{ uuid: COMPANY, value: "Acme" }],
        }),
      ),
    );
    expect(receiver.hits).toHaveLength(0);

    expect(await w.worker.runOnce()).toBe(1);
    expect(receiver.hits).toHaveLength(1);
    const [hit] = receiver.hits;
    expect(hit!.verified).toBe(true);
    expect(hit!.path).toBe("/hooks");
    expect(hit!.headers["content-type"]).toBe("application/json");
    expect(hit!.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(Math.abs(Number(hit!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    expect(hit!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(hit!.body)).toEqual({
      type: "reservation.created",
      timestamp: "2026-11-23T07:00:00Z",
      data: {
        uuid,
        status: "confirmed",
        start: "2026-11-24T08:00:00Z",
        end: "2026-11-24T08:30:00Z",
        timezone: "Europe/Prague",
        email: "ada@example.com",
        firstname: "Ada",
        lastname: "Lovelace",
        phone: "",
        location: { type: "video-meet", value: null },
        guests: [],
        customFields: [{ uuid: COMPANY, name: "company", label: "Company", value: "Acme" }],
        meetLink: expect.stringMatching(MEET_LINK),
        // The event type has no booking page (no slug), so the visitor has no manage link.
        manageUrl: null,
        payment: null,
        createdAt: "2026-11-23T07:00:00Z",
        confirmedAt: "2026-11-23T07:00:00Z",
        cancelledAt: null,
        eventType: { id: w.et.id, title: "Intro call" },
        // Who the booking is with: the event type's host (the default host, not named here).
        hosts: [{ id: DEFAULT_HOST_ID, name: "", email: null }],
      },
    });

    const [delivery] = await w.deliveries();
    expect(delivery).toMatchObject({
      webhookId: hit!.headers["webhook-id"],
      kind: "reservation.created",
      reservationUuid: uuid,
      url: receiver.url,
      status: "delivered",
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: expect.stringMatching(/^2026-11-23T07:00:00/),
    });
    expect(await w.worker.runOnce()).toBe(0);
    expect(receiver.hits).toHaveLength(1);
    await closeAll(w.store);
  });

  it("delivers reservation.rescheduled with the new and previous times, then reservation.cancelled, each with its own webhook id", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    const uuid = uuidOf(await w.book(input(THU_0900)));
    w.clock.advance(10);
    uuidOf(await w.reschedule(uuid, THU_1000));
    w.clock.advance(10);
    expect((await w.cancel(uuid)).body.success).toBe(true);

    expect(await runUntilIdle(w.worker)).toBe(3);
    expect(receiver.hits.every((h) => h.verified)).toBe(true);
    const [created, rescheduled, cancelled] = receiver.accepted();
    expect(receiver.accepted().map((p) => p.type)).toEqual(["reservation.created", "reservation.rescheduled", "reservation.cancelled"]);
    expect(created.data).toMatchObject({ uuid, status: "confirmed", start: "2026-11-26T08:00:00Z", end: "2026-11-26T08:30:00Z" });
    expect(created.data).not.toHaveProperty("previousStart");
    expect(rescheduled).toMatchObject({
      timestamp: "2026-11-23T07:10:00Z",
      data: {
        uuid,
        status: "confirmed",
        start: "2026-11-26T09:00:00Z",
        end: "2026-11-26T09:30:00Z",
        previousStart: "2026-11-26T08:00:00Z",
        previousEnd: "2026-11-26T08:30:00Z",
        eventType: { id: w.et.id, title: "Intro call" },
      },
    });
    expect(cancelled).toMatchObject({
      timestamp: "2026-11-23T07:20:00Z",
      data: { uuid, status: "cancelled", start: "2026-11-26T09:00:00Z", cancelledAt: "2026-11-23T07:20:00Z", eventType: { id: w.et.id, title: "Intro call" } },
    });
    expect(new Set(receiver.hits.map((h) => h.headers["webhook-id"])).size).toBe(3);
    expect(created.data).not.toHaveProperty("cancelReason");
    expect(rescheduled.data).not.toHaveProperty("cancelReason");
    expect(cancelled.data.cancelReason).toBeNull();
    await closeAll(w.store);
  });

  it("sends the reason the visitor gave for cancelling in reservation.cancelled", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    const uuid = uuidOf(await w.book(input(THU_0900)));
    const r = await w.call("DELETE", `/reservations/${uuid}`, { token: w.et.token, body: { reason: "I have to travel that week." } });
    expect(r.body.success).toBe(true);
    expect(await runUntilIdle(w.worker)).toBe(2);
    expect(receiver.hits.every((h) => h.verified)).toBe(true);
    const cancelled = receiver.accepted().find((p) => p.type === "reservation.cancelled");
    expect(cancelled.data).toMatchObject({ uuid, status: "cancelled", cancelReason: "I have to travel that week." });
    await closeAll(w.store);
  });

  it("sends nothing for a hold that is prepared, refreshed, rescheduled, expires or is let go before it was confirmed", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    const moved = uuidOf(await w.prepare(input(THU_0900)));
    expect((await w.refresh(moved)).status).toBe(200);
    uuidOf(await w.reschedule(moved, THU_1000));
    const letGo = uuidOf(await w.prepare(input(TUE_0900)));
    expect((await w.cancel(letGo)).body.success).toBe(true);
    w.clock.advance(30); // every hold (10 minutes) has ended
    await w.store.reservations.sweep(w.clock.now());
    w.clock.advance(24 * 60); // and the expired ones count as cancelled
    await w.store.reservations.sweep(w.clock.now());

    expect(await w.worker.runOnce()).toBe(0);
    expect(receiver.hits).toHaveLength(0);
    expect(await w.deliveries()).toEqual([]);
    await closeAll(w.store);
  });

  it("sends reservation.created when a hold is confirmed, and when an expired hold is confirmed again", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    const live = uuidOf(await w.prepare(input(TUE_0900)));
    const late = uuidOf(await w.prepare(input(THU_0900)));
    w.clock.advance(5);
    uuidOf(await w.confirm(live));
    w.clock.advance(15); // 07:20Z: the second hold ended at 07:10Z
    uuidOf(await w.confirm(late));

    expect(await runUntilIdle(w.worker)).toBe(2);
    const accepted = receiver.accepted();
    expect(accepted.map((p) => [p.type, p.data.uuid, p.data.status, p.data.confirmedAt])).toEqual([
      ["reservation.created", live, "confirmed", "2026-11-23T07:05:00Z"],
      ["reservation.created", late, "confirmed", "2026-11-23T07:20:00Z"],
    ]);
    // A confirm repeated on a confirmed reservation changes nothing and announces nothing.
    uuidOf(await w.confirm(live));
    expect(await w.worker.runOnce()).toBe(0);
    expect(receiver.hits).toHaveLength(2);
    await closeAll(w.store);
  });

  it("writes no events while the event type has no webhook URL, and starts once one is set", async () => {
    const receiver = startReceiver();
    const w = await world();
    receiver.secret = w.et.secret;
    const uuid = uuidOf(await w.book(input(THU_0900)));
    uuidOf(await w.reschedule(uuid, THU_1000));
    expect((await w.cancel(uuid)).body.success).toBe(true);
    expect(await w.worker.runOnce()).toBe(0);
    expect(await w.deliveries()).toEqual([]);

    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: receiver.url })).status).toBe(200);
    const later = uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    expect(receiver.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.created", later]]);
    await closeAll(w.store);
  });
});

describe("retries", () => {
  it("retries a failing receiver after 5 s, 5 min and 30 min, records every attempt, and has the event accepted exactly once", async () => {
    const receiver = startReceiver(answers(status(500), status(500), status(500), status(200)));
    const w = await world({ receiver });
    const uuid = uuidOf(await w.book(input(TUE_0900)));

    const due = [T0, T0 + 5 * SECOND, T0 + 5 * SECOND + 5 * MINUTE, T0 + 5 * SECOND + 35 * MINUTE];
    for (const [i, at] of due.entries()) {
      // A moment before the attempt is due, the worker leaves it alone.
      if (i > 0) {
        w.at(at - SECOND);
        expect(await w.worker.runOnce()).toBe(0);
        expect(receiver.hits).toHaveLength(i);
        const [pending] = await w.deliveries();
        expect(pending).toMatchObject({
          status: "pending",
          attempts: i,
          nextAttemptAt: new Date(at).toISOString().replace(".000Z", "Z"),
          lastStatusCode: 500,
          lastError: "HTTP 500",
        });
      }
      w.at(at);
      expect(await w.worker.runOnce()).toBe(1);
      expect(receiver.hits).toHaveLength(i + 1);
    }

    expect(receiver.hits.every((h) => h.verified)).toBe(true);
    expect(new Set(receiver.hits.map((h) => h.headers["webhook-id"])).size).toBe(1);
    expect(new Set(receiver.hits.map((h) => h.body)).size).toBe(1);
    expect(receiver.accepted()).toHaveLength(1);
    expect(receiver.accepted()[0]).toMatchObject({ type: "reservation.created", data: { uuid } });

    const [delivery] = await w.deliveries();
    expect(delivery).toMatchObject({
      status: "delivered",
      attempts: 4,
      nextAttemptAt: null,
      lastStatusCode: 200,
      lastError: null,
      webhookId: receiver.hits[0]!.headers["webhook-id"],
    });
    expect(delivery.attemptLog.map((a: any) => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(delivery.attemptLog.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(delivery.attemptLog.map((a: any) => Date.parse(a.at))).toEqual(due);
    expect(delivery.attemptLog.map((a: any) => a.error)).toEqual(["HTTP 500", "HTTP 500", "HTTP 500", null]);

    w.clock.advance(24 * 60);
    expect(await w.worker.runOnce()).toBe(0);
    expect(receiver.hits).toHaveLength(4);
    await closeAll(w.store);
  });

  it("gives up after the 8th failed attempt, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h apart, and shows the delivery as failed", async () => {
    const receiver = startReceiver(answers(status(500)));
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));

    const gaps: number[] = [];
    let at = T0;
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await w.worker.runOnce()).toBe(1);
      const [d] = await w.deliveries();
      expect(d.attempts).toBe(attempt);
      if (attempt < 8) {
        expect(d.status).toBe("pending");
        const next = Date.parse(d.nextAttemptAt);
        gaps.push(next - at);
        at = next;
        w.at(at);
      }
    }
    expect(gaps).toEqual([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);

    const [failed] = await w.deliveries();
    expect(failed).toMatchObject({ status: "failed", attempts: 8, nextAttemptAt: null, lastStatusCode: 500, lastError: "HTTP 500", deliveredAt: null });
    expect(failed.attemptLog).toHaveLength(8);
    w.clock.advance(48 * 60);
    expect(await w.worker.runOnce()).toBe(0);
    expect(receiver.hits).toHaveLength(8);
    expect(receiver.accepted()).toHaveLength(0);
    await closeAll(w.store);
  });

  it("waits as long as Retry-After says on 429 (in seconds) and on 503 (as an HTTP date) before trying again", async () => {
    const inTwoHours = () => new Response("busy", { status: 503, headers: { "retry-after": new Date(Date.now() + 2 * HOUR).toUTCString() } });
    const receiver = startReceiver(answers(status(429, { "retry-after": "3600" }), inTwoHours, status(200)));
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));

    expect(await w.worker.runOnce()).toBe(1);
    let [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "pending", lastStatusCode: 429, nextAttemptAt: "2026-11-23T08:00:00Z" });
    w.at(T0 + 5 * MINUTE); // past the usual 5 s back-off, far from the hour asked for
    expect(await w.worker.runOnce()).toBe(0);

    const second = T0 + HOUR;
    w.at(second);
    expect(await w.worker.runOnce()).toBe(1);
    [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "pending", lastStatusCode: 503 });
    // An HTTP date has whole seconds: two hours, less at most the second it was rounded down by.
    const wait = Date.parse(d.nextAttemptAt) - second;
    expect(wait).toBeGreaterThan(2 * HOUR - 3 * SECOND);
    expect(wait).toBeLessThanOrEqual(2 * HOUR);
    w.at(second + 30 * MINUTE); // past the usual 5 min back-off
    expect(await w.worker.runOnce()).toBe(0);

    w.at(Date.parse(d.nextAttemptAt));
    expect(await w.worker.runOnce()).toBe(1);
    [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "delivered", attempts: 3 });
    expect(d.attemptLog.map((a: any) => a.statusCode)).toEqual([429, 503, 200]);
    expect(receiver.accepted()).toHaveLength(1);
    await closeAll(w.store);
  });

  it("keeps the usual back-off when a 500 carries Retry-After", async () => {
    const receiver = startReceiver(answers(status(500, { "retry-after": "3600" }), status(200)));
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    const [d] = await w.deliveries();
    expect(d.nextAttemptAt).toBe("2026-11-23T07:00:05Z");
    await closeAll(w.store);
  });

  it("stops the endpoint on 410: the event fails, the organizer sees webhookDisabledAt, and no events are written until the URL is set again", async () => {
    const receiver = startReceiver(answers(status(410), status(200)));
    const w = await world({ receiver });
    const first = uuidOf(await w.book(input(TUE_0900)));
    w.clock.advance(1);
    expect(await w.worker.runOnce()).toBe(1);
    const [gone] = await w.deliveries();
    expect(gone).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410, nextAttemptAt: null });
    const view = await w.admin("GET", `/admin/event-types/${w.et.id}`);
    expect(view.body.data.webhookDisabledAt).toBe("2026-11-23T07:01:00Z");

    const second = uuidOf(await w.book(input(THU_0900)));
    uuidOf(await w.reschedule(second, THU_1000));
    expect((await w.cancel(first)).body.success).toBe(true);
    expect(await w.deliveries()).toHaveLength(1);
    w.clock.advance(24 * 60);
    expect(await w.worker.runOnce()).toBe(0);
    expect(receiver.hits).toHaveLength(1);

    const patched = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: receiver.url });
    expect(patched.status).toBe(200);
    expect(patched.body.data.webhookDisabledAt).toBeNull();
    expect((await w.cancel(second)).body.success).toBe(true);
    expect(await w.worker.runOnce()).toBe(1);
    expect(receiver.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.cancelled", second]]);
    await closeAll(w.store);
  });
});

describe("order per reservation", () => {
  it("holds back later events of a reservation while its first is retried, and lets another reservation's events go out", async () => {
    const receiver = startReceiver(answers(status(500), status(200)));
    const w = await world({ receiver });
    const a = uuidOf(await w.book(input(THU_0900)));
    expect(await w.worker.runOnce()).toBe(1); // a's created: 500
    uuidOf(await w.reschedule(a, THU_1000));
    const b = uuidOf(await w.book(input(TUE_0900)));

    expect(await runUntilIdle(w.worker)).toBe(1);
    expect(receiver.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.created", b]]);
    const waiting = (await w.deliveries()).find((d) => d.kind === "reservation.rescheduled");
    expect(waiting).toMatchObject({ reservationUuid: a, status: "pending", attempts: 0 });

    w.at(T0 + 5 * SECOND);
    expect(await runUntilIdle(w.worker)).toBe(2);
    expect(receiver.accepted().map((p) => [p.type, p.data.uuid])).toEqual([
      ["reservation.created", b],
      ["reservation.created", a],
      ["reservation.rescheduled", a],
    ]);
    await closeAll(w.store);
  });
});

describe("deliveries side by side", () => {
  it("delivers another event type's webhook at once while a receiver hangs, even one with many events due, which holds only a few delivery slots", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hanging = startReceiver(async () => {
      await released;
      return new Response("ok");
    });
    const prompt = startReceiver();
    const w = await world({ receiver: hanging, settings: { seats: 40 } });
    // Another host's event type: the same time is free for it.
    const host = await w.admin("POST", "/admin/hosts", { name: "Other", email: "other@example.com" });
    const other = await w.admin("POST", "/admin/event-types", {
      title: "Other",
      timezone: "Europe/Prague",
      webhookUrl: prompt.url,
      hosts: [{ hostId: host.body.data.id }],
    });
    expect(other.status).toBe(200);
    prompt.secret = other.body.data.webhookSecret;
    for (let i = 0; i < 20; i++) uuidOf(await w.book(input(TUE_0900)));
    w.worker.start(20);
    cleanups.push(() => {
      release();
      return w.worker.stop();
    });
    await waitFor(async () => hanging.hits.length > 0, 10_000, "the hanging receiver to be called");

    // Written while the hanging receiver holds its requests; its timeout (15 s) is far away.
    const booked = uuidOf(await w.call("POST", "/reservations", { token: other.body.data.token, body: input(TUE_0900) }));
    await waitFor(async () => prompt.accepted().length > 0, 10_000, "the prompt receiver to accept a delivery");
    expect(prompt.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.created", booked]]);
    expect(hanging.hits.length).toBeLessThanOrEqual(4);
    expect(hanging.hits.every((h) => h.status === 0)).toBe(true);

    release();
    await waitFor(async () => hanging.accepted().length === 20, 10_000, "the released receiver to accept all 20 deliveries");
    await w.worker.stop();
    expect(new Set(hanging.hits.map((h) => h.headers["webhook-id"])).size).toBe(20);
    expect((await w.deliveries()).every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    await closeAll(w.store);
  });
});

describe("a backlog of one event type", () => {
  it("drains at the receiver's pace, claiming again as each delivery ends instead of waiting for the next poll", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver, settings: { seats: 40 } });
    for (let i = 0; i < 20; i++) uuidOf(await w.book(input(TUE_0900)));
    // A poll a minute away: only the ends of deliveries can start the later ones.
    w.worker.start(60_000);
    cleanups.push(() => w.worker.stop());
    void w.worker.runOnce();
    await waitFor(async () => receiver.accepted().length === 20, 5_000, "the receiver to accept all 20 deliveries");
    await w.worker.stop();
    expect(new Set(receiver.hits.map((h) => h.headers["webhook-id"])).size).toBe(20);
    expect((await w.deliveries()).every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    await closeAll(w.store);
  });
});

describe("a backlog delivered instantly", () => {
  it("lets the process answer timers and requests between passes while it drains, even when each delivery ends at once", async () => {
    const w = await world({ receiver: startReceiver(), settings: { seats: 200 } });
    for (let i = 0; i < 120; i++) uuidOf(await w.book(input(TUE_0900)));
    // A deliverer that answers at once, like a logged email: with SQLite nothing in a pass waits for I/O.
    let delivered = 0;
    const instant = new OutboxWorker(
      w.store,
      w.clock,
      { channel: "webhook", deliver: async () => (delivered++, { statusCode: 200, error: null, durationMs: 0 }) },
      (e) => w.logs.push(e),
    );
    instant.start(60_000);
    cleanups.push(() => instant.stop());
    void instant.runOnce();
    const seenByTimer = await new Promise<number>((resolve) => setTimeout(() => resolve(delivered), 0));
    expect(seenByTimer).toBeLessThan(120);
    await waitFor(async () => delivered === 120, 5_000, "all 120 deliveries");
    await instant.stop();
    expect((await w.deliveries()).every((d) => d.status === "delivered")).toBe(true);
    await closeAll(w.store);
  });
});

describe("deliveries side by side, many receivers hanging", () => {
  it("delivers another event type's webhook at once while the receivers of 40 event types, each with events due, hang", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let hangingHits = 0;
    const hanging = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch() {
        hangingHits++;
        await released;
        return new Response("ok");
      },
    });
    const prompt = startReceiver();
    const w = await world({ receiver: prompt });
    cleanups.push(() => hanging.stop(true));
    for (let i = 0; i < 40; i++) {
      // Each of another host, so all of them book the same time.
      const host = await w.admin("POST", "/admin/hosts", { name: `Host ${i}`, email: `host${i}@example.com` });
      const et = await w.admin("POST", "/admin/event-types", {
        title: `Hangs ${i}`,
        timezone: "Europe/Prague",
        seats: 3,
        webhookUrl: `http://127.0.0.1:${hanging.port}/hooks/${i}`,
        hosts: [{ hostId: host.body.data.id }],
      });
      expect(et.status).toBe(200);
      for (let n = 0; n < 3; n++) uuidOf(await w.call("POST", "/reservations", { token: et.body.data.token, body: input(TUE_0900) }));
    }
    w.worker.start(20);
    cleanups.push(() => {
      release();
      return w.worker.stop();
    });
    // Every delivery slot a hanging receiver can take is taken; their timeout (15 s) is far away.
    await waitFor(async () => hangingHits >= 16, 10_000, "every delivery slot taken by a hanging receiver");
    await Bun.sleep(500);

    const booked = uuidOf(await w.book(input(TUE_0900)));
    await waitFor(async () => prompt.accepted().length > 0, 10_000, "the prompt receiver to accept a delivery");
    expect(prompt.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.created", booked]]);
    // One delivery of each hanging event type, and no more than the worker's 64 shared slots beyond.
    expect(hangingHits).toBeGreaterThanOrEqual(40);
    expect(hangingHits).toBeLessThanOrEqual(80);

    release();
    await w.worker.stop();
    await closeAll(w.store);
  }, 60_000);

  it("asks the store for no other claim while one is unanswered (a pool exhausted), and claims again once it is answered", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));
    const claimDue = w.store.webhooks.claimDue;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    let calls = 0;
    const passes = vi.spyOn(w.worker, "runOnce");
    vi.spyOn(w.store.webhooks, "claimDue").mockImplementation(async (...args) => {
      calls++;
      if (calls === 1) {
        await answered;
        return [];
      }
      return claimDue(...args);
    });
    w.worker.start(10);
    cleanups.push(() => {
      answer();
      return w.worker.stop();
    });
    await Bun.sleep(300);
    expect(calls).toBe(1);
    // The ticks meanwhile queued no passes behind it.
    expect(passes).toHaveBeenCalledTimes(1);
    answer();
    await waitFor(async () => receiver.accepted().length === 1, 10_000, "the receiver to accept the delivery");
    await w.worker.stop();
    await closeAll(w.store);
  });
});

describe("webhook URL changes", () => {
  it("sends a queued retry to the URL the event type has now, with the same webhook id, and shows that URL in the log", async () => {
    const before = startReceiver(answers(status(500)));
    const w = await world({ receiver: before });
    const uuid = uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    expect(before.hits).toHaveLength(1);

    const after = startReceiver();
    after.secret = w.et.secret;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: after.url.replace("/hooks", "/v2/hooks") })).status).toBe(200);
    w.at(T0 + 5 * SECOND);
    expect(await w.worker.runOnce()).toBe(1);
    expect(before.hits).toHaveLength(1);
    expect(after.hits.map((h) => [h.path, h.verified])).toEqual([["/v2/hooks", true]]);
    expect(after.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.created", uuid]]);
    expect(after.hits[0]!.headers["webhook-id"]).toBe(before.hits[0]!.headers["webhook-id"]);
    expect(after.hits[0]!.body).toBe(before.hits[0]!.body);

    const [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "delivered", attempts: 2, url: after.url.replace("/hooks", "/v2/hooks"), lastStatusCode: 200 });
    expect(d.attemptLog.map((a: any) => a.statusCode)).toEqual([500, 200]);
    await closeAll(w.store);
  });

  it("marks queued events failed, with the reason in the log, once the event type's webhook URL is removed", async () => {
    const receiver = startReceiver(answers(status(500)));
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: null })).status).toBe(200);

    w.at(T0 + 5 * SECOND);
    expect(await w.worker.runOnce()).toBe(1);
    expect(receiver.hits).toHaveLength(1);
    const [d] = await w.deliveries();
    expect(d).toMatchObject({
      status: "failed",
      attempts: 2,
      nextAttemptAt: null,
      lastStatusCode: null,
      lastError: "not sent: the event type no longer has a webhook URL",
    });
    w.clock.advance(24 * 60);
    expect(await w.worker.runOnce()).toBe(0);
    await closeAll(w.store);
  });
});

describe("delivery safety", () => {
  it("does not follow a redirect and records the attempt as a failure", async () => {
    const receiver = startReceiver(({ path }) =>
      path === "/hooks" ? new Response(null, { status: 302, headers: { location: "/elsewhere" } }) : new Response("ok"),
    );
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    await Bun.sleep(50); // a followed redirect would arrive right after
    expect(receiver.hits.map((h) => h.path)).toEqual(["/hooks"]);
    const [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 302, nextAttemptAt: "2026-11-23T07:00:05Z" });
    expect(d.lastError).toMatch(/redirect.*not followed/);
    await closeAll(w.store);
  });

  it("counts a 2xx with a huge response body as delivered, reading no more of it than it needs", async () => {
    const HUGE = 32 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024).fill(120);
    let produced = 0;
    const body = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= HUGE) return controller.close();
          sent += chunk.byteLength;
          produced += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
    };
    const receiver = startReceiver(() => new Response(body(), { status: 200, headers: { "content-type": "text/plain" } }));
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));
    uuidOf(await w.book(input(THU_0900)));
    expect(await runUntilIdle(w.worker)).toBe(2);
    const log = await w.deliveries();
    expect(log.map((d) => [d.status, d.attempts, d.lastStatusCode, d.lastError])).toEqual([
      ["delivered", 1, 200, null],
      ["delivered", 1, 200, null],
    ]);
    // The worker hangs up early: only what the sockets buffered was ever produced, far from 2 x 32 MB.
    await Bun.sleep(200);
    expect(produced).toBeLessThan(HUGE);
    await closeAll(w.store);
  });

  it("records an unreachable receiver as a failed attempt with the reason, and tries again 5 s later", async () => {
    const w = await world({ settings: { webhookUrl: `http://127.0.0.1:${closedPort()}/hooks` } });
    uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    const [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, nextAttemptAt: "2026-11-23T07:00:05Z" });
    expect(d.lastError).toMatch(/^unreachable: /);
    expect(d.attemptLog).toEqual([{ attempt: 1, at: "2026-11-23T07:00:00Z", statusCode: null, error: d.lastError, durationMs: expect.any(Number) }]);
    await closeAll(w.store);
  });
});

describe("signatures", () => {
  it("lets the receiver's library reject a body changed by one byte, another secret, a re-stamped header and a replay older than five minutes", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1);
    const { body, headers } = receiver.hits[0]!;
    const verify = (secret: string, b: string, h: Record<string, string>) => () => new Webhook(secret).verify(b, h);
    expect(verify(w.et.secret, body, headers)()).toMatchObject({ type: "reservation.created" });

    const i = body.indexOf("Lovelace");
    const tampered = `${body.slice(0, i + 1)}0${body.slice(i + 2)}`; // "L0velace"
    expect(tampered).toHaveLength(body.length);
    expect(tampered).not.toBe(body);
    expect(verify(w.et.secret, tampered, headers)).toThrow(/signature/i);
    expect(verify(strangerSecret(), body, headers)).toThrow(/signature/i);
    const restamped = { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1) };
    expect(verify(w.et.secret, body, restamped)).toThrow(/signature/i);

    // The same request, sent again six minutes later, is too old to be accepted.
    const sentAt = Number(headers["webhook-timestamp"]) * 1000;
    vi.spyOn(Date, "now").mockReturnValue(sentAt + 6 * MINUTE);
    expect(verify(w.et.secret, body, headers)).toThrow(/too old/);
    vi.restoreAllMocks();
    expect(verify(w.et.secret, body, headers)()).toMatchObject({ type: "reservation.created" });
    await closeAll(w.store);
  });

  it("signs every delivery made after a secret rotation with the new secret only, retries of older events included", async () => {
    const receiver = startReceiver(answers(status(500), status(200)));
    const w = await world({ receiver });
    const before = uuidOf(await w.book(input(TUE_0900)));
    expect(await w.worker.runOnce()).toBe(1); // signed with the old secret, answered 500
    const old = w.et.secret;
    expect(new Webhook(old).verify(receiver.hits[0]!.body, receiver.hits[0]!.headers)).toBeTruthy();

    const rotated = await w.admin("POST", `/admin/event-types/${w.et.id}/webhook-secret`);
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.data.webhookSecret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    // Shown this once: the event type's view never carries it.
    expect((await w.admin("GET", `/admin/event-types/${w.et.id}`)).body.data).not.toHaveProperty("webhookSecret");
    receiver.secret = fresh;

    const after = uuidOf(await w.book(input(THU_0900)));
    w.at(T0 + 5 * SECOND);
    expect(await runUntilIdle(w.worker)).toBe(2);
    const later = receiver.hits.slice(1);
    expect(later.map((h) => JSON.parse(h.body).data.uuid).sort()).toEqual([before, after].sort());
    for (const hit of later) {
      expect(hit.verified).toBe(true);
      expect(new Webhook(fresh).verify(hit.body, hit.headers)).toBeTruthy();
      expect(() => new Webhook(old).verify(hit.body, hit.headers)).toThrow(/signature/i);
    }
    await closeAll(w.store);
  });
});

describe("webhook addresses", () => {
  it("refuses webhook URLs that are not plain http(s) with 422", async () => {
    const w = await world();
    for (const webhookUrl of ["ftp://example.com/hook", "http://user:pw@example.com/hook", "file:///etc/passwd", "not a url"]) {
      const r = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl });
      expect(r.status, webhookUrl).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(["webhookUrl"]);
    }
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: "https://hooks.example.com/booking" })).status).toBe(200);
    await closeAll(w.store);
  });

  it("refuses loopback, link-local and private webhook URLs when private addresses are not allowed, and accepts them when they are", async () => {
    const strict = await world({ config: { webhooks: { allowPrivateAddresses: false } } });
    const inward = [
      "http://127.0.0.1/x",
      "http://10.0.0.5/x",
      "http://[::1]/x",
      "http://localhost/x",
      "http://localhost./x",
      "http://api.localhost/x",
      "http://169.254.169.254/latest/meta-data",
      "http://192.168.1.10/x",
      "http://172.16.0.1/x",
      "http://0.0.0.0/x",
      "http://2130706433/x", // 127.0.0.1 as one number
      "http://[fe80::1]/x",
      "http://[fd00::1]/x",
      "http://[fec0::1]/x", // site-local
      "http://[0:0:0:0:0:ffff:7f00:1]/x",
      "http://[::ffff:127.0.0.1]/x", // IPv4-mapped, which URLs spell [::ffff:7f00:1]
      "http://[::ffff:10.0.0.5]/x",
    ];
    for (const webhookUrl of inward) {
      const r = await strict.admin("PATCH", `/admin/event-types/${strict.et.id}`, { webhookUrl });
      expect(r.status, webhookUrl).toBe(422);
      expect(r.body.errors.webhookUrl, webhookUrl).toEqual([expect.stringMatching(/loopback, link-local or private/)]);
    }
    for (const webhookUrl of ["https://hooks.example.com/booking", "http://93.184.215.14/x", "http://[::ffff:8.8.8.8]/x", "http://[2001:4860:4860::8888]/x"]) {
      expect((await strict.admin("PATCH", `/admin/event-types/${strict.et.id}`, { webhookUrl })).status, webhookUrl).toBe(200);
    }

    const relaxed = await world();
    expect((await relaxed.admin("PATCH", `/admin/event-types/${relaxed.et.id}`, { webhookUrl: "http://127.0.0.1/x" })).status).toBe(200);
    await closeAll(strict.store, relaxed.store);
  });

  it("has a worker that does not allow private addresses refuse to deliver to a loopback receiver, however the address is spelled", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    const strictWorker = new WebhookWorker(w.store, w.clock, { allowPrivateAddresses: false }, () => undefined);
    const spellings = [receiver.url, `http://[::ffff:127.0.0.1]:${receiver.port}/hooks`, `http://localhost:${receiver.port}/hooks`];
    for (const [i, webhookUrl] of spellings.entries()) {
      expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl })).status).toBe(200);
      uuidOf(await w.book(input([TUE_0900, THU_0900, THU_1000][i]!)));
      expect(await runUntilIdle(strictWorker)).toBe(1);
    }

    expect(receiver.hits).toHaveLength(0);
    const log = await w.deliveries();
    expect(log.map((d) => [d.status, d.attempts])).toEqual([
      ["failed", 1],
      ["failed", 1],
      ["failed", 1],
    ]);
    expect(log.map((d) => d.lastError)).toEqual([
      expect.stringMatching(/^refused: http:\/\/localhost:\d+\/hooks points to (127\.0\.0\.1|::1)$/),
      expect.stringMatching(/^refused: http:\/\/\[::ffff:127\.0\.0\.1\]:\d+\/hooks points to ::ffff:7f00:1$/),
      expect.stringMatching(/^refused: http:\/\/127\.0\.0\.1:\d+\/hooks points to 127\.0\.0\.1$/),
    ]);
    await closeAll(w.store);
  });

  it("judges every non-public IPv4 and IPv6 range as private, in any spelling, and public addresses as public", () => {
    const inward = [
      "0.0.0.0",
      "0.1.2.3",
      "10.1.2.3",
      "100.64.0.1",
      "100.127.255.255",
      "127.0.0.1",
      "127.255.0.9",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "192.88.99.1",
      "192.168.0.1",
      "198.18.0.1",
      "198.19.255.255",
      "198.51.100.7",
      "203.0.113.7",
      "224.0.0.1",
      "239.1.2.3",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "0:0:0:0:0:0:0:1",
      "0000:0000:0000:0000:0000:0000:0000:0001",
      "::127.0.0.1",
      "::7f00:1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "0:0:0:0:0:ffff:7f00:1",
      "::FFFF:10.0.0.5",
      "::ffff:a9fe:a9fe",
      "::ffff:0.0.0.0",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a00:1",
      "64:ff9b:1::1",
      "100::1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "febf::1",
      "fec0::1",
      "fec0:0:0:1::1",
      "feff::1",
      "ff02::1",
      "ff0e::1",
      "2001::1",
      "2001:0:4136:e378::1",
      "2001:db8::1",
      "2002:7f00:1::1",
      "2002:c0a8:101::1",
      "3fff::1",
      "4000::1",
      "e000::1",
    ];
    const outward = [
      "1.1.1.1",
      "8.8.8.8",
      "93.184.215.14",
      "100.63.255.255",
      "100.128.0.1",
      "172.15.255.255",
      "172.32.0.1",
      "192.0.1.1",
      "192.169.0.1",
      "198.17.0.1",
      "223.255.255.255",
      "2001:4860:4860::8888",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
      "2001:200::1",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "64:ff9b::8.8.8.8",
      "64:ff9b::808:808",
    ];
    expect(inward.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(outward.filter((a) => isPrivateAddress(a))).toEqual([]);
  });

  it("connects to the address that was checked, so a name that answers a public address to the check and a loopback one afterwards (DNS rebinding) never reaches the loopback receiver", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    // `localhost` is what the system resolves to loopback at connect time; the check is asked once and told a public address.
    const url = `http://localhost:${receiver.port}/hooks`;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: url })).status).toBe(200);
    const { lookups, connected } = rebindingDns();
    const strictWorker = new WebhookWorker(w.store, w.clock, { allowPrivateAddresses: false }, () => undefined);
    uuidOf(await w.book(input(TUE_0900)));

    expect(await strictWorker.runOnce()).toBe(1);
    await Bun.sleep(50);
    expect(receiver.hits).toHaveLength(0);
    expect(lookups).toEqual(["localhost"]);
    expect(connected).toEqual([{ url: `http://93.184.215.14:${receiver.port}/hooks`, host: `localhost:${receiver.port}` }]);
    const [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, url });
    expect(d.lastError).toMatch(/^unreachable: /);
    await closeAll(w.store);
  });

  it("connects an https receiver to the checked address while TLS (server name and certificate check) and the Host header keep the name", async () => {
    const w = await world({ settings: { webhookUrl: "https://hooks.booking-example.test/hooks" } });
    vi.spyOn(Bun.dns, "lookup").mockImplementation((async () => [{ address: "2606:4700:4700::1111", family: 6, ttl: 0 }]) as typeof Bun.dns.lookup);
    // Nothing leaves the machine: the connection is answered as refused.
    const connected: { url: string; init: any }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation((async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      connected.push({ url: String(input), init });
      throw Object.assign(new Error("Unable to connect"), { code: "ECONNREFUSED" });
    }) as typeof fetch);
    const strictWorker = new WebhookWorker(w.store, w.clock, { allowPrivateAddresses: false }, () => undefined);
    uuidOf(await w.book(input(TUE_0900)));
    expect(await strictWorker.runOnce()).toBe(1);
    expect(connected.map((c) => [c.url, c.init.headers.host, c.init.tls])).toEqual([
      ["https://[2606:4700:4700::1111]/hooks", "hooks.booking-example.test", { serverName: "hooks.booking-example.test" }],
    ]);
    await closeAll(w.store);
  });

  it("delivers over real TLS to the checked address when the receiver's certificate is for the webhook URL's name, and not when it is for another name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-tls-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    // A self-signed certificate (its own authority) for a name no real resolver knows.
    const certificate = (name: string) => {
      const [key, cert] = [join(dir, `${name}.key`), join(dir, `${name}.pem`)];
      const made = Bun.spawnSync(
        [
          "openssl",
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-keyout",
          key,
          "-out",
          cert,
          "-days",
          "1",
          "-subj",
          `/CN=${name}`,
          "-addext",
          `subjectAltName=DNS:${name}`,
        ],
        { stderr: "pipe" },
      );
      expect(made.exitCode, made.stderr.toString()).toBe(0);
      return { key: Bun.file(key), cert: Bun.file(cert), pem: readFileSync(cert, "utf8") };
    };
    const serve = (tls: { key: ReturnType<typeof Bun.file>; cert: ReturnType<typeof Bun.file> }) => {
      const hits: { host: string | null; body: string }[] = [];
      const server = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        tls,
        fetch: async (request) => (hits.push({ host: request.headers.get("host"), body: await request.text() }), new Response("ok")),
      });
      cleanups.push(() => server.stop(true));
      return { port: server.port!, hits };
    };
    const right = certificate("hooks.example.test");
    const wrong = certificate("elsewhere.example.test");
    const good = serve(right);
    const bad = serve(wrong);
    const w = await world();
    vi.spyOn(Bun.dns, "lookup").mockImplementation((async () => [{ address: "127.0.0.1", family: 4, ttl: 0 }]) as typeof Bun.dns.lookup);
    // Both authorities are trusted: only the name on the certificate decides.
    const worker = new WebhookWorker(w.store, w.clock, { allowPrivateAddresses: true, ca: right.pem + wrong.pem }, () => undefined);

    const url = `https://hooks.example.test:${good.port}/hooks`;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: url })).status).toBe(200);
    const uuid = uuidOf(await w.book(input(TUE_0900)));
    expect(await worker.runOnce()).toBe(1);
    expect(good.hits.map((h) => [h.host, JSON.parse(h.body).data.uuid])).toEqual([[`hooks.example.test:${good.port}`, uuid]]);
    expect((await w.deliveries())[0]).toMatchObject({ status: "delivered", attempts: 1, url });

    // Same name, same address, but the receiver shows a certificate for another name.
    const badUrl = `https://hooks.example.test:${bad.port}/hooks`;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: badUrl })).status).toBe(200);
    uuidOf(await w.book(input(THU_0900)));
    expect(await worker.runOnce()).toBe(1);
    expect(bad.hits).toEqual([]);
    const [refused] = await w.deliveries();
    expect(refused).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null, url: badUrl });
    expect(refused.lastError).toMatch(/^unreachable: .*(ALTNAME|hostname|certificate)/i);
    await closeAll(w.store);
  });

  it("delivers to the very address a name resolved to, with the name in the Host header, trying the next address when one refuses the connection", async () => {
    const receiver = startReceiver();
    const w = await world({ receiver });
    const url = `http://hooks.booking-example.test:${receiver.port}/hooks`;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { webhookUrl: url })).status).toBe(200);
    const lookups: string[] = [];
    // A name no real resolver knows; the first address has nothing listening on the receiver's port.
    vi.spyOn(Bun.dns, "lookup").mockImplementation((async (host: string) => {
      lookups.push(host);
      return [
        { address: "127.0.0.2", family: 4, ttl: 0 },
        { address: "127.0.0.1", family: 4, ttl: 0 },
      ];
    }) as typeof Bun.dns.lookup);
    const uuid = uuidOf(await w.book(input(TUE_0900)));

    expect(await w.worker.runOnce()).toBe(1);
    expect(lookups).toEqual(["hooks.booking-example.test"]);
    expect(receiver.hits).toHaveLength(1);
    expect(receiver.hits[0]!.headers.host).toBe(`hooks.booking-example.test:${receiver.port}`);
    expect(receiver.accepted().map((p) => [p.type, p.data.uuid])).toEqual([["reservation.created", uuid]]);
    const [d] = await w.deliveries();
    expect(d).toMatchObject({ status: "delivered", attempts: 1, url });
    await closeAll(w.store);
  });
});

describe("several workers on one store", () => {
  it("delivers each event exactly once when two workers on two connections to one SQLite file run at the same time", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-webhooks-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "booking.sqlite");
    // A receiver that takes a moment, so the two workers' passes overlap.
    const receiver = startReceiver(async () => {
      await Bun.sleep(5);
      return new Response("ok");
    });
    const w = await world({ receiver, databasePath: path, settings: { seats: 40 } });
    const other = openSqliteStore(path);
    const workers = [w.worker, new WebhookWorker(other, w.clock, { allowPrivateAddresses: true }, () => undefined)];

    const uuids: string[] = [];
    for (let i = 0; i < 40; i++) uuids.push(uuidOf(await w.book(input(TUE_0900))));
    let idle = 0;
    for (let round = 0; round < 100 && idle < 3; round++) {
      const made = await Promise.all(workers.map((worker) => worker.runOnce()));
      idle = made.every((n) => n === 0) ? idle + 1 : 0;
    }

    expect(receiver.hits.every((h) => h.verified)).toBe(true);
    const ids = receiver.hits.map((h) => h.headers["webhook-id"]);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(
      receiver
        .accepted()
        .map((p) => p.data.uuid)
        .sort(),
    ).toEqual([...uuids].sort());
    const log = await w.deliveries();
    expect(log.filter((d) => d.status === "delivered" && d.attempts === 1 && d.attemptLog.length === 1)).toHaveLength(40);
    await closeAll(w.store, other);
  });
});

describe("durability", () => {
  it("delivers the events of bookings made before a crash once a new server process runs on the same database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-webhooks-crash-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { BOOKING_DB: join(dir, "booking.sqlite"), RATE_LIMIT_PER_MINUTE: "100000", STRIPE_STANDIN: "0", BOOKING_ADMIN_KEY: ADMIN_KEY };
    const port = closedPort();
    const first = await startServerProcess(env);
    cleanups.push(() => first.kill("SIGKILL"));
    const http = httpClient(first);

    const everyDay = Object.fromEntries(
      ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start: "00:00", end: "24:00" }]]),
    );
    const created = await http.admin("POST", "/admin/event-types", {
      title: "Crash test",
      timezone: "UTC",
      seats: 3,
      minNoticeMinutes: 60,
      availability: { weekly: everyDay },
      webhookUrl: `http://127.0.0.1:${port}/hooks`,
    });
    expect(created.status).toBe(200);
    const { id, token, webhookSecret } = created.body.data;
    const today = new Date().toISOString().slice(0, 10);
    const later = new Date(Date.now() + 2 * 24 * HOUR).toISOString().slice(0, 10);
    const slots = await http.call("GET", `/time-slots?from=${today}&until=${later}`, token);
    const slot = slots.body.data[0];
    const uuids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await http.call("POST", "/reservations", token, { start: slot.startIso8601, end: slot.endIso8601, email: `crash${i}@example.com` });
      expect(r.body.success, JSON.stringify(r.body)).toBe(true);
      uuids.push(r.body.data.uuid);
    }

    // The running worker finds nobody listening; once each event's failure is written down (and
    // no attempt is in flight), the process dies without any shutdown code running.
    await waitFor(
      async () => {
        const log = (await http.admin("GET", `/admin/event-types/${id}/webhook-deliveries`)).body.data as any[];
        return (
          log.length === 3 && log.every((d) => d.status === "pending" && d.attempts === 1 && d.attemptLog.length === 1 && /^unreachable/.test(d.lastError))
        );
      },
      10_000,
      "each event's first failure written down",
    );
    await first.kill("SIGKILL");

    const receiver = startReceiver(undefined, port);
    receiver.secret = webhookSecret;
    const second = await startServerProcess(env);
    cleanups.push(() => second.stop());
    await waitFor(async () => receiver.accepted().length >= 3, 20_000, "the restarted server to deliver the three events");

    expect(receiver.hits.every((h) => h.verified)).toBe(true);
    expect(
      receiver
        .accepted()
        .map((p) => [p.type, p.data.uuid])
        .sort(),
    ).toEqual(uuids.map((u) => ["reservation.created", u]).sort());
    const log = (await httpClient(second).admin("GET", `/admin/event-types/${id}/webhook-deliveries`)).body.data as any[];
    expect(log.map((d) => [d.status, d.attempts])).toEqual([
      ["delivered", 2],
      ["delivered", 2],
      ["delivered", 2],
    ]);
  }, 45_000);
});

/** JSON calls to a server process over real HTTP. */
function httpClient(server: ServerProcess) {
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { call, admin: (method: string, path: string, body?: unknown) => call(method, path, ADMIN_KEY, body) };
}
