import { expect, test as base, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { ADMIN_KEY } from "./browser.ts";

export { ADMIN_KEY };

/** The customer's site: another origin than the API, as where the element is embedded. */
export const SITE = `http://127.0.0.1:${process.env.BC_SITE_PORT}`;

const everyDay = (start: string, end: string) =>
  Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start, end }]]));

/**
 * An event type open all day, every day, so there is always a free time whatever the date. An hour's
 * notice keeps the first free time far enough ahead that it cannot start while a test books it.
 */
export function eventTypeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Test call",
    description: "A call for tests.",
    timezone: "Europe/Prague",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    minNoticeMinutes: 60,
    horizonDays: 90,
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    availability: { weekly: everyDay("00:00", "24:00"), overrides: [] },
    locations: [{ type: "video-meet" }],
    ...overrides,
  };
}

/**
 * Creates an event type through the admin API; returns its id, its API token (`token`, for calls a
 * server makes), the publishable link token a site puts into its pages, and its webhook signing secret.
 */
export async function createEventType(
  request: APIRequestContext,
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; token: string; linkToken: string; webhookSecret: string }> {
  // Each event type gets a host of its own unless the test names hosts: the tests run in parallel on one
  // server, and event types of one host share that person's time (their first free slots would collide).
  const hosts = overrides.hosts ?? [{ hostId: await createHost(request) }];
  const response = await request.post("/admin/event-types", {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    data: { ...eventTypeBody(overrides), hosts },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = await response.json();
  return { id: body.data.id, token: body.data.token, linkToken: body.data.linkToken, webhookSecret: body.data.webhookSecret };
}

/** Creates a host through the admin API and returns its id. */
export async function createHost(request: APIRequestContext, fields: Record<string, unknown> = {}): Promise<number> {
  const response = await request.post("/admin/hosts", {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    data: { name: "Test host", email: `host-${crypto.randomUUID()}@example.com`, ...fields },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data.id;
}

/** The event type's reservations as the organizer sees them: by default from two days ago to 95 days ahead. */
export async function reservationsOf(request: APIRequestContext, id: number, range?: { from: string; until: string }): Promise<Array<Record<string, unknown>>> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const { from, until } = range ?? { from: day(-2), until: day(95) };
  const response = await request.get(`/admin/event-types/${id}/reservations?from=${from}&until=${until}`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).data;
}

/** Opens a page of the customer's site holding the element with these attributes. */
export async function mountCalendar(page: Page, attributes: Record<string, string>, options: { stripeStandin?: boolean } = {}): Promise<void> {
  const query = new URLSearchParams({ attrs: JSON.stringify(attributes), ...(options.stripeStandin ? { standin: "1" } : {}) });
  await page.goto(`${SITE}/book?${query}`);
}

/** Every API call the page makes, as "METHOD /path" in order. */
export function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  const server = test.info().project.use.baseURL!;
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === server && request.method() !== "OPTIONS" && !url.pathname.startsWith("/embed/")) calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
}

/** Collects the element's `booking-*` events on the host page, by name with their details. */
export async function recordEvents(page: Page): Promise<() => Promise<Array<{ type: string; detail: unknown }>>> {
  await page.addInitScript(() => {
    const seen: Array<{ type: string; detail: unknown }> = [];
    (window as unknown as { bookingEvents: typeof seen }).bookingEvents = seen;
    for (const type of [
      "booking-ready",
      "booking-date-selected",
      "booking-unavailable-selected",
      "booking-slot-selected",
      "booking-reservation-held",
      "booking-payment-started",
      "booking-reservation-confirmed",
      "booking-rescheduled",
      "booking-cancelled",
      "booking-error",
    ]) {
      document.addEventListener(type, (e) => seen.push({ type, detail: JSON.parse(JSON.stringify((e as CustomEvent).detail)) }));
    }
  });
  return () => page.evaluate(() => (window as unknown as { bookingEvents: Array<{ type: string; detail: unknown }> }).bookingEvents);
}

/**
 * How far ahead the tests book: past the hour's notice with half an hour to spare, so a chosen time
 * cannot slide into the notice (and stop being offered) while a test runs.
 */
const LEAD_MS = 90 * 60_000;

/** The free slots of the event type from yesterday to `days` days ahead (at most 60), straight from the API. */
export async function freeSlots(request: APIRequestContext, token: string, days = 30): Promise<Array<{ start: string; end: string; startIso8601: string }>> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await request.get(`/time-slots?from=${day(-1)}&until=${day(days)}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()).data;
}

/** The first free slot at least 90 minutes ahead, straight from the API. */
export async function firstFreeSlot(request: APIRequestContext, token: string): Promise<{ start: string; end: string; startIso8601: string }> {
  const soonest = Date.now() + LEAD_MS;
  const slot = (await freeSlots(request, token)).find((s) => Date.parse(s.startIso8601) >= soonest);
  expect(slot, "a free slot 90 minutes ahead").toBeDefined();
  return slot!;
}

/** Whether the API offers the slot starting at `startIso8601` as free. */
export async function isOffered(request: APIRequestContext, token: string, startIso8601: string): Promise<boolean> {
  return (await freeSlots(request, token)).some((s) => s.startIso8601 === startIso8601);
}

/** Books a slot through the API, as another visitor would; answers the reservation's uuid and the visitor's manage link. */
export async function bookThroughApi(
  request: APIRequestContext,
  token: string,
  slot: { start: string; end: string },
  email = "grace@example.com",
): Promise<{ uuid: string; manageUrl: string }> {
  const response = await request.post("/reservations", { headers: { Authorization: `Bearer ${token}` }, data: { start: slot.start, end: slot.end, email } });
  const body = await response.json();
  expect(body.success, JSON.stringify(body)).toBe(true);
  return { uuid: body.data.uuid, manageUrl: body.data.manageUrl };
}

/**
 * Counts the page's loads of Stripe.js: the server's stand-in, which the element loads from where the
 * configuration names it, and js.stripe.com, where the server's stand-in is served should anything
 * still ask for Stripe's own.
 */
export async function routeStripeJs(page: Page): Promise<{ loads: number }> {
  const counter = { loads: 0 };
  const server = test.info().project.use.baseURL!;
  const script = await (await fetch(`${server}/embed/stripe-standin.js`)).text();
  page.on("request", (request) => {
    if (request.url() === `${server}/embed/stripe-standin.js`) counter.loads += 1;
  });
  await page.route("https://js.stripe.com/**", (route) => {
    counter.loads += 1;
    return route.fulfill({ contentType: "text/javascript", body: script });
  });
  return counter;
}

/** Opens the customer's page of popup triggers: one button per token, a link to the first, and optionally a floating button and a fixed color-scheme. */
export async function openPopupSite(page: Page, options: { tokens: string[]; floating?: string; scheme?: string }): Promise<void> {
  const query = new URLSearchParams({
    tokens: JSON.stringify(options.tokens),
    ...(options.floating ? { floating: options.floating } : {}),
    ...(options.scheme ? { scheme: options.scheme } : {}),
  });
  await page.goto(`${SITE}/popup?${query}`);
}

/**
 * Picks the first free time at least 90 minutes ahead (on the first free days, as a visitor would
 * scan them), which opens the details form; returns the time's start.
 */
export async function chooseFirstTime(page: Page): Promise<string> {
  const soonest = Date.now() + LEAD_MS;
  const days = page.locator('button[part~="day-free"]');
  await expect(days.first()).toBeVisible();
  for (let day = 0; day < 3; day++) {
    await days.nth(day).click();
    await expect(days.nth(day)).toHaveAttribute("aria-pressed", "true");
    const slots = page.locator('button[part="slot"]');
    await expect(slots.first()).toBeVisible();
    const start = (await slots.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-start")!))).find((s) => Date.parse(s) >= soonest);
    if (start) {
      await page.locator(`button[part="slot"][data-start="${start}"]`).click();
      return start;
    }
  }
  throw new Error("no free time 90 minutes ahead on the first three free days");
}

/**
 * The day `date` (YYYY-MM-DD) in the month grid, turning to its month first when another is shown:
 * late on a month's last day the first time far enough ahead can fall in the next month.
 */
export async function showDay(page: Page, date: string): Promise<Locator> {
  const day = page.locator(`button[data-date="${date}"]`);
  const shown = page.locator('button[part~="day"]').first();
  await expect(shown).toBeVisible();
  for (let turns = 0; turns < 3 && (await day.count()) === 0; turns++) {
    const before = (await shown.getAttribute("data-date"))!;
    await page.getByRole("button", { name: date < before ? "Previous month" : "Next month" }).click();
    await expect(shown).not.toHaveAttribute("data-date", before);
  }
  await expect(day).toBeVisible();
  return day;
}

/** Opens the day of `startIso8601` (in a UTC page) and picks that time. */
export async function chooseTime(page: Page, startIso8601: string): Promise<void> {
  await (await showDay(page, startIso8601.slice(0, 10))).click();
  await page.locator(`button[part="slot"][data-start="${startIso8601}"]`).click();
}

/**
 * On the open reschedule view: picks the API's first free time on a later day (in the page's zone,
 * UTC) than `after` (the booking's current start), turning the month when it falls in the next one,
 * and moves the booking there. Answers the new start.
 */
export async function moveBookingTo(page: Page, request: APIRequestContext, token: string, after: string): Promise<string> {
  const day = new Date(after).toISOString().slice(0, 10);
  const slot = (await freeSlots(request, token)).find((s) => s.startIso8601.slice(0, 10) > day);
  expect(slot, `a free time on a day after ${day}`).toBeDefined();
  await chooseTime(page, slot!.startIso8601);
  await page.getByRole("button", { name: "Move booking" }).click();
  return slot!.startIso8601;
}

/** An event type that costs €50.00, paid through Stripe (the server's stand-in in tests). */
export const PAID = { payment: { amount: 5000, currency: "eur", providerAccountId: "acct_1BrowserTests" }, holdMinutes: 10 };

/** From the open calendar of a paid event type: the first free time, an email, on to the payment step. */
export async function continueToPayment(page: Page, email: string): Promise<string> {
  const start = await chooseFirstTime(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  return start;
}

/** Types a card number into the (stand-in) Payment Element and pays €50.00. */
export async function payWithCard(page: Page, card: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByRole("button", { name: "Pay €50.00" }).click();
}

/** Opens the day of `start` (an ISO instant; the tests' zone is UTC) and checks that this time is no longer offered. */
export async function expectTimeNotOffered(page: Page, start: string): Promise<void> {
  const day = await showDay(page, start.slice(0, 10));
  // A day with no free time left cannot be opened, which says the same.
  if (!(await day.getAttribute("part"))!.split(" ").includes("day-free")) return;
  await day.click();
  await expect(day).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator('button[part="slot"]').first().or(page.getByText("No free times on this day."))).toBeVisible();
  await expect(page.locator(`button[part="slot"][data-start="${start}"]`)).toHaveCount(0);
}

export const test = base;
export { expect };
