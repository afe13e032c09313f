import { afterEach, describe, expect, it } from "vitest";
import { createHost, expectError, setup, waitFor, type Answer } from "./utils.ts";
import { startSmtp, type Smtp } from "./smtp.ts";

// A host signed in to the console sees their own visitors and nobody else's: not through the admin
// API, not through a feed address, not through a token or address in any answer.

const ORIGIN = "http://localhost";
const DAY = "2026-11-24";
const slot = (hhmm: string) => ({ start: `${DAY}T${hhmm}:00Z`, end: new Date(Date.parse(`${DAY}T${hhmm}:00Z`) + 30 * 60_000).toISOString() });

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

type Env = Awaited<ReturnType<typeof setup>>;

/** Ana and Bea in a round-robin team with a webhook, Bea with an event type of her own, and bookings of both. */
async function world() {
  const smtp: Smtp = await startSmtp();
  stops.push(() => smtp.stop());
  const env = await setup({
    config: { rateLimit: { limit: 100_000, windowSeconds: 60 }, mail: { smtpUrl: smtp.url, from: "Bookings <bookings@example.test>" } },
  });
  const ana = await createHost(env, "Ana");
  const bea = await createHost(env, "Bea");
  const create = async (body: Record<string, unknown>) => {
    const r = await env.admin("POST", "/admin/event-types", { timezone: "Europe/Prague", ...body });
    expect(r.status, r.text).toBe(200);
    return r.body.data as { id: number; token: string; overrideToken: string; webhookSecret: string; feedToken: string; feedUrl: string; linkToken: string };
  };
  const team = await create({
    title: "Team call",
    assignment: "round-robin",
    hosts: [{ hostId: ana }, { hostId: bea }],
    webhookUrl: "https://hooks.example.com/in/whk-path-secret?key=whk-query-secret",
  });
  const beaOwn = await create({ title: "Bea's call", hosts: [{ hostId: bea }] });
  const book = async (et: { token: string }, hhmm: string, email: string) => {
    const r = await env.call("POST", "/reservations", { token: et.token, body: { ...slot(hhmm), email, firstname: "Vis", lastname: "Itor" } });
    expect(r.body.success, r.text).toBe(true);
    return r.body.data as { uuid: string; userId: number };
  };
  // Two visitors at one time: round robin gives one to each host.
  const first = await book(team, "09:00", "first-team-visitor@example.com");
  const second = await book(team, "09:00", "second-team-visitor@example.com");
  expect([first.userId, second.userId].sort()).toEqual([ana, bea].sort());
  const anaBooking = first.userId === ana ? first : second;
  const beaTeamBooking = first.userId === ana ? second : first;
  const beaOwnBooking = await book(beaOwn, "11:00", "bea-own-visitor@example.com");
  const emailOf = (uuid: string) =>
    uuid === first.uuid ? "first-team-visitor@example.com" : uuid === second.uuid ? "second-team-visitor@example.com" : "bea-own-visitor@example.com";
  return { smtp, env, ana, bea, team, beaOwn, anaBooking, beaTeamBooking, beaOwnBooking, emailOf, book };
}

/** Signs the host in through an emailed one-time link; a function calling the admin API with that session. */
async function signedInAs(env: Env, smtp: Smtp, hostId: number, email: string) {
  const before = smtp.received.length;
  expect((await env.admin("POST", `/admin/hosts/${hostId}/sign-in-link`)).status).toBe(200);
  await waitFor(() => smtp.received.slice(before).some((m) => m.to.includes(email)), 5_000, "the sign-in email");
  const mail = smtp.received.slice(before).find((m) => m.to.includes(email))!;
  const link = /\/console#link=(bcsl_[A-Za-z0-9_-]+)/.exec(mail.mail.text ?? "")![1]!;
  const opened = await env.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } });
  expect(opened.status, opened.text).toBe(200);
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
  return (method: string, path: string, body?: unknown) =>
    env.call(method, path, { headers: { cookie, origin: ORIGIN }, ...(body === undefined ? {} : { body }) });
}

/** Reads a feed by its absolute address (any origin: the path is what the server routes). */
async function feed(env: Env, url: string): Promise<Answer> {
  return env.call("GET", new URL(url).pathname);
}

/** Every key path of a JSON value, arrays as `[]`: `data.items[].email`. */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => keyPaths(item, `${prefix}[]`));
  if (value === null || typeof value !== "object") return prefix === "" ? [] : [prefix];
  const own = Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => keyPaths(item, prefix === "" ? key : `${prefix}.${key}`));
  return own.length === 0 && prefix !== "" ? [prefix] : own;
}

/** Every string of a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/**
 * The fields a host's session is answered, per route. A field added to any of these answers fails
 * the sweep below until it is added here, having been judged to reach no further than the host.
 * Settings objects and the visitor's answers are named by their key (FREE_FORM), everything else whole.
 */
const HOST_READABLE: Record<string, readonly string[]> = {
  // The host's own time off: its colleague's id and name are part of it (the host or the organizer named them).
  "GET /admin/hosts/{own}/time-off": [
    "success",
    "data[].id",
    "data[].hostId",
    "data[].start",
    "data[].end",
    "data[].startDate",
    "data[].endDate",
    "data[].note",
    "data[].colleagueHostId",
    "data[].colleagueName",
    "data[].createdAt",
    "data[].updatedAt",
  ],
  "GET /console/session": [
    "success",
    "data.id",
    "data.role",
    "data.hostId",
    "data.method",
    "data.createdAt",
    "data.expiresAt",
    "data.lastSeenAt",
    "data.address",
    "data.userAgent",
  ],
  "GET /admin/hosts": [
    "success",
    "data[].id",
    "data[].name",
    "data[].email",
    "data[].timezone",
    "data[].avatarUrl",
    "data[].isDefault",
    "data[].bookingsCalendar",
    "data[].bookingsCalendar.sourceId",
    "data[].bookingsCalendar.calendarUrl",
    "data[].eventTypeIds[]",
    // The host's own booking limits (docs/admin.md#limits): numbers the host may set themselves.
    "data[].limits",
    "data[].feedToken",
    "data[].feedUrl",
    "data[].createdAt",
    "data[].updatedAt",
  ],
  "GET /admin/hosts/{own}": [
    "success",
    "data.id",
    "data.name",
    "data.email",
    "data.timezone",
    "data.avatarUrl",
    "data.isDefault",
    "data.bookingsCalendar",
    "data.bookingsCalendar.sourceId",
    "data.bookingsCalendar.calendarUrl",
    "data.eventTypeIds[]",
    "data.limits",
    "data.feedToken",
    "data.feedUrl",
    "data.createdAt",
    "data.updatedAt",
  ],
  "GET /admin/hosts/{own}/event-types": [
    "success",
    "data[].id",
    "data[].title",
    "data[].description",
    "data[].timezone",
    "data[].durationMinutes",
    "data[].slotIntervalMinutes",
    "data[].seats",
    "data[].holdMinutes",
    "data[].bufferBeforeMinutes",
    "data[].bufferAfterMinutes",
    "data[].minNoticeMinutes",
    "data[].horizonDays",
    "data[].rescheduleNoticeMinutes",
    "data[].cancelNoticeMinutes",
    "data[].availability",
    "data[].locations",
    "data[].customFields",
    "data[].translations",
    "data[].payment",
    "data[].organizerEmail",
    "data[].contact",
    "data[].reminderMinutes[]",
    "data[].locale",
    "data[].theme",
    "data[].limits",
    "data[].profileImage",
    "data[].calendarTitle",
    "data[].hostName",
    "data[].compact",
    "data[].externalBooking",
    "data[].maxGuests",
    "data[].hosts[].hostId",
    "data[].hosts[].name",
    "data[].hosts[].priority",
    "data[].hosts[].scheduleId",
    "data[].assignment",
    "data[].slug",
    "data[].linkToken",
    "data[].disabled",
    "data[].webhookDisabledAt",
    "data[].createdAt",
    "data[].updatedAt",
  ],
  "GET /admin/hosts/{own}/reservations": [
    "success",
    "data[].uuid",
    "data[].eventTypeId",
    "data[].hostIds[]",
    "data[].status",
    "data[].start",
    "data[].end",
    "data[].email",
    "data[].firstname",
    "data[].lastname",
    "data[].createdAt",
  ],
  "GET /admin/hosts/{own}/schedules": [
    "success",
    "data[].id",
    "data[].hostId",
    "data[].name",
    "data[].timezone",
    "data[].availability",
    "data[].eventTypeIds[]",
    "data[].createdAt",
    "data[].updatedAt",
  ],
  "GET /admin/hosts/{own}/busy-sources": [
    "success",
    "data[].id",
    "data[].hostId",
    "data[].eventTypeId",
    "data[].kind",
    "data[].url",
    "data[].username",
    "data[].credentialsSet",
    "data[].freshnessMinutes",
    "data[].status",
    "data[].stale",
    "data[].lastAttemptAt",
    "data[].lastSuccessAt",
    "data[].lastFailureAt",
    "data[].lastError",
    "data[].objects",
    "data[].busyIntervals",
    "data[].syncing",
    "data[].writeBookings",
    "data[].writeCalendar",
  ],
  "GET /admin/busy-sources/{own}": [
    "success",
    "data.id",
    "data.hostId",
    "data.eventTypeId",
    "data.kind",
    "data.url",
    "data.username",
    "data.credentialsSet",
    "data.freshnessMinutes",
    "data.status",
    "data.stale",
    "data.lastAttemptAt",
    "data.lastSuccessAt",
    "data.lastFailureAt",
    "data.lastError",
    "data.objects",
    "data.busyIntervals",
    "data.syncing",
    "data.writeBookings",
    "data.writeCalendar",
  ],
  "GET /admin/reservations": [
    "success",
    "data.items[].eventTypeId",
    "data.items[].eventTypeTitle",
    "data.items[].manageUrl",
    "data.items[].uuid",
    "data.items[].status",
    "data.items[].start",
    "data.items[].end",
    "data.items[].startIso8601",
    "data.items[].endIso8601",
    "data.items[].heldUntil",
    "data.items[].email",
    "data.items[].firstname",
    "data.items[].lastname",
    "data.items[].phone",
    "data.items[].timezone",
    "data.items[].location",
    "data.items[].guests",
    "data.items[].customFields",
    "data.items[].payment",
    "data.items[].createdAt",
    "data.items[].cancelReason",
    "data.items[].seriesId",
    "data.next",
  ],
  "GET /admin/event-types/{team}/reservations/{own booking}": [
    "success",
    "data.eventTypeId",
    "data.eventTypeTitle",
    "data.manageUrl",
    "data.uuid",
    "data.status",
    "data.start",
    "data.end",
    "data.startIso8601",
    "data.endIso8601",
    "data.heldUntil",
    "data.email",
    "data.firstname",
    "data.lastname",
    "data.phone",
    "data.timezone",
    "data.location",
    "data.guests",
    "data.customFields",
    "data.payment",
    "data.createdAt",
    "data.cancelReason",
    // The series the booking is one date of (docs/booking-api.md#recurring-bookings): an opaque id.
    "data.seriesId",
    "data.deliveries[].channel",
    "data.deliveries[].id",
    "data.deliveries[].webhookId",
    "data.deliveries[].kind",
    "data.deliveries[].reservationUuid",
    "data.deliveries[].url",
    "data.deliveries[].status",
    "data.deliveries[].attempts",
    "data.deliveries[].nextAttemptAt",
    "data.deliveries[].lastStatusCode",
    "data.deliveries[].lastError",
    "data.deliveries[].deliveredAt",
    "data.deliveries[].createdAt",
    "data.deliveries[].attemptLog[].attempt",
    "data.deliveries[].attemptLog[].at",
    "data.deliveries[].attemptLog[].statusCode",
    "data.deliveries[].attemptLog[].error",
    "data.deliveries[].attemptLog[].durationMs",
  ],
  "GET /admin/event-types/{team}/reservations/{own booking}/time-slots": [
    "success",
    "data[].date",
    "data[].dateIso8601",
    "data[].readable_start",
    "data[].start",
    "data[].startIso8601",
    "data[].readable_end",
    "data[].end",
    "data[].endIso8601",
    "data[].seats",
    "data[].available_seats",
    "data[].booked",
    "data[].calendar_id",
    "data[].title",
    "data[].readable_type",
    "data[].type",
    "nextFrom",
  ],
  "POST /admin/event-types/{team}/reservations/{own booking}/reschedule": [
    "success",
    "data.uuid",
    "data.userId",
    "data.userName",
    "data.userEmail",
    "data.meetLink",
    "data.location",
    "data.manageUrl",
  ],
};

/** Parts of a view whose insides are the organizer's settings or the visitor's answers, named by their key alone. */
const FREE_FORM = new Set(["availability", "locations", "customFields", "translations", "theme", "locale", "payment", "location", "guests", "limits"]);

/** A key path as HOST_READABLE names it: whole, except that it ends at a FREE_FORM key. */
function listed(path: string): string {
  const parts = path.split(".");
  const at = parts.findIndex((part, i) => i > 0 && FREE_FORM.has(part.replace("[]", "")));
  return at === -1 ? path : [...parts.slice(0, at), parts[at]!.replace("[]", "")].join(".");
}

describe("what a host's session can read", () => {
  it("gives a host a feed of their own bookings only, keeps the event type's feed for the organizer, and stops showing the host a team's bookings once they leave it", async () => {
    const { smtp, env, ana, bea, team, anaBooking, beaTeamBooking, beaOwnBooking, emailOf, book } = await world();
    const as = await signedInAs(env, smtp, ana, "ana@example.com");

    // The event types of a host's session carry no address of the event type's feed.
    const types = await as("GET", `/admin/hosts/${ana}/event-types`);
    expect(types.status, types.text).toBe(200);
    expect(types.body.data.map((et: { id: number }) => et.id)).toEqual([team.id]);
    for (const field of ["feedToken", "feedUrl", "webhookUrl"]) expect(types.body.data[0]).not.toHaveProperty(field);
    expect(types.text).not.toContain(team.feedToken);
    // The organizer still reads it there.
    expect((await env.admin("GET", `/admin/hosts/${ana}/event-types`)).body.data[0].feedToken).toBe(team.feedToken);
    // Nor may the host make a new one.
    expectError(await as("POST", `/admin/event-types/${team.id}/feed-token`), 403, "forbidden");

    // Ana's own feed: her booking's visitor, not Bea's team or own visitors.
    const own = (await as("GET", `/admin/hosts/${ana}`)).body.data as { feedUrl: string; feedToken: string };
    expect(own.feedUrl).toMatch(/\/feeds\/bcf_[A-Za-z0-9_-]{32,}\.ics$/);
    const anaFeed = await feed(env, own.feedUrl);
    expect(anaFeed.status).toBe(200);
    expect(anaFeed.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(anaFeed.text).toContain(emailOf(anaBooking.uuid));
    expect(anaFeed.text).not.toContain(emailOf(beaTeamBooking.uuid));
    expect(anaFeed.text).not.toContain(emailOf(beaOwnBooking.uuid));
    expect(anaFeed.text).toContain("X-WR-CALNAME:Bookings: Ana");
    // The event type's feed, the organizer's, lists both hosts' bookings of the team.
    const teamFeed = await feed(env, team.feedUrl);
    expect(teamFeed.text).toContain(emailOf(anaBooking.uuid));
    expect(teamFeed.text).toContain(emailOf(beaTeamBooking.uuid));

    // Ana leaves the team: the team's new bookings never reach her feed.
    expect((await env.admin("PATCH", `/admin/event-types/${team.id}`, { hosts: [{ hostId: bea }] })).status).toBe(200);
    const later = await book(team, "10:00", "after-ana-left@example.com");
    expect(later.userId).toBe(bea);
    const afterLeaving = await feed(env, own.feedUrl);
    expect(afterLeaving.text).not.toContain("after-ana-left@example.com");
    expect(afterLeaving.text).toContain(emailOf(anaBooking.uuid));
    expect((await as("GET", `/admin/hosts/${ana}/event-types`)).body.data).toEqual([]);

    // A host gives their own feed a new address (the old one is dead at once), and never another host's.
    const rotated = await as("POST", `/admin/hosts/${ana}/feed-token`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.data.feedToken).not.toBe(own.feedToken);
    expectError(await feed(env, own.feedUrl), 404, "not_found");
    expect((await feed(env, rotated.body.data.feedUrl)).text).toContain(emailOf(anaBooking.uuid));
    expectError(await as("POST", `/admin/hosts/${bea}/feed-token`), 403, "forbidden");
    // The organizer can rotate any host's.
    const beaBefore = (await env.admin("GET", `/admin/hosts/${bea}`)).body.data.feedUrl as string;
    expect((await env.admin("POST", `/admin/hosts/${bea}/feed-token`)).status).toBe(200);
    expectError(await feed(env, beaBefore), 404, "not_found");
  });

  it("answers a host's session nothing that reaches beyond that host: no other host's or the organizer's token, secret or address, and no field not judged safe", async () => {
    const { smtp, env, ana, bea, team, beaOwn, anaBooking, beaTeamBooking } = await world();
    // A calendar of each host's (added as a sync would find them, without fetching anything), and
    // Ana's bookings written into one of hers: Ana is the team's first host, whose calendar is the team's.
    const calendar = (hostId: number, name: string) =>
      env.store.busy.add(
        {
          hostId,
          kind: "caldav",
          url: `https://dav.example.com/${name}-calendar-path/`,
          username: name,
          secret: `${name}-calendar-password`,
          calendars: [],
          freshnessMinutes: null,
        },
        env.clock.now(),
      );
    const calendars = { [ana]: await calendar(ana, "ana"), [bea]: await calendar(bea, "bea") };
    await env.store.hosts.update(
      ana,
      { bookingsCalendar: { sourceId: calendars[ana]!.id, calendarUrl: "https://dav.example.com/ana-calendar-path/ana-bookings/" } },
      env.clock.now(),
    );
    const feedOf = async (hostId: number) => ((await env.admin("GET", `/admin/hosts/${hostId}`)).body.data as { feedToken: string }).feedToken;
    const organizers = [
      team.token,
      team.overrideToken,
      team.webhookSecret,
      team.feedToken,
      "whk-path-secret",
      "whk-query-secret",
      beaOwn.token,
      beaOwn.overrideToken,
      beaOwn.webhookSecret,
      beaOwn.feedToken,
    ];
    const hostsOwn = { [ana]: ["ana-calendar-path", "ana-calendar-password", "ana-bookings"], [bea]: ["bea-calendar-path", "bea-calendar-password"] };

    const unjudged: string[] = [];
    for (const [hostId, other, booking] of [
      [ana, bea, anaBooking],
      [bea, ana, beaTeamBooking],
    ] as const) {
      const email = hostId === ana ? "ana@example.com" : "bea@example.com";
      const as = await signedInAs(env, smtp, hostId, email);
      await as("POST", `/admin/hosts/${hostId}/schedules`, { name: "Mornings", availability: { weekly: { tuesday: [{ start: "08:00", end: "12:00" }] } } });
      await env.admin("POST", `/admin/hosts/${hostId}/time-off`, { startDate: "2026-12-21", endDate: "2026-12-22", note: "Away", colleagueHostId: other });
      const reads: Record<string, string> = {
        "GET /console/session": "/console/session",
        "GET /admin/hosts": "/admin/hosts",
        "GET /admin/hosts/{own}": `/admin/hosts/${hostId}`,
        "GET /admin/hosts/{own}/event-types": `/admin/hosts/${hostId}/event-types`,
        "GET /admin/hosts/{own}/reservations": `/admin/hosts/${hostId}/reservations?from=${DAY}&until=${DAY}`,
        "GET /admin/hosts/{own}/schedules": `/admin/hosts/${hostId}/schedules`,
        "GET /admin/hosts/{own}/time-off": `/admin/hosts/${hostId}/time-off`,
        "GET /admin/hosts/{own}/busy-sources": `/admin/hosts/${hostId}/busy-sources`,
        "GET /admin/busy-sources/{own}": `/admin/busy-sources/${calendars[hostId]!.id}`,
        "GET /admin/reservations": "/admin/reservations",
        "GET /admin/event-types/{team}/reservations/{own booking}": `/admin/event-types/${team.id}/reservations/${booking.uuid}`,
        "GET /admin/event-types/{team}/reservations/{own booking}/time-slots": `/admin/event-types/${team.id}/reservations/${booking.uuid}/time-slots?from=${DAY}&until=${DAY}`,
      };
      const answers: [string, Answer][] = [];
      for (const [name, path] of Object.entries(reads)) answers.push([name, await as("GET", path)]);
      // What the host's changes answer counts too.
      answers.push(["PATCH /admin/hosts/{own}", await as("PATCH", `/admin/hosts/${hostId}`, { timezone: "Europe/Prague" })]);
      answers.push(["POST /admin/hosts/{own}/feed-token", await as("POST", `/admin/hosts/${hostId}/feed-token`)]);
      answers.push([
        "POST /admin/event-types/{team}/reservations/{own booking}/reschedule",
        await as("POST", `/admin/event-types/${team.id}/reservations/${booking.uuid}/reschedule`, slot(hostId === ana ? "13:00" : "14:00")),
      ]);

      // Secrets and addresses of the organizer and of the other host.
      const secrets = [...organizers, ...hostsOwn[other]!, await feedOf(other)];
      for (const [name, r] of answers) {
        expect(r.status, `${name}: ${r.text}`).toBe(200);
        for (const value of strings(r.body))
          for (const secret of secrets) expect(value.includes(secret), `${name} answers ${email} a secret of someone else`).toBe(false);
        const allowed = HOST_READABLE[name.replace(/^(PATCH|POST) \/admin\/hosts\/\{own\}(\/feed-token)?$/, "GET /admin/hosts/{own}")]!;
        unjudged.push(...[...new Set(keyPaths(r.body).map(listed))].filter((path) => !allowed.includes(path)).map((path) => `${name}: ${path}`));
      }
    }
    expect([...new Set(unjudged)], "fields answered to a host's session that are not judged safe for it").toEqual([]);
  });

  it("answers a malformed percent-encoding in a booking's path with a JSON 404, not a 500", async () => {
    const { smtp, env, ana, team } = await world();
    const as = await signedInAs(env, smtp, ana, "ana@example.com");
    for (const path of [`/admin/event-types/${team.id}/reservations/%E0%A4%A`, `/admin/event-types/${team.id}/reservations/%ZZ/cancel`]) {
      const r = await as(path.endsWith("cancel") ? "POST" : "GET", path);
      expectError(r, 404, "not_found");
    }
  });
});
