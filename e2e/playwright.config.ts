import { defineConfig } from "@playwright/test";
import { apiServer, bunServer, freePorts, launchOptions, runDatabase } from "../packages/booking-calendar/test/browser.ts";
import { postgresApiServer } from "./support/postgres.ts";

/**
 * End-to-end tests: the visitor flows and the three ways to embed, in Chromium against the real
 * server started as `npm start` starts it (`packages/server/src/main.ts`, after `npm run build`), on a
 * fresh SQLite file and a free port, and a customer site on a second loopback origin. Debian's
 * Chromium is used where it is installed (`CHROMIUM_PATH` overrides); elsewhere Playwright's own.
 */
// Set once in the runner's environment, which the workers inherit, so all agree on ports and file.
if (!process.env.E2E_API_PORT || !process.env.E2E_SITE_PORT || !process.env.E2E_PG_API_PORT) {
  [process.env.E2E_API_PORT, process.env.E2E_SITE_PORT, process.env.E2E_PG_API_PORT] = freePorts(3);
}
const apiPort = process.env.E2E_API_PORT!;
const sitePort = process.env.E2E_SITE_PORT!;
const pgApiPort = process.env.E2E_PG_API_PORT!;
// The organizer console's flows run on PostgreSQL too: a second API on a schema of this run's own.
process.env.E2E_PG_SCHEMA ??= `e2e_console_${Date.now()}_${process.pid}`;
const database = runDatabase("booking-e2e");
const api = `http://127.0.0.1:${apiPort}`;

export default defineConfig({
  testDir: "tests",
  fullyParallel: true,
  globalTeardown: "support/teardown.ts",
  workers: 2,
  forbidOnly: !!process.env.CI,
  // A test that fails once in CI runs again; a pass on the second try is reported as flaky in the log.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 45_000,
  expect: { timeout: 10_000 },
  outputDir: "artifacts/test-results",
  use: {
    baseURL: api,
    // The visitor's zone, so a slot's UTC date is also its day in the month grid (a test that needs
    // another zone sets it with test.use).
    timezoneId: "UTC",
    trace: "retain-on-failure",
    launchOptions,
  },
  webServer: [
    apiServer(apiPort, database),
    postgresApiServer(pgApiPort, process.env.E2E_PG_SCHEMA),
    bunServer("e2e/site/server.ts", `http://127.0.0.1:${sitePort}/health`, { E2E_SITE_PORT: sitePort, E2E_API_ORIGIN: api }),
  ],
});
