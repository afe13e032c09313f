import Stripe from "stripe";
import type { ServerConfig } from "../../config.ts";

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
