import type ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { dataOf, expectError } from "./utils.ts";
import { TUE_1000, invitedStarts, vevents, world } from "./series-world.ts";

// Messages and changes of a booked series on the suite's engine: the one recurring invite, webhooks
// with the series' id, one occurrence cancelled or moved alone, and the series ended from the manage link.

/** The eight Tuesdays of the series booked at TUE_1000, as UTC instants. */
const WEEKS = ["2026-12-01", "2026-12-08", "2026-12-15", "2026-12-22", "2026-12-29", "2027-01-05", "2027-01-12", "2027-01-19"].map((d) =>
  new Date(`${d}T10:00:00+01:00`).toISOString(),
);

async function bookedSeries(interval: "weekly" | "biweekly" = "weekly") {
  const w = await world();
  const data = dataOf(await w.book(TUE_1000, { interval, count: 8 }));
  return { ...w, series: data as { seriesId: string; occurrences: { uuid: string; start: string; manageUrl: string }[] } };
}

describe("the series' messages", () => {
  it("sends the visitor one confirmation for the whole series, whose invite repeats weekly 8 times in the event type's zone", async () => {
    const w = await bookedSeries();
    const mails = await w.visitorMails();
    expect(mails).toHaveLength(1);
    const { mail } = mails[0]!;
    expect(mail.method).toBe("REQUEST");
    expect(mail.text).toContain("Every week, 8 times");
    expect(mail.ics).toMatch(/\r\nRRULE:FREQ=WEEKLY;COUNT=8\r\n/);
    expect(mail.ics).toMatch(/\r\nDTSTART;TZID=Europe\/Berlin:20261201T100000\r\n/);
    expect(mail.ics).toContain("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin");
    const [event] = vevents(mail.ics);
    expect(event!.getFirstPropertyValue("uid")).toBe(`${w.series.seriesId}@booking-calendar`);
    expect(invitedStarts(mail.ics, "Europe/Berlin")).toEqual(WEEKS);
  });

  it("writes INTERVAL=2 for a series every two weeks", async () => {
    const w = await bookedSeries("biweekly");
    const mail = (await w.visitorMails())[0]!.mail;
    expect(mail.ics).toMatch(/\r\nRRULE:FREQ=WEEKLY;COUNT=8;INTERVAL=2\r\n/);
    const rule = vevents(mail.ics)[0]!.getFirstPropertyValue("rrule") as ICAL.Recur;
    expect([rule.freq, rule.interval, rule.count]).toEqual(["WEEKLY", 2, 8]);
    expect(mail.text).toContain("Every two weeks, 8 times");
  });

  it("announces each occurrence to the organizer's webhook with the series' id", async () => {
    const w = await bookedSeries();
    const hooks = (await w.outbox()).filter((e) => (e.channel ?? "webhook") === "webhook").map((e) => JSON.parse(e.payload));
    expect(hooks.map((h) => [h.type, h.data.seriesId])).toEqual(WEEKS.map(() => ["reservation.created", w.series.seriesId]));
    expect(hooks.map((h) => h.data.start).sort()).toEqual(WEEKS.map((s) => s.replace(".000Z", "Z")));
  });
});

describe("changing one occurrence", () => {
  it("cancels one occurrence alone: the others stand, its time is free again, and the new invite leaves it out (EXDATE)", async () => {
    const w = await bookedSeries();
    const third = w.series.occurrences[2]!;
    dataOf(await w.call("DELETE", `/reservations/${third.uuid}`, { token: w.et.token }));
    const stored = await w.store.reservations.series(w.et.id, w.series.seriesId);
    expect(stored.map((r) => r.status)).toEqual(["confirmed", "confirmed", "cancelled", "confirmed", "confirmed", "confirmed", "confirmed", "confirmed"]);
    const slots = dataOf(await w.call("GET", "/time-slots?from=2026-12-15&until=2026-12-15", { token: w.et.token }));
    expect(slots.map((s: { readable_start: string }) => s.readable_start)).toContain("10:00");
    const mails = await w.visitorMails();
    expect(mails).toHaveLength(2);
    const latest = mails[1]!.mail;
    expect(latest.method).toBe("REQUEST");
    expect(latest.ics).toMatch(/\r\nEXDATE;TZID=Europe\/Berlin:20261215T100000\r\n/);
    expect(invitedStarts(latest.ics, "Europe/Berlin")).toEqual(WEEKS.filter((_, i) => i !== 2));
    const sequence = (ics: string) => vevents(ics)[0]!.getFirstPropertyValue("sequence") as unknown as number;
    expect(sequence(latest.ics)).toBeGreaterThan(sequence(mails[0]!.mail.ics));
    const hook = (await w.outbox())
      .filter((e) => e.kind === "reservation.cancelled" && (e.channel ?? "webhook") === "webhook")
      .map((e) => JSON.parse(e.payload));
    expect(hook.map((h) => [h.data.uuid, h.data.seriesId])).toEqual([[third.uuid, w.series.seriesId]]);
  });

  it("moves one occurrence alone: the invite keeps the series and overrides that date (RECURRENCE-ID)", async () => {
    const w = await bookedSeries();
    const second = w.series.occurrences[1]!;
    const moved = dataOf(
      await w.call("PUT", `/reservations/${second.uuid}`, {
        token: w.et.token,
        body: { start: "2026-12-09T14:00:00+01:00", end: "2026-12-09T14:30:00+01:00" },
      }),
    );
    expect(moved.seriesId).toBe(w.series.seriesId);
    const latest = (await w.visitorMails()).at(-1)!.mail;
    const events = vevents(latest.ics);
    expect(events).toHaveLength(2);
    const override = events.find((e) => e.hasProperty("recurrence-id"))!;
    expect(override.getFirstProperty("recurrence-id")!.toICALString()).toBe("RECURRENCE-ID;TZID=Europe/Berlin:20261208T100000");
    expect((override.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString()).toBe("2026-12-09T13:00:00.000Z");
    expect(override.getFirstPropertyValue("uid")).toBe(`${w.series.seriesId}@booking-calendar`);
  });
});

describe("ending a series", () => {
  it("cancels this occurrence and every later one, keeps the earlier ones, and sends one email whose invite ends the series there", async () => {
    const w = await bookedSeries();
    const fifth = w.series.occurrences[4]!;
    const ended = await w.call("DELETE", `/reservations/${fifth.uuid}/series`, { token: w.et.token, body: { reason: "Moving away" } });
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body).toEqual({ success: true, message: "The series is ended: 4 occurrences cancelled." });
    const stored = await w.store.reservations.series(w.et.id, w.series.seriesId);
    expect(stored.map((r) => r.status)).toEqual(["confirmed", "confirmed", "confirmed", "confirmed", "cancelled", "cancelled", "cancelled", "cancelled"]);
    expect(stored[7]!.cancelReason).toBe("Moving away");
    const mails = await w.visitorMails();
    expect(mails).toHaveLength(2);
    expect(invitedStarts(mails[1]!.mail.ics, "Europe/Berlin")).toEqual(WEEKS.slice(0, 4));
    const cancelled = (await w.outbox())
      .filter((e) => e.kind === "reservation.cancelled" && (e.channel ?? "webhook") === "webhook")
      .map((e) => JSON.parse(e.payload));
    expect(cancelled.map((h) => h.data.seriesId)).toEqual([w.series.seriesId, w.series.seriesId, w.series.seriesId, w.series.seriesId]);
    // Again: nothing left to end.
    expect(dataOf(await w.call("DELETE", `/reservations/${fifth.uuid}/series`, { token: w.et.token })) ?? null).toBeNull();
    expect((await w.visitorMails()).length).toBe(2);
  });

  it("cancels the whole entry (METHOD:CANCEL) when the series is ended from its first occurrence", async () => {
    const w = await bookedSeries();
    dataOf(await w.call("DELETE", `/reservations/${w.series.occurrences[0]!.uuid}/series`, { token: w.et.token }));
    const latest = (await w.visitorMails()).at(-1)!.mail;
    expect(latest.method).toBe("CANCEL");
    expect(vevents(latest.ics)[0]!.getFirstPropertyValue("status")).toBe("CANCELLED");
  });

  it("answers 404 for a reservation of no series, and 403 inside the cancel notice without the override token", async () => {
    const w = await world({ cancelNoticeMinutes: 60 * 24 * 30 });
    const single = dataOf(await w.book({ start: "2027-02-02T10:00:00+01:00", end: "2027-02-02T10:30:00+01:00" }));
    expectError(await w.call("DELETE", `/reservations/${single.uuid}/series`, { token: w.et.token }), 404, "not_found");
    const series = dataOf(await w.book(TUE_1000, { interval: "weekly", count: 3 }));
    expectError(await w.call("DELETE", `/reservations/${series.uuid}/series`, { token: w.et.token }), 403, "forbidden");
    const override = await w.call("DELETE", `/reservations/${series.uuid}/series`, {
      token: w.et.token,
      headers: { "booking-override-token": w.et.overrideToken },
    });
    expect(override.status, override.text).toBe(200);
    expect((await w.store.reservations.series(w.et.id, series.seriesId)).every((r) => r.status === "cancelled")).toBe(true);
  });
});
