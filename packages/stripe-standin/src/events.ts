/**
 * Stripe events and their delivery to one webhook URL, signed as Stripe signs them.
 *
 * Each event is a v1 snapshot event (`object: "event"`, `data.object` = the PaymentIntent as it was when
 * the event happened, `account` = the connected account for Connect events). The body is sent as
 * pretty-printed JSON, as Stripe sends it, and signed over exactly those bytes with
 * `Stripe-Signature: t=<unix seconds>,v1=<HMAC-SHA256 hex>` by the `stripe` SDK's own
 * `webhooks.generateTestHeaderStringAsync`, so `stripe.webhooks.constructEvent(Async)` with the same
 * `whsec_...` secret verifies it. (The async variant is used because under Bun the SDK's default crypto
 * provider is SubtleCrypto, which has no synchronous HMAC.)
 *
 * Deliveries go out one at a time in the order the events happened. A receiver that is down or answers
 * an error is recorded, not retried (Stripe would retry for days), and never breaks the API call that
 * caused the event. Unlike Stripe, platform and connected-account events go to the same single URL.
 */
import Stripe from "stripe";
import { newId } from "./ids.ts";
import type { PaymentIntent } from "./intent-object.ts";
import type { IntentEvent } from "./intents.ts";

/** Stripe's event object as delivered to webhooks. */
export interface StripeEvent {
  id: string;
  object: "event";
  account?: string;
  api_version: string;
  created: number;
  data: { object: PaymentIntent };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: IntentEvent["type"];
}

/** One attempt to deliver one event: the receiver's HTTP status, or `null` when it could not be reached. */
export interface Delivery {
  event: string;
  type: IntentEvent["type"];
  account: string | null;
  url: string | null;
  status: number | null;
  ok: boolean;
  error?: string;
}

/** The API request that caused an event, as Stripe reports it in `event.request`. */
export interface CausingRequest {
  id: string | null;
  idempotency_key: string | null;
}

/** How events are built and where they go. */
export interface WebhookOptions {
  secret: string;
  url: string | null;
  apiVersion: string;
  now: () => number;
  log: (line: string) => void;
  timeoutMs?: number;
}

/** Builds, signs and delivers events, and remembers every delivery. */
export class WebhookSender {
  private target: string | null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly sent: Delivery[] = [];

  constructor(private readonly options: WebhookOptions) {
    this.target = options.url;
  }

  /** Where events are delivered now; `null` when nowhere. */
  url(): string | null {
    return this.target;
  }

  /** Points later deliveries at `url`; `null` stops delivering (events are still recorded). */
  setUrl(url: string | null): void {
    this.target = url;
  }

  /** The Stripe event for an intent change. */
  build(change: IntentEvent, request: CausingRequest): StripeEvent {
    return {
      id: newId("evt"),
      object: "event",
      ...(change.account ? { account: change.account } : {}),
      api_version: this.options.apiVersion,
      created: Math.floor(this.options.now() / 1000),
      data: { object: change.intent },
      livemode: false,
      pending_webhooks: this.target ? 1 : 0,
      request,
      type: change.type,
    };
  }

  /** Queues delivery of the event; resolves with the recorded delivery once it is done. */
  send(change: IntentEvent, request: CausingRequest): Promise<Delivery> {
    const event = this.build(change, request);
    const url = this.target;
    const delivered = this.queue.then(() => this.deliver(event, url));
    this.queue = delivered.catch(() => undefined);
    return delivered;
  }

  private async deliver(event: StripeEvent, url: string | null): Promise<Delivery> {
    const record: Delivery = { event: event.id, type: event.type, account: event.account ?? null, url, status: null, ok: false };
    if (!url) {
      record.error = "no webhook URL configured";
    } else {
      try {
        const payload = JSON.stringify(event, null, 2);
        const signature = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: this.options.secret });
        const response = await fetch(url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json; charset=utf-8",
            "Stripe-Signature": signature,
            "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks) stripe-standin",
            "Cache-Control": "no-cache",
          },
          body: payload,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        await response.body?.cancel();
        record.status = response.status;
        record.ok = response.ok;
      } catch (error) {
        record.error = error instanceof Error ? error.message : String(error);
      }
    }
    this.sent.push(record);
    this.options.log(
      `webhook ${event.type} ${event.id}${record.account ? ` (${record.account})` : ""} → ${url ?? "nowhere"}: ${record.status ?? record.error}`,
    );
    return record;
  }

  /** Every delivery so far, oldest first. */
  deliveries(): Delivery[] {
    return this.sent.map((d) => ({ ...d }));
  }

  /** Resolves when every queued delivery has been attempted. */
  async settled(): Promise<void> {
    await this.queue;
  }
}
