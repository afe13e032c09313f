import {
  test,
  expect,
  chooseFirstTime,
  continueToPayment,
  createEventType,
  expectAccessible,
  openSite,
  payWithCard,
  reservationsOf,
  ADMIN_KEY,
  API,
  PAID,
  SITE,
} from "../support/fixtures.ts";

test.describe("embedding", () => {
  test("plain HTML page: one script tag from the API's origin on another site, booked through, and the site hears the event", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { title: "Studio session" });
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await openSite(page, { token: linkToken });
    await expect(page.getByRole("heading", { name: "Studio session" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(SITE);
    expect(scripts).toEqual([`${API}/embed/booking-calendar.js`]);
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("plain@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    await expect(page.locator("#site-status")).toHaveText(`Thanks! Your booking reference is ${reservation!.uuid}.`);
  });

  test("paid event type on a plain HTML page of another origin: the element loads the Stripe.js its configuration names, and the card pays", async ({
    page,
    request,
  }) => {
    const { id, linkToken } = await createEventType(request, { ...PAID, title: "Paid studio session" });
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await openSite(page, { token: linkToken });
    await continueToPayment(page, "paid-site@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    // The details form's code comes from beside the script once a day is picked, the payment step's at
    // the payment, before the Stripe.js it loads.
    expect(scripts).toEqual([
      `${API}/embed/booking-calendar.js`,
      `${API}/embed/parts/form.js`,
      `${API}/embed/parts/payment.js`,
      `${API}/embed/stripe-standin.js`,
    ]);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ status: "confirmed", email: "paid-site@example.com" });
    await expect(page.locator("#site-status")).toHaveText(`Thanks! Your booking reference is ${reservation!.uuid}.`);
  });

  test("CORS: the embedding site may call the public API, and not the admin API", async ({ page, request }) => {
    const { linkToken } = await createEventType(request);
    await openSite(page, { token: linkToken });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    const outcome = await page.evaluate(
      async ({ api, token, adminKey }) => {
        const call = async (path: string, key: string) => {
          try {
            const response = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${key}` } });
            return { status: response.status, body: await response.json() };
          } catch (error) {
            return { refused: String(error) };
          }
        };
        return { configuration: await call("/configuration", token), admin: await call("/admin/event-types", adminKey) };
      },
      { api: API, token: linkToken, adminKey: ADMIN_KEY },
    );
    expect(outcome.configuration).toMatchObject({ status: 200, body: { success: true } });
    expect(outcome.admin).toEqual({ refused: "TypeError: Failed to fetch" });
    // The browser refused it because the admin API answers no CORS headers, preflight or not.
    const preflight = await request.fetch("/admin/event-types", {
      method: "OPTIONS",
      headers: { Origin: SITE, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    expect(preflight.headers()["access-control-allow-origin"]).toBeUndefined();
    const publicPreflight = await request.fetch("/time-slots", {
      method: "OPTIONS",
      headers: { Origin: SITE, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
    });
    expect(publicPreflight.headers()["access-control-allow-origin"]).toBe("*");
  });

  test("React app: renders the element, passes props, receives its events, and books through", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { title: "React consultation" });
    await page.goto(`${SITE}/react/?${new URLSearchParams({ api: API, token: linkToken })}`);
    await expect(page.getByRole("heading", { name: "Book a React consultation" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "React consultation", exact: true })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Nothing booked yet" })).toBeVisible();
    const frame = page.locator('[part="frame"]');
    await expect(frame).toHaveCSS("background-color", "rgb(255, 255, 255)");
    // App state flows into the element: the theme prop.
    await page.getByRole("button", { name: "Dark mode" }).click();
    await expect(frame).toHaveCSS("background-color", "rgb(15, 23, 42)");
    await expectAccessible(page, "React app");
    await chooseFirstTime(page);
    await expect(page.getByLabel("Email")).toHaveValue("react@example.com");
    await expect(page.getByLabel("First name")).toHaveValue("Rea");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ email: "react@example.com", firstname: "Rea", status: "confirmed" });
    await expectAccessible(page, "React app success");
    const status = page.getByRole("status").filter({ hasText: "React app saw booking" });
    await expect(status).toHaveText(new RegExp(`^React app saw booking ${reservation!.uuid} starting \\S+$`));
    const seenStart = (await status.textContent())!.split(" starting ")[1]!;
    expect(new Date(seenStart).getTime()).toBe(new Date(reservation!.start as string).getTime());
  });

  test("React app: a paid event type reaches its card form and pays, the npm build's payment part kept by the app's bundler", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { ...PAID, title: "Paid React consultation" });
    await page.goto(`${SITE}/react/?${new URLSearchParams({ api: API, token: linkToken })}`);
    await continueToPayment(page, "react@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ status: "confirmed", email: "react@example.com" });
    await expect(page.getByRole("status").filter({ hasText: "React app saw booking" })).toHaveText(new RegExp(`^React app saw booking ${reservation!.uuid} `));
  });

  test("Vue app: renders the element, binds props, receives its events, and books through", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { title: "Vue workshop" });
    await page.goto(`${SITE}/vue/?${new URLSearchParams({ api: API, token: linkToken })}`);
    await expect(page.getByRole("heading", { name: "Book a Vue workshop" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Vue workshop", exact: true })).toBeVisible();
    const firstWeekday = page.locator('[part="grid"] th').first();
    await expect(firstWeekday).toHaveText("Mon");
    // App state flows into the element: the bound locale.
    await page.getByLabel("Calendar language").selectOption("de-DE");
    await expect(firstWeekday).toHaveText(new Intl.DateTimeFormat("de-DE", { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1))));
    await expectAccessible(page, "Vue app");
    await chooseFirstTime(page);
    // The bound locale is also the language of the element's texts.
    await expect(page.getByLabel("E-Mail")).toHaveValue("vue@example.com");
    await page.getByRole("button", { name: "Buchen" }).click();
    await expect(page.getByRole("heading", { name: "Ihr Termin ist gebucht" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ email: "vue@example.com", status: "confirmed" });
    await expectAccessible(page, "Vue app success");
    const status = page.getByRole("status").filter({ hasText: "Vue app saw booking" });
    await expect(status).toHaveText(new RegExp(`^Vue app saw booking ${reservation!.uuid} starting \\S+$`));
    const seenStart = (await status.textContent())!.split(" starting ")[1]!;
    expect(new Date(seenStart).getTime()).toBe(new Date(reservation!.start as string).getTime());
  });

  test("Vue app: a paid event type reaches its card form and pays, the npm build's payment part kept by the app's bundler", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { ...PAID, title: "Paid Vue workshop" });
    await page.goto(`${SITE}/vue/?${new URLSearchParams({ api: API, token: linkToken })}`);
    await continueToPayment(page, "vue@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ status: "confirmed", email: "vue@example.com" });
    await expect(page.getByRole("status").filter({ hasText: "Vue app saw booking" })).toHaveText(new RegExp(`^Vue app saw booking ${reservation!.uuid} `));
  });
});
