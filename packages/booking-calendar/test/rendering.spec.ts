import { test, expect, createEventType, freeSlots, mountCalendar } from "./fixtures.ts";

test.describe("rendering from the configuration", () => {
  test("shows the title, description, duration and a month grid that opens on the first free day", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Strategy session", description: "Plan the quarter.", calendarTitle: "Book a strategy session" });
    await mountCalendar(page, { token });
    await expect(page.getByRole("heading", { name: "Book a strategy session" })).toBeVisible();
    await expect(page.getByText("Plan the quarter.")).toBeVisible();
    await expect(page.getByText("30 min")).toBeVisible();
    await expect(page.getByRole("grid")).toBeVisible();
    const free = page.locator('button[part~="day-free"]');
    await expect(free.first()).toBeVisible();
    // The day named by closestBookableDay is in the shown month: the first free time's day in Prague
    // (`start` carries the event type's offset, so its date is Prague's).
    const [first] = await freeSlots(request, token);
    expect(first, "a free time").toBeDefined();
    const firstBookable = first!.start.slice(0, 10);
    await expect(page.locator(`button[data-date="${firstBookable}"]`)).toBeVisible();
  });

  test("tells the site's developer in the console, once, when the page carries the API token instead of the link token", async ({ page, request }) => {
    const { token, linkToken } = await createEventType(request, { title: "Strategy session" });
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    await mountCalendar(page, { token: linkToken });
    await expect(page.getByRole("heading", { name: "Strategy session" })).toBeVisible();
    expect(warnings).toEqual([]);
    await mountCalendar(page, { token });
    // The API token still works: sites that embedded it keep taking bookings.
    await expect(page.getByRole("heading", { name: "Strategy session" })).toBeVisible();
    await page.evaluate(() => {
      const second = document.createElement("booking-calendar");
      second.setAttribute("token", document.querySelector("booking-calendar")!.getAttribute("token")!);
      document.body.append(second);
      return (second as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("API token");
    expect(warnings[0]).toContain("link token (bcl_…)");
    expect(warnings[0]).not.toContain(token);
  });

  test("shows configuration texts and custom field labels as text, never as HTML", async ({ page, request }) => {
    const title = '<img src="x" onerror="window.injected=1">Bold <b>claim</b>';
    const { token } = await createEventType(request, {
      title,
      customFields: [{ label: "<script>window.injected=2</script>Company", name: "company", type: "text", required: false }],
      locale: { preset: "en", startDayOfWeek: "monday", texts: { chooseDate: "<em>Pick</em> a day" } },
    });
    await mountCalendar(page, { token });
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page.getByText("<em>Pick</em> a day")).toBeVisible();
    await page.locator('button[part~="day-free"]').first().click();
    await page.locator('button[part="slot"]').first().click();
    await expect(page.getByLabel("<script>window.injected=2</script>Company")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
    expect(await page.locator("booking-calendar img, booking-calendar b, booking-calendar em").count()).toBe(0);
  });

  test("turns theme colours and radius into --bc-* properties, and page CSS on the host still wins", async ({ page, request }) => {
    const { token } = await createEventType(request, {
      theme: { mode: "light", borderRadius: "3px", colors: { primary: "rgb(200, 0, 0)", background: "rgb(250, 240, 230)" } },
    });
    await mountCalendar(page, { token });
    const frame = page.locator('[part="frame"]');
    await expect(frame).toHaveCSS("background-color", "rgb(250, 240, 230)");
    await expect(frame).toHaveCSS("border-radius", "3px");
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    expect(await page.locator("booking-calendar").evaluate((el) => getComputedStyle(el).getPropertyValue("--bc-primary").trim())).toBe("rgb(200, 0, 0)");
    await page.addStyleTag({ content: "booking-calendar { --bc-background: rgb(1, 2, 3); }" });
    await expect(frame).toHaveCSS("background-color", "rgb(1, 2, 3)");
  });

  test("follows theme.mode dark, and the theme attribute overrides it", async ({ page, request }) => {
    const { token } = await createEventType(request, { theme: { mode: "dark", borderRadius: "8px", colors: {} } });
    await mountCalendar(page, { token });
    const frame = page.locator('[part="frame"]');
    await expect(frame).toHaveCSS("background-color", "rgb(15, 23, 42)");
    await page.locator("booking-calendar").evaluate((el) => el.setAttribute("theme", "light"));
    await expect(frame).toHaveCSS("background-color", "rgb(255, 255, 255)");
  });

  test("speaks the locale preset through Intl and starts weeks on the configured day", async ({ page, request }) => {
    const { token } = await createEventType(request, { locale: { preset: "de", startDayOfWeek: "sunday", texts: { chooseDate: "Tag wählen" } } });
    await mountCalendar(page, { token, timezone: "Europe/Berlin" });
    await expect(page.getByText("Tag wählen")).toBeVisible();
    const firstHeader = page.locator('[part="grid"] th').first();
    await expect(firstHeader).toHaveText(new Intl.DateTimeFormat("de", { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 7))));
    const monthTitle = await page.locator('[part="month-title"]').textContent();
    expect(monthTitle).toMatch(/Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember/);
    await page.locator('button[part~="day-free"]').first().click();
    // 24-hour times as German writes them.
    await expect(page.locator('button[part="slot"]').first()).toHaveText(/^\s*\d{1,2}:\d{2}–\d{1,2}:\d{2}\s*$/);
  });

  test("the locale attribute wins over the preset", async ({ page, request }) => {
    const { token } = await createEventType(request, { locale: { preset: "de", startDayOfWeek: "monday", texts: {} } });
    await mountCalendar(page, { token, locale: "en-US" });
    await expect(page.locator('[part="grid"] th').first()).toHaveText("Mon");
  });

  test("shows seats left when a slot has several", async ({ page, request }) => {
    const { token } = await createEventType(request, { seats: 3 });
    await mountCalendar(page, { token });
    await page.locator('button[part~="day-free"]').first().click();
    await expect(page.locator('button[part="slot"]').first()).toContainText("3 seats left");
  });

  test("a disabled event type shows that it is not bookable", async ({ page, request }) => {
    const { token } = await createEventType(request, { disabled: true });
    await mountCalendar(page, { token });
    await expect(page.getByText("This event type is not taking bookings at the moment.")).toBeVisible();
    await expect(page.getByRole("grid")).toHaveCount(0);
  });

  test("renders every custom field type in its order, required ones marked", async ({ page, request }) => {
    const { token } = await createEventType(request, {
      customFields: [
        { label: "Notes", name: "notes", type: "textarea", required: false },
        { label: "Company", name: "company", type: "text", required: true },
        { label: "Work email", name: "work_email", type: "email", required: false },
        { label: "Mobile", name: "mobile", type: "phone", required: false },
        { label: "Team size", name: "team_size", type: "number", required: false },
        { label: "Plan", name: "plan", type: "select", options: ["Basic", "Pro"], required: true },
        { label: "Topics", name: "topics", type: "multiselect", options: ["Sales", "Support"], required: false },
        { label: "I agree to the terms", name: "terms", type: "checkbox", required: true },
        { label: "Start date", name: "start_date", type: "date", required: false },
      ],
    });
    await mountCalendar(page, { token });
    await page.locator('button[part~="day-free"]').first().click();
    await page.locator('button[part="slot"]').first().click();
    await expect(page.getByLabel("Notes")).toHaveJSProperty("tagName", "TEXTAREA");
    await expect(page.getByLabel("Company")).toHaveAttribute("aria-required", "true");
    await expect(page.getByLabel("Work email")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Mobile")).toHaveAttribute("type", "tel");
    await expect(page.getByLabel("Team size")).toHaveAttribute("type", "number");
    await expect(page.getByLabel("Plan")).toHaveJSProperty("tagName", "SELECT");
    await expect(page.getByRole("group", { name: "Topics" }).getByRole("checkbox")).toHaveCount(2);
    await expect(page.getByLabel("I agree to the terms")).toHaveAttribute("type", "checkbox");
    await expect(page.getByLabel("Start date")).toHaveAttribute("type", "date");
    const labels = await page.locator('[part="field"] label, [part="field"] legend').allTextContents();
    const order = ["Notes", "Company", "Work email", "Mobile", "Team size", "Plan", "Topics", "I agree to the terms", "Start date"];
    expect(labels.map((l) => order.find((o) => l.includes(o))).filter(Boolean)).toEqual(order);
  });
});
