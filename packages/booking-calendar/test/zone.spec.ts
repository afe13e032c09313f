import { DateTexts, localeUses12Hours, offsetMinutes, offsetText } from "../src/dates.ts";
import { test, expect, chooseFirstTime, createEventType, firstFreeSlot, mountCalendar, showDay } from "./fixtures.ts";

test.describe("the visitor's time zone", () => {
  test("choosing another zone asks for the month's times once, in that zone, and shows them on its clocks", async ({ page, request }) => {
    const { token } = await createEventType(request);
    const slot = await firstFreeSlot(request, token);
    await mountCalendar(page, { token, locale: "en-GB" });
    await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
    const asked: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/time-slots") asked.push(new URL(r.url()).searchParams.get("timezone") ?? "");
    });
    await page.getByLabel("Search time zones").fill("tokyo");
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/time-slots");
    await page.getByRole("combobox", { name: "Time zone" }).selectOption("Asia/Tokyo");
    expect((await answered).status()).toBe(200);
    await expect(page.getByRole("combobox", { name: "Time zone" })).toHaveValue("Asia/Tokyo");
    // Tokyo is 9 hours ahead of UTC all year: the slot's day there, and its time on Tokyo's clocks.
    const tokyo = new Date(Date.parse(slot.startIso8601) + 9 * 3_600_000).toISOString();
    await (await showDay(page, tokyo.slice(0, 10))).click();
    await expect(page.locator(`button[part="slot"][data-start="${slot.startIso8601}"]`)).toContainText(tokyo.slice(11, 16));
    expect(asked).toEqual(["Asia/Tokyo"]);
  });

  test("the summary names an Etc/GMT zone by the offset it is: Etc/GMT+5 is five hours behind UTC", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "en-GB", timezone: "Etc/GMT+5" });
    await chooseFirstTime(page);
    await expect(page.locator('[part="summary"]')).toContainText("Time zone: UTC-05:00");
    expect([new DateTexts("en").zoneName("Etc/GMT-3"), new DateTexts("de").zoneName("Etc/GMT+10")]).toEqual(["UTC+03:00", "UTC-10:00"]);
  });

  test("where Intl names a zone only by its offset, the summary names its city in the visitor's language", async ({ page, request }) => {
    // A browser whose Intl knows no generic zone names (as some engines ship): only "GMT+01:00".
    await page.addInitScript(() => {
      const formatToParts = Intl.DateTimeFormat.prototype.formatToParts;
      Intl.DateTimeFormat.prototype.formatToParts = function (this: Intl.DateTimeFormat, date?: Date | number) {
        const parts = formatToParts.call(this, date);
        if (this.resolvedOptions().timeZoneName !== "longGeneric") return parts;
        return parts.map((p) => (p.type === "timeZoneName" ? { ...p, value: "GMT+01:00" } : p));
      };
    });
    const { token } = await createEventType(request);
    await mountCalendar(page, { token, locale: "de", timezone: "Europe/Vienna" });
    await chooseFirstTime(page);
    await expect(page.locator('[part="summary"]')).toContainText("Zeitzone: Wien");
  });

  test("times read as the visitor's locale writes them, midnight included", () => {
    // Midnight and one o'clock in Tokyo: 24-hour locales write the hour with two digits.
    const midnight = "2026-11-24T15:00:00Z";
    const one = "2026-11-24T16:00:00Z";
    expect([new DateTexts("en-GB").time(midnight, "Asia/Tokyo"), new DateTexts("en-GB").time(one, "Asia/Tokyo")]).toEqual(["00:00", "01:00"]);
    expect(new DateTexts("de").time(one, "Asia/Tokyo")).toBe("01:00");
    expect(new DateTexts("en-US").time(one, "Asia/Tokyo").replace(/\s/g, " ")).toBe("1:00 AM");
  });
});

test.describe("the visitor's clock", () => {
  test("a 12h or 24h choice overrides the locale's clock, and offsets read as UTC±hh:mm", () => {
    const one = "2026-11-24T16:00:00Z";
    expect(new DateTexts("en-US", false).time(one, "Asia/Tokyo")).toBe("01:00");
    expect(new DateTexts("en-GB", true).time(one, "Asia/Tokyo").replace(/\s/g, " ")).toMatch(/^0?1:00 am$/i);
    expect(localeUses12Hours("en-US")).toBe(true);
    expect(localeUses12Hours("de")).toBe(false);
    expect([offsetText(offsetMinutes("Asia/Kolkata", Date.parse(one))), offsetText(offsetMinutes("America/St_Johns", Date.parse(one))), offsetText(0)]).toEqual(
      ["UTC+05:30", "UTC-03:30", "UTC+00:00"],
    );
  });
});
