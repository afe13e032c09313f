import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";
import type { Page } from "@playwright/test";
import { test, expect, chooseFirstTime, continueToPayment, payWithCard, ADMIN_KEY } from "../support/fixtures.ts";

/*
 * `npm run example:html`, `example:react` and `example:vue` as a developer runs them, and as the
 * getting-started guide gives them (`e2e/support/example.ts`, on the element and the apps the
 * end-to-end run built): the printed address of the demo's free event type books in each, and that
 * of its paid one books through the card form in the apps, so the apps' bundler keeping the payment
 * part is seen in the examples too.
 */
const repo = resolve(import.meta.dirname, "../..");

/**
 * Starts the example on the ports `env` names; `addresses` resolves with the addresses it prints for
 * "Intro call" (free) and "Paid consultation" once it has printed them, or rejects, with its output,
 * if it printed none.
 */
function startExample(app: string, env: Record<string, string>): { child: ChildProcess; addresses: Promise<{ free: string; paid: string }> } {
  const child = spawn(join(repo, "node_modules/.bin/bun"), ["e2e/support/example.ts", app], {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const addresses = new Promise<{ free: string; paid: string }>((found, failed) => {
    let seen = "";
    // The servers' log goes into the failure message, not into the test run's output.
    child.stderr!.on("data", (chunk: Buffer) => (seen += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes("Ctrl-C stops")) return;
      const free = /^\s+Intro call \(free\): (\S+)$/m.exec(seen)?.[1];
      const paid = /^\s+Paid consultation \(card payment\): (\S+)$/m.exec(seen)?.[1];
      if (free && paid) found({ free, paid });
      else failed(new Error(`the ${app} example printed no address for the free or the paid event type:\n${seen}`));
    });
    child.on("exit", (code) => failed(new Error(`the ${app} example stopped (${code}) before printing its addresses:\n${seen}`)));
  });
  return { child, addresses };
}

/** Stops the example (it stops its servers and removes its database on SIGTERM) and waits for it. */
async function stopExample(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  await exited;
}

/** Starts the example on free ports and books the demo's Intro call at the address it prints, as a visitor would. */
async function bookTheFreeDemo(page: Page, app: string, appHeading: string | null): Promise<void> {
  const [apiPort, sitePort] = freePorts(2);
  const example = startExample(app, { EXAMPLE_API_PORT: apiPort!, EXAMPLE_SITE_PORT: sitePort! });
  try {
    await page.goto((await example.addresses).free);
    if (appHeading) await expect(page.getByRole("heading", { name: appHeading })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Book an intro call" })).toBeVisible();
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill(`${app}@example.com`);
    await page.getByLabel("Company").fill("ACME");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  } finally {
    await stopExample(example.child);
  }
}

test.describe("the examples", () => {
  test("npm run example:html prints an address where a visitor books the demo's Intro call on a plain HTML page", async ({ page }) => {
    await bookTheFreeDemo(page, "html", null);
  });

  test("npm run example:react prints an address where a visitor books the demo's Intro call in the React app", async ({ page }) => {
    await bookTheFreeDemo(page, "react", "Book a React consultation");
  });

  test("npm run example:vue prints an address where a visitor books the demo's Intro call in the Vue app", async ({ page }) => {
    await bookTheFreeDemo(page, "vue", "Book a Vue workshop");
  });

  for (const app of ["react", "vue"]) {
    test(`npm run example:${app}: the demo's paid event type reaches its card form and pays`, async ({ page, request }) => {
      const [apiPort, sitePort] = freePorts(2);
      const api = `http://127.0.0.1:${apiPort}`;
      const example = startExample(app, { EXAMPLE_API_PORT: apiPort!, EXAMPLE_SITE_PORT: sitePort!, BOOKING_ADMIN_KEY: ADMIN_KEY });
      try {
        const paidUrl = (await example.addresses).paid;
        expect(new URL(paidUrl).pathname).toBe(`/${app}/`);
        await page.goto(paidUrl);
        await expect(page.getByRole("heading", { name: "Paid consultation", exact: true })).toBeVisible();
        await continueToPayment(page, `${app}-example@example.com`);
        await expect(page.getByLabel("Card number")).toBeVisible();
        await expect(page.getByRole("alert")).toHaveCount(0);
        await payWithCard(page, "4242 4242 4242 4242");
        await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();

        // The booking as the organizer sees it in the example's own API.
        const headers = { Authorization: `Bearer ${ADMIN_KEY}` };
        const eventTypes = (await (await request.get(`${api}/admin/event-types`, { headers })).json()).data as Array<{ id: number; slug: string }>;
        const paid = eventTypes.find((et) => et.slug === "consulting")!;
        const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
        const reservations = (
          await (await request.get(`${api}/admin/event-types/${paid.id}/reservations?from=${day(-1)}&until=${day(60)}`, { headers })).json()
        ).data;
        expect(reservations).toEqual([expect.objectContaining({ status: "confirmed", email: `${app}-example@example.com` })]);
      } finally {
        await stopExample(example.child);
      }
    });
  }
});
