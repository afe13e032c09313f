import { defineConfig } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Component tests: the built script-tag file in Chromium against the real server (`npm start`'s
 * code path) on a fresh SQLite file and a free port. Debian's Chromium is used where it is
 * installed (`CHROMIUM_PATH` overrides); elsewhere Playwright's own browser.
 */
const repo = resolve(import.meta.dirname, "../../..");
// Set once in the runner's environment, which the workers inherit, so all agree on port and file.
process.env.BC_TEST_PORT ??= execFileSync(process.execPath, ["-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"]).toString().trim();
process.env.BC_SITE_PORT ??= execFileSync(process.execPath, ["-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"]).toString().trim();
process.env.BC_TEST_DB ??= join(tmpdir(), `booking-calendar-test-${Date.now()}-${process.pid}.sqlite`);
const port = process.env.BC_TEST_PORT;
const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: [{
    command: `${join(repo, "node_modules/.bin/bun")} packages/server/src/main.ts`,
    cwd: repo,
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: port,
      BOOKING_DB: process.env.BC_TEST_DB,
      BOOKING_ADMIN_KEY: "component-test-admin-key",
      // Tests share one client address; the limit itself is tested through recorded 429 answers.
      RATE_LIMIT_PER_MINUTE: "100000",
    },
  }, {
    command: `${join(repo, "node_modules/.bin/bun")} packages/booking-calendar/test/site-server.ts`,
    cwd: repo,
    url: `http://127.0.0.1:${process.env.BC_SITE_PORT}/health`,
    reuseExistingServer: false,
    stdout: "ignore",
    env: { BC_SITE_PORT: process.env.BC_SITE_PORT, BC_API_ORIGIN: `http://127.0.0.1:${port}` },
  }],
});
