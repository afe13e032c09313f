import type { APIRequestContext } from "@playwright/test";
import { test, expect, bookThroughApi, chooseTime, createEventType, firstFreeSlot, mountCalendar, reservationsOf } from "./fixtures.ts";

/**
 * The repeat choice of an event type that allows series, against the real server: the visitor
 * repeats the chosen time every week or two, sees every date with the taken ones marked, and books
 * the series in one go; and from an occurrence's manage link ends the series from that date on.
 */

const RECURRENCE = { recurrence: { maxOccurrences: 6, intervals: ["weekly", "biweekly"] } };

/** The dates a series starting at `start` would have, as the server answers them. */
async function seriesDates(request: APIRequestContext, token: string, start: string, interval: string, count: number) {
  const response = await request.get(`/time-slots/series?${new URLSearchParams({ start, interval, count: String(count) })}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as { start: string; end: string; startIso8601: string; available: boolean }[];
}

test.describe("repeating a booking", () => {
  test("shows the dates of the repeat with the taken one marked, and books the series whole", async ({ page, request }) => {
    const { id, token } = await createEventType(request, RECURRENCE);
    const slot = await firstFreeSlot(request, token);
    const planned = await seriesDates(request, token, slot.start, "weekly", 4);
    // Another visitor has the second week.
    await bookThroughApi(request, token, planned[1]!, "other@example.com");
    await mountCalendar(page, { token, locale: "en-GB" });
    await chooseTime(page, slot.startIso8601);
    const repeat = page.getByRole("checkbox", { name: "Repeat this booking" });
    await expect(repeat).not.toBeChecked();
    await repeat.check();
    const dates = page.getByRole("list", { name: "Dates of the series" }).getByRole("listitem");
    await expect(dates).toHaveCount(4);
    await expect(dates.nth(1)).toContainText("(taken)");
    await expect(dates.nth(0)).not.toContainText("(taken)");
    await expect(dates.nth(2)).not.toContainText("(taken)");
    await expect(page.getByText("Some dates are taken: choose another time or fewer dates.")).toBeVisible();
    // Every two weeks the taken week is skipped.
    await page.getByLabel("Repeat", { exact: true }).selectOption("biweekly");
    await page.getByLabel("Number of dates").selectOption("3");
    await expect(dates).toHaveCount(3);
    await expect(page.getByText("Every date is free.")).toBeVisible();
    await page.getByLabel("Email").fill("series@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const booked = (await reservationsOf(request, id)).filter((r) => r.email === "series@example.com");
    expect(booked).toHaveLength(3);
    expect(new Set(booked.map((r) => r.seriesId)).size).toBe(1);
    expect(booked[0]!.seriesId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("a date taken between the list and the booking: the series is refused whole, said, and the list marks the date", async ({ page, request }) => {
    const { id, token } = await createEventType(request, RECURRENCE);
    const slot = await firstFreeSlot(request, token);
    const planned = await seriesDates(request, token, slot.start, "weekly", 3);
    await mountCalendar(page, { token, locale: "en-GB" });
    await chooseTime(page, slot.startIso8601);
    await page.getByRole("checkbox", { name: "Repeat this booking" }).check();
    await page.getByLabel("Number of dates").selectOption("3");
    await expect(page.getByText("Every date is free.")).toBeVisible();
    await bookThroughApi(request, token, planned[2]!, "quicker@example.com");
    await page.getByLabel("Email").fill("series@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("alert")).toContainText("Some dates of the series were just taken.");
    const dates = page.getByRole("list", { name: "Dates of the series" }).getByRole("listitem");
    await expect(dates.nth(2)).toContainText("(taken)");
    expect((await reservationsOf(request, id)).filter((r) => r.email === "series@example.com")).toEqual([]);
  });

  test("offers no repeat where the event type allows none", async ({ page, request }) => {
    const { token } = await createEventType(request);
    const slot = await firstFreeSlot(request, token);
    await mountCalendar(page, { token, locale: "en-GB" });
    await chooseTime(page, slot.startIso8601);
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Repeat this booking" })).toHaveCount(0);
  });

  test("ends the series from an occurrence's manage link: that date and the later ones are cancelled, the earlier ones stay", async ({ page, request }) => {
    const { id, token } = await createEventType(request, RECURRENCE);
    const slot = await firstFreeSlot(request, token);
    const response = await request.post("/reservations", {
      headers: { Authorization: `Bearer ${token}` },
      data: { start: slot.start, end: slot.end, email: "series@example.com", recurrence: { interval: "weekly", count: 4 } },
    });
    const series = (await response.json()).data as { occurrences: { uuid: string }[] };
    await mountCalendar(page, { token, "reservation-uuid": series.occurrences[1]!.uuid, locale: "en-GB" });
    await page.getByRole("button", { name: "Cancel booking" }).click();
    await page.getByRole("button", { name: "Cancel this and all following dates" }).click();
    await expect(page.getByRole("heading", { name: "Your booking is cancelled" })).toBeVisible();
    const stored = new Map((await reservationsOf(request, id)).map((r) => [r.uuid, r.status]));
    expect(series.occurrences.map((o) => stored.get(o.uuid))).toEqual(["confirmed", "cancelled", "cancelled", "cancelled"]);
  });
});
