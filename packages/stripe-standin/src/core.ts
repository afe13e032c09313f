/**
 * The stand-in's state and its wiring, shared by the Stripe-shaped API (`server.ts`), the control
 * surface (`control.ts`) and the programmatic handle (`standin.ts`): intents, idempotent responses, the
 * webhook sender, and which request caused which event.
 */
import type { KeyPolicy } from "./auth.ts";
import { WebhookSender, type CausingRequest, type Delivery } from "./events.ts";
import { IdempotencyStore } from "./idempotency.ts";
import { PaymentIntents } from "./intents.ts";

/** What the core is built from. */
export interface CoreOptions {
  keys: KeyPolicy;
  webhookSecret: string;
  webhookUrl: string | null;
  apiVersion: string;
  log: (line: string) => void;
  now?: () => number;
}

/** An operation's result and the deliveries of the events it raised. */
export interface Caused<T> {
  result: T;
  deliveries: Promise<Delivery>[];
}

/** The live state of one stand-in. */
export interface StandinCore {
  readonly intents: PaymentIntents;
  readonly webhooks: WebhookSender;
  readonly idempotency: IdempotencyStore;
  readonly keys: KeyPolicy;
  readonly apiVersion: string;
  readonly log: (line: string) => void;
  /**
   * Runs a (synchronous) operation on the intents as caused by `request`, so that the events it raises
   * carry that request in `event.request`, and hands back their deliveries for whoever wants to wait.
   */
  during<T>(request: CausingRequest, operation: () => T): Caused<T>;
}

const NO_REQUEST: CausingRequest = { id: null, idempotency_key: null };

/** A fresh stand-in state with no intents. */
export function createCore(options: CoreOptions): StandinCore {
  const now = options.now ?? Date.now;
  const webhooks = new WebhookSender({ secret: options.webhookSecret, url: options.webhookUrl, apiVersion: options.apiVersion, now, log: options.log });
  let causing = NO_REQUEST;
  let raised: Promise<Delivery>[] = [];
  const intents = new PaymentIntents(now, (event) => {
    raised.push(webhooks.send(event, causing));
  });
  return {
    intents,
    webhooks,
    idempotency: new IdempotencyStore(now),
    keys: options.keys,
    apiVersion: options.apiVersion,
    log: options.log,
    during<T>(request: CausingRequest, operation: () => T): Caused<T> {
      causing = request;
      raised = [];
      const deliveries = raised;
      try {
        return { result: operation(), deliveries };
      } finally {
        causing = NO_REQUEST;
        raised = [];
      }
    },
  };
}
