import type { Page } from "@playwright/test";
import { test, expect, chooseFirstTime, createEventType, mountCalendar, PAID, recordEvents, reservationsOf } from "./fixtures.ts";

/**
 * The visitor's language beyond the UI texts: the zones named and found in it, the organizer's own
 * texts in it, a new event type following the browser, and the card form speaking it.
 */

const TRANSLATED = {
  title: "Intro call",
  description: "Half an hour to get to know each other.",
  customFields: [
    { label: "Company", name: "company", type: "text", required: true, placeholder: "Acme" },
    { label: "Team size", name: "team_size", type: "select", options: ["1-10", "11-50", "51+"], required: true },
  ],
  locations: [{ type: "video-meet" }, { type: "address", value: "Alexanderplatz 1, Berlin", label: "Our Berlin office" }],
  translations: {
    de: {
      title: "Kennenlerngespräch",
      description: "Eine halbe Stunde, um uns kennenzulernen.",
      customFields: {
        company: { label: "Firma", placeholder: "Muster GmbH" },
        team_size: { label: "Teamgröße", options: ["1 bis 10", "11 bis 50", "über 50"] },
      },
      locations: { address: "Unser Büro in Berlin" },
      texts: { book: "Verbindlich buchen" },
    },
    ja: { title: "初回面談" },
  },
};

/** The zone picker's search box and list. */
const picker = (page: Page) => ({ search: page.getByRole("searchbox"), select: page.locator('select[part="timezone-select"]') });

/** The values of the options the list shows now. */
const listed = (page: Page) =>
  picker(page)
    .select.locator("option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));

test.describe("time zones in the visitor's language", () => {
  test("the list names zones in German and the search finds them by city in any language, country, abbreviation, region and offset", async ({
    page,
    request,
  }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "de", timezone: "Europe/Prague" });
    const { search, select } = picker(page);
    await expect(select).toBeVisible();
    await search.fill("Warschau");
    await expect(select.locator('option[value="Europe/Warsaw"]')).toHaveText(/^Warschau – Mitteleuropäische Zeit · UTC\+0[12]:00 · \d\d:\d\d$/);
    // The chosen zone stays listed; besides it, only Warsaw.
    expect((await listed(page)).sort()).toEqual(["Europe/Prague", "Europe/Warsaw"]);
    // The continents are named in German too.
    await expect(select.locator("optgroup").first()).toHaveAttribute("label", "Europa");
    for (const [query, zone] of [
      ["東京", "Asia/Tokyo"],
      ["Pacific", "America/Los_Angeles"],
      ["EST", "America/New_York"],
      ["India", /^Asia\/(Kolkata|Calcutta)$/],
      ["Polen", "Europe/Warsaw"],
      ["CET", "Europe/Berlin"],
    ] as const) {
      await search.fill(query);
      await expect
        .poll(async () => (await listed(page)).some((z) => (typeof zone === "string" ? z === zone : zone.test(z))), `"${query}" finds ${zone}`)
        .toBe(true);
    }
    await search.fill("+05:30");
    await expect.poll(async () => (await listed(page)).some((z) => /^Asia\/(Kolkata|Calcutta)$/.test(z))).toBe(true);
    // Every zone found by the offset is at that offset (the chosen zone aside).
    const labels = await select
      .locator("option")
      .evaluateAll((options) => options.filter((o) => (o as HTMLOptionElement).value !== "Europe/Prague").map((o) => o.textContent ?? ""));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toContain("UTC+05:30");
  });

  test("Japanese visitors read Tokyo in Japanese, and the summary names the zone, never its IANA id", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "ja", timezone: "Asia/Tokyo" });
    const { search, select } = picker(page);
    await search.fill("東京");
    await expect(select.locator('option[value="Asia/Tokyo"]')).toHaveText(/^東京 – 日本標準時 · UTC\+09:00 · /);
    await search.fill("");
    // The offsets of Tokyo make the test's UTC slot a Tokyo day; any free time will do.
    await page.locator('button[part~="day-free"]').first().click();
    await page.locator('button[part="slot"]').first().click();
    const summary = page.locator('[part="summary"]');
    await expect(summary).toContainText("日本標準時");
    await expect(summary).not.toContainText("Asia/Tokyo");
    await expect(summary).not.toContainText("Tokyo");
  });

  test("a German visitor in Warsaw sees the zone's German name in the summary", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "de", timezone: "Europe/Warsaw" });
    // Nothing is listed before the visitor reaches for the list: the chosen zone alone, by its German name.
    await expect(picker(page).select.locator("option")).toHaveText(/^Mitteleuropäische Zeit · UTC\+0[12]:00 · \d\d:\d\d$/);
    await chooseFirstTime(page);
    await expect(page.locator('[part="summary"]')).toContainText("Zeitzone: Mitteleuropäische Zeit");
    await expect(page.locator('[part="summary"]')).not.toContainText("Europe/Warsaw");
  });
});

test.describe("the organizer's texts in the visitor's language", () => {
  test("a German visitor reads the German title, description, fields, options and place; the answer sent is the event type's own option", async ({
    page,
    request,
  }) => {
    const { id, token } = await createEventType(request, TRANSLATED);
    await mountCalendar(page, { token, locale: "de" });
    await expect(page.getByRole("heading", { name: "Kennenlerngespräch" })).toBeVisible();
    await expect(page.getByText("Eine halbe Stunde, um uns kennenzulernen.")).toBeVisible();
    // Screen readers read the calendar as German, whatever the page around it is in.
    await expect(page.locator('[part="frame"]')).toHaveAttribute("lang", "de");
    await chooseFirstTime(page);
    await expect(page.getByLabel("Firma")).toHaveAttribute("placeholder", "Muster GmbH");
    const size = page.getByLabel("Teamgröße");
    await expect(size.locator("option")).toHaveText(["Bitte wählen…", "1 bis 10", "11 bis 50", "über 50"]);
    await expect(page.getByText("Unser Büro in Berlin")).toBeVisible();
    await page.getByLabel("E-Mail").fill("de@example.com");
    await page.getByLabel("Firma").fill("Beispiel AG");
    await size.selectOption({ label: "über 50" });
    await page.getByRole("radio", { name: /Videoanruf/ }).check();
    await page.getByRole("button", { name: "Verbindlich buchen" }).click();
    await expect(page.locator('[part="success-mark"]')).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation!.customFields).toEqual(expect.arrayContaining([expect.objectContaining({ value: "51+" })]));
  });

  test("a French visitor gets the event type's own texts (French has a catalog, the organizer wrote no French), a Japanese one the Japanese title", async ({
    page,
    request,
  }) => {
    const { token } = await createEventType(request, TRANSLATED);
    await mountCalendar(page, { token, locale: "fr" });
    await expect(page.getByRole("heading", { name: "Intro call" })).toBeVisible();
    await mountCalendar(page, { token, locale: "ja-JP" });
    await expect(page.getByRole("heading", { name: "初回面談" })).toBeVisible();
    // What the organizer did not translate stays theirs.
    await expect(page.getByText("Half an hour to get to know each other.")).toBeVisible();
  });
});

test.describe("a new event type in a German browser", () => {
  test.use({ locale: "de-DE" });

  test("speaks German with no language set (the default follows the browser), organizer texts included", async ({ page, request }) => {
    const { token } = await createEventType(request, { ...TRANSLATED });
    await mountCalendar(page, { token });
    await expect(page.getByRole("heading", { name: "Tag wählen" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Kennenlerngespräch" })).toBeVisible();
  });

  test("the card form gets the calendar's language", async ({ page, request }) => {
    const { token } = await createEventType(request, PAID);
    const events = await recordEvents(page);
    await mountCalendar(page, { token }, { stripeStandin: true });
    await chooseFirstTime(page);
    await page.getByLabel("E-Mail").fill("karte@example.com");
    await page.getByRole("button", { name: "Weiter zur Zahlung" }).click();
    await expect(page.locator('[data-stripe-standin="payment-element"]')).toHaveAttribute("lang", "de");
    expect((await events()).map((e) => e.type)).toContain("booking-payment-started");
  });
});

test.describe("the card form's language follows the locale attribute", () => {
  test("Japanese", async ({ page, request }) => {
    const { token } = await createEventType(request, PAID);
    await mountCalendar(page, { token, locale: "ja" }, { stripeStandin: true });
    await chooseFirstTime(page);
    await page.locator('input[type="email"]').first().fill("card@example.com");
    await page.locator('button[part="submit"]').click();
    await expect(page.locator('[data-stripe-standin="payment-element"]')).toHaveAttribute("lang", "ja");
  });
});
