import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
// The script tag's `window.BookingCalendar` type, declared by the entry.
import type {} from "../src/embed.ts";
import { test, expect, chooseFirstTime, continueToPayment, createEventType, mountCalendar, openPopupSite, payWithCard, recordEvents, reservationsOf, PAID } from "./fixtures.ts";

/**
 * The script-tag file carries what every visitor needs; the popup and the payment step are files of
 * their own beside it (`parts/popup.js`, `parts/payment.js`), fetched only when a page uses them.
 */
const dist = (path: string) => readFileSync(fileURLToPath(new URL(`../dist/embed/${path}`, import.meta.url)), "utf8");

/** The on-demand parts the page asks for, by file name, in order. */
function recordParts(page: Page): string[] {
  const parts: string[] = [];
  page.on("request", (request) => {
    const match = /\/embed\/parts\/([^/?]+)$/.exec(new URL(request.url()).pathname);
    if (match) parts.push(match[1]!);
  });
  return parts;
}

test.describe("parts of the script loaded on demand", () => {
  test("the script-tag file leaves out the popup and the payment step, which are built beside it without a Lit of their own", () => {
    const main = dist("booking-calendar.js");
    const popup = dist("parts/popup.js");
    const payment = dist("parts/payment.js");
    // The popup's backdrop style and the payment step's confirmation live in their parts only.
    expect(popup).toContain("::backdrop");
    expect(main).not.toContain("::backdrop");
    expect(payment).toContain("confirmPayment");
    expect(main).not.toContain("confirmPayment");
    // Lit registers its version once per copy: the main file has the one copy, the parts none.
    expect(main).toContain("litElementVersions");
    for (const part of [popup, payment]) expect(part).not.toContain("litElementVersions");
  });

  test("a free event type booked through on a page without popup triggers loads no part", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { title: "Free call" });
    const parts = recordParts(page);
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("free@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "confirmed" });
    expect(parts).toEqual([]);
  });

  test("the popup's code is fetched once, when a trigger is first clicked", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Popup call" });
    const parts = recordParts(page);
    await openPopupSite(page, { tokens: [token] });
    await expect(page.getByRole("button", { name: "Book service 1" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(parts).toEqual([]);
    await page.getByRole("button", { name: "Book service 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Popup call" });
    await expect(dialog).toBeVisible();
    expect(parts).toEqual(["popup.js"]);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.evaluate((token) => window.BookingCalendar!.open({ token }), token);
    await expect(dialog).toBeVisible();
    expect(parts).toEqual(["popup.js"]);
  });

  test("a paid event type fetches the payment step once it reaches payment, and pays", async ({ page, request }) => {
    const { id, token } = await createEventType(request, PAID);
    const parts = recordParts(page);
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    expect(parts).toEqual([]);
    await page.getByLabel("Email").fill("paid@example.com");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    expect(parts).toEqual(["payment.js"]);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "confirmed", email: "paid@example.com" });
  });

  test("a payment step that cannot be fetched holds nothing, says so, and the visitor can try again", async ({ page, request, baseURL }) => {
    const { id, token } = await createEventType(request, PAID);
    const events = await recordEvents(page);
    let failing = true;
    await page.route(`${baseURL}/embed/parts/payment.js`, (route) => (failing ? route.abort("internetdisconnected") : route.continue()));
    await mountCalendar(page, { token });
    await continueToPayment(page, "offline@example.com");
    await expect(page.getByRole("alert")).toContainText("could not be reached");
    await expect(page.getByLabel("Email")).toHaveValue("offline@example.com");
    expect(await reservationsOf(request, id)).toEqual([]);
    const errors = (await events()).filter((e) => e.type === "booking-error");
    expect(errors).toEqual([{ type: "booking-error", detail: { code: "network_error", message: "Could not load /embed/parts/payment.js", status: null } }]);
    failing = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    expect((await reservationsOf(request, id)).map((r) => r.status)).toEqual(["held"]);
  });
});
