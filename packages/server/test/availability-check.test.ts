import { describe, expect, it } from "vitest";
import { hashToken, newToken } from "../src/lib/tokens.ts";
import { SIGN_IN_LINK_PREFIX } from "../src/modules/console/service.ts";
import { createHost, dataOf, expectError, reservation, setup } from "./utils.ts";

// The default clock of setup() is Monday 2026-11-23T07:00:00Z. Every event type here is in Prague (UTC+1).

const ORIGIN = "http://localhost";
const HOUR = 3_600_000;
type Env = Awaited<ReturnType<typeof setup>>;

const ICS = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//tests//EN",
  "BEGIN:VEVENT",
  "UID:dentist",
  "DTSTAMP:20261101T000000Z",
  "DTSTART:20261124T120000Z",
  "DTEND:20261124T130000Z",
  "SUMMARY:Dentist",
  "END:VEVENT",
  "END:VCALENDAR",
  "",
].join("\r\n");

/** Alex (a schedule of their own, a calendar with a dentist appointment) and Sam; a coaching of Alex, a round-robin team call of both. */
async function world() {
  const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
  const alex = await createHost(env, "Alex");
  const sam = await createHost(env, "Sam");
  const mornings = dataOf(
    await env.admin("POST", `/admin/hosts/${alex}/schedules`, {
      name: "Mornings",
      availability: { weekly: { tuesday: [{ start: "09:00", end: "12:00" }], wednesday: [{ start: "09:00", end: "12:00" }] } },
    }),
  ).id as number;
  const coaching = await env.eventType({ title: "Coaching", hosts: [{ hostId: alex }], bufferAfterMinutes: 15, minNoticeMinutes: 24 * 60, horizonDays: 14 });
  const mornings1on1 = await env.eventType({ title: "Morning check-in", hosts: [{ hostId: alex, scheduleId: mornings }], seats: 2 });
  const team = await env.eventType({ title: "Team call", hosts: [{ hostId: alex }, { hostId: sam }], assignment: "round-robin" });
  const source = await env.store.busy.add(
    { hostId: alex, kind: "ical", url: "https://calendar.example/alex.ics", username: null, secret: null, calendars: [], freshnessMinutes: null },
    env.clock.now(),
  );
  await env.store.busy.recordSync(source.id, {
    atMs: env.clock.now(),
    syncState: {},
    upserts: [{ href: "https://calendar.example/alex.ics", etag: null, ics: ICS }],
    deletes: [],
    intervals: [{ startMs: Date.parse("2026-11-24T12:00:00Z"), endMs: Date.parse("2026-11-24T13:00:00Z") }],
    expandedUntilMs: Date.parse("2027-01-01T00:00:00Z"),
  });
  const teamBooking = reservation(team.id, "2026-11-25T10:00:00Z", 30, { hostIds: [alex] });
  await env.store.reservations.insertMany([
    teamBooking,
    reservation(mornings1on1.id, "2026-11-25T08:00:00Z", 30, { hostIds: [alex] }),
    reservation(mornings1on1.id, "2026-11-25T08:00:00Z", 30, { hostIds: [alex] }),
    reservation(coaching.id, "2026-11-26T10:00:00Z", 30, { hostIds: [alex] }),
  ]);
  const check = async (id: number, start: string) =>
    dataOf(await env.admin("GET", `/admin/event-types/${id}/availability-check?start=${encodeURIComponent(start)}`));
  return { env, alex, sam, mornings, source, coaching, mornings1on1, team, teamBooking, check };
}

/** A host's console session, opened by a one-time link made in the store; a function calling the admin API with it. */
async function sessionOf(env: Env, hostId: number) {
  const link = newToken(SIGN_IN_LINK_PREFIX);
  const nowMs = env.clock.now();
  await env.store.consoleSessions.addLink({ tokenHash: hashToken(link), role: "host", hostId, createdAtMs: nowMs, expiresAtMs: nowMs + HOUR });
  const opened = await env.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } });
  expect(opened.status, opened.text).toBe(200);
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
  return (path: string) => env.call("GET", path, { headers: { cookie, origin: ORIGIN } });
}

describe("GET /admin/event-types/{id}/availability-check", () => {
  it("answers bookable with no reasons for a time the slot page offers", async () => {
    const w = await world();
    const answer = await w.check(w.coaching.id, "2026-11-25T10:00:00+01:00");
    expect(answer).toMatchObject({
      eventTypeId: w.coaching.id,
      title: "Coaching",
      start: "2026-11-25T09:00:00Z",
      end: "2026-11-25T09:30:00Z",
      bookable: true,
      reasons: [],
    });
    expect(answer.hosts).toEqual([{ hostId: w.alex, name: "Alex", free: true, reasons: [] }]);
  });

  it("names the schedule whose hours leave a time out, and the grid", async () => {
    const w = await world();
    const monday = await w.check(w.mornings1on1.id, "2026-11-30T10:00:00+01:00");
    expect(monday.bookable).toBe(false);
    expect(monday.reasons).toEqual([
      expect.objectContaining({ code: "outside_hours", hostId: w.alex, schedule: { id: w.mornings, name: "Mornings" }, timezone: "Europe/Prague" }),
    ]);
    expect(monday.reasons[0].message).toContain('"Mornings"');
    const offGrid = await w.check(w.coaching.id, "2026-11-25T10:10:00+01:00");
    expect(offGrid.reasons).toEqual([expect.objectContaining({ code: "outside_hours", schedule: { id: null, name: "the event type's own hours" } })]);
  });

  it("says when the minimum notice and the horizon leave a time out", async () => {
    const w = await world();
    const soon = await w.check(w.coaching.id, "2026-11-23T15:00:00+01:00");
    expect(soon.reasons).toEqual([expect.objectContaining({ code: "min_notice", bookableFrom: "2026-11-24T07:00:00Z" })]);
    const past = await w.check(w.coaching.id, "2026-11-23T07:00:00+01:00");
    expect(past.reasons.map((r: { code: string }) => r.code)).toEqual(["outside_hours", "min_notice"]);
    expect(past.reasons[1].message).toMatch(/already begun or passed/);
    const far = await w.check(w.coaching.id, "2026-12-09T10:00:00+01:00");
    expect(far.reasons).toEqual([expect.objectContaining({ code: "horizon", bookableUntil: "2026-12-07T23:00:00Z", timezone: "Europe/Prague" })]);
  });

  it("names the other event type's booking, the calendar with its event's title, and a buffer", async () => {
    const w = await world();
    const booked = await w.check(w.coaching.id, "2026-11-25T11:00:00+01:00");
    expect(booked.reasons).toEqual([
      expect.objectContaining({
        code: "host_busy",
        eventType: { id: w.team.id, title: "Team call" },
        reservationUuid: w.teamBooking.uuid,
        busyFrom: "2026-11-25T10:00:00Z",
        busyUntil: "2026-11-25T10:30:00Z",
      }),
    ]);
    expect(booked.reasons[0].message).toBe('Alex is booked then through "Team call".');
    const dentist = await w.check(w.coaching.id, "2026-11-24T13:30:00+01:00");
    expect(dentist.reasons).toEqual([
      expect.objectContaining({
        code: "calendar_busy",
        title: "Dentist",
        calendar: { id: w.source.id, kind: "ical", url: "https://calendar.example/alex.ics" },
      }),
    ]);
    // 12:30-13:00 Prague ends where the dentist begins, but the 15 minutes after it do not.
    const before = await w.check(w.coaching.id, "2026-11-24T12:30:00+01:00");
    expect(before.reasons).toEqual([expect.objectContaining({ code: "buffer", busyFrom: "2026-11-24T12:00:00Z", busyUntil: "2026-11-24T13:00:00Z" })]);
  });

  it("says when all seats are taken, and when the event type is disabled", async () => {
    const w = await world();
    const full = await w.check(w.mornings1on1.id, "2026-11-25T09:00:00+01:00");
    expect(full.reasons).toEqual([expect.objectContaining({ code: "seats_full", seats: 2 })]);
    expect((await w.env.admin("PATCH", `/admin/event-types/${w.coaching.id}`, { disabled: true })).status).toBe(200);
    const disabled = await w.check(w.coaching.id, "2026-11-25T10:00:00+01:00");
    expect(disabled).toMatchObject({ bookable: false, reasons: [{ code: "disabled" }], hosts: [{ free: true }] });
  });

  it("lists a team's hosts each with their own reasons: round robin is bookable while one is free", async () => {
    const w = await world();
    const oneBusy = await w.check(w.team.id, "2026-11-26T11:00:00+01:00");
    expect(oneBusy.bookable).toBe(true);
    expect(oneBusy.reasons).toEqual([]);
    expect(oneBusy.hosts).toEqual([
      {
        hostId: w.alex,
        name: "Alex",
        free: false,
        reasons: [expect.objectContaining({ code: "host_busy", eventType: { id: w.coaching.id, title: "Coaching" } })],
      },
      { hostId: w.sam, name: "Sam", free: true, reasons: [] },
    ]);
    // Alex's booking of the team call itself takes the one seat Alex has at that time.
    const teamBooked = await w.check(w.team.id, "2026-11-25T11:00:00+01:00");
    expect(teamBooked.bookable).toBe(true);
    expect(teamBooked.hosts[0].reasons).toEqual([expect.objectContaining({ code: "seats_full", seats: 1 })]);
    await w.env.store.reservations.insertMany([reservation(w.team.id, "2026-11-25T10:00:00Z", 30, { hostIds: [w.sam] })]);
    const bothBusy = await w.check(w.team.id, "2026-11-25T11:00:00+01:00");
    expect(bothBusy.bookable).toBe(false);
    expect(bothBusy.reasons.map((r: { hostId: number; code: string }) => [r.hostId, r.code])).toEqual([
      [w.alex, "seats_full"],
      [w.sam, "seats_full"],
    ]);
  });

  it("names time off and the booking limits, as the slot page applies them", async () => {
    const w = await world();
    const codes = (answer: { reasons: { code: string }[] }) => answer.reasons.map((r) => r.code);
    expect((await w.check(w.coaching.id, "2026-11-25T10:00:00+01:00")).bookable).toBe(true);
    const away = await w.env.admin("POST", `/admin/hosts/${w.alex}/time-off`, { startDate: "2026-11-25", endDate: "2026-11-25", note: "Dentist week" });
    expect(away.status, away.text).toBe(200);
    const off = await w.check(w.coaching.id, "2026-11-25T10:00:00+01:00");
    expect(off.bookable).toBe(false);
    expect(codes(off)).toContain("time_off");
    // Round robin: Sam takes the time Alex is away.
    const team = await w.check(w.team.id, "2026-11-25T14:00:00+01:00");
    expect(team.bookable).toBe(true);
    expect(team.hosts.find((h: { hostId: number }) => h.hostId === w.alex).reasons.map((r: { code: string }) => r.code)).toContain("time_off");
    // The coaching booked on the 26th fills a limit of one a day; the 27th is still free.
    expect((await w.env.admin("PATCH", `/admin/event-types/${w.coaching.id}`, { limits: { bookingsPerDay: 1 } })).status).toBe(200);
    const full = await w.check(w.coaching.id, "2026-11-26T14:00:00+01:00");
    expect(full.bookable).toBe(false);
    expect(codes(full)).toEqual(["limit_reached"]);
    expect((await w.check(w.coaching.id, "2026-11-27T14:00:00+01:00")).bookable).toBe(true);
    // A host limit across event types: Alex's coaching on the 26th fills one a day, which leaves Alex out of the team call then.
    expect((await w.env.admin("PATCH", `/admin/hosts/${w.alex}`, { limits: { bookingsPerDay: 1 } })).status).toBe(200);
    const hostFull = await w.check(w.team.id, "2026-11-26T14:00:00+01:00");
    expect(hostFull.bookable).toBe(true);
    expect(hostFull.hosts.find((h: { hostId: number }) => h.hostId === w.alex).reasons.map((r: { code: string }) => r.code)).toContain("limit_reached");
    expect(hostFull.hosts.find((h: { hostId: number }) => h.hostId === w.sam).free).toBe(true);
  });

  it("offers the colleague standing in for an away host, as the booking page does", async () => {
    const w = await world();
    const away = await w.env.admin("POST", `/admin/hosts/${w.alex}/time-off`, { startDate: "2026-11-25", endDate: "2026-11-25", colleagueHostId: w.sam });
    expect(away.status, away.text).toBe(200);
    const offered = dataOf(await w.env.call("GET", "/time-slots?from=2026-11-25&until=2026-11-25", { token: w.coaching.token }));
    expect(offered.map((slot: { readable_start: string }) => slot.readable_start)).toContain("10:00");
    const answer = await w.check(w.coaching.id, "2026-11-25T10:00:00+01:00");
    expect(answer.bookable).toBe(true);
    type Checked = { hostId: number; free: boolean; reasons: { code: string }[] };
    const byHost = new Map<number, Checked>(answer.hosts.map((h: Checked) => [h.hostId, h]));
    expect(byHost.get(w.alex)!.reasons.map((r: { code: string }) => r.code)).toContain("time_off");
    expect(byHost.get(w.sam)!.free).toBe(true);
    // The next day Alex is back: Sam does not stand in.
    expect((await w.check(w.coaching.id, "2026-11-27T10:00:00+01:00")).hosts.map((h: { hostId: number }) => h.hostId)).toEqual([w.alex]);
  });

  it("refuses a start without an offset (422), an unknown event type (404) and no credentials (401)", async () => {
    const w = await world();
    expectError(await w.env.admin("GET", `/admin/event-types/${w.coaching.id}/availability-check?start=2026-11-25T10:00:00`), 422, "validation_failed");
    expectError(await w.env.admin("GET", `/admin/event-types/${w.coaching.id}/availability-check?start=tuesday`), 422, "validation_failed");
    expectError(await w.env.admin("GET", `/admin/event-types/${w.coaching.id}/availability-check`), 422, "validation_failed");
    expectError(await w.env.admin("GET", "/admin/event-types/999999/availability-check?start=2026-11-25T10:00:00Z"), 404, "not_found");
    expectError(await w.env.call("GET", `/admin/event-types/${w.coaching.id}/availability-check?start=2026-11-25T10:00:00Z`), 401, "unauthenticated");
  });
});

describe("a host's own checks", () => {
  it("shows a host the details of their own time and only the words of another host's", async () => {
    const w = await world();
    const asSam = await sessionOf(w.env, w.sam);
    const answer = dataOf(await asSam(`/admin/event-types/${w.team.id}/availability-check?start=2026-11-26T10:00:00Z`));
    const alexReasons = answer.hosts.find((h: { hostId: number }) => h.hostId === w.alex).reasons;
    expect(alexReasons).toEqual([
      { code: "host_busy", hostId: w.alex, message: "Alex has another booking then.", busyFrom: "2026-11-26T10:00:00Z", busyUntil: "2026-11-26T10:30:00Z" },
    ]);
    // Sam is no host of the coaching: as unknown as one that does not exist.
    expectError(await asSam(`/admin/event-types/${w.coaching.id}/availability-check?start=2026-11-25T10:00:00Z`), 404, "not_found");
    const asAlex = await sessionOf(w.env, w.alex);
    const own = dataOf(await asAlex(`/admin/event-types/${w.coaching.id}/availability-check?start=2026-11-24T12:30:00Z`));
    expect(own.reasons[0]).toMatchObject({ code: "calendar_busy", title: "Dentist" });
  });

  it("checks a host through each of their event types, or the one asked, and only their own host", async () => {
    const w = await world();
    const all = dataOf(await w.env.admin("GET", `/admin/hosts/${w.alex}/availability-check?start=2026-11-25T09:00:00Z`));
    expect(all.hostId).toBe(w.alex);
    expect(all.eventTypes.map((e: { eventTypeId: number }) => e.eventTypeId).sort()).toEqual([w.coaching.id, w.mornings1on1.id, w.team.id].sort());
    expect(all.bookable).toBe(true);
    for (const e of all.eventTypes) expect(e.hosts.map((h: { hostId: number }) => h.hostId)).toEqual([w.alex]);
    const team = dataOf(await w.env.admin("GET", `/admin/hosts/${w.alex}/availability-check?start=2026-11-25T10:00:00Z&eventTypeId=${w.team.id}`));
    expect(team).toMatchObject({ bookable: false, eventTypes: [{ eventTypeId: w.team.id, bookable: false, reasons: [{ code: "seats_full" }] }] });
    expectError(await w.env.admin("GET", `/admin/hosts/${w.sam}/availability-check?start=2026-11-25T10:00:00Z&eventTypeId=${w.coaching.id}`), 404, "not_found");
    const asSam = await sessionOf(w.env, w.sam);
    expectError(await asSam(`/admin/hosts/${w.alex}/availability-check?start=2026-11-25T10:00:00Z`), 403, "forbidden");
    expect(dataOf(await asSam(`/admin/hosts/${w.sam}/availability-check?start=2026-11-25T10:00:00Z`)).bookable).toBe(true);
  });
});
