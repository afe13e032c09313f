import type { Page } from "@playwright/test";
import {
  test,
  expect,
  chooseFirstTime,
  continueToPayment,
  createEventType,
  mountCalendar,
  recordApiCalls,
  recordEvents,
  reservationsOf,
  routeStripeJs,
  PAID,
} from "./fixtures.ts";

/**
 * Holds the first request to `path` (not its preflight) until `release` is called, then lets it
 * through to the real server; `reached` settles once it was sent.
 */
async function holdBack(page: Page, path: string): Promise<{ reached: Promise<void>; release: () => void }> {
  let reached!: () => void;
  let release!: () => void;
  const sent = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (held || route.request().method() === "OPTIONS") return route.continue();
      held = true;
      reached();
      await gate;
      await route.continue();
    },
  );
  return { reached: sent, release };
}

/** The host page points the element at another event type: a new start. */
function switchToken(page: Page, token: string): Promise<void> {
  return page.locator("booking-calendar").evaluate((element, t) => element.setAttribute("token", t), token);
}

/**
 * A step's answer that comes after the visitor moved on is never applied to where they are now: the
 * seat it held is given back, and the confirmation of an older start does not replace a new one.
 */
test.describe("answers that come late", () => {
  test("a hold answered after a new start is given back, and the new start stays shown without a card form", async ({ page, request }) => {
    const { id, token } = await createEventType(request, PAID);
    const second = await createEventType(request, { title: "Second call" });
    await routeStripeJs(page);
    const events = await recordEvents(page);
    const calls = recordApiCalls(page);
    const prepare = await holdBack(page, "/reservations/prepare");
    await mountCalendar(page, { token });
    await continueToPayment(page, "late@example.com");
    await prepare.reached;
    // While the seat is being held there is no way back to a time that would leave it held.
    await expect(page.getByRole("button", { name: "← Back" })).toBeDisabled();
    await switchToken(page, second.token);
    await expect(page.getByRole("heading", { name: "Second call" })).toBeVisible();
    await expect(page.getByRole("grid")).toBeVisible();
    prepare.release();
    // The seat held for the step left is given back.
    await expect.poll(async () => (await reservationsOf(request, id)).map((r) => r.status)).toEqual(["cancelled"]);
    const [held] = await reservationsOf(request, id);
    expect(calls).toContain(`DELETE /reservations/${held!.uuid}`);
    expect(calls.some((c) => c.endsWith("/payments"))).toBe(false);
    // The visitor stays on the new start, with no card form and nothing told about a hold.
    await expect(page.getByRole("grid")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Payment" })).toHaveCount(0);
    await expect(page.getByLabel("Card number")).toHaveCount(0);
    expect((await events()).map((e) => e.type)).not.toContain("booking-reservation-held");
  });

  test("a booking answered after a new start does not replace it with its confirmation", async ({ page, request }) => {
    const { id, token } = await createEventType(request);
    const second = await createEventType(request, { title: "Second call" });
    const events = await recordEvents(page);
    const create = await holdBack(page, "/reservations");
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("late@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await create.reached;
    await expect(page.getByRole("button", { name: "← Back" })).toBeDisabled();
    await switchToken(page, second.token);
    await expect(page.getByRole("heading", { name: "Second call" })).toBeVisible();
    create.release();
    await expect.poll(async () => (await reservationsOf(request, id)).map((r) => r.status)).toEqual(["confirmed"]);
    // On with the new start: its form takes a booking once the older one has answered.
    await chooseFirstTime(page);
    await expect(page.getByRole("button", { name: "Book" })).toBeEnabled();
    await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "You are booked" })).toHaveCount(0);
    await expect(page.getByLabel("Email")).toHaveValue("late@example.com");
    expect((await events()).map((e) => e.type)).not.toContain("booking-reservation-confirmed");
  });
});
