import { request as requests, type Dialog, type Page } from "@playwright/test";
import { ADMIN_KEY, createEventType, expect, expectAccessible, saveScreenshot, test } from "../support/fixtures.ts";
import { startOwnServer, type OwnServer } from "../support/server.ts";

// Unsaved changes against leaving: the console asks before signing out, the browser before a reload,
// the page before choosing other hours; and a session that ends while changes are unsaved lets the
// organizer sign in again over the page and save them. The end of a session runs on a server of
// this file's own whose sessions end after IDLE_SECONDS unused.

const IDLE_SECONDS = 4;
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

async function signIn(page: Page, origin = ""): Promise<void> {
  await page.goto(`${origin}/console`);
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
}

/** Opens the availability page on the event type's hours. */
async function hoursOf(page: Page, eventTypeId: number): Promise<void> {
  await page.getByRole("link", { name: "Availability" }).click();
  await page.getByLabel("Hours of").selectOption(`event-type-${eventTypeId}`);
  await expect(page.getByLabel("Hours of")).toHaveValue(`event-type-${eventTypeId}`);
}

test("asks before signing out, reloading or choosing other hours with unsaved changes, and forgets them once signed out", async ({ page, request }) => {
  const first = await createEventType(request, { title: `Guarded call ${Date.now()}` });
  const other = await createEventType(request, { title: `Other call ${Date.now()}` });
  await signIn(page);
  await hoursOf(page, first.id);
  await page.getByRole("button", { name: "Add range: Monday" }).click();
  await expect(page.locator("#wk-monday-1-start")).toBeVisible();

  // Choosing other hours, then staying: the dropdown names the hours still being edited.
  page.once("dialog", (dialog) => dialog.dismiss());
  await page.getByLabel("Hours of").selectOption(`event-type-${other.id}`);
  await expect(page.getByLabel("Hours of")).toHaveValue(`event-type-${first.id}`);
  await expect(page.locator("#wk-monday-1-start")).toBeVisible();

  // Reloading: the browser's leave-page warning; staying keeps the change.
  const warning = page.waitForEvent("dialog");
  // Staying cancels the reload, so it never finishes: not waited for.
  void page.reload({ timeout: 5000 }).catch(() => undefined);
  const dialog: Dialog = await warning;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.dismiss();
  await expect(page.locator("#wk-monday-1-start")).toBeVisible();

  // Signing out: asked first; staying keeps the change, leaving signs out.
  let question = "";
  page.once("dialog", (d) => ((question = d.message()), void d.dismiss()));
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect.poll(() => question).toContain("unsaved changes");
  await expect(page.locator("#wk-monday-1-start")).toBeVisible();
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByLabel("Admin key")).toBeVisible();
  expect((await page.request.get("/console/session")).status()).toBe(401);

  // Signed in again, nothing is unsaved: moving between pages and reloading ask nothing.
  const asked: string[] = [];
  page.on("dialog", (d) => (asked.push(d.type()), void d.dismiss()));
  await page.getByLabel("Admin key").fill(ADMIN_KEY);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Availability", level: 2 })).toBeVisible();
  await expect(page.locator("#wk-monday-0-start")).toBeVisible();
  await page.getByRole("link", { name: "Bookings" }).click();
  await expect(page.getByRole("heading", { name: "Bookings", level: 2 })).toBeVisible();
  await page.getByRole("link", { name: "Event types" }).click();
  await expect(page.getByRole("heading", { name: "Event types", level: 2 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Event types", level: 2 })).toBeVisible();
  expect(asked).toEqual([]);
  const saved = (await (await request.get(`/admin/event-types/${first.id}`, { headers: admin })).json()).data.availability;
  expect(saved.weekly.monday).toHaveLength(1);
});

test("copies a day's hours to the days chosen only", async ({ page, request }) => {
  const et = await createEventType(request, { title: `Copy call ${Date.now()}` });
  await signIn(page);
  await hoursOf(page, et.id);
  await page.getByRole("button", { name: "Add range: Monday" }).click();
  const copy = page.getByRole("button", { name: "Copy to other days: Monday" });
  await copy.click();
  await expect(copy).toHaveAttribute("aria-expanded", "true");
  const choice = page.getByRole("group", { name: "Copy the hours of Monday" });
  await expect(choice.getByRole("checkbox", { name: "Tuesday" })).toBeFocused();
  await expect(choice.getByRole("checkbox", { name: "Monday" })).toHaveCount(0);
  await choice.getByRole("checkbox", { name: "Saturday" }).uncheck();
  await choice.getByRole("checkbox", { name: "Sunday" }).uncheck();
  for (const scheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await expectAccessible(page, `availability copy ${scheme} ${width}`);
    }
  }
  await choice.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(choice).toHaveCount(0);
  await expect(copy).toBeFocused();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("#console-status")).toContainText("Saved.");
  const weekly = (await (await request.get(`/admin/event-types/${et.id}`, { headers: admin })).json()).data.availability.weekly;
  expect(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => weekly[d].length)).toEqual([2, 2, 2, 2, 2, 1, 1]);

  // Cancelled, nothing is copied.
  await page.getByRole("button", { name: "Add range: Friday" }).click();
  await page.getByRole("button", { name: "Copy to other days: Friday" }).click();
  await page.getByRole("group", { name: "Copy the hours of Friday" }).getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator("#wk-saturday-1-start")).toHaveCount(0);
});

test.describe("when the session ends", () => {
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer("session", { BOOKING_CONSOLE_IDLE_SECONDS: String(IDLE_SECONDS) });
  });
  test.afterAll(() => server?.stop());

  test("returns to the sign-in, and over a page with unsaved changes signs in again and keeps them to save", async ({ page }) => {
    const api = await requests.newContext({ baseURL: server.origin });
    const et = await createEventType(api, { title: "Idle call" });
    await signIn(page, server.origin);
    // Unused past its idle time, the session is gone: the next page asks to sign in.
    await page.waitForTimeout((IDLE_SECONDS + 1.5) * 1000);
    await page.getByRole("link", { name: "Event types" }).click();
    await expect(page.getByLabel("Admin key")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Console sections" })).toHaveCount(0);

    await page.getByLabel("Admin key").fill(ADMIN_KEY);
    await page.getByRole("button", { name: "Sign in" }).click();
    await hoursOf(page, et.id);
    await page.getByRole("button", { name: "Add range: Monday" }).click();
    await page.locator("#wk-monday-1-end").fill("13:30");
    await page.waitForTimeout((IDLE_SECONDS + 1.5) * 1000);
    await page.getByRole("button", { name: "Save" }).click();
    const again = page.getByRole("dialog");
    await expect(again).toContainText("Your session has ended");
    await expect(again.getByLabel("Admin key")).toBeVisible();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectAccessible(page, `signed out over a page ${scheme}`);
    }
    await saveScreenshot(page, "console-session-ended-dark-1280");
    await again.getByLabel("Admin key").fill(ADMIN_KEY);
    await again.getByRole("button", { name: "Sign in" }).click();
    await expect(again).toHaveCount(0);
    // The change is still on the page, and still unsaved: saved now.
    await expect(page.locator("#wk-monday-1-end")).toHaveValue("13:30");
    await expect(page.getByLabel("Hours of")).toHaveValue(`event-type-${et.id}`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#console-status")).toContainText("Saved.");
    const monday = (await (await api.get(`/admin/event-types/${et.id}`, { headers: admin })).json()).data.availability.weekly.monday;
    expect(monday).toHaveLength(2);
    expect(monday[1]).toMatchObject({ end: "13:30" });
    await api.dispose();
  });
});
