import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { LaunchOptions, PlaywrightTestConfig } from "@playwright/test";

/*
 * What the component and the end-to-end Playwright configs share: free loopback ports, a fresh
 * SQLite file per run (removed by `teardown.ts`), and the Chromium they drive: Debian's
 * `/usr/bin/chromium` where it is installed, or the one `CHROMIUM_PATH` names; elsewhere
 * Playwright's own browser. Headless, and nothing that would reach the network on its own.
 */

/** Ports free on loopback, as many as asked and all different (they are held together while drawn). */
export function freePorts(count: number): string[] {
  const script = `const servers = Array.from({ length: ${count} }, () => require("net").createServer().listen(0, "127.0.0.1"));
Promise.all(servers.map((s) => new Promise((r) => s.on("listening", r)))).then(() => {
  console.log(servers.map((s) => s.address().port).join(" "));
  servers.forEach((s) => s.close());
});`;
  return execFileSync(process.execPath, ["-e", script]).toString().trim().split(" ");
}

const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

export const launchOptions: LaunchOptions = {
  ...(chromium ? { executablePath: chromium } : {}),
  // Chromium's sandbox cannot run as root (CI does); other users keep it.
  args: [
    ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** The run's SQLite file, named once in the runner's environment, which the workers inherit. */
export function runDatabase(prefix: string): string {
  process.env.BROWSER_TEST_DB ??= join(tmpdir(), `${prefix}-${Date.now()}-${process.pid}.sqlite`);
  return process.env.BROWSER_TEST_DB;
}

/** The admin key the browser test runs start their API with. */
export const ADMIN_KEY = "browser-test-admin-key";

const repo = resolve(import.meta.dirname, "../../..");
type WebServer = Extract<NonNullable<PlaywrightTestConfig["webServer"]>, { command: string }>;

/** A Bun script of the repository as a Playwright web server, started fresh and ready when `url` answers. */
export function bunServer(script: string, url: string, env: Record<string, string>): WebServer {
  return { command: `${join(repo, "node_modules/.bin/bun")} ${script}`, cwd: repo, url, reuseExistingServer: false, stdout: "ignore", stderr: "pipe", env };
}

/**
 * The booking API as `npm start` runs it (`packages/server/src/main.ts`), on `port` and the run's
 * SQLite `database`, with the tests' admin key. Every test visitor comes from 127.0.0.1, so the rate
 * limit is lifted; it has tests of its own.
 */
export function apiServer(port: string, database: string): WebServer {
  return bunServer("packages/server/src/main.ts", `http://127.0.0.1:${port}/health`, {
    PORT: port,
    BOOKING_DB: database,
    BOOKING_ADMIN_KEY: ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: "100000",
  });
}
