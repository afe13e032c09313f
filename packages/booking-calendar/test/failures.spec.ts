import type { Page } from "@playwright/test";
import {
  test,
  expect,
  chooseFirstTime,
  chooseTime,
  continueToPayment,
  createEventType,
  mountCalendar,
  recordApiCalls,
  reservationsOf,
  routeStripeJs,
  PAID,
} from "./fixtures.ts";

/** A response shaped exactly as the server's error body (spec part 7). */
function errorBody(status: number, code: string, message: string) {
  return JSON.stringify({ success: false, status, code, message, hint: "", docs: "" });
}

/** Lets the first matching request fail with `fail`, the rest through to the real server. */
async function failOnce(page: Page, pattern: string | RegExp, fail: (route: import("@playwright/test").Route) => Promise<void>) {
  let failed = false;
  await page.route(pattern, async (route) => {
    if (!failed && route.request().method() !== "OPTIONS") {
      failed = true;
      return fail(route);
    }
    return route.continue();
  });
}

test.describe("failures and recovery", () => {
  test("a network failure at start shows a retry that recovers", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await failOnce(page, "**/event-types/init", (route) => route.abort("internetdisconnected"));
    await mountCalendar(page, { token });
    await expect(page.getByRole("alert")).toContainText("could not be reached");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("grid")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("a configuration this browser cannot open (a zone it does not know) is told like a failed start, with a retry that recovers", async ({
    page,
    request,
  }) => {
    const { token } = await createEventType(request);
    // The first init answers the event type with a zone no browser knows; the retry gets the real one.
    let spoiled = false;
    await page.route("**/event-types/init", async (route) => {
      if (spoiled || route.request().method() === "OPTIONS") return route.continue();
      spoiled = true;
      const response = await route.fetch();
      const body = await response.json();
      body.data.configuration.timezone = "Mars/Olympus_Mons";
      return route.fulfill({ response, json: body });
    });
    await mountCalendar(page, { token });
    await expect(page.getByRole("alert")).toBeVisible();
    await expect(page.getByRole("grid")).toHaveCount(0);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("grid")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
  });

  test("429 waits Retry-After, counting down, then retries by itself", async ({ page, request }) => {
    const { token } = await createEventType(request);
    // The page's clock is driven by the test, so the wait is seen whatever the machine's speed.
    await page.clock.install();
    await failOnce(page, "**/time-slots?*", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        headers: { "Retry-After": "30", "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "Retry-After" },
        body: errorBody(429, "rate_limited", "Too many requests."),
      }),
    );
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token });
    await expect(page.getByRole("alert")).toContainText(/Too many requests right now\. Trying again in (30|29) s/);
    await expect(page.getByRole("button", { name: "Try again" })).toBeDisabled();
    await page.clock.fastForward("00:10");
    await expect(page.getByRole("alert")).toContainText(/Trying again in (20|19) s/);
    await expect(page.locator('button[part~="day-free"]')).toHaveCount(0);
    // Ten seconds into the thirty: only the answered request, no retry yet.
    expect(calls.filter((c) => c === "GET /time-slots")).toHaveLength(1);
    await page.clock.fastForward("00:21");
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(calls.filter((c) => c === "GET /time-slots")).toHaveLength(2);
  });

  test("a 500 while booking keeps everything typed, and the retry books", async ({ page, request }) => {
    const { token } = await createEventType(request, { customFields: [{ label: "Company", name: "company", type: "text", required: false }] });
    const calls = recordApiCalls(page);
    await failOnce(page, /\/reservations$/, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        headers: { "Access-Control-Allow-Origin": "*" },
        body: errorBody(500, "internal_error", "Unexpected failure."),
      }),
    );
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("eve@example.com");
    await page.getByLabel("Company").fill("ACME");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("alert")).toContainText("Something went wrong on our side.");
    await expect(page.getByLabel("Email")).toHaveValue("eve@example.com");
    await expect(page.getByLabel("Company")).toHaveValue("ACME");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect(calls.filter((c) => c === "POST /reservations")).toHaveLength(2);
  });

  test("an answer that is not the API's JSON shows a retryable state, not a blank box", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await failOnce(page, "**/event-types/init", (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        headers: { "Access-Control-Allow-Origin": "*" },
        body: "<html><body>Gateway maintenance</body></html>",
      }),
    );
    await mountCalendar(page, { token });
    await expect(page.getByRole("alert")).toContainText("unexpected answer");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("grid")).toBeVisible();
  });

  test("a hold answered without its uuid is told as an unexpected answer, and nothing is paid for it", async ({ page, request }) => {
    const { token } = await createEventType(request, PAID);
    await routeStripeJs(page);
    const calls = recordApiCalls(page);
    await failOnce(page, "**/reservations/prepare", async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      return route.fulfill({ response, json: { ...body, data: { ...body.data, uuid: null } } });
    });
    await mountCalendar(page, { token });
    await continueToPayment(page, "nouuid@example.com");
    await expect(page.getByRole("alert")).toContainText("unexpected answer");
    await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
    expect(calls.filter((c) => c.endsWith("/payments"))).toEqual([]);
  });

  test("a wrong token says so instead of showing an empty calendar", async ({ page }) => {
    await mountCalendar(page, { token: "not-a-token" });
    await expect(page.getByRole("alert")).toContainText("This calendar cannot be loaded: The API token is not valid.");
  });

  test("a hold whose release failed is given back before the next one, so the same time can be held again", async ({ page, request }) => {
    const { id, token } = await createEventType(request, PAID);
    await routeStripeJs(page);
    const calls = recordApiCalls(page);
    // The first giving back does not reach the server (the visitor's connection drops for a moment).
    let dropped = 0;
    await page.route(/\/reservations\/[0-9a-f-]{36}$/, (route) => {
      if (route.request().method() !== "DELETE" || dropped++ > 0) return route.continue();
      return route.abort("internetdisconnected");
    });
    await mountCalendar(page, { token });
    const start = await continueToPayment(page, "again@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    await page.getByRole("button", { name: "← Back" }).click();
    await page.getByRole("button", { name: "← Back" }).click();
    await expect(page.getByRole("grid")).toBeVisible();
    await expect.poll(() => dropped).toBe(1);
    expect((await reservationsOf(request, id)).map((r) => r.status)).toEqual(["held"]);
    // Back at the same time: the earlier hold is given back first, and this one is held.
    await chooseTime(page, start);
    await page.getByLabel("Email").fill("again@example.com");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect((await reservationsOf(request, id)).map((r) => r.status).toSorted()).toEqual(["cancelled", "held"]);
    const deletes = calls.flatMap((c, i) => (c.startsWith("DELETE ") ? [i] : []));
    expect(deletes).toHaveLength(2);
    expect(calls[deletes[1]! + 1]).toBe("POST /reservations/prepare");
  });

  test("the hold is refreshed while the visitor is active, and its loss sends them back to the slots", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { payment: { amount: 2500, currency: "usd", providerAccountId: "acct_1HoldTests" }, holdMinutes: 10 });
    await routeStripeJs(page);
    await page.clock.install();
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token });
    await continueToPayment(page, "hold@example.com");
    await expect(page.getByRole("timer")).toContainText(/(9|10):\d{2}/);
    await page.clock.fastForward("08:30");
    await page.getByLabel("Card number").press("End");
    const refreshed = page.waitForResponse((r) => r.url().endsWith("/refresh"));
    await page.clock.fastForward("00:10");
    expect((await refreshed).status()).toBe(200);
    await expect(page.getByRole("timer")).toContainText(/(9|10):\d{2}/);
    expect(calls.filter((c) => c.endsWith("/refresh"))).toHaveLength(1);
    // The hold goes on the server (let go through the API): the next refresh is answered reservation_finished.
    const [hold] = await reservationsOf(request, id);
    expect(hold).toMatchObject({ status: "held" });
    const released = await request.delete(`/reservations/${hold!.uuid}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await released.json()).toMatchObject({ success: true });
    const lost = page.waitForResponse((r) => r.url().endsWith("/refresh") && r.request().method() === "POST");
    await page.clock.fastForward("11:00");
    expect(await (await lost).json()).toMatchObject({ success: false, code: "reservation_finished" });
    await expect(page.getByRole("alert")).toContainText("Your hold on this time ran out");
    await expect(page.getByRole("grid")).toBeVisible();
  });
});
