import type { Page } from "@playwright/test";
import { API, ADMIN_KEY, SITE, bookThroughApi, createEventType, expect, expectAccessible, freeSlots, saveScreenshot, test } from "../support/fixtures.ts";
import { LANGUAGES } from "../../packages/booking-calendar/src/i18n/catalog.ts";
import { textsOf } from "../../packages/console/src/i18n/index.ts";

// The console's forms: the language the browser asks for, field errors in that language, event
// types disabled and enabled from the list, custom fields reordered and saved, the preview following
// unsaved settings, and the embed snippets working as copied.

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };

/** Signs in with the admin key, in whichever language the console opened. */
async function signIn(page: Page, labels = { key: "Admin key", button: "Sign in", heading: "Bookings" }): Promise<void> {
  await page.goto("/console");
  await page.getByLabel(labels.key).fill(ADMIN_KEY);
  await page.getByRole("button", { name: labels.button }).click();
  await expect(page.getByRole("heading", { name: labels.heading, level: 2 })).toBeVisible();
}

const adminView = async (page: Page, id: number) => (await (await page.request.get(`/admin/event-types/${id}`, { headers: admin })).json()).data;

test.describe("the console in a German browser", () => {
  test.use({ locale: "de-DE" });

  test("opens in German without the language menu, and words the API's field errors in German at their fields", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Deutscher Termin" });
    await page.goto("/console");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("#console-language")).toHaveValue("de");
    // A wrong key is said in German too.
    await page.getByLabel("Admin-Schlüssel").fill("nicht-der-schluessel");
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page.locator("#admin-key-error")).toHaveText("Das ist nicht der Admin-Schlüssel, mit dem der Server gestartet wurde.");
    await signIn(page, { key: "Admin-Schlüssel", button: "Anmelden", heading: "Buchungen" });

    await page.goto(`/console#/event-types/${et.id}`);
    const duration = page.getByLabel("Dauer (Min.)");
    await duration.fill("2");
    await page.getByLabel("Plätze").fill("5000");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(duration).toHaveAttribute("aria-invalid", "true");
    await expect(duration).toBeFocused();
    // The API's codes (too_small with min, too_large with max), not its English messages.
    await expect(page.locator("#et-durationMinutes-error")).toHaveText("Mindestens 5.");
    await expect(page.locator("#et-seats-error")).toHaveText("Höchstens 1.000.");
    const summary = page.getByRole("alert");
    // The list at the top names each field by its label.
    await expect(summary.locator("li")).toHaveText(["Dauer (Min.): Mindestens 5.", "Plätze: Höchstens 1.000."]);
    await expect(summary).not.toContainText("greater");
    // Settings are offered in German: modes, weekdays, places, the calendar's language.
    await expect(page.getByLabel("Modus").locator("option:checked")).toHaveText(/Hell|Dunkel|System/);
    await expect(page.getByLabel("Woche beginnt").locator("option")).toHaveText(["Montag", "Sonntag"]);
    await expect(page.getByLabel("Videoanruf")).toBeVisible();
    // The calendar's language: the visitor's browser, or one of the element's languages (English with both clocks), each named in itself.
    const languages = page.getByLabel("Sprache des Kalenders").locator("option");
    await expect(languages.first()).toHaveText("Browser des Besuchers");
    await expect(languages).toHaveCount(1 + LANGUAGES.length + 2);
    expect(await languages.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
      "",
      ...LANGUAGES.flatMap((l) => (l === "en" ? ["en", "en-US", "en-GB"] : [l])),
    ]);
    await expect(languages.filter({ hasText: "(de)" })).toHaveText("Deutsch (de)");
    await expect(languages.filter({ hasText: "(fr)" })).toHaveText("Français (fr)");
    await expectAccessible(page, "event type with field errors, German");
    await saveScreenshot(page, "console-field-errors-de");

    // Corrected, it saves; the new event type's language is the visitor's browser unless chosen.
    await duration.fill("45");
    await page.getByLabel("Plätze").fill("1");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(page.locator("#console-status")).toContainText("Gespeichert");
    await expect(duration).toHaveAttribute("aria-invalid", "false");
    expect(await adminView(page, et.id)).toMatchObject({ durationMinutes: 45, seats: 1 });
    await page.goto("/console#/event-types/new");
    await expect(page.getByLabel("Sprache des Kalenders")).toHaveValue("");

    // A booking's place and deliveries are named in German too.
    const email = `deutsch-${Date.now()}@example.com`;
    await bookThroughApi(request, et.linkToken, (await freeSlots(request, et.linkToken))[0]!, email);
    await page.goto("/console#/bookings");
    await page.getByLabel("Name oder E-Mail").fill(email);
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page
      .getByRole("row")
      .filter({ hasText: email })
      .getByRole("button", { name: /^Öffnen/ })
      .click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.locator("dt").filter({ hasText: "E-Mail" })).toHaveCount(1);
    await expect(dialog).toContainText("Videoanruf");
    await expect(dialog).toContainText(/E-Mail · reservation\.created · (ausstehend|zugestellt|fehlgeschlagen)/);
    await expectAccessible(page, "booking dialog, German");
    await dialog.getByRole("button", { name: "Schließen" }).click();
    // Sessions: who signed in and how.
    await page.getByRole("link", { name: "Sitzungen" }).click();
    await expect(page.getByRole("row").filter({ hasText: "dieser Browser" })).toContainText("Veranstalter · Admin-Schlüssel");
  });
});

/** English texts of the console that German words differently (names both languages share do not count). */
function englishOnly(): string[] {
  const flat = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(flat) : [];
  const german = new Set(flat(textsOf("de")));
  return [...new Set(flat(textsOf("en")))].filter((text) => text.length > 2 && !german.has(text));
}

/** Whether `text` shows in `shown` as words of its own (so "Email" is not found in "E-Mail-Adresse"). */
const showsText = (shown: string, text: string): boolean =>
  new RegExp(`(^|[^\\p{L}])${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u").test(shown);

/** Names and texts organizers gave hosts and event types, longest first. */
async function userContent(page: Page): Promise<string[]> {
  const list = async (path: string) => ((await (await page.request.get(path, { headers: admin })).json()).data ?? []) as Record<string, unknown>[];
  const [hosts, types] = await Promise.all([list("/admin/hosts"), list("/admin/event-types")]);
  return [...hosts.flatMap((h) => [h.name, h.email]), ...types.flatMap((et) => [et.title, et.description, et.hostName])]
    .filter((text): text is string => typeof text === "string" && text !== "")
    .sort((a, b) => b.length - a.length);
}

test.describe("the console in German, page by page", () => {
  test.use({ locale: "de-DE" });

  test("shows no English text of its own on any page", async ({ page, request }) => {
    test.setTimeout(90_000);
    const et = await createEventType(request, { title: "Seitenweise", slug: `seitenweise-${Date.now()}` });
    await bookThroughApi(request, et.linkToken, (await freeSlots(request, et.linkToken))[0]!, `seitenweise-${Date.now()}@example.com`);
    const english = englishOnly();
    expect(english.length).toBeGreaterThan(50);
    await signIn(page, { key: "Admin-Schlüssel", button: "Anmelden", heading: "Buchungen" });
    for (const route of [
      "bookings",
      "event-types",
      `event-types/${et.id}`,
      "event-types/new",
      "availability",
      "hosts",
      "calendars",
      "deliveries",
      "embed",
      "sessions",
    ]) {
      await page.goto(`/console#/${route}`);
      await expect(page.getByText("Wird geladen…")).toHaveCount(0);
      if (route === "deliveries") {
        await page.getByLabel("Terminart").selectOption(String(et.id));
        await expect(page.getByRole("row").filter({ hasText: "reservation.created" }).first()).toBeVisible();
      }
      await expect(page.locator("main h2[tabindex='-1']")).not.toBeEmpty();
      const shown = await page.locator("body").evaluate((body: HTMLElement) => {
        // Visible text, hidden labels, and the names of controls.
        const names = [...body.querySelectorAll("[aria-label], [placeholder], option")].map(
          (el) => `${el.getAttribute("aria-label") ?? ""} ${el.getAttribute("placeholder") ?? ""} ${el.textContent ?? ""}`,
        );
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, without what is hidden, is what a visitor reads.
        const all = [body.innerText, ...[...body.querySelectorAll(".sr-only")].map((el) => el.textContent ?? ""), ...names].join("\n");
        // Code to copy (snippets, field paths) is not text of the console's language.
        // biome-ignore lint/performance/useDomNodeTextContent: removes code as rendered in the text read above.
        return [...body.querySelectorAll("pre, code")].reduce((text, el) => text.replaceAll((el as HTMLElement).innerText, " "), all);
      });
      // What organizers typed (names of hosts, event types, schedules) is theirs, in whatever language.
      const typed = await userContent(page);
      const theConsoles = typed.reduce((text, name) => text.replaceAll(name, " "), shown);
      expect(
        english.filter((text) => showsText(theConsoles, text)),
        route,
      ).toEqual([]);
    }
  });
});

test.describe("the console's event types", () => {
  test("disables an event type from the list, the public configuration refuses it, and enables it again", async ({ page, request }) => {
    const title = `Pause call ${Date.now()}`;
    const et = await createEventType(request, { title });
    const configuration = () => request.get("/configuration", { headers: { Authorization: `Bearer ${et.linkToken}` } });
    expect((await configuration()).status()).toBe(200);
    await signIn(page);
    await page.getByRole("link", { name: "Event types" }).click();
    const row = page.getByRole("row").filter({ hasText: title });
    await row.getByRole("button", { name: `Disable: ${title}` }).click();
    await expect(row).toContainText("disabled");
    const refused = await configuration();
    expect(refused.status()).toBe(403);
    expect((await refused.json()).code).toBe("event_type_disabled");
    expect((await adminView(page, et.id)).disabled).toBe(true);
    await row.getByRole("button", { name: `Enable: ${title}` }).click();
    await expect(row).not.toContainText("disabled");
    expect((await configuration()).status()).toBe(200);
  });

  test("sets an event type's booking limits in its form, refuses a zero at its field, and a host's on the Hosts page", async ({ page, request }) => {
    const et = await createEventType(request, { title: `Limited call ${Date.now()}` });
    await signIn(page);
    await page.goto(`/console#/event-types/${et.id}`);
    const limits = page.getByRole("group", { name: "Booking limits" });
    await expect(limits).toContainText("Leave a box empty for no limit.");
    await limits.getByLabel("Bookings per day").fill("0");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(limits.getByLabel("Bookings per day")).toHaveAttribute("aria-invalid", "true");
    await limits.getByLabel("Bookings per day").fill("4");
    await limits.getByLabel("Minutes booked per week").fill("600");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => (await adminView(page, et.id)).limits)
      .toEqual({
        bookingsPerDay: 4,
        bookingsPerWeek: null,
        bookingsPerMonth: null,
        minutesPerDay: null,
        minutesPerWeek: 600,
      });
    await expectAccessible(page, "event type with booking limits");

    await page.goto("/console#/hosts");
    const host = page.getByRole("form", { name: "Booking limits" }).first();
    await host.getByLabel("Bookings per week").fill("10");
    await host.getByRole("button", { name: "Save limits" }).click();
    await expect
      .poll(async () =>
        (await (await page.request.get("/admin/hosts", { headers: admin })).json()).data.some(
          (h: { limits: { bookingsPerWeek: number | null } }) => h.limits.bookingsPerWeek === 10,
        ),
      )
      .toBe(true);
    await expectAccessible(page, "hosts with booking limits");
  });

  test("reorders custom fields and saves a select field with its options, in that order", async ({ page, request }) => {
    const et = await createEventType(request, {
      title: "Order call",
      customFields: [
        { label: "Company", name: "company", type: "text" },
        { label: "Role", name: "role", type: "text" },
      ],
    });
    await signIn(page);
    await page.goto(`/console#/event-types/${et.id}`);
    await page.getByRole("button", { name: "Add field" }).click();
    await page.locator("#cf-2-label").fill("Plan");
    await page.locator("#cf-2-name").fill("plan");
    await page.locator("#cf-2-type").selectOption("select");
    await expect(page.locator("#cf-2-type option:checked")).toHaveText("Choice");
    await page.locator("#cf-2-options").fill("Basic, Pro, Team");
    await page.getByRole("button", { name: "Move up: Plan" }).click();
    await page.getByRole("button", { name: "Move up: Plan" }).click();
    await page.getByRole("button", { name: "Move down: Company" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#console-status")).toContainText("Saved.");
    const saved = (await adminView(page, et.id)).customFields as { name: string; type: string; options?: string[] }[];
    expect(saved.map((f) => f.name)).toEqual(["plan", "role", "company"]);
    expect(saved[0]).toMatchObject({ type: "select", options: ["Basic", "Pro", "Team"] });
    // The form shows what was saved, in the saved order.
    await expect(page.locator("#cf-0-name")).toHaveValue("plan");
    await expect(page.locator("#cf-2-name")).toHaveValue("company");
  });

  test("sets a condition on a field, which the preview shows at work before it is saved", async ({ page, request }) => {
    const et = await createEventType(request, {
      title: "Condition call",
      customFields: [
        { label: "Plan", name: "plan", type: "select", options: ["Personal", "Business"], required: true },
        { label: "Company size", name: "companySize", type: "text", required: true },
      ],
    });
    await signIn(page);
    await page.goto(`/console#/event-types/${et.id}`);
    // The first field has nothing before it to depend on.
    await expect(page.locator("#cf-0-show-field")).toHaveCount(0);
    await page.getByLabel("Show this field").selectOption({ label: "When Plan …" });
    await expect(page.getByLabel("Condition", { exact: true })).toHaveValue("equals");
    await expect(page.getByRole("checkbox", { name: "Personal" })).toBeChecked();
    await page.getByRole("checkbox", { name: "Business" }).check();
    await page.getByRole("checkbox", { name: "Personal" }).uncheck();

    // The preview redraws once the edits rest.
    await expect(page.locator("console-calendar-preview:not([data-pending])")).toHaveCount(1);
    const calendar = page.locator("console-calendar-preview booking-calendar");
    await calendar.locator('button[part~="day-free"]').first().click();
    await calendar.locator('button[part="slot"]').first().click();
    await expect(calendar.getByLabel(/^Plan/)).toBeVisible();
    await expect(calendar.getByLabel(/^Company size/)).toHaveCount(0);
    await calendar.getByLabel(/^Plan/).selectOption("Business");
    await expect(calendar.getByLabel(/^Company size/)).toBeVisible();
    await calendar.getByLabel(/^Plan/).selectOption("Personal");
    await expect(calendar.getByLabel(/^Company size/)).toHaveCount(0);
    await expectAccessible(page, "custom field with a condition and its preview");

    // Renaming the field it depends on keeps the condition; "is answered" replaces the values.
    await page.locator("#cf-0-name").fill("tier");
    await page.getByLabel("Condition", { exact: true }).selectOption("notEmpty");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#console-status")).toContainText("Saved.");
    const saved = (await adminView(page, et.id)).customFields as { name: string; showIf?: unknown }[];
    expect(saved[1]).toMatchObject({ name: "companySize", showIf: { field: "tier", notEmpty: true } });
    // Moved above the field it depends on, the API refuses it and says why at the condition.
    await page.getByRole("button", { name: "Move up: Company size" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#cf-0-show-field-error")).toHaveText("The field it depends on must come before it.");
    await expect(page.locator("#cf-0-show-field")).toHaveAttribute("aria-invalid", "true");
  });

  test("the preview follows the unsaved mode, corner radius and language", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Look call", locale: { preset: "en" }, theme: { mode: "light", borderRadius: "8px", colors: {} } });
    await signIn(page);
    await page.goto(`/console#/event-types/${et.id}`);
    const calendar = page.locator("console-calendar-preview booking-calendar");
    const frame = calendar.locator('[part="frame"]');
    await expect(calendar.getByRole("heading", { name: "Choose a day" })).toBeVisible();
    const light = await frame.evaluate((el) => getComputedStyle(el).backgroundColor);

    await page.getByLabel("Mode").selectOption("dark");
    await expect
      .poll(() => page.locator("console-calendar-preview booking-calendar [part='frame']").evaluate((el) => getComputedStyle(el).backgroundColor))
      .not.toBe(light);
    await page.getByLabel("Corner radius").fill("20px");
    await expect
      .poll(() => page.locator("console-calendar-preview booking-calendar [part='frame']").evaluate((el) => getComputedStyle(el).borderTopLeftRadius))
      .toBe("20px");
    await page.getByLabel("Calendar language").selectOption("de");
    await expect(page.locator("console-calendar-preview booking-calendar").getByRole("heading", { name: "Tag wählen" })).toBeVisible();
    // Nothing of it was saved.
    expect(await adminView(page, et.id)).toMatchObject({ theme: { mode: "light", borderRadius: "8px" }, locale: { preset: "en" } });
    await expectAccessible(page, "event type with a dark German preview");
  });

  test("the booking dialog in dark at 390 px", async ({ page, request }) => {
    const et = await createEventType(request, { title: "Phone dialog call" });
    const email = `dialog-${Date.now()}@example.com`;
    await bookThroughApi(request, et.linkToken, (await freeSlots(request, et.linkToken))[0]!, email);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page);
    await page.getByLabel("Name or email").fill(email);
    await page.getByRole("button", { name: "Filters" }).click();
    await expect(page.getByRole("row").filter({ hasText: email })).toBeVisible();
    // The list scrolls inside its box: the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole("row").filter({ hasText: email }).getByRole("button", { name: /^Open/ }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(email);
    await expectAccessible(page, "booking dialog dark 390");
    await saveScreenshot(page, "console-booking-dialog-dark-390");
  });
});

test.describe("the console's embed snippets", () => {
  /** Opens a page of the customer's site (another origin than the API's) with `snippet` pasted into it. */
  const openOnSite = (page: Page, snippet: string) => page.goto(`${SITE}/pasted?${new URLSearchParams({ snippet })}`);

  test("the copied script tag, popup and floating button work as copied on another origin; React and Vue name the token and API", async ({
    page,
    request,
    context,
  }) => {
    test.setTimeout(90_000);
    const title = `Snippet call ${Date.now()}`;
    const et = await createEventType(request, { title });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: API });
    await signIn(page);
    await page.getByRole("link", { name: "Embed" }).click();
    await page.getByLabel("Event type").selectOption(String(et.id));
    const copied: Record<string, string> = {};
    for (const name of ["Script tag", "Popup button", "Floating button", "React", "Vue"]) {
      await page.getByRole("button", { name: `Copy: ${name}` }).click();
      await expect(page.locator("#console-status")).toContainText(`${name}: Copied.`);
      copied[name] = await page.evaluate(() => navigator.clipboard.readText());
    }
    for (const name of ["React", "Vue"]) {
      expect(copied[name]).toContain(`token="${et.linkToken}"`);
      expect(copied[name]).toContain(`api-base="${API}"`);
      expect(copied[name]).toContain('import "@booking/calendar";');
    }
    for (const name of ["Script tag", "Popup button", "Floating button"]) expect(copied[name]).toContain(`src="${API}/embed/booking-calendar.js"`);

    await openOnSite(page, copied["Script tag"]!);
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();

    await openOnSite(page, copied["Popup button"]!);
    await page.getByRole("button", { name: title }).click();
    await expect(page.getByRole("dialog", { name: title })).toBeVisible();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();

    await openOnSite(page, copied["Floating button"]!);
    await page.getByRole("button", { name: title }).click();
    await expect(page.getByRole("dialog", { name: title })).toBeVisible();
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
  });
});
