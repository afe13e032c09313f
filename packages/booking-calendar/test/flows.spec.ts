import {
  test,
  expect,
  bookThroughApi,
  chooseFirstTime,
  chooseTime,
  continueToPayment,
  createEventType,
  expectTimeNotOffered,
  firstFreeSlot,
  freeSlots,
  mountCalendar,
  moveBookingTo,
  recordApiCalls,
  recordEvents,
  reservationsOf,
  routeStripeJs,
  PAID,
  payWithCard,
} from "./fixtures.ts";

test.describe("booking flows", () => {
  test("free: init, slots, one POST /reservations, a success screen with a calendar file, and the events in order", async ({ page, request }) => {
    const { id, token } = await createEventType(request);
    const calls = recordApiCalls(page);
    const events = await recordEvents(page);
    await mountCalendar(page, { token, email: "ada@example.com", firstname: "Ada" });
    // One day opened, whatever the hour: late in the day the first time far enough ahead is tomorrow's.
    const { startIso8601: start } = await firstFreeSlot(request, token);
    await chooseTime(page, start);
    await expect(page.getByLabel("Email")).toHaveValue("ada@example.com");
    await expect(page.getByLabel("First name")).toHaveValue("Ada");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Join the meeting" })).toHaveAttribute("href", /^https:\/\/meet\.jit\.si\//);
    const ics = await page.getByRole("link", { name: "Download .ics" }).getAttribute("href");
    const file = decodeURIComponent(ics!.replace(/^data:text\/calendar;charset=utf-8,/, ""));
    expect(file).toContain(`DTSTART:${start.replace(/[-:]/g, "").replace(/\.\d{3}/, "")}`);
    expect(file).toContain("SUMMARY:Test call");
    expect(calls.filter((c) => !c.startsWith("GET /timezones"))).toEqual(["POST /event-types/init", "GET /time-slots", "POST /reservations"]);
    const seen = await events();
    expect(seen.map((e) => e.type)).toEqual(["booking-ready", "booking-date-selected", "booking-slot-selected", "booking-reservation-confirmed"]);
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ status: "confirmed", email: "ada@example.com", firstname: "Ada" });
    expect((seen[3]!.detail as { uuid: string }).uuid).toBe(reservation!.uuid);
  });

  test("free: a time in the next month, reached with Next month, books for that instant", async ({ page, request }) => {
    const { id, token } = await createEventType(request);
    await mountCalendar(page, { token });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    const shownMonth = (await page.locator('button[part~="day"]').first().getAttribute("data-date"))!.slice(0, 7);
    const slot = (await freeSlots(request, token, 60)).find((s) => s.startIso8601.slice(0, 7) > shownMonth);
    expect(slot, "a free time in the month after the shown one").toBeDefined();
    await chooseTime(page, slot!.startIso8601);
    await page.getByLabel("Email").fill("later@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(new Date(reservation!.start as string).toISOString()).toBe(new Date(slot!.startIso8601).toISOString());
  });

  test("paid: prepare holds the seat, Stripe.js loads only then, the card pays, confirm books", async ({ page, request }) => {
    const { id, token } = await createEventType(request, PAID);
    const stripeJs = await routeStripeJs(page);
    const calls = recordApiCalls(page);
    const events = await recordEvents(page);
    await mountCalendar(page, { token });
    await expect(page.getByText("€50.00")).toBeVisible();
    await chooseTime(page, (await firstFreeSlot(request, token)).startIso8601);
    await page.getByLabel("Email").fill("pay@example.com");
    expect(stripeJs.loads).toBe(0);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
    await expect(page.getByRole("timer")).toContainText(/held for you for (9|10):\d{2}/);
    await expect(page.getByText("Test mode: no money moves.")).toBeVisible();
    expect(stripeJs.loads).toBe(1);
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "held" });
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    expect(calls.filter((c) => !c.startsWith("GET /timezones"))).toEqual([
      "POST /event-types/init",
      "GET /time-slots",
      "POST /reservations/prepare",
      `POST /reservations/${(await reservationsOf(request, id))[0]!.uuid}/payments`,
      `POST /reservations/${(await reservationsOf(request, id))[0]!.uuid}/confirm`,
    ]);
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "confirmed" });
    expect((await events()).map((e) => e.type)).toEqual([
      "booking-ready",
      "booking-date-selected",
      "booking-slot-selected",
      "booking-reservation-held",
      "booking-payment-started",
      "booking-reservation-confirmed",
    ]);
  });

  test("paid: a declined card shows the error and keeps the hold; another card then pays", async ({ page, request }) => {
    const { id, token } = await createEventType(request, PAID);
    await routeStripeJs(page);
    await mountCalendar(page, { token });
    await continueToPayment(page, "decline@example.com");
    await payWithCard(page, "4000 0000 0000 0002");
    await expect(page.getByRole("alert")).toContainText("The payment did not go through: Your card was declined.");
    await expect(page.getByRole("heading", { name: "Payment" })).toBeVisible();
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "held" });
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  });

  test("a time taken meanwhile sends the visitor back to fresh slots with a message", async ({ page, request }) => {
    const { token } = await createEventType(request);
    const slot = await firstFreeSlot(request, token);
    await mountCalendar(page, { token });
    await chooseTime(page, slot.startIso8601);
    await page.getByLabel("Email").fill("late@example.com");
    await bookThroughApi(request, token, slot);
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("alert")).toContainText("That time was just taken.");
    await expectTimeNotOffered(page, slot.startIso8601);
  });

  test("reschedule: shows the booking, moves it with PUT to a new time", async ({ page, request }) => {
    const { id, token } = await createEventType(request);
    const slot = await firstFreeSlot(request, token);
    const { uuid } = await bookThroughApi(request, token, slot, "move@example.com");
    const calls = recordApiCalls(page);
    const events = await recordEvents(page);
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    await expect(page.getByText("Status: confirmed")).toBeVisible();
    // A time on a later day, from the API: the grid holds only the shown month's days.
    const newStart = await moveBookingTo(page, request, token, slot.startIso8601);
    await expect(page.getByRole("heading", { name: "Your booking has moved" })).toBeVisible();
    expect(calls).toContain(`PUT /reservations/${uuid}`);
    const [reservation] = await reservationsOf(request, id);
    expect(new Date(reservation!.start as string).toISOString()).toBe(new Date(newStart).toISOString());
    expect((await events()).map((e) => e.type)).toContain("booking-rescheduled");
  });

  test("cancel: asks first, then cancels with DELETE", async ({ page, request }) => {
    const { id, token } = await createEventType(request);
    const { uuid } = await bookThroughApi(request, token, await firstFreeSlot(request, token), "cancel@example.com");
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await expect(page.getByText("Cancel this booking? This cannot be undone.")).toBeVisible();
    expect(calls).not.toContain(`DELETE /reservations/${uuid}`);
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    expect(calls).toContain(`DELETE /reservations/${uuid}`);
    expect((await reservationsOf(request, id))[0]).toMatchObject({ status: "cancelled" });
  });
});

test.describe("confirmation email text", () => {
  test("the success screen promises an email only when the server says the visitor will get one", async ({ page, request }) => {
    const { token } = await createEventType(request);
    // The test server sends no mail: its configuration says so, and nothing is promised.
    await mountCalendar(page, { token, email: "quiet@example.com" });
    await chooseFirstTime(page);
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(page.getByText("A confirmation goes to")).toHaveCount(0);

    // A server that sends mail says `emailConfirmation: true`; then the screen names the address.
    await page.route("**/event-types/init", async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      expect(body.data.configuration.emailConfirmation).toBe(false);
      body.data.configuration.emailConfirmation = true;
      await route.fulfill({ response, json: body });
    });
    await mountCalendar(page, { token, email: "told@example.com" });
    await chooseFirstTime(page);
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(page.getByText("A confirmation goes to told@example.com.")).toBeVisible();
  });
});

test.describe("booking links", () => {
  test("the confirmation carries the visitor's reschedule link, and that page opens the booking to move or cancel", async ({ page, request }) => {
    const slug = `link-${Date.now().toString(36)}`;
    const { token } = await createEventType(request, { slug });
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("link@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    const manage = page.getByRole("link", { name: "Reschedule or cancel" });
    await expect(manage).toHaveAttribute("href", new RegExp(`/book/${slug}\\?reservation=[0-9a-f-]{36}$`));
    await page.goto((await manage.getAttribute("href"))!);
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    await expect(page.getByText("Status: confirmed")).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
  });
});
