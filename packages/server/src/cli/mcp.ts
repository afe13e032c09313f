/**
 * The assistant server (MCP) on stdio, for desktop assistants: `npm run mcp` from the repository
 * root, started by the assistant with the same environment as `npm start` (BOOKING_DB or
 * DATABASE_URL, BOOKING_PUBLIC_URL, ...). It opens the same store and acts through the same
 * services as the HTTP server, so every rule holds and every change is visible there at once.
 *
 * stdout carries the protocol only; everything else goes to stderr. It refuses to start without
 * BOOKING_ADMIN_KEY: whoever can run it acts as the organizer, so it takes the organizer's key like
 * the admin API and `/mcp` do. It also runs a webhook worker, so reschedules and cancellations made
 * while no HTTP server runs are delivered too (workers share the outbox safely).
 */
// First: sets production mode before any library reads NODE_ENV.
import "../production-mode.ts";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { stderrLog } from "../lib/log.ts";
import { systemClock } from "../clock.ts";
import { configFromEnv } from "../config.ts";
import type { AppContext } from "../context.ts";
import { MemoryRateLimiter } from "../store/rate-limiter.ts";
import { publicOrigin } from "../lib/links.ts";
import { createMcpServer } from "../modules/mcp/server.ts";
import { WebhookWorker } from "../modules/webhooks/worker.ts";
import { EmailWorker } from "../modules/mail/deliverer.ts";
import { ReminderWorker } from "../modules/mail/reminder-worker.ts";
import { createServices } from "../services.ts";
import { openConfiguredStore } from "../store/open.ts";
import { describeTarget } from "../store/postgres/pools.ts";

async function main(): Promise<void> {
  const config = configFromEnv(process.env);
  if (!config.adminKey) {
    console.error("The assistant server acts as the organizer and needs the admin key: set BOOKING_ADMIN_KEY (the key of the admin API) in its environment.");
    process.exit(1);
  }
  const store = await openConfiguredStore(config, stderrLog);
  const ctx: AppContext = {
    store,
    clock: systemClock,
    config,
    rateLimiter: new MemoryRateLimiter(config.rateLimit.limit, config.rateLimit.windowSeconds),
    log: stderrLog,
  };
  const server = createMcpServer(ctx, createServices(ctx), publicOrigin(config));
  const webhooks = new WebhookWorker(store, systemClock, config.webhooks, stderrLog);
  webhooks.start();
  const emails = new EmailWorker(store, systemClock, config, stderrLog);
  emails.start();
  const reminders = new ReminderWorker(store, systemClock, config, stderrLog);
  reminders.start();

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => undefined);
    await Promise.all([webhooks.stop(), emails.stop(), reminders.stop()]);
    await store.close();
    process.exit(0);
  };
  // The assistant ends the session by closing stdin (or with a signal).
  process.stdin.on("end", stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  await server.connect(new StdioServerTransport());
  console.error(
    `Booking calendar assistant server on stdio (${config.databaseUrl ? `PostgreSQL: ${describeTarget(config.databaseUrl)}` : `SQLite: ${config.databasePath}`}).`,
  );
}

main().catch((error) => {
  console.error(`Could not start the assistant server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
