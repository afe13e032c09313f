import {
  test,
  expect,
  bookThroughApi,
  chooseTime,
  continueToPayment,
  createEventType,
  expectAccessible,
  expectTimeNotOffered,
  firstFreeSlot,
  freeSlots,
  isOffered,
  openSite,
  PAID,
  payWithCard,
  recordApiCalls,
  reservationsOf,
  showDay,
  routeStripeJs,
  API,
  SITE,
} from "../support/fixtures.ts";

test.describe("booking as a visitor", () => {
  test("free booking: day, time, custom fields, confirm, success screen, and the reservation exists", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, {
      title: "Intro call",
      customFields: [
        { label: "Company", name: "company", type: "text", required: true },
        { label: "Team size", name: "team_size", type: "number", required: false },
        { label: "Topic", name: "topic", type: "select", options: ["Pricing", "Onboarding"], required: true },
        { label: "I agree to the terms", name: "terms", type: "checkbox", required: true },
      ],
    });
    await openSite(page, { token: linkToken });
    await expect(page.getByRole("heading", { name: "Intro call" })).toBeVisible();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expectAccessible(page, "calendar");

    await page.locator('button[part~="day-free"]').first().click();
    const slot = page.locator('button[part="slot"]').first();
    await expect(slot).toBeVisible();
    await expectAccessible(page, "times");
    const start = (await slot.getAttribute("data-start"))!;
    await slot.click();

    await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
    await expectAccessible(page, "details form");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Company").fill("Analytical Engines");
    await page.getByLabel("Team size").fill("4");
    await page.getByLabel("Topic").selectOption("Onboarding");
    await page.getByLabel("I agree to the terms").check();
    await page.getByRole("button", { name: "Book" }).click();

    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Download .ics" })).toBeVisible();
    await expectAccessible(page, "success");
    // The site's own script heard the element's event.
    const [reservation] = await reservationsOf(request, id);
    await expect(page.locator("#site-status")).toHaveText(`Thanks! Your booking reference is ${reservation!.uuid}.`);
    expect(reservation).toMatchObject({ status: "confirmed", email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" });
    expect(new Date(reservation!.start as string).toISOString()).toBe(new Date(start).toISOString());
    // Answers are stored by field, in the fields' order.
    expect((reservation!.customFields as Array<{ value: unknown }>).map((f) => f.value)).toEqual(["Analytical Engines", 4, "Onboarding", true]);
  });

  test("paid booking: prepare holds the seat, the card goes into the Payment Element, confirm books", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { ...PAID, title: "Consulting hour" });
    const stripeJs = await routeStripeJs(page);
    await openSite(page, { token: linkToken });
    await expect(page.getByText("€50.00")).toBeVisible();
    await continueToPayment(page, "pay@example.com");
    await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("timer")).toContainText(/held for you for (9|10):\d{2}/);
    // A test key is labelled as such on screen.
    await expect(page.getByText("Test mode: no money moves.")).toBeVisible();
    await expectAccessible(page, "payment");
    expect(stripeJs.loads).toBe(1);
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "held", email: "pay@example.com" });
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "confirmed", email: "pay@example.com" });
  });

  test("paid booking: a declined card shows the error and keeps the hold, and another card pays", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, PAID);
    await routeStripeJs(page);
    await openSite(page, { token: linkToken });
    await continueToPayment(page, "decline@example.com");
    await payWithCard(page, "4000 0000 0000 0002");
    await expect(page.getByRole("alert")).toContainText("The payment did not go through: Your card was declined.");
    await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
    await expect(page.getByRole("timer")).toBeVisible();
    await expectAccessible(page, "payment declined");
    const [held] = await reservationsOf(request, id);
    expect(held).toMatchObject({ status: "held" });
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const after = await reservationsOf(request, id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ uuid: held!.uuid, status: "confirmed" });
  });

  test("back from the payment: the earlier hold is given back, so the same time can be paid with corrected details", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, PAID);
    await routeStripeJs(page);
    await openSite(page, { token: linkToken });
    const start = await continueToPayment(page, "back@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    await page.getByRole("button", { name: "← Back" }).click();
    await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
    await page.getByLabel("First name").fill("Bea");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect((await reservationsOf(request, id)).map((r) => r.status).toSorted()).toEqual(["cancelled", "held"]);
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const confirmed = (await reservationsOf(request, id)).filter((r) => r.status === "confirmed");
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]).toMatchObject({ firstname: "Bea", email: "back@example.com", startIso8601: start });
  });

  test("leaving the payment gives the held seat back: back to the times, a reload, or away from the booking page", async ({ page, request }) => {
    const slug = `leave-${Date.now().toString(36)}`;
    const { id, token, linkToken } = await createEventType(request, { ...PAID, slug });
    await routeStripeJs(page);
    await openSite(page, { token: linkToken });
    const first = await continueToPayment(page, "leaver@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    expect(await isOffered(request, token, first)).toBe(false);
    // Back to the details, then back to the times: the visitor is choosing again.
    await page.getByRole("button", { name: "← Back" }).click();
    await page.getByRole("button", { name: "← Back" }).click();
    await expect(page.getByRole("grid")).toBeVisible();
    await expect.poll(() => isOffered(request, token, first)).toBe(true);

    // A reload in the middle of paying: the tab gives its earlier hold back as the calendar loads again.
    const second = await continueToPayment(page, "leaver@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    expect(await isOffered(request, token, second)).toBe(false);
    const calls = recordApiCalls(page);
    await page.reload();
    await showDay(page, second.slice(0, 10));
    expect(await isOffered(request, token, second)).toBe(true);
    // The reloaded calendar gave it back before anything else (the leaving page's own request needs a
    // CORS preflight, which browsers do not send for a page going away).
    expect(calls.filter((c) => !c.startsWith("GET /embed/")).slice(0, 2)).toEqual([
      expect.stringMatching(/^DELETE \/reservations\//),
      "POST /event-types/init",
    ]);
    await chooseTime(page, second);
    await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();

    // On the server's booking page (same origin as the API), leaving the page gives the seat back at once.
    await page.goto(`${API}/book/${slug}`);
    const third = await continueToPayment(page, "leaver@example.com");
    await expect(page.getByLabel("Card number")).toBeVisible();
    expect(await isOffered(request, token, third)).toBe(false);
    await page.goto(`${SITE}/health`);
    await expect.poll(() => isOffered(request, token, third)).toBe(true);
    expect((await reservationsOf(request, id)).map((r) => r.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
  });

  test("a card payment that may have gone through keeps its hold: back and on returns to it, and a reload does not give it back", async ({ page, request }) => {
    const { id, token, linkToken } = await createEventType(request, PAID);
    await routeStripeJs(page);
    // The card payment's answer is lost on the way: nobody can tell whether money moved.
    let lost = false;
    await page.route("**/v1/payment_intents/*/confirm", (route) => {
      if (lost) return route.continue();
      lost = true;
      return route.abort("connectionreset");
    });
    await openSite(page, { token: linkToken });
    const start = await continueToPayment(page, "unsure@example.com");
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("alert")).toContainText("The payment did not go through");
    const [held] = await reservationsOf(request, id);
    await page.getByRole("button", { name: "← Back" }).click();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await page.reload();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    const after = await reservationsOf(request, id);
    expect(after).toEqual([expect.objectContaining({ uuid: held!.uuid, status: "held" })]);
    expect(await isOffered(request, token, start)).toBe(false);
  });

  test("hold refresh: while the visitor is idle the hold is left alone; typing in the last two minutes renews it once", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, PAID);
    await routeStripeJs(page);
    await page.clock.install();
    const refreshes: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/refresh")) refreshes.push(r.url());
    });
    await openSite(page, { token: linkToken });
    await continueToPayment(page, "hold@example.com");
    const timer = page.getByRole("timer");
    await expect(timer).toContainText(/held for you for (9|10):\d{2}/);
    const [held] = await reservationsOf(request, id);
    // Eight and a half idle minutes: inside the last two, but nobody is at the keyboard.
    await page.clock.fastForward("08:30");
    await expect(timer).toContainText(/held for you for 1:\d{2}/);
    expect(refreshes).toEqual([]);
    // The visitor types again: the next check renews the hold on the server.
    await page.getByLabel("Card number").press("4");
    const refreshed = page.waitForResponse((r) => r.url().endsWith("/refresh"));
    await page.clock.fastForward("00:06");
    expect(await (await refreshed).json()).toMatchObject({ success: true });
    await expect(timer).toContainText(/held for you for (9|10):\d{2}/);
    await page.clock.fastForward("01:00");
    // The page has run the minute's timers (the countdown shows it) before the refreshes are counted;
    // a second refresh arriving late would still be seen.
    await expect(timer).toContainText(/held for you for (8:\d{2}|9:00)/);
    await expect.poll(() => refreshes.length).toBe(1);
    const [renewed] = await reservationsOf(request, id);
    expect(renewed).toMatchObject({ uuid: held!.uuid, status: "held" });
  });

  test("hold expiry: once the hold ran out on the server and the seat was taken, the visitor is back at fresh slots", async ({ page, request }) => {
    // The server's hold really runs out (one minute, the shortest there is); the page's clock is driven.
    test.setTimeout(150_000);
    const { token, linkToken } = await createEventType(request, { ...PAID, holdMinutes: 1 });
    await routeStripeJs(page);
    await page.clock.install();
    await openSite(page, { token: linkToken });
    const start = await continueToPayment(page, "away@example.com");
    await expect(page.getByRole("timer")).toContainText(/held for you for (0:5\d|1:00)/);
    // The visitor walks away: the page's time stands still while the server's hold runs out.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    await expect.poll(() => isOffered(request, token, start), { timeout: 100_000, intervals: [2_000] }).toBe(true);
    // Another visitor holds the seat to pay.
    const slot = (await freeSlots(request, token)).find((s) => s.startIso8601 === start)!;
    const prepared = await request.post("/reservations/prepare", {
      headers: { Authorization: `Bearer ${token}` },
      data: { start: slot.start, end: slot.end, email: "quicker@example.com" },
    });
    expect(await prepared.json()).toMatchObject({ success: true });

    // The element's timer ends; its refresh finds the seat gone and sends the visitor back.
    await page.clock.fastForward("01:10");
    await expect(page.getByRole("alert")).toContainText("Your hold on this time ran out and the time was taken.");
    await expect(page.getByRole("grid")).toBeVisible();
    // axe waits on timers of its own.
    await page.clock.resume();
    await expectAccessible(page, "hold lost");
    await expectTimeNotOffered(page, start);
  });

  test("last seat: two visitors in two browsers race for it; one books, the other is sent back to fresh slots", async ({ browser, page: first, request }) => {
    const { id, token, linkToken } = await createEventType(request, { seats: 2 });
    const slot = await firstFreeSlot(request, token);
    await bookThroughApi(request, token, slot, "early@example.com");
    // The test's own page (traced on failure) and a second browser context with nothing shared.
    const other = await browser.newContext({ timezoneId: "UTC" });
    try {
      const pages = [first, await other.newPage()];
      for (const [i, page] of pages.entries()) {
        await openSite(page, { token: linkToken });
        await (await showDay(page, slot.startIso8601.slice(0, 10))).click();
        await expect(page.locator(`button[part="slot"][data-start="${slot.startIso8601}"]`)).toContainText("1 seat left");
        await chooseTime(page, slot.startIso8601);
        await page.getByLabel("Email").fill(`racer${i}@example.com`);
      }
      await Promise.all(pages.map((page) => page.getByRole("button", { name: "Book" }).click()));
      const outcomes = await Promise.all(
        pages.map(async (page) => {
          const booked = page.getByRole("heading", { name: "You are booked" });
          await expect(booked.or(page.getByRole("alert").filter({ hasText: "That time was just taken." }))).toBeVisible();
          return (await booked.isVisible()) ? "booked" : "sent back";
        }),
      );
      expect(outcomes.toSorted()).toEqual(["booked", "sent back"]);
      const loser = pages[outcomes.indexOf("sent back")]!;
      await expect(loser.getByRole("grid")).toBeVisible();
      await expectAccessible(loser, "slot taken");
      await expectTimeNotOffered(loser, slot.startIso8601);
      const confirmed = (await reservationsOf(request, id)).filter((r) => r.status === "confirmed");
      expect(confirmed.map((r) => r.email).toSorted()).toEqual(["early@example.com", `racer${outcomes.indexOf("booked")}@example.com`].toSorted());
    } finally {
      await other.close();
    }
  });

  test.describe("in New York", () => {
    test.use({ timezoneId: "America/New_York", locale: "en-US" });

    test("daylight saving: a visitor in New York sees Prague's 9:00 at 4:00 AM between the two clock changes, at 3:00 AM around them, and books the right instant", async ({
      page,
      request,
    }) => {
      const everyDay = Object.fromEntries(
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start: "09:00", end: "17:00" }]]),
      );
      const { id, linkToken } = await createEventType(request, {
        timezone: "Europe/Prague",
        horizonDays: 400,
        availability: { weekly: everyDay, overrides: [] },
      });
      // The next March: the United States move their clocks on its second Sunday, Czechia on its last.
      const now = new Date();
      const year = now.getUTCMonth() < 2 ? now.getUTCFullYear() : now.getUTCFullYear() + 1;
      const sunday = (day: number, direction: 1 | -1) => {
        const date = new Date(Date.UTC(year, 2, day));
        while (date.getUTCDay() !== 0) date.setUTCDate(date.getUTCDate() + direction);
        return date;
      };
      const dayAfter = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000).toISOString().slice(0, 10);
      const us = sunday(8, 1);
      const czech = sunday(31, -1);
      const month = `March ${year}`;
      await openSite(page, { token: linkToken });
      const title = page.locator('[part="month-title"]');
      await expect(title).toBeVisible();
      for (let turns = 0; turns < 16 && (await title.textContent())?.trim() !== month; turns++) {
        const shown = (await title.textContent())!.trim();
        await page.getByRole("button", { name: "Next month" }).click();
        await expect(title).not.toHaveText(shown);
      }
      await expect(title).toHaveText(month);
      const firstTimeOf = async (date: string) => {
        await page.locator(`button[data-date="${date}"]`).click();
        const first = page.locator('button[part="slot"]').first();
        await expect(first).toBeVisible();
        return { start: await first.getAttribute("data-start"), text: (await first.textContent())!.replace(/\s+/g, " ").trim() };
      };
      const before = dayAfter(us, -2);
      const after = dayAfter(czech, 1);
      const between = dayAfter(us, 1);
      // 9:00 in Prague is 8:00 UTC in winter time and 7:00 UTC in summer time.
      expect(await firstTimeOf(before)).toEqual({ start: `${before}T08:00:00Z`, text: "3:00 AM–3:30 AM" });
      expect(await firstTimeOf(after)).toEqual({ start: `${after}T07:00:00Z`, text: "3:00 AM–3:30 AM" });
      expect(await firstTimeOf(between)).toEqual({ start: `${between}T08:00:00Z`, text: "4:00 AM–4:30 AM" });
      await page.locator('button[part="slot"]').first().click();
      await page.getByLabel("Email").fill("newyork@example.com");
      await page.getByRole("button", { name: "Book" }).click();
      await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
      // The zone by its name in the visitor's language, never its IANA id.
      await expect(page.getByText(/^\s*4:00\sAM\s–\s4:30\sAM \(Eastern Time\)\s*$/)).toBeVisible();
      const [reservation] = await reservationsOf(request, id, { from: `${year}-03-01`, until: `${year}-03-31` });
      expect(new Date(reservation!.start as string).toISOString()).toBe(`${between}T08:00:00.000Z`);
    });
  });
});
