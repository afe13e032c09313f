import type { Locator, Page } from "@playwright/test";
import { test, expect, bookThroughApi, chooseFirstTime, createEventType, firstFreeSlot, mountCalendar, openPopupSite } from "./fixtures.ts";

/** An rgb()/rgba() or #hex colour as the browser computes it, read by the browser itself into 0–255 channels. */
async function channels(page: Page, color: string): Promise<[number, number, number]> {
  return page.evaluate((color) => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    canvas.fillStyle = color;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  }, color);
}

/** WCAG 2 contrast ratio of two colours. */
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const lum = ([r, g, b]: [number, number, number]) => {
    const c = (v: number) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

const css = (locator: Locator, property: string) => locator.evaluate((el, property) => getComputedStyle(el).getPropertyValue(property).trim(), property);

test.describe("the brand colour in dark mode", () => {
  for (const brand of ["#1e3a8a", "#7c3aed", "#f59e0b"]) {
    test(`${brand} stays the accent, readable (4.5:1 or more) on the dark background and surface`, async ({ page, request }) => {
      const { token } = await createEventType(request, { theme: { mode: "dark", colors: { primary: brand } } });
      await mountCalendar(page, { token });
      const host = page.locator("booking-calendar");
      const free = page.locator('button[part~="day-free"]').first();
      await expect(free).toBeVisible();
      const accent = await channels(page, await css(host, "--bc-primary"));
      // Not the calendar's own blue: the brand's hue (the server lightened it only if it was too dark).
      expect(accent).not.toEqual(await channels(page, "#60a5fa"));
      const [br, bg, bb] = await channels(page, brand);
      const [ar, ag, ab] = accent;
      const order = (r: number, g: number, b: number) =>
        [
          ["r", r],
          ["g", g],
          ["b", b],
        ].sort((p, q) => (q[1] as number) - (p[1] as number))[0]![0];
      expect(order(ar, ag, ab), "the strongest channel stays the brand's").toBe(order(br, bg, bb));
      for (const surface of ["--bc-background", "--bc-surface"]) {
        const ratio = contrast(accent, await channels(page, await css(host, surface)));
        expect(ratio, `${brand} on ${surface}`).toBeGreaterThanOrEqual(4.5);
      }
      // The text on the accent (the chosen day, primary buttons) reads on it too.
      expect(contrast(accent, await channels(page, await css(host, "--bc-on-primary")))).toBeGreaterThanOrEqual(4.5);
    });
  }

  test("theme.mode auto keeps the brand whichever palette the page or system picks", async ({ page, request }) => {
    const { token } = await createEventType(request, { title: "Auto brand", theme: { mode: "auto", colors: { primary: "#1e3a8a" } } });
    const configured = await (await request.get("/configuration", { headers: { Authorization: `Bearer ${token}` } })).json();
    const primaryDark = configured.data.configuration.theme.colors.primaryDark as string;
    for (const [system, scheme, expected] of [
      ["dark", "light", "#1e3a8a"],
      ["light", "dark", primaryDark],
      ["dark", undefined, primaryDark],
    ] as const) {
      await page.emulateMedia({ colorScheme: system });
      await openPopupSite(page, { tokens: [token], ...(scheme ? { scheme } : {}) });
      await page.getByRole("button", { name: "Book service 1" }).click();
      await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
      expect(await channels(page, await css(page.locator("booking-calendar"), "--bc-primary")), `system ${system}, page ${scheme}`).toEqual(
        await channels(page, expected),
      );
    }
  });

  test("light mode shows the brand colour as given", async ({ page, request }) => {
    const { token } = await createEventType(request, { theme: { mode: "light", colors: { primary: "#1e3a8a" } } });
    await mountCalendar(page, { token });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    expect(await channels(page, await css(page.locator("booking-calendar"), "--bc-primary"))).toEqual([0x1e, 0x3a, 0x8a]);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("picking a day brings its times into view", async ({ page, request }) => {
    const { token } = await createEventType(request, {
      description: "A call for tests, with a description long enough to take a few lines on a phone screen.",
    });
    await mountCalendar(page, { token });
    const day = page.locator('button[part~="day-free"]').last();
    await expect(day).toBeVisible();
    await expect(page.locator('button[part="slot"]').first()).not.toBeInViewport();
    await day.click();
    await expect(page.locator('button[part="slot"]').first()).toBeInViewport();
    // The day's heading at the top of the screen, so as many times as fit are shown, and it has the focus.
    const times = page.locator("#times");
    await expect(times).toBeFocused();
    await expect.poll(async () => (await times.boundingBox())!.y).toBeLessThan(20);
    await expect(page.locator('button[part="slot"]').nth(8)).toBeInViewport();
  });
});

test.describe("on a wide screen", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("picking a day leaves the page where it is: the times are beside the month", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token });
    const day = page.locator('button[part~="day-free"]').last();
    await expect(day).toBeVisible();
    await day.click();
    await expect(page.locator('button[part="slot"]').first()).toBeInViewport();
    await expect(page.locator("#times")).toBeFocused();
    expect(await page.evaluate(() => scrollY)).toBe(0);
  });
});

test.describe("the times column before a day is chosen", () => {
  test("in a month without free times, only the jump to the next free day is offered", async ({ page, request }) => {
    const [near, far] = [3, 70].map((days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)) as [string, string];
    const closed = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };
    const ranges = [{ start: "09:00", end: "10:00" }];
    const { token } = await createEventType(request, {
      availability: {
        weekly: closed,
        overrides: [
          { date: near, ranges },
          { date: far, ranges },
        ],
      },
    });
    await mountCalendar(page, { token });
    // The month of the first free day: its one free day offered in the times column.
    await expect(page.locator('button[part="next-available"]')).toHaveCount(1);
    await page.getByRole("button", { name: "Next month" }).click();
    await expect(page.getByText("No free times this month.")).toBeVisible();
    await expect(page.locator('button[part="next-available"]')).toHaveCount(1);
  });

  test("offers the first free day instead of sitting blank, and its times open from there", async ({ page, request }) => {
    const { token } = await createEventType(request);
    const { startIso8601 } = await firstFreeSlot(request, token);
    await mountCalendar(page, { token, locale: "en-GB" });
    const offer = page.locator('button[part="next-available"]');
    await expect(offer).toBeVisible();
    await expect(offer).toHaveText(/^Next available: /);
    await offer.click();
    await expect(page.locator('button[part~="day"][aria-pressed="true"]')).toHaveCount(1);
    await expect(page.locator('button[part="slot"]').first()).toBeVisible();
    await expect(offer).toHaveCount(0);
    // The day offered has free times (the first free one, whose first time may be sooner than the helper's).
    expect(startIso8601 >= (await page.locator('button[part="slot"]').first().getAttribute("data-start"))!).toBe(true);
  });
});

test.describe("the header", () => {
  test("is full size while booking and smaller on the success and manage screens, without the description", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token });
    const header = page.locator('[part="header"]');
    const description = header.getByText("A call for tests.");
    await expect(description).toBeVisible();
    const full = (await header.boundingBox())!.height;
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("slim@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    await expect(description).toBeHidden();
    expect((await header.boundingBox())!.height).toBeLessThan(full * 0.7);
    const { uuid } = await bookThroughApi(request, token, await firstFreeSlot(request, token), "other@example.com");
    await mountCalendar(page, { token, "reservation-uuid": uuid });
    await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
    await expect(description).toBeHidden();
    expect((await header.boundingBox())!.height).toBeLessThan(full * 0.7);
  });
});

test.describe("the phone number of a call", () => {
  test("a wrong number is said once, not once per key it fills", async ({ page, request }) => {
    const { token } = await createEventType(request, { locations: [{ type: "phone" }] });
    await mountCalendar(page, { token });
    await chooseFirstTime(page);
    await page.getByLabel("Email").fill("call@example.com");
    await page.getByLabel("Your phone number").fill("call me maybe");
    await page.getByRole("button", { name: "Book" }).click();
    const error = page.locator("bc-booking-form .error");
    await expect(error).toHaveCount(1);
    await expect(error).toHaveText("Enter a phone number: digits, spaces, + ( ) . -");
  });
});
