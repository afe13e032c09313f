import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost, expectError, setup } from "./utils.ts";
import { startRadicale, type Radicale } from "./radicale.ts";

// A host's console session manages its own calendars (a real Radicale) and moves its own bookings
// to the free times the organizer's reschedule allows; another host's are refused as the rest of
// the host scope refuses them. The clock of setup() is Monday 2026-11-23T07:00:00Z; event types
// offer 30-minute slots 09:00-17:00 in Prague (UTC+1) on weekdays.

const ORIGIN = "http://localhost";
const TUESDAY_8 = { start: "2026-11-24T08:00:00Z", end: "2026-11-24T08:30:00Z" };

let radicale: Radicale;
let calendars = 0;

beforeAll(async () => {
  radicale = await startRadicale();
});
afterAll(async () => {
  await radicale?.stop();
});

/** Two hosts with an event type and a booking each; Ana signed in to the console with a one-time link. */
async function world() {
  const env = await setup();
  const host = (name: string) => createHost(env, name);
  const ana = await host("Ana");
  const bea = await host("Bea");
  // A long minimum notice: visitors cannot book Monday any more, the organizer may still move a booking there.
  const eventType = async (title: string, hostId: number) => {
    const r = await env.admin("POST", "/admin/event-types", { title, timezone: "Europe/Prague", minNoticeMinutes: 600, hosts: [{ hostId }] });
    expect(r.status, r.text).toBe(200);
    return { id: r.body.data.id as number, token: r.body.data.token as string, linkToken: r.body.data.linkToken as string };
  };
  const anaCall = await eventType("Ana's call", ana);
  const beaCall = await eventType("Bea's call", bea);
  const book = async (et: { token: string }, email: string) => {
    const r = await env.call("POST", "/reservations", { token: et.token, body: { ...TUESDAY_8, email, firstname: "Ada", lastname: "Lovelace" } });
    expect(r.status, r.text).toBe(200);
    return r.body.data.uuid as string;
  };
  const anaBooking = await book(anaCall, "visitor-of-ana@example.com");
  const beaBooking = await book(beaCall, "visitor-of-bea@example.com");
  // The organizer issues Ana's link (without SMTP_URL development logs it instead of emailing it).
  const issued = await env.admin("POST", `/admin/hosts/${ana}/sign-in-link`);
  expect(issued.status, issued.text).toBe(200);
  const link = /#link=(bcsl_[A-Za-z0-9_-]+)/.exec(env.logs.map((e) => e.developmentLink ?? "").join("\n"))![1]!;
  const opened = await env.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } });
  expect(opened.status, opened.text).toBe(200);
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
  const as = (method: string, path: string, body?: unknown) =>
    env.call(method, path, { headers: { cookie, origin: ORIGIN }, ...(body === undefined ? {} : { body }) });
  return { env, ana, bea, anaCall, beaCall, anaBooking, beaBooking, as };
}

describe("a host's calendars in the console", () => {
  it("are tested, connected, synced and chosen to write bookings into by the host; another host's are refused", async () => {
    const { env, ana, bea, as } = await world();
    const n = ++calendars;
    const work = await radicale.makeCalendar(`work-${n}`);
    const bookings = await radicale.makeCalendar(`bookings-${n}`);
    await radicale.put(
      work,
      "busy.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//test//EN",
        "BEGIN:VEVENT",
        "UID:busy-1",
        "DTSTAMP:20260101T000000Z",
        "DTSTART:20261125T090000Z",
        "DTEND:20261125T100000Z",
        "SUMMARY:Busy",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    // The account's address: its calendars are discovered, and all of them are read for busy times.
    const input = { kind: "caldav", url: `${radicale.base}/${radicale.user}/`, username: radicale.user, password: radicale.password };

    // Tested before it is stored: a wrong password is the URL's 422, and nothing is kept.
    expectError(await as("POST", `/admin/hosts/${ana}/busy-sources/test`, { ...input, password: "wrong" }), 422, "validation_failed");
    const tried = await as("POST", `/admin/hosts/${ana}/busy-sources/test`, input);
    expect(tried.status, tried.text).toBe(200);
    expect(tried.body.data).toEqual({ ok: true, objects: 1 });
    expect((await as("GET", `/admin/hosts/${ana}/busy-sources`)).body.data).toEqual([]);

    const added = await as("POST", `/admin/hosts/${ana}/busy-sources`, input);
    expect(added.status, added.text).toBe(200);
    const sourceId = added.body.data.id as number;
    expect(added.body.data).toMatchObject({ hostId: ana, status: "never", writeBookings: false });
    const synced = await as("POST", `/admin/busy-sources/${sourceId}/sync`);
    expect(synced.status, synced.text).toBe(200);
    expect(synced.body.data).toMatchObject({ state: "done", source: { status: "ok", busyIntervals: 1, lastError: null } });

    // The account's calendars, to choose where bookings go; then the chosen one, and none again.
    const listed = await as("GET", `/admin/busy-sources/${sourceId}/calendars`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        { url: work, name: `work-${n}`, writing: false },
        { url: bookings, name: `bookings-${n}`, writing: false },
      ]),
    );
    expectError(
      await as("PUT", `/admin/busy-sources/${sourceId}/write-bookings`, { calendar: `${radicale.base}/${radicale.user}/nowhere/` }),
      422,
      "validation_failed",
    );
    const chosen = await as("PUT", `/admin/busy-sources/${sourceId}/write-bookings`, { calendar: bookings });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.data).toMatchObject({ writeBookings: true, writeCalendar: bookings });
    expect((await as("GET", `/admin/busy-sources/${sourceId}/calendars`)).body.data.find((c: { url: string }) => c.url === bookings)).toMatchObject({
      writing: true,
    });
    expect((await env.admin("GET", `/admin/hosts/${ana}`)).body.data).toMatchObject({ id: ana });
    const stopped = await as("DELETE", `/admin/busy-sources/${sourceId}/write-bookings`);
    expect(stopped.body.data).toMatchObject({ writeBookings: false, writeCalendar: null });

    // Bea's calendar is unknown to Ana's session, whatever is asked of it; Bea's host is forbidden.
    const hers = await env.admin("POST", `/admin/hosts/${bea}/busy-sources`, { kind: "ical", url: `${radicale.base}/feed.ics` });
    expect(hers.status, hers.text).toBe(200);
    const hersId = hers.body.data.id as number;
    expectError(await as("GET", `/admin/busy-sources/${hersId}`), 404, "not_found");
    expectError(await as("POST", `/admin/busy-sources/${hersId}/sync`), 404, "not_found");
    expectError(await as("GET", `/admin/busy-sources/${hersId}/calendars`), 404, "not_found");
    expectError(await as("PUT", `/admin/busy-sources/${hersId}/write-bookings`, {}), 404, "not_found");
    expectError(await as("DELETE", `/admin/busy-sources/${hersId}/write-bookings`), 404, "not_found");
    expectError(await as("DELETE", `/admin/busy-sources/${hersId}`), 404, "not_found");
    expectError(await as("GET", `/admin/hosts/${bea}/busy-sources`), 403, "forbidden");
    expectError(await as("POST", `/admin/hosts/${bea}/busy-sources`, input), 403, "forbidden");
    expectError(await as("POST", `/admin/hosts/${bea}/busy-sources/test`, input), 403, "forbidden");
    expect((await env.admin("GET", `/admin/hosts/${bea}/busy-sources`)).body.data.map((s: { id: number }) => s.id)).toEqual([hersId]);
    // A feed has no calendars to write into (the organizer asks it).
    expectError(await env.admin("GET", `/admin/busy-sources/${hersId}/calendars`), 422, "validation_failed");
    expectError(await env.admin("GET", "/admin/busy-sources/99999/calendars"), 404, "not_found");

    // Ana removes her own.
    expect((await as("DELETE", `/admin/busy-sources/${sourceId}`)).status).toBe(200);
    expect((await as("GET", `/admin/hosts/${ana}/busy-sources`)).body.data).toEqual([]);
  });
});

describe("free times to move a booking to", () => {
  it("are those of GET /time-slots with the notice lifted as the organizer's reschedule lifts it, for the organizer and for the booking's own host", async () => {
    const { env, anaCall, beaCall, anaBooking, beaBooking, as } = await world();
    const monday = "from=2026-11-23&until=2026-11-23&timezone=UTC";
    // Visitors see nothing on Monday: the ten hours' notice has closed it.
    const publicMonday = await env.call("GET", `/time-slots?${monday}`, { token: anaCall.linkToken });
    expect(publicMonday.body.data).toEqual([]);

    const forAdmin = await env.admin("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?${monday}`);
    expect(forAdmin.status, forAdmin.text).toBe(200);
    const starts = forAdmin.body.data.map((s: { startIso8601: string }) => s.startIso8601);
    // 09:00-17:00 Prague is 08:00-16:00 UTC; every start still to come is offered.
    expect(starts[0]).toBe("2026-11-23T08:00:00Z");
    expect(starts.at(-1)).toBe("2026-11-23T15:30:00Z");
    expect(forAdmin.body.data[0]).toMatchObject({ start: "2026-11-23T08:00:00Z", readable_start: "08:00", available_seats: 1 });

    // Ana's session gets the same list for her booking, and moves it there.
    const forHost = await as("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?${monday}`);
    expect(forHost.status, forHost.text).toBe(200);
    expect(forHost.body.data).toEqual(forAdmin.body.data);
    const target = forHost.body.data[2];
    const moved = await as("POST", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/reschedule`, { start: target.start, end: target.end });
    expect(moved.status, moved.text).toBe(200);
    expect((await env.admin("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}`)).body.data.startIso8601).toBe(target.startIso8601);
    // The moved booking's new time is taken, its old one free again.
    const tuesday = await as("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?from=2026-11-24&until=2026-11-24&timezone=UTC`);
    expect(tuesday.body.data.map((s: { startIso8601: string }) => s.startIso8601)).toContain(TUESDAY_8.start);
    const after = await as("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?${monday}`);
    expect(after.body.data.map((s: { startIso8601: string }) => s.startIso8601)).not.toContain(target.startIso8601);

    // Bea's booking is not there for Ana's session; bad queries are the spec's 422; unknown is 404.
    expectError(await as("GET", `/admin/event-types/${beaCall.id}/reservations/${beaBooking}/time-slots?${monday}`), 404, "not_found");
    expectError(
      await as("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?from=2026-13-01&until=2026-11-23`),
      422,
      "validation_failed",
    );
    expectError(await env.admin("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?from=2026-11-23`), 422, "validation_failed");
    expectError(await env.admin("GET", `/admin/event-types/${anaCall.id}/reservations/not-a-uuid/time-slots?${monday}`), 404, "not_found");
    expectError(await env.admin("GET", `/admin/event-types/${anaCall.id}/reservations/${crypto.randomUUID()}/time-slots?${monday}`), 404, "not_found");
    expectError(await env.admin("GET", `/admin/event-types/999999/reservations/${anaBooking}/time-slots?${monday}`), 404, "not_found");
    expectError(
      await env.call("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?${monday}`, { token: anaCall.token }),
      403,
      "forbidden",
    );

    // A cancelled booking has nowhere to go, as its reschedule would answer.
    expect((await as("POST", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/cancel`, {})).status).toBe(200);
    const finished = await as("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/time-slots?${monday}`);
    expect(finished.status, finished.text).toBe(200);
    expect(finished.body).toMatchObject({ success: false, code: "reservation_finished" });
  });
});
