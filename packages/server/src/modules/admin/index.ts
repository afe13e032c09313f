import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { ApiError } from "../../http/errors.ts";
import { ok, done } from "../../http/envelope.ts";
import { ADMIN_HINT, bearerToken, eventTypeOfCredential, hasAdminKey } from "../../http/tokens.ts";
import { publicOrigin } from "../../lib/links.ts";
import { feedUrlOf } from "../feeds/service.ts";
import { DeliveriesQuery, EventTypeCreate, EventTypePatch, OrganizerCancelBody, OrganizerRescheduleBody, RegenerateTokenBody, ReservationListQuery, ReservationSearchQuery } from "./model.ts";
import type { AdminService } from "./service.ts";
import type { ReservationService } from "../reservations/service.ts";
import type { ConsoleAccess } from "../console/service.ts";
import { assertSameOrigin, cookieOf, resolvedSessions, sessionCookie, sessionCookieName, type SessionContext } from "../../http/console-session.ts";
import type { ConsoleSessionRecord } from "../../store/types.ts";
import type { CalendarAdmin } from "../calendars/service.ts";
import { BusySourceCreate, WriteBookingsBody } from "../calendars/model.ts";
import type { HostAdmin } from "../hosts/service.ts";
import { HostCreate, HostPatch, HostReservationsQuery, ScheduleCreate, SchedulePatch } from "../hosts/model.ts";
import { HOST_SIGN_IN_LINK_MS } from "../console/service.ts";
import { assertHostMay, hostScopes, sendSignInLink, withoutOrganizerSecrets } from "./host-scope.ts";
import type { TimeSlotService } from "../time-slots/service.ts";
import { TimeSlotsQueryShape } from "../time-slots/model.ts";
import { BusinessFailure } from "../../domain/errors.ts";
import { statusAt } from "../../domain/reservation.ts";
import { isUuid } from "../../lib/ids.ts";

/**
 * The console session a request's cookie opens (looked up once per request), or null. Changes made
 * with it must come from the server's own origin (403 `forbidden` otherwise). When this use moved
 * the session's end on, the answer renews the cookie to end with it: the browser would otherwise
 * drop the cookie an idle time after sign-in, however busy the console was since.
 */
export async function consoleSessionOf(ctx: AppContext, access: ConsoleAccess, { request, set }: SessionContext): Promise<ConsoleSessionRecord | null> {
  if (resolvedSessions.has(request)) return resolvedSessions.get(request)!;
  const token = cookieOf(request, sessionCookieName(ctx.config));
  const found = token ? await access.sessionOf(token) : null;
  if (token && found?.renewedForMs) set.headers["set-cookie"] = sessionCookie(ctx.config, token, found.renewedForMs);
  resolvedSessions.set(request, found?.session ?? null);
  return found?.session ?? null;
}

/**
 * The organizer admin API under `/admin`, behind `Authorization: Bearer $BOOKING_ADMIN_KEY` or the
 * organizer console's session cookie (whose changes must come from the console's own origin).
 * Not mounted at all without a configured key (unless development signs the console in with
 * one-time links instead), so `/admin` is then an ordinary 404.
 */
export const adminRoutes = (ctx: AppContext, admin: AdminService, calendars: CalendarAdmin, hosts: HostAdmin, reservations: ReservationService, access: ConsoleAccess, slots: TimeSlotService) => {
  const adminKey = ctx.config.adminKey;
  if (!adminKey && !ctx.config.consoleSignInLinks) return new Elysia();
  const idOf = (raw: string): number => {
    if (!/^\d{1,12}$/.test(raw)) throw new ApiError("not_found", `No event type with id ${raw.slice(0, 40)}.`);
    return Number(raw);
  };
  /** An answer that carries a feed token, with the feed's absolute URL beside it. */
  const withFeedUrl = <T extends { feedToken: string }>(request: Request, answer: T): T & { feedUrl: string } => ({
    ...answer,
    feedUrl: feedUrlOf(publicOrigin(ctx.config, request.url), answer.feedToken),
  });
  const eventTypeRecord = (raw: string) => admin.existing(idOf(raw));
  const hostIdOf = (raw: string): number => {
    if (!/^\d{1,12}$/.test(raw)) throw new ApiError("not_found", `No host with id ${raw.slice(0, 40)}.`);
    return Number(raw);
  };
  const scheduleIdOf = (raw: string): number => {
    if (!/^\d{1,12}$/.test(raw)) throw new ApiError("not_found", `No schedule with id ${raw.slice(0, 40)}.`);
    return Number(raw);
  };
  const sourceIdOf = (raw: string): number => {
    if (!/^\d{1,12}$/.test(raw)) throw new ApiError("not_found", `No busy source with id ${raw.slice(0, 40)}.`);
    return Number(raw);
  };

  return new Elysia({ prefix: "/admin" })
    .onTransform(async ({ request, set }) => {
      if (adminKey && hasAdminKey(request, adminKey)) return;
      const session = request.headers.has("authorization") ? null : await consoleSessionOf(ctx, access, { request, set });
      if (session) {
        assertSameOrigin(request, ctx.config);
        if (session.role === "host") await assertHostMay(ctx, request, session.hostId);
        return;
      }
      const token = bearerToken(request.headers.get("authorization"));
      if (token && (await eventTypeOfCredential(ctx.store, token))) {
        throw new ApiError("forbidden", "An event type's API token cannot use the admin API.", { hint: ADMIN_HINT });
      }
      throw new ApiError("unauthenticated", "Send the admin key as Authorization: Bearer <BOOKING_ADMIN_KEY>.", { hint: ADMIN_HINT });
    })
    .get("/event-types", async ({ request }) => ok((await admin.list()).map((view) => withFeedUrl(request, view))))
    .post("/event-types", async ({ body, request }) => ok(withFeedUrl(request, await admin.create(body))), { body: EventTypeCreate })
    .get("/event-types/:id", async ({ params, request }) => ok(withFeedUrl(request, await admin.get(idOf(params.id)))))
    .patch("/event-types/:id", async ({ params, body, request }) => ok(withFeedUrl(request, await admin.update(idOf(params.id), body))), { body: EventTypePatch })
    .delete("/event-types/:id", async ({ params }) => {
      await admin.delete(idOf(params.id));
      return done("Event type deleted with its reservations.");
    })
    .post("/event-types/:id/disable", async ({ params, request }) => ok(withFeedUrl(request, await admin.setDisabled(idOf(params.id), true))))
    .post("/event-types/:id/enable", async ({ params, request }) => ok(withFeedUrl(request, await admin.setDisabled(idOf(params.id), false))))
    .post("/event-types/:id/feed-token", async ({ params, request }) => ok(withFeedUrl(request, await admin.rotateFeedToken(idOf(params.id)))))
    .post("/event-types/:id/token", async ({ params, body }) => ok(await admin.regenerateToken(idOf(params.id), body.kind ?? "api")), {
      transform(context) {
        context.body ??= {};
      },
      body: RegenerateTokenBody,
    })
    .post("/event-types/:id/webhook-secret", async ({ params }) => ok(await admin.rotateWebhookSecret(idOf(params.id))))
    .get("/event-types/:id/webhook-deliveries", async ({ params, query }) => ok(await admin.webhookDeliveries(idOf(params.id), query.limit ?? 50)), {
      query: DeliveriesQuery,
    })
    // The organizer's calendars whose busy times block the event type's slots.
    .get("/event-types/:id/busy-sources", async ({ params }) => ok(await calendars.list(idOf(params.id))))
    .post("/event-types/:id/busy-sources", async ({ params, body }) => ok(await calendars.add(idOf(params.id), body)), { body: BusySourceCreate })
    // Tries a calendar without storing it: the console's "test before saving".
    .post("/event-types/:id/busy-sources/test", async ({ params, body }) => ok(await calendars.test(idOf(params.id), body)), { body: BusySourceCreate })
    .get("/busy-sources/:sourceId", async ({ params }) => ok(await calendars.get(sourceIdOf(params.sourceId))))
    .delete("/busy-sources/:sourceId", async ({ params }) => {
      await calendars.remove(sourceIdOf(params.sourceId));
      return done("Busy source removed with its cached calendar data.");
    })
    .post("/busy-sources/:sourceId/sync", async ({ params, request, set }) => {
      const id = sourceIdOf(params.sourceId);
      const answer = await calendars.syncNowWithin(id);
      if (answer.state === "syncing") {
        // The sync outlasts a request: 202, and where to see it end.
        set.status = 202;
        set.headers.location = `${publicOrigin(ctx.config, request.url)}/admin/busy-sources/${id}`;
      }
      return ok(answer);
    })
    // The calendars of a CalDAV source's account, to choose the one bookings are written into.
    .get("/busy-sources/:sourceId/calendars", async ({ params }) => ok(await calendars.calendarsOf(sourceIdOf(params.sourceId))))
    // Where the event type's confirmed bookings are written: one calendar of one CalDAV source.
    .put("/busy-sources/:sourceId/write-bookings", async ({ params, body }) => ok(await calendars.writeBookings(sourceIdOf(params.sourceId), body)), { body: WriteBookingsBody })
    .delete("/busy-sources/:sourceId/write-bookings", async ({ params }) => ok(await calendars.stopWritingBookings(sourceIdOf(params.sourceId))))
    .get("/event-types/:id/deliveries", async ({ params, query }) => ok(await admin.deliveries(idOf(params.id), query.limit ?? 50)), {
      query: DeliveriesQuery,
    })
    .get("/event-types/:id/reservations", async ({ params, query }) => ok(await admin.reservations(idOf(params.id), query)), {
      query: ReservationListQuery,
    })
    // The organizer's bookings across event types, a page at a time (the console's list).
    .get(
      "/reservations",
      async ({ query, request }) => {
        // A host's session lists only bookings of its own host, whatever filter it sends.
        const own = hostScopes.get(request);
        if (own !== undefined && query.hostId !== undefined && query.hostId !== own) throw new ApiError("forbidden", "A host's console session lists only its own host's bookings.");
        return ok(await admin.searchReservations(own === undefined ? query : { ...query, hostId: own }, publicOrigin(ctx.config, request.url)));
      },
      { query: ReservationSearchQuery },
    )
    .get("/event-types/:id/reservations/:uuid", async ({ params, request }) => {
      const answer = await admin.reservation(idOf(params.id), params.uuid, publicOrigin(ctx.config, request.url));
      const own = hostScopes.get(request);
      if (own === undefined) return ok(answer);
      // A host sees the emails to the visitor and to themselves; the rest (the organizer's webhook
      // receiver, other hosts' copies and calendars) is not theirs to read.
      const ownEmail = (await ctx.store.hosts.byId(own))?.email ?? null;
      const theirs = new Set([`mailto:${answer.email}`, ...(ownEmail ? [`mailto:${ownEmail}`] : [])].map((url) => url.toLowerCase()));
      return ok({ ...answer, deliveries: answer.deliveries.filter((d) => theirs.has(d.url.toLowerCase())) });
    })
    // The organizer cancels or moves a booking: the visitor's notice rules do not bind them (see ChangeOptions.organizer).
    .post(
      "/event-types/:id/reservations/:uuid/cancel",
      async ({ params, body, request }) => {
        const eventType = await eventTypeRecord(params.id);
        return done(await reservations.cancel(eventType, params.uuid, undefined, { origin: publicOrigin(ctx.config, request.url), organizer: true, reason: body.reason }));
      },
      {
        transform(context) {
          context.body ??= {};
        },
        body: OrganizerCancelBody,
      },
    )
    // The free times a booking can be moved to: the slots of GET /time-slots, with the notice and
    // horizon lifted as the organizer's reschedule lifts them (no link token needed, so a host's session can ask).
    .get(
      "/event-types/:id/reservations/:uuid/time-slots",
      async ({ params, query }) => {
        const eventType = await eventTypeRecord(params.id);
        const record = isUuid(params.uuid) ? await ctx.store.reservations.byUuid(eventType.id, params.uuid.toLowerCase()) : null;
        if (!record) throw new ApiError("not_found", `No reservation ${params.uuid.slice(0, 40)} of event type ${eventType.id}.`);
        const nowMs = ctx.clock.now();
        const status = statusAt(record, nowMs);
        if (status === "cancelled" || status === "expired") throw new BusinessFailure("reservation_finished", `A ${status} reservation cannot be rescheduled.`);
        const { data, nextFrom } = await slots.rescheduleSlots(eventType, query, nowMs);
        return nextFrom === undefined ? ok(data) : { ...ok(data), nextFrom };
      },
      { query: TimeSlotsQueryShape },
    )
    .post(
      "/event-types/:id/reservations/:uuid/reschedule",
      async ({ params, body, request }) => {
        const eventType = await eventTypeRecord(params.id);
        return ok(await reservations.reschedule(eventType, params.uuid, body, { origin: publicOrigin(ctx.config, request.url), organizer: true }));
      },
      { body: OrganizerRescheduleBody },
    )
    .post("/event-types/:id/deliveries/:deliveryId/retry", async ({ params }) => {
      if (!/^\d{1,12}$/.test(params.deliveryId)) throw new ApiError("not_found", `No delivery with id ${params.deliveryId.slice(0, 40)}.`);
      await admin.retryDelivery(idOf(params.id), Number(params.deliveryId));
      return done("The delivery is due now; the next pass of its worker tries it.");
    })
    // Signed-in browsers of the console; revoking one signs it out at once.
    .get("/sessions", async () => ok(await access.list()))
    .delete("/sessions/:sessionId", async ({ params }) => {
      await access.revoke(params.sessionId);
      return done("The session is revoked.");
    })
    // Hosts: the people whose time event types book, their schedules, calendars and bookings.
    // A host's session sees only its own host.
    .get("/hosts", async ({ request }) => {
      const own = hostScopes.get(request);
      return ok((own === undefined ? await hosts.list() : [await hosts.get(own)]).map((view) => withFeedUrl(request, view)));
    })
    // Emails the host a one-time link that signs them in to the console as that host (organizer only).
    .post("/hosts/:hostId/sign-in-link", async ({ params, request }) => {
      const host = await hosts.get(hostIdOf(params.hostId));
      if (!host.email) throw new ApiError("validation_failed", "The host has no email address to send a sign-in link to.", { errors: { email: ["Set the host's email first."] } });
      const link = await access.issueHostLink(host.id);
      const url = `${publicOrigin(ctx.config, request.url)}/console#link=${link}`;
      const outcome = await sendSignInLink(ctx, host, url);
      if (outcome.error) throw new ApiError("service_unavailable", `The sign-in link could not be emailed: ${outcome.error}`, { headers: { "retry-after": "60" } });
      return ok({ hostId: host.id, email: host.email, expiresAt: new Date(ctx.clock.now() + HOST_SIGN_IN_LINK_MS).toISOString(), sent: outcome.sent });
    })
    .post("/hosts", async ({ body, request }) => ok(withFeedUrl(request, await hosts.create(body))), { body: HostCreate })
    .get("/hosts/:hostId", async ({ params, request }) => ok(withFeedUrl(request, await hosts.get(hostIdOf(params.hostId)))))
    .patch("/hosts/:hostId", async ({ params, body, request }) => ok(withFeedUrl(request, await hosts.update(hostIdOf(params.hostId), body))), { body: HostPatch })
    // A new address for the host's own booking feed (the host in their session, or the organizer).
    .post("/hosts/:hostId/feed-token", async ({ params, request }) => ok(withFeedUrl(request, await hosts.rotateFeedToken(hostIdOf(params.hostId)))))
    .delete("/hosts/:hostId", async ({ params }) => {
      await hosts.delete(hostIdOf(params.hostId));
      return done("Host deleted with its schedules and calendars.");
    })
    .get("/hosts/:hostId/event-types", async ({ params, request }) => {
      const ids = await hosts.eventTypeIds(hostIdOf(params.hostId));
      const views = await Promise.all(ids.map(async (id) => withFeedUrl(request, await admin.get(id))));
      // A host's session reads its event types without what reaches beyond its own bookings.
      return ok(hostScopes.has(request) ? views.map(withoutOrganizerSecrets) : views);
    })
    .get("/hosts/:hostId/reservations", async ({ params, query }) => ok(await hosts.reservations(hostIdOf(params.hostId), query)), { query: HostReservationsQuery })
    .get("/hosts/:hostId/schedules", async ({ params }) => ok(await hosts.schedules(hostIdOf(params.hostId))))
    .post("/hosts/:hostId/schedules", async ({ params, body }) => ok(await hosts.createSchedule(hostIdOf(params.hostId), body)), { body: ScheduleCreate })
    .get("/schedules/:scheduleId", async ({ params }) => ok(await hosts.schedule(scheduleIdOf(params.scheduleId))))
    .patch("/schedules/:scheduleId", async ({ params, body }) => ok(await hosts.updateSchedule(scheduleIdOf(params.scheduleId), body)), { body: SchedulePatch })
    .delete("/schedules/:scheduleId", async ({ params }) => {
      await hosts.deleteSchedule(scheduleIdOf(params.scheduleId));
      return done("Schedule deleted.");
    })
    // The host's calendars: their busy times block every event type of the host.
    .get("/hosts/:hostId/busy-sources", async ({ params }) => ok(await calendars.listOfHost(hostIdOf(params.hostId))))
    .post("/hosts/:hostId/busy-sources", async ({ params, body }) => ok(await calendars.addToHost(hostIdOf(params.hostId), body)), { body: BusySourceCreate })
    // Tries a calendar for the host without storing it.
    .post("/hosts/:hostId/busy-sources/test", async ({ params, body }) => ok(await calendars.testForHost(hostIdOf(params.hostId), body)), { body: BusySourceCreate });
};
