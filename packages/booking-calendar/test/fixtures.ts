import { expect, test as base, type APIRequestContext, type Page } from "@playwright/test";

export const ADMIN_KEY = "component-test-admin-key";

/** The customer's site: another origin than the API, as where the element is embedded. */
export const SITE = `http://127.0.0.1:${process.env.BC_SITE_PORT}`;

const everyDay = (start: string, end: string) =>
  Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, [{ start, end }]]));

/** An event type open all day, every day, so there is always a free time whatever the date. */
export function eventTypeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Test call",
    description: "A call for tests.",
    timezone: "Europe/Prague",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    minNoticeMinutes: 0,
    horizonDays: 90,
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    availability: { weekly: everyDay("00:00", "24:00"), overrides: [] },
    locations: [{ type: "video-meet" }],
    ...overrides,
  };
}

/** Creates an event type through the admin API; returns its id and public token. */
export async function createEventType(request: APIRequestContext, overrides: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const response = await request.post("/admin/event-types", { headers: { Authorization: `Bearer ${ADMIN_KEY}` }, data: eventTypeBody(overrides) });
  expect(response.status(), await response.text()).toBe(200);
  const body = await response.json();
  return { id: body.data.id, token: body.data.token };
}

/** The event type's reservations as the organizer sees them. */
export async function reservationsOf(request: APIRequestContext, id: number): Promise<Array<Record<string, unknown>>> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await request.get(`/admin/event-types/${id}/reservations?from=${day(-2)}&until=${day(95)}`, { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
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
    for (const type of ["booking-ready", "booking-date-selected", "booking-slot-selected", "booking-reservation-held", "booking-payment-started",
      "booking-reservation-confirmed", "booking-rescheduled", "booking-cancelled", "booking-error"]) {
      document.addEventListener(type, (e) => seen.push({ type, detail: JSON.parse(JSON.stringify((e as CustomEvent).detail)) }));
    }
  });
  return () => page.evaluate(() => (window as unknown as { bookingEvents: Array<{ type: string; detail: unknown }> }).bookingEvents);
}

/** The first free slot of the event type from today on, straight from the API. */
export async function firstFreeSlot(request: APIRequestContext, token: string): Promise<{ start: string; end: string; startIso8601: string }> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const response = await request.get(`/time-slots?from=${day(0)}&until=${day(30)}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  const slots = (await response.json()).data;
  expect(slots.length).toBeGreaterThan(0);
  return slots[0];
}

/** Books a slot through the API, as another visitor would. */
export async function bookThroughApi(request: APIRequestContext, token: string, slot: { start: string; end: string }, email = "grace@example.com"): Promise<string> {
  const response = await request.post("/reservations", { headers: { Authorization: `Bearer ${token}` }, data: { start: slot.start, end: slot.end, email } });
  const body = await response.json();
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.data.uuid;
}

/** Serves the server's Stripe.js stand-in where the page asks for js.stripe.com, and counts the asks. */
export async function routeStripeJs(page: Page): Promise<{ loads: number }> {
  const counter = { loads: 0 };
  const server = test.info().project.use.baseURL!;
  const script = await (await fetch(`${server}/embed/stripe-standin.js`)).text();
  await page.route("https://js.stripe.com/**", (route) => {
    counter.loads += 1;
    return route.fulfill({ contentType: "text/javascript", body: script });
  });
  return counter;
}

/** Picks the first free day and its first time, which opens the details form; returns the time's start. */
export async function chooseFirstTime(page: Page): Promise<string> {
  await page.locator('button[part~="day-free"]').first().click();
  const slot = page.locator('button[part="slot"]').first();
  const start = (await slot.getAttribute("data-start"))!;
  await slot.click();
  return start;
}

/** Picks the first day with free times and returns its date. */
export async function pickFirstFreeDay(page: Page): Promise<string> {
  const day = page.locator('button[part~="day-free"][aria-disabled="false"]').first();
  await expect(day).toBeVisible();
  const date = (await day.getAttribute("data-date"))!;
  await day.click();
  return date;
}

export const test = base;
export { expect };
