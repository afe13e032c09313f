/**
 * Starting a stand-in: a Bun HTTP server that answers part of Stripe's REST API on a local port, and a
 * handle for tests to inspect and steer it. This is a test and demo double, NOT Stripe.
 */
import Stripe from "stripe";
import type { Server } from "bun";
import { settleWithDeliveries } from "./control.ts";
import { createCore } from "./core.ts";
import type { Delivery } from "./events.ts";
import type { PaymentIntent } from "./intent-object.ts";
import { createHandler } from "./server.ts";

/** How to start a stand-in. */
export interface StripeStandinOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; defaults to loopback, `127.0.0.1`. */
  hostname?: string;
  /** The one secret key accepted; by default any `sk_test_...` key is. */
  secretKey?: string;
  /** The one publishable key accepted; by default any `pk_test_...` key is. */
  publishableKey?: string;
  /** The `whsec_...` secret events are signed with; the receiver verifies with the same one. */
  webhookSecret: string;
  /** Where events are POSTed; `null` or absent records them without delivering. */
  webhookUrl?: string | null;
  /** API version for events and for requests that send no `Stripe-Version`; defaults to the SDK's pinned one. */
  apiVersion?: string;
  /** One line per request and per webhook delivery; silent by default. */
  log?: (line: string) => void;
}

/** A running stand-in. Configure the `stripe` SDK with `{ host, port, protocol }` to talk to it. */
export interface StripeStandin {
  /** Base URL, e.g. `http://127.0.0.1:12111`. */
  url: string;
  host: string;
  port: number;
  protocol: "http";
  /** Stops listening after the webhook deliveries under way have been attempted. */
  stop(): Promise<void>;
  /** Points later webhook deliveries at `url` (`null`: record only). */
  setWebhookUrl(url: string | null): void;
  /** A copy of the intent with this id, on whichever account owns it. */
  paymentIntent(id: string): PaymentIntent | undefined;
  /** Copies of every intent on every account, oldest first. */
  intents(): PaymentIntent[];
  /** Pays the intent as if the customer confirmed with `pm_card_visa`; resolves once the webhook was attempted. */
  succeed(id: string): Promise<void>;
  /** Declines the intent's payment with `declineCode` (default `generic_decline`); resolves once the webhook was attempted. */
  fail(id: string, declineCode?: string): Promise<void>;
  /** Copies of every refund on every account, oldest first. */
  refunds(): Stripe.Refund[];
  /** Every webhook delivery so far, with the receiver's HTTP status (`null` when unreachable). */
  deliveries(): Delivery[];
  /** Resolves when every webhook delivery queued so far has been attempted. */
  settled(): Promise<void>;
}

/** Starts a stand-in for Stripe's PaymentIntents API and webhooks on a local port. */
export async function startStripeStandin(options: StripeStandinOptions): Promise<StripeStandin> {
  if (!options.webhookSecret?.startsWith("whsec_")) throw new Error("webhookSecret must be a whsec_... signing secret");
  const log = options.log ?? (() => {});
  const core = createCore({
    keys: { ...(options.secretKey ? { secretKey: options.secretKey } : {}), ...(options.publishableKey ? { publishableKey: options.publishableKey } : {}) },
    webhookSecret: options.webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    apiVersion: options.apiVersion ?? Stripe.API_VERSION,
    log,
  });
  const hostname = options.hostname ?? "127.0.0.1";
  const server: Server<undefined> = Bun.serve({ port: options.port ?? 0, hostname, fetch: createHandler(core) });
  const port = server.port!;
  const host = hostname === "0.0.0.0" ? "127.0.0.1" : hostname;
  log(`Stripe stand-in (NOT Stripe) listening on http://${host}:${port}`);

  return {
    url: `http://${host}:${port}`,
    host,
    port,
    protocol: "http",
    async stop() {
      await core.webhooks.settled();
      await server.stop(true);
    },
    setWebhookUrl: (url) => core.webhooks.setUrl(url),
    paymentIntent: (id) => {
      const record = core.intents.find(id);
      return record ? structuredClone(record.intent) : undefined;
    },
    intents: () => core.intents.all().map((r) => structuredClone(r.intent)),
    async succeed(id) {
      await settleWithDeliveries(core, () => core.intents.succeed(id));
    },
    async fail(id, declineCode) {
      await settleWithDeliveries(core, () => core.intents.fail(id, declineCode));
    },
    refunds: () => core.intents.refunds.all().map((r) => structuredClone(r.refund)),
    deliveries: () => core.webhooks.deliveries(),
    settled: () => core.webhooks.settled(),
  };
}
