import { Webhook } from "standardwebhooks";
import {
  test,
  expect,
  bookThroughApi,
  chooseFirstTime,
  createEventType,
  expectAccessible,
  firstFreeSlot,
  isOffered,
  moveBookingTo,
  openSite,
  reservationsOf,
  SITE,
} from "../support/fixtures.ts";

test.describe("managing a booking", () => {
  test("reschedule from the reservation link: the confirmation's link opens the booking, which moves to a new time", async ({ page, request }) => {
    const slug = `move-${Date.now().toString(36)}`;
    const { id, token, linkToken } = await createEventType(request, { slug, title: "Planning session" });
    await openSite(page, { token: linkToken });
    const first = await chooseFirstTime(page);
    await page.getByLabel("Email").fill("mover@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const link = page.getByRole("link", { name: "Reschedule or cancel" });
    await expect(link).toHaveAttribute("href", new RegExp(`/book/${slug}\\?reservation=[0-9a-f-]{36}$`));

    // The visitor follows the link later, as from the confirmation email.
    await page.goto((await link.getAttribute("href"))!);
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    await expect(page.getByText("Status: confirmed")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Choose a new time" })).toBeVisible();
    // The booking page keeps its h1 for the outline; the manage screen's smaller header leaves the
    // description out, and the page does not show it in its stead.
    await expect(page.getByRole("heading", { level: 1, name: "Planning session" })).toBeAttached();
    await expect(page.getByText("A call for tests.").filter({ visible: true })).toHaveCount(0);
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    await expectAccessible(page, "reschedule");
    // A time on a later day, from the API: the grid holds only the shown month's days.
    const moved = await moveBookingTo(page, request, token, first);
    await expect(page.getByRole("heading", { name: "Your booking has moved" })).toBeVisible();
    await expectAccessible(page, "rescheduled");
    const reservations = await reservationsOf(request, id);
    expect(reservations).toHaveLength(1);
    expect(reservations[0]).toMatchObject({ status: "confirmed", email: "mover@example.com" });
    expect(new Date(reservations[0]!.start as string).toISOString()).toBe(new Date(moved).toISOString());
    // The time it left is free again.
    expect(await isOffered(request, token, first)).toBe(true);
  });

  test("cancel from the reservation link: asks first, cancels, and the time is free again", async ({ page, request }) => {
    const slug = `cancel-${Date.now().toString(36)}`;
    const { id, token } = await createEventType(request, { slug });
    const slot = await firstFreeSlot(request, token);
    const { uuid, manageUrl } = await bookThroughApi(request, token, slot, "leaver@example.com");
    expect(await isOffered(request, token, slot.startIso8601)).toBe(false);
    await page.goto(manageUrl);
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await expect(page.getByText("Cancel this booking? This cannot be undone.")).toBeVisible();
    await expectAccessible(page, "cancel question");
    expect((await reservationsOf(request, id))[0]).toMatchObject({ uuid, status: "confirmed" });
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    await expectAccessible(page, "cancelled");
    expect((await reservationsOf(request, id))[0]).toMatchObject({ uuid, status: "cancelled" });
    expect(await isOffered(request, token, slot.startIso8601)).toBe(true);
    // The same link later says so rather than offering the booking again.
    await page.reload();
    await expect(page.getByText("Status: cancelled")).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel booking" })).toHaveCount(0);
    await expectAccessible(page, "cancelled link reopened");
  });

  test("organizer webhooks: a booking made, moved and cancelled on the embedding site reaches the organizer signed, in order, and the site hears each change", async ({
    page,
    request,
  }) => {
    const slug = `hooks-${Date.now().toString(36)}`;
    const { token, linkToken, webhookSecret } = await createEventType(request, { slug, webhookUrl: `${SITE}/hooks/${slug}` });
    const siteStatus = page.locator("#site-status");
    await openSite(page, { token: linkToken });
    const first = await chooseFirstTime(page);
    await page.getByLabel("Email").fill("organizer-sees@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(siteStatus).toHaveText(/^Thanks! Your booking reference is [0-9a-f-]{36}\.$/);
    const uuid = (await siteStatus.textContent())!.match(/[0-9a-f-]{36}/)![0];
    const manageUrl = (await page.getByRole("link", { name: "Reschedule or cancel" }).getAttribute("href"))!;

    // The site opens the element for that booking (as its own account page would) to move it...
    await openSite(page, { token: linkToken, "reservation-uuid": uuid });
    const moved = await moveBookingTo(page, request, token, first);
    await expect(page.getByRole("heading", { name: "Your booking has moved" })).toBeVisible();
    await expect(siteStatus).toHaveText(`Moved: booking ${uuid} now starts ${moved}.`);
    // ...and to cancel it.
    await openSite(page, { token: linkToken, "reservation-uuid": uuid });
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    await expect(siteStatus).toHaveText(`Cancelled: booking ${uuid}.`);

    // What the organizer's endpoint received, checked as a receiver would (Standard Webhooks).
    const received = async () => (await (await request.get(`${SITE}/hooks/${slug}`)).json()) as Array<{ headers: Record<string, string>; body: string }>;
    await expect.poll(async () => (await received()).length, { timeout: 20_000 }).toBe(3);
    const receiver = new Webhook(webhookSecret);
    const events = (await received()).map((hook) => receiver.verify(hook.body, hook.headers) as { type: string; data: Record<string, unknown> });
    expect(events.map((e) => e.type)).toEqual(["reservation.created", "reservation.rescheduled", "reservation.cancelled"]);
    expect(events.map((e) => e.data.uuid)).toEqual([uuid, uuid, uuid]);
    expect(events[0]!.data).toMatchObject({ email: "organizer-sees@example.com", status: "confirmed", manageUrl });
    expect(new Date(events[1]!.data.start as string).getTime()).toBe(new Date(moved).getTime());
    expect(new Date(events[1]!.data.previousStart as string).getTime()).toBe(new Date(first).getTime());
    expect(events[2]!.data).toMatchObject({ status: "cancelled" });
    // A forged body does not pass the same check.
    const [created] = await received();
    expect(() => receiver.verify(created!.body.replace("organizer-sees", "someone-else"), created!.headers)).toThrow();
  });
});
