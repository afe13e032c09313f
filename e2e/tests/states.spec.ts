import { test, expect, chooseFirstTime, createEventType, expectAccessible, openSite, reservationsOf } from "../support/fixtures.ts";

test.describe("what the visitor is told", () => {
  test("disabled event type: says it takes no bookings and offers no times", async ({ page, request }) => {
    const { token, linkToken } = await createEventType(request, { disabled: true, title: "Paused workshop" });
    await openSite(page, { token: linkToken });
    await expect(page.getByText("This event type is not taking bookings at the moment.")).toBeVisible();
    await expect(page.getByRole("grid")).toHaveCount(0);
    await expect(page.locator('button[part="slot"]')).toHaveCount(0);
    await expectAccessible(page, "disabled");
    // The API refuses it too, whatever a page would show.
    const slot = { start: new Date(Date.now() + 86_400_000).toISOString(), end: new Date(Date.now() + 86_400_000 + 1_800_000).toISOString() };
    const refused = await request.post("/reservations", { headers: { Authorization: `Bearer ${token}` }, data: { ...slot, email: "late@example.com" } });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, code: "event_type_disabled" });
  });

  test("server validation: the API's field errors appear at the fields they name, and the typing is kept", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request);
    await openSite(page, { token: linkToken });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("host@example.com");
    await page.getByLabel("First name").fill("Hana");
    await page.getByRole("button", { name: "Add a guest" }).click();
    await page.getByLabel("Guest email 1").fill("friend@example.com");
    await page.getByRole("button", { name: "Add a guest" }).click();
    // Twice the same guest: only the server knows this rule.
    await page.getByLabel("Guest email 2").fill("friend@example.com");
    const answer = page.waitForResponse((r) => r.url().endsWith("/reservations") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Book" }).click();
    expect((await answer).status()).toBe(422);
    await expect(page.getByText("Please correct the marked fields.")).toBeVisible();
    const marked = page.locator('[aria-invalid="true"]');
    await expect(marked).toHaveCount(1);
    // The second one is the repeat.
    await expect(marked).toHaveAccessibleName("Guest email 2");
    await expect(marked).toHaveAccessibleDescription("Each guest once, and not the booker.");
    await expectAccessible(page, "field errors");
    await expect(page.getByLabel("First name")).toHaveValue("Hana");
    await marked.fill("other@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ email: "host@example.com", firstname: "Hana" });
    expect((reservation!.guests as string[]).toSorted()).toEqual(["friend@example.com", "other@example.com"]);
  });

  test("network failure and recovery: offline while booking, the draft stays, and the retry books once", async ({ page, context, request }) => {
    const { id, linkToken } = await createEventType(request, { customFields: [{ label: "Company", name: "company", type: "text", required: false }] });
    await openSite(page, { token: linkToken });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("offline@example.com");
    await page.getByLabel("Company").fill("Tunnel Works");
    await context.setOffline(true);
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("alert")).toContainText("The booking service could not be reached.");
    await expectAccessible(page, "network error");
    expect(await reservationsOf(request, id)).toEqual([]);
    await expect(page.getByLabel("Email")).toHaveValue("offline@example.com");
    await expect(page.getByLabel("Company")).toHaveValue("Tunnel Works");
    await context.setOffline(false);
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const reservations = await reservationsOf(request, id);
    expect(reservations).toHaveLength(1);
    expect(reservations[0]).toMatchObject({ email: "offline@example.com", status: "confirmed" });
  });

  test("theme and locale texts: the configuration's colours, language and own wording are on screen through to success", async ({ page, request }) => {
    const { linkToken } = await createEventType(request, {
      title: "Beratungsgespräch",
      theme: { mode: "light", borderRadius: "12px", colors: { primary: "rgb(21, 94, 117)" } },
      locale: {
        preset: "de",
        startDayOfWeek: "monday",
        texts: { chooseDate: "Wählen Sie einen Tag", book: "Verbindlich buchen", confirmedTitle: "Sie sind gebucht" },
      },
    });
    await openSite(page, { token: linkToken, timezone: "Europe/Berlin" });
    await expect(page.getByRole("heading", { name: "Beratungsgespräch" })).toBeVisible();
    await expect(page.getByText("Wählen Sie einen Tag")).toBeVisible();
    const weekday = new Intl.DateTimeFormat("de", { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1)));
    await expect(page.locator('[part="grid"] th').first()).toHaveText(weekday);
    await expect(page.locator('[part="month-title"]')).toHaveText(/Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember/);
    await expect(page.locator('[part="frame"]')).toHaveCSS("border-radius", "12px");
    await expectAccessible(page, "themed calendar");
    await chooseFirstTime(page);
    const book = page.getByRole("button", { name: "Verbindlich buchen" });
    await expect(book).toHaveCSS("background-color", "rgb(21, 94, 117)");
    // Texts the configuration does not name come from the built-in German catalog.
    await page.getByLabel("E-Mail").fill("kunde@example.com");
    await book.click();
    await expect(page.getByRole("heading", { name: "Sie sind gebucht" })).toBeVisible();
    await expectAccessible(page, "themed success");
  });

  test("keyboard only: from the page's first Tab to the success screen, focus always where the visitor is", async ({ page, request }) => {
    const { id, linkToken } = await createEventType(request, { customFields: [{ label: "Company", name: "company", type: "text", required: true }] });
    await openSite(page, { token: linkToken });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    const day = page.locator('button[part~="day"][tabindex="0"]');
    // Tab from the top of the page until the month grid has focus (one stop for the whole grid).
    for (let presses = 0; presses < 15 && !(await day.evaluate((el) => el.matches(":focus"))); presses++) await page.keyboard.press("Tab");
    await expect(day).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator('button[part="slot"]').first()).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.locator('button[part="slot"]').first()).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Your details" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.keyboard.type("keys@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Kay");
    // Enter submits; the required field left empty gets focus with its error.
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Company")).toBeFocused();
    await expect(page.getByLabel("Company")).toHaveAttribute("aria-invalid", "true");
    await page.keyboard.type("Keyboard Co");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
    await expectAccessible(page, "success after the keyboard");
    expect((await reservationsOf(request, id))[0]).toMatchObject({ email: "keys@example.com", firstname: "Kay", status: "confirmed" });
  });

  test("screen reader: the site keeps its h1, the steps are headings, days and times have spoken names, and changes are announced", async ({
    page,
    request,
  }) => {
    const { linkToken } = await createEventType(request, { title: "Mentoring call" });
    await openSite(page, { token: linkToken, locale: "en-US", timezone: "America/New_York" });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Book a session with Riverside Studio");
    await expect(page.getByRole("heading", { level: 2, name: "Mentoring call" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: "Choose a day" })).toBeVisible();
    await expect(page.getByRole("grid")).toBeVisible();
    const day = page.locator('button[part~="day-free"]').first();
    await expect(day).toHaveAccessibleName(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}, (today, )?\d+ free times$/);
    // Turning the month is announced in the live region.
    const month = (await page.locator('[part="month-title"]').textContent())!.trim();
    await page.getByRole("button", { name: "Next month" }).click();
    await expect(page.locator('[part="month-title"]')).not.toHaveText(month);
    const shown = (await page.locator('[part="month-title"]').textContent())!.trim();
    await expect(page.getByRole("status").filter({ hasText: `${shown} shown` })).toHaveCount(1);
    await page.getByRole("button", { name: "Previous month" }).click();
    await expect(page.locator('[part="month-title"]')).toHaveText(month);
    await day.click();
    // A time's name is its start and end, as on screen plus the end.
    const slot = page.locator('button[part="slot"]').first();
    await expect(slot).toHaveAccessibleName(/^\d{1,2}:\d{2}\s[AP]M\s?–\d{1,2}:\d{2}\s[AP]M$/);
    await expect(slot).toHaveAttribute("aria-pressed", "false");
    await chooseFirstTime(page);
    // Each step moves focus to its heading, so the reader starts there.
    await expect(page.getByRole("heading", { level: 3, name: "Your details" })).toBeFocused();
    await expect(page.getByRole("textbox", { name: "Email" })).toHaveAttribute("aria-required", "true");
    // A missing answer is said as an alert and tied to its field.
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("textbox", { name: "Email" })).toHaveAccessibleDescription("This field is required.");
    await expectAccessible(page, "required field missing");
    await page.getByRole("textbox", { name: "Email" }).fill("reader@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeFocused();
  });
});
