import { defineConfig } from "@playwright/test";
import { apiServer, bunServer, freePorts, launchOptions, runDatabase } from "./browser.ts";

/**
 * Component tests: the built script-tag file in Chromium against the real server (`npm start`'s
 * code path) on a fresh SQLite file and a free port. Debian's Chromium is used where it is
 * installed (`CHROMIUM_PATH` overrides); elsewhere Playwright's own browser.
 */
// Set once in the runner's environment, which the workers inherit, so all agree on port and file.
if (!process.env.BC_TEST_PORT || !process.env.BC_SITE_PORT) [process.env.BC_TEST_PORT, process.env.BC_SITE_PORT] = freePorts(2);
const database = runDatabase("booking-calendar-test");
const port = process.env.BC_TEST_PORT!;
const sitePort = process.env.BC_SITE_PORT!;

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  fullyParallel: true,
  globalTeardown: "./teardown.ts",
  workers: 2,
  forbidOnly: !!process.env.CI,
  // A test that fails once in CI runs again; a pass on the second try is reported as flaky in the log.
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The visitor's zone, so a slot's UTC date is also its day in the month grid.
    timezoneId: "UTC",
    launchOptions,
  },
  webServer: [
    apiServer(port, database),
    bunServer("packages/booking-calendar/test/site-server.ts", `http://127.0.0.1:${sitePort}/health`, {
      BC_SITE_PORT: sitePort,
      BC_API_ORIGIN: `http://127.0.0.1:${port}`,
    }),
  ],
});
