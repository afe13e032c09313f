import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, expectAccessible, saveScreenshot, test } from "../support/fixtures.ts";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";

// The console's page when it cannot sign in with a key: off in production without BOOKING_ADMIN_KEY,
// one-time links only in development without one. Each on a server of this file's own, started as
// `npm start` starts it with that environment.

const repo = resolve(import.meta.dirname, "../..");
const started: { child: ChildProcess; database: string }[] = [];

/** Starts the server with `env` (no admin key) on a fresh SQLite file; answers its origin once it is up. */
async function startServer(name: string, env: Record<string, string>): Promise<string> {
  const [port] = freePorts(1);
  const origin = `http://127.0.0.1:${port}`;
  const database = join(tmpdir(), `booking-e2e-${name}-${Date.now()}-${process.pid}.sqlite`);
  const { BOOKING_ADMIN_KEY: _, NODE_ENV: __, BOOKING_ENV: ___, ...inherited } = process.env;
  const child = spawn(join(repo, "node_modules/.bin/bun"), ["packages/server/src/main.ts"], {
    cwd: repo,
    stdio: "ignore",
    env: { ...inherited, PORT: port!, BOOKING_DB: database, ...env },
  });
  started.push({ child, database });
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return origin;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the ${name} server did not start`);
}

test.afterAll(() => {
  for (const { child, database } of started) {
    child.kill();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
  }
});

for (const scheme of ["light", "dark"] as const) {
  test(`in production without an admin key the console is off and says how to turn it on, ${scheme}`, async ({ page }) => {
    const origin = await startServer(`console-off-${scheme}`, {
      BOOKING_ENV: "production",
      BOOKING_PUBLIC_URL: "http://127.0.0.1",
      BOOKING_SECRET_KEY: randomBytes(32).toString("base64"),
    });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${origin}/console`);
    await expect(page.getByRole("heading", { name: "Booking console", level: 1 })).toBeVisible();
    await expect(page.locator("main")).toContainText("off because this server runs without an admin key");
    await expect(page.locator("main")).toContainText("BOOKING_ADMIN_KEY");
    await expect(page.locator("booking-console")).toHaveCount(0);
    expect((await page.request.post(`${origin}/console/session`, { data: { adminKey: "anything" } })).status()).toBe(404);
    await expectAccessible(page, `console off ${scheme}`);
    await saveScreenshot(page, `console-off-${scheme}-1280`);
  });
}

test("in development without an admin key the console signs in with the printed one-time link only", async ({ page }) => {
  const origin = await startServer("console-link", {});
  await page.goto(`${origin}/console`);
  await expect(page.getByRole("heading", { name: "Sign in", level: 2 })).toBeVisible();
  await expect(page.locator("main")).toContainText("one-time link that `npm start` printed");
  await expect(page.getByLabel("Admin key")).toHaveCount(0);
  await expectAccessible(page, "console link-only sign-in");
  await saveScreenshot(page, "console-sign-in-link-only-light-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page, "console link-only sign-in dark 390");
  await saveScreenshot(page, "console-sign-in-link-only-dark-390");
});
