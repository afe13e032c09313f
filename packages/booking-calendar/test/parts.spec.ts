import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
// The script tag's `window.BookingCalendar` type, declared by the entry.
import type {} from "../src/embed.ts";
import {
  test,
  expect,
  chooseFirstTime,
  continueToPayment,
  createEventType,
  mountCalendar,
  openPopupSite,
  payWithCard,
  recordEvents,
  reservationsOf,
  PAID,
} from "./fixtures.ts";

/**
 * The script-tag file carries what every visitor needs to start; the popup, the payment step, the
 * details form and the zone picker's list are files of their own beside it (`parts/popup.js`,
 * `parts/payment.js`, `parts/form.js`, `parts/zones.js`), fetched only when a page uses them.
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
    const form = dist("parts/form.js");
    const zones = dist("parts/zones.js");
    // The form's guests and the zone list's city names are in their parts only.
    expect(form).toContain("bc-booking-form");
    expect(main).not.toContain('customElements.define("bc-booking-form"');
    expect(zones).toContain("Warschau");
    expect(main).not.toContain("Warschau");
    for (const part of [popup, payment, form, zones]) expect(part).not.toContain("litElementVersions");
  });

  test("a free event type booked through on a page without popup triggers loads only the details form, once a day is picked", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { title: "Free call" });
    const parts = recordParts(page);
    await mountCalendar(page, { token });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(parts).toEqual([]);
    await chooseFirstTime(page);
    expect(parts).toEqual(["form.js"]);
    await page.getByLabel("Email").fill("free@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "confirmed" });
    expect(parts).toEqual(["form.js"]);
  });

  test("the zone list is fetched once, when the visitor first reaches for the picker or searches", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Zones call" });
    const parts = recordParts(page);
    await mountCalendar(page, { token, locale: "de", timezone: "Europe/Warsaw" });
    const select = page.getByRole("combobox", { name: "Zeitzone" });
    await expect(select).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(parts).toEqual([]);
    // Until then the select holds the chosen zone alone, named, never as its IANA id.
    await expect(select.locator("option")).toHaveCount(1);
    await expect(select.locator("option")).toHaveText(/^Mitteleuropäische Zeit · UTC\+0[12]:00 · \d\d:\d\d$/);
    const search = page.getByRole("searchbox");
    await search.fill("tokio");
    await expect(select.locator('option[value="Asia/Tokyo"]')).toHaveCount(1);
    await search.fill("");
    await select.focus();
    await expect.poll(() => select.locator("option").count()).toBeGreaterThan(300);
    expect(parts).toEqual(["zones.js"]);
  });

  test("a German visitor on UTC gets the zone named without the zone list being fetched", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "UTC call" });
    const parts = recordParts(page);
    await mountCalendar(page, { token, locale: "de", timezone: "UTC" });
    const select = page.getByRole("combobox", { name: "Zeitzone" });
    await expect(select.locator("option")).toHaveText(/^UTC · UTC\+00:00 · \d\d:\d\d$/);
    await page.waitForLoadState("networkidle");
    expect(parts).toEqual([]);
  });

  test("a details form that cannot be fetched says so, and the visitor can try again", async ({ page, request, baseURL }) => {
    const { token } = await createEventType(request, { title: "Offline form" });
    let failing = true;
    await page.route(`${baseURL}/embed/parts/form.js`, (route) => (failing ? route.abort("internetdisconnected") : route.continue()));
    await mountCalendar(page, { token });
    await page.locator('button[part~="day-free"]').first().click();
    await expect(page.getByRole("alert")).toContainText("could not be reached");
    failing = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await page.locator('button[part="slot"]').first().click();
    await expect(page.getByLabel("Email")).toBeVisible();
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
    expect(parts).toEqual(["form.js"]);
    await page.getByLabel("Email").fill("paid@example.com");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    expect(parts).toEqual(["form.js", "payment.js"]);
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
