import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setup } from "./utils.ts";
import { startRadicale, type Radicale } from "./radicale.ts";
import { CalendarWriteWorker } from "../src/modules/calendars/writer.ts";
import { organizerBookingKey, organizerBookingUid } from "../src/modules/invites/ics.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z; the default event type offers
// 30-minute slots 09:00-17:00 in Prague (UTC+1) on weekdays.

const visitor = { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" };
const TUESDAY = "/time-slots?from=2026-11-24&until=2026-11-24";

let radicale: Radicale;
let calendars = 0;

beforeAll(async () => {
  radicale = await startRadicale();
});
afterAll(async () => {
  await radicale?.stop();
});

/** Reads an object from Radicale as the organizer; null when it is not there. */
async function objectAt(url: string): Promise<string | null> {
  const response = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString("base64")}` } });
  const text = await response.text();
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return text;
}

/** An app with one event type (`seats` seats) reading and writing its own Radicale calendar. */
async function world(seats = 1) {
  const env = await setup();
  const et = await env.eventType({ seats });
  const cal = await radicale.makeCalendar(`write-${process.pid}-${++calendars}`);
  const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
  const added = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, {
    kind: "caldav",
    url: cal,
    username: radicale.user,
    password: radicale.password,
  });
  expect(added.status).toBe(200);
  const sourceId = added.body.data.id as number;
  const worker = new CalendarWriteWorker(env.store, env.clock, { allowPrivateAddresses: true }, (e) => env.logs.push(e));
  const deliveries = async (): Promise<any[]> => {
    const r = await env.admin("GET", `/admin/event-types/${et.id}/deliveries`);
    expect(r.status).toBe(200);
    return r.body.data.filter((d: { channel: string }) => d.channel === "caldav");
  };
  const book = async (start: string, end: string) => {
    const r = await call("POST", "/reservations", { ...visitor, start, end });
    expect(r.body.success).toBe(true);
    return r.body.data.uuid as string;
  };
  return { ...env, et, cal, call, sourceId, worker, deliveries, book };
}

describe("bookings written into the organizer's CalDAV calendar (a real Radicale)", () => {
  it("PUTs a booking with its organizer UID and times, PUTs the same object on a reschedule with SEQUENCE raised, and DELETEs it on cancel", async () => {
    const w = await world();
    const set = await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, {});
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ id: w.sourceId, writeBookings: true, writeCalendar: w.cal });
    expect(set.text).not.toContain(radicale.password);

    const uuid = await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
    // Named by the organizer's key of the booking, not its uuid: whoever reads the calendar cannot cancel it.
    const href = `${w.cal}${organizerBookingKey(uuid)}.ics`;
    expect(await objectAt(href)).toBeNull();
    expect(await w.worker.runOnce()).toBe(1);
    const created = await objectAt(href);
    expect(created).toContain(`UID:${organizerBookingUid(uuid)}`);
    expect(created).not.toContain(uuid);
    expect(created).toContain("DTSTART:20261124T090000Z");
    expect(created).toContain("DTEND:20261124T093000Z");
    expect(created).toContain("SEQUENCE:0");
    expect(created).not.toContain("METHOD:");

    const moved = await w.call("PUT", `/reservations/${uuid}`, { start: "2026-11-25T11:00:00+01:00", end: "2026-11-25T11:30:00+01:00" });
    expect(moved.body.success).toBe(true);
    expect(await w.worker.runOnce()).toBe(1);
    const rescheduled = await objectAt(href);
    expect(rescheduled).toContain(`UID:${organizerBookingUid(uuid)}`);
    expect(rescheduled).not.toContain(uuid);
    expect(rescheduled).toContain("DTSTART:20261125T100000Z");
    expect(rescheduled).toContain("DTEND:20261125T103000Z");
    expect(rescheduled).toContain("SEQUENCE:1");
    // One object only: the same href was replaced.
    expect(
      radicale
        .requests()
        .filter((r) => r.method === "PUT" && r.path.includes(organizerBookingKey(uuid)))
        .map((r) => r.path),
    ).toEqual([new URL(href).pathname, new URL(href).pathname]);

    expect((await w.call("DELETE", `/reservations/${uuid}`)).status).toBe(200);
    expect(await w.worker.runOnce()).toBe(1);
    expect(await objectAt(href)).toBeNull();
    const log = await w.deliveries();
    expect(log.map((d) => [d.kind, d.status, d.url])).toEqual([
      ["reservation.cancelled", "delivered", href],
      ["reservation.rescheduled", "delivered", href],
      ["reservation.created", "delivered", href],
    ]);
  });

  it("writes nothing for an event type without a bookings calendar, and stops when the organizer turns it off", async () => {
    const w = await world();
    await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
    expect(await w.worker.runOnce()).toBe(0);
    expect(await w.deliveries()).toEqual([]);
    expect((await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, { calendar: w.cal })).body.data.writeBookings).toBe(true);
    const off = await w.admin("DELETE", `/admin/busy-sources/${w.sourceId}/write-bookings`);
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ writeBookings: false, writeCalendar: null });
    await w.book("2026-11-24T11:00:00+01:00", "2026-11-24T11:30:00+01:00");
    expect(await w.deliveries()).toEqual([]);
  });

  it("delivers a booking made while the calendar server is down once it is back", async () => {
    const w = await world();
    expect((await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, {})).status).toBe(200);
    await radicale.pause();
    let uuid: string;
    try {
      uuid = await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
      expect(await w.worker.runOnce()).toBe(1);
      const [pending] = await w.deliveries();
      expect(pending).toMatchObject({ status: "pending", attempts: 1 });
      expect(pending.lastError).toMatch(/^unreachable: /);
    } finally {
      await radicale.resume();
    }
    // Not yet due: the backoff waits.
    expect(await w.worker.runOnce()).toBe(0);
    w.clock.advance(1);
    expect(await w.worker.runOnce()).toBe(1);
    const [delivered] = await w.deliveries();
    expect(delivered).toMatchObject({ status: "delivered", attempts: 2 });
    expect(await objectAt(`${w.cal}${organizerBookingKey(uuid)}.ics`)).toContain(`UID:${organizerBookingUid(uuid)}`);
  });

  it("fails a write the calendar refuses for its credentials, with the reason in the admin's deliveries", async () => {
    const w = await world();
    expect((await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, {})).status).toBe(200);
    await radicale.pause();
    await radicale.resume("a-new-password");
    try {
      await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
      expect(await w.worker.runOnce()).toBe(1);
    } finally {
      await radicale.pause();
      await radicale.resume();
    }
    const [failed] = await w.deliveries();
    expect(failed).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 401 });
    expect(failed.lastError).toContain("refused the credentials");
  });

  it("does not let its own bookings, read back from the calendar, block the seats left; another event's do", async () => {
    const w = await world(3);
    expect((await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, {})).status).toBe(200);
    const uuid = await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
    expect(await w.worker.runOnce()).toBe(1);
    const synced = await w.admin("POST", `/admin/busy-sources/${w.sourceId}/sync`);
    expect(synced.body.data.sync).toMatchObject({ ok: true, downloaded: 1 });
    expect(synced.body.data.source).toMatchObject({ objects: 1, busyIntervals: 0 });
    const slots = (await w.call("GET", TUESDAY)).body.data.map((s: { startIso8601: string }) => s.startIso8601);
    expect(slots).toContain("2026-11-24T09:00:00Z");
    // Two seats are left and can be booked.
    await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
    await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");

    // The same UID format for a reservation this event type does not have still blocks.
    const stranger = (await objectAt(`${w.cal}${organizerBookingKey(uuid)}.ics`))!
      .replaceAll(organizerBookingKey(uuid), organizerBookingKey(crypto.randomUUID()))
      .replace("DTSTART:20261124T090000Z", "DTSTART:20261124T130000Z")
      .replace("DTEND:20261124T093000Z", "DTEND:20261124T133000Z");
    await radicale.put(w.cal, "stranger.ics", stranger);
    const again = await w.admin("POST", `/admin/busy-sources/${w.sourceId}/sync`);
    expect(again.body.data.source).toMatchObject({ objects: 2, busyIntervals: 1 });
    expect((await w.call("GET", TUESDAY)).body.data.map((s: { startIso8601: string }) => s.startIso8601)).not.toContain("2026-11-24T13:00:00Z");
  });

  it("checks the calendar asked for, refuses iCalendar feeds, and stops writing when the source is removed", async () => {
    const w = await world();
    const unknown = await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, {
      calendar: `${radicale.base}/${radicale.user}/no-such-calendar/`,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.errors.calendar[0]).toContain("no such calendar");
    const bad = await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, { calendar: 42 });
    expect(bad.status).toBe(422);
    const extra = await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, { calendar: w.cal, other: true });
    expect(extra.status).toBe(422);
    const missing = await w.admin("PUT", `/admin/busy-sources/999999/write-bookings`, {});
    expect(missing.status).toBe(404);
    const feed = await w.admin("POST", `/admin/event-types/${w.et.id}/busy-sources`, { kind: "ical", url: `${radicale.base}/feed.ics` });
    const refused = await w.admin("PUT", `/admin/busy-sources/${feed.body.data.id}/write-bookings`, {});
    expect(refused.status).toBe(422);

    expect((await w.admin("PUT", `/admin/busy-sources/${w.sourceId}/write-bookings`, { calendar: new URL(w.cal).pathname })).body.data.writeCalendar).toBe(
      w.cal,
    );
    const listed = await w.admin("GET", `/admin/event-types/${w.et.id}/busy-sources`);
    expect(listed.body.data.map((s: { writeBookings: boolean }) => s.writeBookings)).toEqual([true, false]);
    const eventType = await w.admin("GET", `/admin/event-types/${w.et.id}`);
    expect(eventType.body.data.bookingsCalendar).toEqual({ sourceId: w.sourceId, calendarUrl: w.cal });
    // Only the source's route sets it: the event type's own update refuses the field, and keeps it.
    const patched = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, {
      bookingsCalendar: { sourceId: w.sourceId, calendarUrl: `${radicale.base}/elsewhere/` },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toHaveProperty("bookingsCalendar");
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { title: "Renamed" })).body.data.bookingsCalendar).toEqual({
      sourceId: w.sourceId,
      calendarUrl: w.cal,
    });
    expect((await w.admin("DELETE", `/admin/busy-sources/${w.sourceId}`)).status).toBe(200);
    expect((await w.admin("GET", `/admin/event-types/${w.et.id}`)).body.data.bookingsCalendar).toBeNull();
    await w.book("2026-11-24T10:00:00+01:00", "2026-11-24T10:30:00+01:00");
    expect(await w.deliveries()).toEqual([]);
  });
});
