// First: sets production mode before Elysia reads NODE_ENV.
import "./production-mode.ts";
import { isProduction } from "elysia/error";
import { createApp } from "./app.ts";
import { bookingUrlOf, embedSnippet, publicOrigin } from "./lib/links.ts";
import { stderrLog } from "./lib/log.ts";
import { systemClock } from "./clock.ts";
import { configFromEnv, type ServerConfig } from "./config.ts";
import { startStripeStandin, type StripeStandin } from "@booking/stripe-standin";
import { STRIPE_WEBHOOK_PATH } from "./modules/payments/index.ts";
import { seedDemo } from "./seed.ts";
import { newWebhookSecret } from "./lib/tokens.ts";
import { WebhookWorker } from "./modules/webhooks/worker.ts";
import { EmailWorker } from "./modules/mail/deliverer.ts";
import { ReminderWorker } from "./modules/mail/reminder-worker.ts";
import { mailPolicy } from "./modules/mail/events.ts";
import { openConfiguredStore } from "./store/open.ts";
import { PaymentService } from "./modules/payments/service.ts";
import { stripeProvider } from "./modules/payments/stripe.ts";
import { ReservationService } from "./modules/reservations/service.ts";
import { describeTarget } from "./store/postgres/pools.ts";
import { CalendarSync, storeBusySource } from "./modules/calendars/sync.ts";
import { CalendarWriteWorker } from "./modules/calendars/writer.ts";
import { ExpansionWorkers } from "./modules/calendars/expansion.ts";
import { ConsoleAccess } from "./modules/console/service.ts";

const SWEEP_EVERY_MS = 30_000;

/** `npm start`: the API on the embedded SQLite file (or PostgreSQL with DATABASE_URL), seeded with a demo on a first run outside production. */
async function main(): Promise<void> {
  const config = configFromEnv(process.env);
  const standin = await startStandinWithoutStripe(config);
  const store = await openConfiguredStore(config, stderrLog);
  // The demo is for a first try on the embedded store; instances sharing PostgreSQL could race to seed it.
  const seeded = config.environment === "production" || config.databaseUrl ? [] : await seedDemo(store, () => systemClock.now());
  // The organizer's calendars are synced in the background, each once its freshness has passed;
  // slot pages and bookings read what the last good sync stored. The admin API's "sync now" goes
  // through the same sync, so it joins one under way rather than starting a second.
  const calendars = new CalendarSync(store, () => systemClock.now(), config.calendars, new ExpansionWorkers(), stderrLog);
  // A first run needs no configuration: in development without an admin key the console signs in
  // with a one-time link printed below (and the admin API answers the sessions it opens, nothing else).
  config.consoleSignInLinks = config.environment !== "production" && !config.adminKey;
  const consoleAccess = new ConsoleAccess(store, config.adminKey, () => systemClock.now(), { idleMs: config.consoleIdleSeconds * 1000 });
  const app = createApp({ store, config, clock: systemClock, log: stderrLog, calendars: { sync: calendars }, consoleAccess });
  // The contract refuses bodies over the API limit with its JSON 413 while reading them; Bun's own
  // cap (a bare 413) only stops uploads far beyond any limit.
  // No port sharing: a second server started by mistake must fail, not answer half the requests.
  try {
    app.listen({ port: config.port, reusePort: false, maxRequestBodySize: 256 * 1024 * 1024 });
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE")
      throw new Error(`port ${config.port} is in use (is another server running? set PORT to choose another)`);
    throw error;
  }
  const server = app.server!;
  const base = `http://localhost:${server.port}`;
  standin?.setWebhookUrl(`http://127.0.0.1:${server.port}${STRIPE_WEBHOOK_PATH}`);
  // The mode printed is the one Elysia runs in, so a start that missed it shows.
  const mode = isProduction ? "production" : "development";
  console.log(
    `Booking API listening on ${base} (${mode}; ${config.databaseUrl ? `PostgreSQL: ${describeTarget(config.databaseUrl)}` : `SQLite: ${config.databasePath}`})`,
  );
  console.log(`API docs: ${base}/docs   OpenAPI: ${base}/openapi.json`);
  if (seeded.length > 0) {
    const origin = publicOrigin(config, base);
    console.log(
      `\nDemo hosts: ${[...new Set(seeded.flatMap((et) => et.hosts))].join(" and ")}; their bookings of any event type block them in all the others.`,
    );
    console.log("Demo event types created (API and override tokens are shown only now; keep them on servers):");
    for (const et of seeded) {
      console.log(
        `  #${et.id} ${et.title}${et.disabled ? " [disabled]" : ""}\n      API token:      ${et.token}\n      override token: ${et.overrideToken}\n      link token:     ${et.linkToken} (public: for pages and the element)` +
          (et.slug ? `\n      booking page:   ${bookingUrlOf(origin, et.slug)}` : "") +
          (et.hosts.length > 1
            ? `\n      hosts:          ${et.hosts.join(", ")} (${et.assignment === "round-robin" ? "round robin: each booking goes to one free host" : "collective"})`
            : ""),
      );
    }
    // Pages carry the link token: each visitor's address has a budget of its own with it.
    console.log(`\nEmbed "${seeded[0]!.title}" on a site:\n${embedSnippet(origin, seeded[0]!.linkToken).replace(/^/gm, "  ")}`);
    console.log(`\nTry: curl -H "Authorization: Bearer ${seeded[0]!.token}" "${base}/configuration"`);
  }
  if (seeded.length === 0 && config.environment !== "production" && !config.databaseUrl) {
    console.log("API tokens are shown once, when an event type is created (the demo's on the first start).");
    console.log("For new ones: start with BOOKING_ADMIN_KEY set and run `npm run admin -- token <id>`, or delete the database to start over.");
  }
  if (config.consoleSignInLinks) {
    const link = await consoleAccess.issueLink();
    console.log(`\nOrganizer console (one-time sign-in link, valid for an hour): ${publicOrigin(config, base)}/console#link=${link}`);
    console.log(
      "The admin API (/admin) answers only the console's sessions, and the assistant server (/mcp) is off; set BOOKING_ADMIN_KEY to use them with a key.",
    );
  } else if (!config.adminKey)
    console.log("The admin API (/admin), the organizer console (/console) and the assistant server (/mcp) are off; set BOOKING_ADMIN_KEY to turn them on.");
  else console.log(`Organizer console: ${publicOrigin(config, base)}/console (sign in with BOOKING_ADMIN_KEY)`);
  if (config.adminKey)
    console.log(`Assistant server (MCP, Streamable HTTP): ${base}/mcp with Authorization: Bearer <BOOKING_ADMIN_KEY>; on stdio: npm run mcp`);

  const webhooks = new WebhookWorker(store, systemClock, config.webhooks, stderrLog);
  webhooks.start();
  // Confirmation emails: sent over SMTP_URL; without it, logged in development (production writes none).
  const emails = new EmailWorker(store, systemClock, config, stderrLog);
  emails.start();
  // Reminders before each confirmed booking, sent as they fall due (the same SMTP_URL, or logged).
  const reminders = new ReminderWorker(store, systemClock, config, stderrLog);
  reminders.start();
  // Confirmed bookings written into the organizer's CalDAV calendar, where an event type names one.
  const calendarWrites = new CalendarWriteWorker(store, systemClock, config.calendars, stderrLog);
  calendarWrites.start();
  if (config.mail.smtpUrl) console.log(`Confirmation emails go out through ${describeSmtp(config.mail.smtpUrl)} from ${config.mail.from}.`);
  else if (config.environment !== "production") console.log("No SMTP_URL: confirmation emails are not sent; each is logged (where it would go) instead.");

  calendars.start();

  // Expiry is derived from time wherever it matters; the sweep only writes down what time decided,
  // confirms paid holds whose visitor left before confirming, asks Stripe about payments still
  // processing past their hold time or on reservations no longer held (ReservationService.confirmPaidHolds),
  // and retries refunds that could not be made (PaymentService.retryRefunds).
  const sweepPayments = new PaymentService(
    store,
    stripeProvider(config.stripe),
    config.stripe.webhookSecret,
    () => systemClock.now(),
    stderrLog,
    mailPolicy(config),
  );
  const paidHolds = new ReservationService(store, sweepPayments, config, () => systemClock.now(), stderrLog, storeBusySource(store));
  let paymentsSweeping = false;
  const sweep = setInterval(() => {
    store.reservations.sweep(systemClock.now()).catch((error) => stderrLog({ level: "error", message: "expiry sweep failed", error }));
    // One payments pass at a time: Stripe answering slowly must not pile passes up.
    if (paymentsSweeping) return;
    paymentsSweeping = true;
    const origin = publicOrigin(config);
    paidHolds
      .confirmPaidHolds(origin)
      .then(() => sweepPayments.retryRefunds(origin))
      .catch((error) => stderrLog({ level: "error", message: "the payments sweep failed", error }))
      .finally(() => (paymentsSweeping = false));
  }, SWEEP_EVERY_MS);

  const stop = async () => {
    clearInterval(sweep);
    await Promise.all([webhooks.stop(), emails.stop(), reminders.stop(), calendarWrites.stop(), calendars.stop()]);
    // No new requests; those under way get up to 3 s to finish before the store closes under them.
    // A connection that never completes does not hold the exit.
    void server.stop();
    for (let waited = 0; server.pendingRequests > 0 && waited < 3000; waited += 25) await Bun.sleep(25);
    await server.stop(true);
    await standin?.stop();
    await store.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/**
 * Without a Stripe secret key the demo's paid event type could not be booked; so, outside production
 * and unless STRIPE_STANDIN=0, a local stand-in that speaks Stripe's API (not Stripe: no money moves) is started
 * and the server is pointed at it. A real key always wins.
 */
async function startStandinWithoutStripe(config: ServerConfig): Promise<StripeStandin | null> {
  if (config.stripe.secretKey || config.stripe.apiBase || config.environment === "production" || process.env.STRIPE_STANDIN === "0") return null;
  const webhookSecret = newWebhookSecret();
  const standin = await startStripeStandin({ port: 0, webhookSecret });
  config.stripe = { secretKey: "sk_test_standin", publishableKey: "pk_test_standin", webhookSecret, apiBase: standin.url };
  console.log(`No STRIPE_SECRET_KEY: card payments go to a local Stripe stand-in at ${standin.url} (not Stripe; no money moves).`);
  return standin;
}

/** SMTP_URL without its password, for the start message. */
function describeSmtp(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ""}`;
}

main().catch((error) => {
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
