import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";
import type { Page } from "@playwright/test";
import { chooseFirstTime, expect, test } from "../support/fixtures.ts";

const REPO = resolve(import.meta.dirname, "../..");

/** A running example: the address it printed, and how to stop it as Ctrl-C does. */
interface Example {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `bun e2e/support/example.ts <name>`, what `npm run example:<name>` runs once the element
 * (and the app) are built, as they are for these tests, on free ports instead of 3100 and 3101.
 * Resolves with the address it prints for the visitor to open.
 */
async function startExample(name: string): Promise<Example> {
  const [apiPort, sitePort] = freePorts(2) as [string, string];
  const child = spawn(join(REPO, "node_modules/.bin/bun"), ["e2e/support/example.ts", name], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", EXAMPLE_API_PORT: apiPort, EXAMPLE_SITE_PORT: sitePort },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const url = await new Promise<string>((found, failed) => {
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const address = /\n {2}(http:\/\/\S+)\n/.exec(printed)?.[1];
      if (address) found(address);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => failed(new Error(`the ${name} example stopped (${code}) before printing its address:\n${printed}`)));
  });
  const exited = new Promise<void>((done) => child.on("exit", () => done()));
  return { url, stop: async () => { child.kill("SIGINT"); await exited; } };
}

/** Opens the example's address and books the demo's Intro call there, as a visitor would. */
async function bookTheDemo(page: Page, name: string, appHeading: string | null): Promise<void> {
  const example = await startExample(name);
  try {
    await page.goto(example.url);
    if (appHeading) await expect(page.getByRole("heading", { name: appHeading })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Book an intro call" })).toBeVisible();
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill(`${name}@example.com`);
    await page.getByLabel("Company").fill("ACME");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  } finally {
    await example.stop();
  }
}

test.describe("the examples of the getting-started guide", () => {
  test("npm run example:html prints an address where a visitor books the demo's Intro call on a plain HTML page", async ({ page }) => {
    await bookTheDemo(page, "html", null);
  });

  test("npm run example:react prints an address where a visitor books the demo's Intro call in the React app", async ({ page }) => {
    await bookTheDemo(page, "react", "Book a React consultation");
  });

  test("npm run example:vue prints an address where a visitor books the demo's Intro call in the Vue app", async ({ page }) => {
    await bookTheDemo(page, "vue", "Book a Vue workshop");
  });
});
