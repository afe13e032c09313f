import type { ServerConfig } from "../config.ts";

/** Where the server serves its Stripe.js stand-in (outside production, when payments go to the local Stripe stand-in). */
export const STRIPE_JS_STANDIN_PATH = "/embed/stripe-standin.js";

/** Whether browsers should load the Stripe.js stand-in: outside production, when the SDK talks to a stand-in. */
export const usesStripeStandin = (config: ServerConfig): boolean => config.environment !== "production" && config.stripe.apiBase !== null;
