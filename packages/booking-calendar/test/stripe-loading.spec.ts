import { test, expect, continueToPayment, createEventType, mountCalendar, payWithCard, recordEvents, reservationsOf, PAID } from "./fixtures.ts";

/**
 * A paid event type on a customer's site that loads nothing but the element's script: the element
 * loads the Stripe.js the configuration names (here the server's stand-in) by itself, and when that
 * fails it gives the held seat back, says so, and offers to try again.
 */
test.describe("Stripe.js on any site", () => {
  test("the element loads the configuration's Stripe.js by itself on another origin, and the card pays", async ({ page, request, baseURL }) => {
    const { id, token } = await createEventType(request, PAID);
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    // Nothing may reach out to Stripe's own servers here.
    const toStripe: string[] = [];
    await page.route("https://*.stripe.com/**", (route) => {
      toStripe.push(route.request().url());
      return route.abort();
    });
    await mountCalendar(page, { token });
    await continueToPayment(page, "anysite@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    // The details form and the payment step come from beside the script, before the Stripe.js it loads.
    expect(scripts).toEqual([
      `${baseURL}/embed/booking-calendar.js`,
      `${baseURL}/embed/parts/form.js`,
      `${baseURL}/embed/parts/payment.js`,
      `${baseURL}/embed/stripe-standin.js`,
    ]);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "confirmed", email: "anysite@example.com" });
    expect(toStripe).toEqual([]);
  });

  test("a Stripe.js that fails to load gives the seat back, says so, and the visitor can try again", async ({ page, request, baseURL }) => {
    const { id, token } = await createEventType(request, PAID);
    const events = await recordEvents(page);
    let failing = true;
    await page.route(`${baseURL}/embed/stripe-standin.js`, (route) => (failing ? route.abort("internetdisconnected") : route.continue()));
    await mountCalendar(page, { token });
    await continueToPayment(page, "offline@example.com");
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("The card form could not be loaded, so the time is no longer held for you.");
    // Back on the form, the details kept; the hold given back on the server.
    await expect(page.getByLabel("Email")).toHaveValue("offline@example.com");
    await expect.poll(async () => (await reservationsOf(request, id)).map((r) => r.status)).toEqual(["cancelled"]);
    const errors = (await events()).filter((e) => e.type === "booking-error");
    expect(errors).toEqual([{ type: "booking-error", detail: { code: "payment_unavailable", message: "Failed to load Stripe.js", status: null } }]);
    // The connection is back: try again holds the time anew and shows the card form.
    failing = false;
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(alert).toHaveCount(0);
    expect((await reservationsOf(request, id)).map((r) => r.status).toSorted()).toEqual(["cancelled", "held"]);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id)).map((r) => r.status).toSorted()).toEqual(["cancelled", "confirmed"]);
  });
});
