import type { Page } from "@playwright/test";
import { test, expect, chooseFirstTime, createEventType, mountCalendar } from "./fixtures.ts";

/** The locale settings of an event type in `preset`, starting weeks on Monday, with these overrides. */
const localeOf = (preset: string, texts: Record<string, string> = {}) => ({ locale: { preset, startDayOfWeek: "monday", texts } });

/** Opens the first free day and answers the first time button. */
async function firstDayTimes(page: Page) {
  await page.locator('button[part~="day-free"]').first().click();
  const slot = page.locator('button[part="slot"]').first();
  await expect(slot).toBeVisible();
  return slot;
}

/** The free days' labels, e.g. "…, 48 wolnych terminów". */
async function dayLabels(page: Page): Promise<string[]> {
  await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
  return page.locator('button[part~="day-free"]').evaluateAll((days) => days.map((d) => d.getAttribute("aria-label") ?? ""));
}

test.describe("the element in the visitor's language", () => {
  test("speaks German by the preset, loaded beside the script-tag file: calendar, times, form and a server's field error", async ({ page, request }) => {
    const { token } = await createEventType(request, { seats: 3, ...localeOf("de") });
    const catalog = page.waitForResponse((r) => r.url().endsWith("/embed/locales/de.json"));
    await mountCalendar(page, { token });
    expect((await catalog).status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Tag wählen" })).toBeVisible();
    await expect(page.getByText("Uhrzeit wählen")).toBeVisible();
    await expect(page.getByText("30 Min.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Nächster Monat" })).toBeVisible();
    for (const label of await dayLabels(page)) expect(label).toMatch(/(\d+ freie Termine|1 freier Termin)$/);
    await expect(await firstDayTimes(page)).toContainText("Noch 3 Plätze frei");
    await expect(page.getByText("Choose a day")).toHaveCount(0);

    await chooseFirstTime(page);
    await expect(page.getByRole("heading", { name: "Ihre Angaben" })).toBeVisible();
    await page.getByRole("button", { name: "Buchen" }).click();
    await expect(page.getByLabel("E-Mail")).toHaveAccessibleDescription("Dieses Feld ist erforderlich.");
    await expect(page.getByText("Bitte korrigieren Sie die markierten Felder.")).toBeVisible();

    // The booker as their own guest passes the element's checks; the server's 422 names it by code.
    await page.getByLabel("E-Mail").fill("ada@example.com");
    await page.getByRole("button", { name: "Gast hinzufügen" }).click();
    await page.getByLabel("E-Mail von Gast 1").fill("ada@example.com");
    const answer = page.waitForResponse((r) => r.url().endsWith("/reservations") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Buchen" }).click();
    const refused = await answer;
    expect(refused.status()).toBe(422);
    expect((await refused.json()).fieldErrors).toEqual([{ field: "guests.0", code: "duplicate", message: "Each guest once, and not the booker." }]);
    await expect(page.getByLabel("E-Mail von Gast 1")).toHaveAccessibleDescription("Jeden Gast nur einmal, und nicht Ihre eigene Adresse.");

    await page.getByLabel("E-Mail von Gast 1").fill("grace@example.com");
    await page.getByRole("button", { name: "Buchen" }).click();
    await expect(page.getByRole("heading", { name: "Ihr Termin ist gebucht" })).toBeVisible();
    // This test server sends no email (no SMTP_URL), so the success screen promises none.
    await expect(page.getByText("Eine Bestätigung geht an ada@example.com.")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Zum Kalender hinzufügen" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Google Kalender" })).toBeVisible();
    await expect(page.getByRole("link", { name: ".ics herunterladen" })).toBeVisible();
  });

  test("counts in Polish with the few and many forms Intl.PluralRules picks", async ({ page, request }) => {
    const three = await createEventType(request, { seats: 3, ...localeOf("pl") });
    await mountCalendar(page, { token: three.token });
    await expect(page.getByRole("heading", { name: "Wybierz dzień" })).toBeVisible();
    const forms: Record<string, string> = { "wolny termin": "one", "wolne terminy": "few", "wolnych terminów": "many", "wolnego terminu": "other" };
    for (const label of await dayLabels(page)) {
      const [, count, words] = /(\d+) (wolny termin|wolne terminy|wolnych terminów|wolnego terminu)$/.exec(label) ?? [];
      expect(words, label).toBeDefined();
      expect(forms[words!], label).toBe(new Intl.PluralRules("pl").select(Number(count)));
    }
    await expect(await firstDayTimes(page)).toContainText("Zostały 3 miejsca");

    const five = await createEventType(request, { seats: 5, ...localeOf("pl") });
    await mountCalendar(page, { token: five.token });
    await expect(await firstDayTimes(page)).toContainText("Zostało 5 miejsc");

    const twentyTwo = await createEventType(request, { seats: 22, ...localeOf("pl") });
    await mountCalendar(page, { token: twentyTwo.token });
    await expect(await firstDayTimes(page)).toContainText("Zostały 22 miejsca");
  });

  test("speaks Japanese, with Intl's Japanese dates", async ({ page, request }) => {
    const { token } = await createEventType(request, { seats: 4, ...localeOf("ja") });
    await mountCalendar(page, { token });
    await expect(page.getByRole("heading", { name: "日付を選択" })).toBeVisible();
    await expect(page.getByText("時間を選択")).toBeVisible();
    await expect(page.locator('[part="month-title"]')).toHaveText(/^\d{4}年\d{1,2}月$/);
    for (const label of await dayLabels(page)) expect(label).toMatch(/空き\d+件$/);
    await expect(await firstDayTimes(page)).toContainText("残り4席");
    await chooseFirstTime(page);
    await expect(page.getByRole("heading", { name: "お客様情報" })).toBeVisible();
    await expect(page.getByRole("button", { name: "予約する" })).toBeVisible();
  });

  test("the event type's text overrides win over the built-in language, and the locale attribute over the preset", async ({ page, request }) => {
    const { token } = await createEventType(request, localeOf("de", { chooseDate: "Wann passt es Ihnen?" }));
    await mountCalendar(page, { token });
    await expect(page.getByRole("heading", { name: "Wann passt es Ihnen?" })).toBeVisible();
    await expect(page.getByText("Uhrzeit wählen")).toBeVisible();

    await mountCalendar(page, { token, locale: "cs-CZ" });
    await expect(page.getByText("Vyberte čas")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Wann passt es Ihnen?" })).toBeVisible();
  });

  test("shows the calendar only once its language has arrived, and in English when that language cannot be loaded", async ({ page, request }) => {
    const { token } = await createEventType(request, localeOf("fr"));
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/embed/locales/fr.json", async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest((r) => r.url().endsWith("/embed/locales/fr.json"));
    await mountCalendar(page, { token });
    await asked;
    await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toBeVisible();
    await expect(page.getByRole("grid")).toHaveCount(0);
    release();
    await expect(page.getByRole("heading", { name: "Choisissez un jour" })).toBeVisible();

    await page.unroute("**/embed/locales/fr.json");
    await page.route("**/embed/locales/fr.json", (route) => route.fulfill({ status: 503, body: "down" }));
    // A new page: the catalog loaded above is gone with the old one.
    await mountCalendar(page, { token });
    await expect(page.getByRole("heading", { name: "Choose a day" })).toBeVisible();
  });
});

test.describe("a visitor whose browser prefers Czech", () => {
  test.use({ locale: "cs-CZ" });

  test("gets Czech where the event type leaves the language open, and the preset's language where it names one", async ({ page, request }) => {
    const open = await createEventType(request, localeOf(""));
    await mountCalendar(page, { token: open.token });
    await expect(page.getByRole("heading", { name: "Vyberte den" })).toBeVisible();

    const austrian = await createEventType(request, localeOf("de-AT"));
    await mountCalendar(page, { token: austrian.token });
    await expect(page.getByRole("heading", { name: "Tag wählen" })).toBeVisible();

    const swedish = await createEventType(request, localeOf("sv"));
    await mountCalendar(page, { token: swedish.token });
    // No Swedish texts are built in: the browser's language is next.
    await expect(page.getByRole("heading", { name: "Vyberte den" })).toBeVisible();
  });
});
