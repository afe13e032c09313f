import { request as requests, type APIRequestContext, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { ADMIN_KEY, createEventType, expect, expectAccessible, freeSlots, saveScreenshot, test } from "../support/fixtures.ts";
import { startOwnServer, type OwnServer } from "../support/server.ts";

// The bookings page with 120 bookings of one event type: a server of this file's own, so bookings
// moved into the past (no API books the past: their stored times are moved back, as time would move
// them) are this file's alone.

const COUNT = 120;
const PAST = 3;
const DAY_MS = 86_400_000;
let server: OwnServer;
let eventTypeId = 0;
/** The bookings as made, soonest first: `Guest 000` to `Guest 119`; the first PAST are then moved 10 days back. */
let made: { name: string; uuid: string; startMs: number }[] = [];

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const pad = (i: number) => String(i).padStart(3, "0");

async function book(api: APIRequestContext, token: string, slot: { start: string; end: string }, i: number) {
  const r = await api.post("/reservations", {
    headers: { Authorization: `Bearer ${token}` },
    data: { start: slot.start, end: slot.end, email: `guest${pad(i)}@example.com`, firstname: "Guest", lastname: pad(i) },
  });
  const body = await r.json();
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.data.uuid as string;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("bookings");
  const api = await requests.newContext({ baseURL: server.origin });
  const et = await createEventType(api, { title: "Paged call" });
  eventTypeId = et.id;
  const soonest = Date.now() + 90 * 60_000;
  const slots = (await freeSlots(api, et.linkToken)).filter((s) => Date.parse(s.startIso8601) >= soonest).slice(0, COUNT);
  expect(slots).toHaveLength(COUNT);
  made = [];
  for (let i = 0; i < COUNT; i += 10) {
    const uuids = await Promise.all(slots.slice(i, i + 10).map((slot, j) => book(api, et.linkToken, slot, i + j)));
    for (const [j, uuid] of uuids.entries()) made.push({ name: `Guest ${pad(i + j)}`, uuid, startMs: Date.parse(slots[i + j]!.startIso8601) });
  }
  await api.dispose();
  // The first bookings move ten days back: past ones, in the order they were made.
  const moved = made
    .slice(0, PAST)
    .map((b) => `'${b.uuid}'`)
    .join(",");
  execFileSync("sqlite3", [
    "-cmd",
    ".timeout 5000",
    server.database,
    `UPDATE reservations SET start_ms = start_ms - ${10 * DAY_MS}, end_ms = end_ms - ${10 * DAY_MS} WHERE uuid IN (${moved})`,
  ]);
  for (const b of made.slice(0, PAST)) b.startMs -= 10 * DAY_MS;
});

test.afterAll(() => server?.stop());
// One server, its bookings read by the first test and one cancelled by the second: in order, in one worker.
test.describe.configure({ mode: "default" });

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.origin}/console`);
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
}

/** The names in the list's rows, in order. */
const rows = (page: Page) => page.locator("main tbody tr td:nth-child(2)");

async function expectPage(page: Page, number: number, first: number, last: number) {
  await expect(page.getByText(`Page ${number}`, { exact: true })).toBeVisible();
  await expect(rows(page)).toHaveCount(last - first + 1);
  await expect(rows(page).first()).toContainText(`Guest ${pad(first)}`);
  await expect(rows(page).last()).toContainText(`Guest ${pad(last)}`);
}

test("lists upcoming bookings soonest first, pages with Next, Previous and First, and shows past ones most recent first", async ({ page }) => {
  await signIn(page);
  await page.getByLabel("Event type").selectOption(String(eventTypeId));
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(page.getByRole("button", { name: "Upcoming" })).toHaveAttribute("aria-pressed", "true");
  // 117 upcoming, 50 a page: Guest 003-052, 053-102, 103-119.
  await expectPage(page, 1, 3, 52);
  const pager = page.getByRole("navigation", { name: "Bookings: Page" });
  await expect(pager.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await pager.getByRole("button", { name: "Next page" }).click();
  await expectPage(page, 2, 53, 102);
  await expect(pager.getByRole("button", { name: "Next page" })).toBeFocused();
  await pager.getByRole("button", { name: "Next page" }).click();
  await expectPage(page, 3, 103, 119);
  await expect(pager.getByRole("button", { name: "Next page" })).toBeDisabled();
  await pager.getByRole("button", { name: "Previous page" }).click();
  await expectPage(page, 2, 53, 102);
  await pager.getByRole("button", { name: "First page" }).click();
  await expectPage(page, 1, 3, 52);
  await expect(pager.getByRole("button", { name: "First page" })).toBeDisabled();

  await page.getByRole("button", { name: "Past", exact: true }).click();
  await expect(page.getByRole("button", { name: "Past", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(rows(page)).toHaveText([/Guest 002/, /Guest 001/, /Guest 000/]);
  await expect(pager).toHaveCount(0);
  await page.getByRole("button", { name: "All", exact: true }).click();
  await expect(rows(page).first()).toContainText("Guest 000");
  await expect(page.getByText("Page 1", { exact: true })).toBeVisible();

  for (const width of [1280, 390]) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await expectAccessible(page, `bookings with pages ${scheme} ${width}`);
    }
  }
  await saveScreenshot(page, "console-bookings-pages-dark-390");
});

test("filters by status and days, and shows a booking in its week", async ({ page, request }) => {
  const cancelled = made[10]!;
  expect(
    (await request.post(`${server.origin}/admin/event-types/${eventTypeId}/reservations/${cancelled.uuid}/cancel`, { headers: admin, data: {} })).status(),
  ).toBe(200);
  await signIn(page);
  await page.getByLabel("Event type").selectOption(String(eventTypeId));
  await page.getByLabel("Status").selectOption("cancelled");
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(rows(page)).toHaveText([/Guest 010/]);
  await expect(page.locator("main tbody tr").first()).toContainText("cancelled");

  await page.getByLabel("Status").selectOption("confirmed");
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(rows(page).first()).toContainText("Guest 003");
  await expect(rows(page).filter({ hasText: "Guest 010" })).toHaveCount(0);
  await expect(rows(page).nth(6)).toContainText("Guest 009");
  await expect(rows(page).nth(7)).toContainText("Guest 011");

  // One day (the browser's zone is UTC): exactly the upcoming bookings of that day.
  const target = made[60]!;
  const day = new Date(target.startMs).toISOString().slice(0, 10);
  const ofDay = made.slice(PAST).filter((b) => new Date(b.startMs).toISOString().slice(0, 10) === day);
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("From").fill(day);
  await page.getByLabel("Until").fill(day);
  await page.getByRole("button", { name: "Filters" }).click();
  await expect(rows(page)).toHaveCount(ofDay.length);
  await expect(rows(page).filter({ hasText: "Guest 060" })).toHaveCount(1);
  const wrong = made.find((b) => new Date(b.startMs).toISOString().slice(0, 10) !== day && b.startMs > Date.now())!;
  await expect(rows(page).filter({ hasText: wrong.name })).toHaveCount(0);

  // The week of that day holds it, with every other booking of that week.
  await page.getByLabel("From").fill("");
  await page.getByLabel("Until").fill("");
  await page.getByRole("button", { name: "Filters" }).click();
  await page.getByRole("button", { name: "Week", exact: true }).click();
  const mondayOf = (ms: number) => {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  };
  const weeksAhead = Math.round((mondayOf(target.startMs) - mondayOf(Date.now())) / (7 * DAY_MS));
  for (let i = 0; i < weeksAhead; i++) await page.getByRole("button", { name: "Next week" }).click();
  const section = page.locator(".week section").filter({ has: page.getByRole("heading", { name: new RegExp(day.slice(5)) }) });
  await expect(section.getByRole("button", { name: /Guest 060/ })).toBeVisible();
  const ofWeek = made.filter((b) => mondayOf(b.startMs) === mondayOf(target.startMs));
  await expect(page.locator(".week li")).toHaveCount(ofWeek.length);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectAccessible(page, `bookings week with bookings ${scheme}`);
  }
  await section.getByRole("button", { name: /Guest 060/ }).click();
  await expect(page.getByRole("dialog").getByRole("heading", { name: /Guest 060/ })).toBeVisible();
});

test("shows every booking of a week in the week view, beyond one page of the API", async ({ page }) => {
  test.setTimeout(120_000);
  const api = await requests.newContext({ baseURL: server.origin });
  const et = await createEventType(api, { title: "Busy week", durationMinutes: 15, slotIntervalMinutes: 15 });
  // 210 bookings of a quarter hour from next Monday on (the browser's zone is UTC): Monday to Wednesday of one week.
  const now = new Date();
  const nextMonday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) + 7);
  const slots = (await freeSlots(api, et.linkToken)).filter((s) => Date.parse(s.startIso8601) >= nextMonday).slice(0, 210);
  expect(slots).toHaveLength(210);
  expect(Date.parse(slots.at(-1)!.startIso8601)).toBeLessThan(nextMonday + 7 * DAY_MS);
  for (let i = 0; i < slots.length; i += 15) await Promise.all(slots.slice(i, i + 15).map((slot, j) => book(api, et.linkToken, slot, 500 + i + j)));
  await api.dispose();
  await signIn(page);
  await page.getByLabel("Event type").selectOption(String(et.id));
  await page.getByRole("button", { name: "Filters" }).click();
  await page.getByRole("button", { name: "Week", exact: true }).click();
  await page.getByRole("button", { name: "Next week" }).click();
  await expect(page.locator(".week li")).toHaveCount(210);
  await expect(page.locator(".week li").last()).toContainText("Guest 709");
});
