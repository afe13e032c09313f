import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/** The API helpers are the component tests' own: creating event types, reading reservations, booking as another visitor, moving a booking, recording API calls, Stripe.js routing, paying. */
export {
  bookThroughApi,
  chooseFirstTime,
  chooseTime,
  continueToPayment,
  createEventType,
  expectTimeNotOffered,
  firstFreeSlot,
  freeSlots,
  isOffered,
  moveBookingTo,
  payWithCard,
  recordApiCalls,
  reservationsOf,
  routeStripeJs,
  showDay,
  ADMIN_KEY,
  PAID,
} from "../../packages/booking-calendar/test/fixtures.ts";
export { expect };

/** How the element's warning about an API token in a page begins (it logs it once per page). */
const API_TOKEN_WARNING = "<booking-calendar>: an API token";

/**
 * Playwright's `test`, where every test fails when the element warns that a page of its browser
 * context carries an API token: pages carry the event type's link token (`bcl_…`), as the docs say.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: Playwright types a fixture that gives no value as void.
export const test = base.extend<{ noApiTokenInPages: void }>({
  noApiTokenInPages: [
    async ({ context }, use) => {
      const warnings: string[] = [];
      context.on("console", (message) => {
        if (message.text().startsWith(API_TOKEN_WARNING)) warnings.push(`${message.page()?.url()}: ${message.text()}`);
      });
      await use();
      expect(warnings, "pages carry the link token, not the API token").toEqual([]);
    },
    { auto: true },
  ],
});

/** The customer's site: another origin than the API. */
export const SITE = `http://127.0.0.1:${process.env.E2E_SITE_PORT}`;
/** The booking API's origin. */
export const API = `http://127.0.0.1:${process.env.E2E_API_PORT}`;

/** Opens the site's plain HTML page (one script tag) holding the element with these attributes. */
export async function openSite(page: Page, attributes: Record<string, string>, options: { dark?: boolean } = {}): Promise<void> {
  const query = new URLSearchParams({ attrs: JSON.stringify(attributes), ...(options.dark ? { dark: "1" } : {}) });
  await page.goto(`${SITE}/?${query}`);
}

/**
 * Runs axe on the whole page, open shadow roots included, and fails on any serious or critical
 * violation, listing each with the elements it found.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" >>> ")).join("\n    ")}`);
  expect(blocking, `axe on the "${screen}" screen`).toEqual([]);
  expect(results.passes.length, `axe ran its checks on the "${screen}" screen`).toBeGreaterThan(0);
}

const SCREENSHOTS = join(import.meta.dirname, "../artifacts/screenshots");

/** Saves a full-page screenshot under e2e/artifacts/screenshots/ and attaches it to the test's report. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true, animations: "disabled" });
  await test.info().attach(name, { path, contentType: "image/png" });
}
