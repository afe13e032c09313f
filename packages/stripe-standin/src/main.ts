/**
 * `npm start -w @booking/stripe-standin`: runs the Stripe stand-in on its own for the offline demo.
 *
 * Environment: `PORT` (default 12111, the port of stripe-mock), `STRIPE_WEBHOOK_SECRET` (a `whsec_...`
 * secret; one is generated and printed when unset), `STANDIN_WEBHOOK_URL` (where events go; none by
 * default), `STRIPE_SECRET_KEY` / `STRIPE_PUBLISHABLE_KEY` (accept only these keys; any test key otherwise),
 * `STANDIN_HOST` (default 127.0.0.1).
 */
import { randomTail } from "./ids.ts";
import { startStripeStandin } from "./standin.ts";

async function main(): Promise<void> {
  const env = process.env;
  const port = env.PORT ? Number(env.PORT) : 12111;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT is not a port number: ${env.PORT}`);
  const generated = !env.STRIPE_WEBHOOK_SECRET;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || `whsec_${randomTail(32)}`;
  const standin = await startStripeStandin({
    port,
    hostname: env.STANDIN_HOST || "127.0.0.1",
    webhookSecret,
    webhookUrl: env.STANDIN_WEBHOOK_URL || null,
    ...(env.STRIPE_SECRET_KEY ? { secretKey: env.STRIPE_SECRET_KEY } : {}),
    ...(env.STRIPE_PUBLISHABLE_KEY ? { publishableKey: env.STRIPE_PUBLISHABLE_KEY } : {}),
    log: (line) => console.log(`[stripe-standin] ${line}`),
  });

  console.log("");
  console.log("This is a LOCAL STAND-IN for part of Stripe's API, for tests and the offline demo. It is NOT Stripe:");
  console.log("no money moves and no card is charged. It implements PaymentIntents (create, retrieve, update,");
  console.log("confirm, cancel, capture) with Stripe's test cards, and signed payment_intent.* webhooks.");
  console.log("");
  console.log(`Listening on ${standin.url}  (control surface: ${standin.url}/_standin)`);
  console.log(`Point the stripe SDK at it: new Stripe(key, { host: "${standin.host}", port: ${standin.port}, protocol: "http" })`);
  console.log(`Webhook signing secret: ${webhookSecret}${generated ? "  (generated; set STRIPE_WEBHOOK_SECRET to fix it)" : ""}`);
  console.log(`Webhook URL: ${env.STANDIN_WEBHOOK_URL || "none (set STANDIN_WEBHOOK_URL or POST /_standin/webhook-url)"}`);

  const stop = async () => {
    await standin.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`Could not start the Stripe stand-in: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
