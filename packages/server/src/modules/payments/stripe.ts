import Stripe from "stripe";
import type { ServerConfig } from "../../config.ts";
import { ProviderNotAuthorized, ProviderRefusal, type CallOptions, type PaymentProvider, type ProviderIntent } from "./provider.ts";

/**
 * The platform's Stripe client, or null when no secret key is configured (paid event types then
 * answer `provider_not_configured`). `apiBase` sends the real SDK to another host speaking Stripe's
 * protocol, such as the local stand-in used by tests and the offline demo.
 */
export function stripeClient(config: ServerConfig["stripe"]): Stripe | null {
  if (!config.secretKey) return null;
  const base = config.apiBase ? new URL(config.apiBase) : null;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(base
      ? { host: base.hostname, port: Number(base.port || (base.protocol === "https:" ? 443 : 80)), protocol: base.protocol === "https:" ? "https" : "http" }
      : {}),
  });
}

/** The Stripe PaymentProvider of the configuration, or null without a secret key. */
export function stripeProvider(config: ServerConfig["stripe"]): PaymentProvider | null {
  const client = stripeClient(config);
  return client ? new StripeProvider(client) : null;
}

/** Best effort on the way of a visitor's request: a short wait and no retries, not the client's 15 s and two retries. */
const BEST_EFFORT = { timeout: 5_000, maxNetworkRetries: 0 };

/**
 * The PaymentProvider backed by the `stripe` SDK. Stripe's refusals become ProviderRefusal and
 * ProviderNotAuthorized so the payment rules never depend on the SDK's error classes; network
 * failures pass through as they are.
 */
export class StripeProvider implements PaymentProvider {
  constructor(private readonly stripe: Stripe) {}

  retrieveIntent(id: string, options: CallOptions): Promise<ProviderIntent> {
    return translated(async () => intentOf(await this.stripe.paymentIntents.retrieve(id, {}, requestOptions(options))));
  }

  createIntent(intent: Parameters<PaymentProvider["createIntent"]>[0], options: CallOptions & { idempotencyKey: string }): Promise<ProviderIntent> {
    return translated(async () =>
      intentOf(
        await this.stripe.paymentIntents.create(
          { ...intent, automatic_payment_methods: { enabled: true } },
          { ...requestOptions(options), idempotencyKey: options.idempotencyKey },
        ),
      ),
    );
  }

  updateReceiptEmail(id: string, email: string | null, options: CallOptions): Promise<ProviderIntent> {
    // Stripe unsets a field sent empty.
    return translated(async () => intentOf(await this.stripe.paymentIntents.update(id, { receipt_email: email ?? "" }, requestOptions(options))));
  }

  cancelIntent(id: string, options: CallOptions): Promise<void> {
    return translated(async () => {
      await this.stripe.paymentIntents.cancel(id, {}, requestOptions(options));
    });
  }

  createRefund(refund: Parameters<PaymentProvider["createRefund"]>[0], options: CallOptions & { idempotencyKey: string }) {
    return translated(async () => {
      const made = await this.stripe.refunds.create(refund, { ...requestOptions(options), idempotencyKey: options.idempotencyKey });
      return { id: made.id, status: made.status ?? "pending" };
    });
  }

  listRefunds(intentId: string, limit: number, options: CallOptions) {
    return translated(async () => {
      const list = await this.stripe.refunds.list({ payment_intent: intentId, limit }, requestOptions(options));
      return list.data.map((refund) => ({ id: refund.id, status: refund.status ?? "pending" }));
    });
  }

  async verifyEvent(rawBody: string, signature: string, secret: string) {
    const event = await this.stripe.webhooks.constructEventAsync(rawBody, signature, secret);
    const intent = event.type.startsWith("payment_intent.") ? intentOf(event.data.object as Stripe.PaymentIntent) : null;
    return { id: event.id, type: event.type, account: event.account ?? null, intent };
  }
}

function requestOptions(options: CallOptions): Stripe.RequestOptions {
  return { stripeAccount: options.account, ...(options.bestEffort ? BEST_EFFORT : {}) };
}

function intentOf(intent: Stripe.PaymentIntent): ProviderIntent {
  return {
    id: intent.id,
    // The SDK widens the status to any string for future states; the port lists the known ones.
    status: intent.status as ProviderIntent["status"],
    amount: intent.amount,
    currency: intent.currency,
    client_secret: intent.client_secret,
    receipt_email: intent.receipt_email,
    metadata: intent.metadata ?? {},
  };
}

async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Stripe.errors.StripePermissionError || error instanceof Stripe.errors.StripeAuthenticationError) {
      throw new ProviderNotAuthorized(error.message, { cause: error });
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new ProviderRefusal(error.message, error.code, error.param, { cause: error });
    throw error;
  }
}
