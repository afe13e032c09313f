import { test, expect, chooseFirstTime, createEventType, expectAccessible, openSite, saveScreenshot } from "../support/fixtures.ts";

/**
 * The screens that speak the visitor's language beyond the UI texts, in light and dark mode on a
 * desktop and a phone: the zone picker named in German, its search, and the details form with the
 * organizer's German texts. Each is checked with axe and saved as a screenshot.
 */
const SIZES = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const mode of ["light", "dark"] as const) {
  for (const size of SIZES) {
    test(`German visitor in ${mode} mode on a ${size.name}: zone picker, zone search, translated form`, async ({ page, request }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: mode });
      const { linkToken } = await createEventType(request, {
        title: "Intro call",
        hostName: "Jana Nováková",
        description: "Thirty minutes to see whether we fit.",
        theme: { mode, borderRadius: "10px", colors: {} },
        customFields: [{ label: "Team size", name: "team_size", type: "select", options: ["1-10", "11-50", "51+"], required: true }],
        locations: [{ type: "video-meet" }, { type: "address", value: "Alexanderplatz 1, Berlin", label: "Our Berlin office" }],
        translations: {
          de: {
            title: "Kennenlerngespräch",
            description: "Dreißig Minuten, um zu sehen, ob wir zusammenpassen.",
            customFields: { team_size: { label: "Teamgröße", options: ["1 bis 10", "11 bis 50", "über 50"] } },
            locations: { address: "Unser Büro in Berlin" },
          },
        },
      });
      const prefix = `languages-${mode}-${size.name}`;
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      const screen = async (name: string) => {
        expect(await fits(), `${prefix} ${name} fits the width`).toBe(true);
        await expectAccessible(page, `${prefix} ${name}`);
        await saveScreenshot(page, `${prefix}-${name}`);
      };

      await openSite(page, { token: linkToken, locale: "de", timezone: "Europe/Warsaw" }, { dark: mode === "dark" });
      await expect(page.getByRole("heading", { name: "Kennenlerngespräch" })).toBeVisible();
      await expect(page.locator('button[part~="day-free"]').first()).toBeVisible();
      await expect(page.getByRole("combobox", { name: "Zeitzone" })).toContainText("Mitteleuropäische Zeit");
      await screen("1-calendar");

      await page.getByRole("searchbox", { name: "Zeitzonen durchsuchen" }).fill("Warschau");
      await expect(page.locator('option[value="Europe/Warsaw"]')).toHaveText(/^Warschau – Mitteleuropäische Zeit · UTC\+0[12]:00/);
      await screen("2-zone-search");
      await page.getByRole("searchbox", { name: "Zeitzonen durchsuchen" }).fill("");

      await chooseFirstTime(page);
      await expect(page.getByLabel("Teamgröße")).toBeVisible();
      await expect(page.locator('[part="summary"]')).toContainText("Mitteleuropäische Zeit");
      await screen("3-details");
    });
  }
}
