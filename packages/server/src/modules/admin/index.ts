import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { HostView, ScheduleView } from "@booking/wire";
import { answers, Done, envelope } from "../../http/answers.ts";
import { adminDoc, type HostAccess } from "../../http/route-doc.ts";
import { BookingPage, BookingWithDeliveries, BusySourceView, DeliveryLog, EventTypeAdminView, EventTypeBookingView, HostBookingView, IssuedTokensView, SessionView, SyncOutcome, WritableCalendar } from "./answers.ts";
import { SYNC_ANSWER_MS } from "../calendars/service.ts";
import { TimeSlotsResponse } from "../time-slots/model.ts";
import { MAX_SLOTS_PER_ANSWER } from "../time-slots/service.ts";
import { ReservationResponse } from "../reservations/model.ts";
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

  /** The answer of a sync asked for now: 200 when it ended within the answer, 202 while it goes on. */
  const SyncAnswer = envelope(
    Type.Object({
      state: Type.Union([Type.Literal("done"), Type.Literal("syncing")], { description: "done: the sync ended within the answer (HTTP 200); syncing: it goes on (HTTP 202)." }),
      sync: Type.Union([SyncOutcome, Type.Null()], { description: "What the sync did; null while it goes on." }),
      source: BusySourceView,
    }),
  );

  /** What a host's session may reach through each route, as the route declares it (its `hostAccess`). */
  let hostRules: Map<string, HostAccess | undefined> | null = null;
  const hostRuleOf = (method: string, route: string) => {
    hostRules ??= new Map(routes.routes.map((r) => [`${r.method} ${r.path}`, (r.hooks?.detail as { "x-host-access"?: HostAccess } | undefined)?.["x-host-access"]]));
    return hostRules.get(`${method === "HEAD" ? "GET" : method} ${route}`);
  };

  // The guard of every admin route: the admin key, or a console session from the console's own
  // origin, whose host (for a host's session) may reach what the route declares.
  const routes = new Elysia({ prefix: "/admin" })
    .onTransform(async ({ request, set, route, params }) => {
      if (adminKey && hasAdminKey(request, adminKey)) return;
      const session = request.headers.has("authorization") ? null : await consoleSessionOf(ctx, access, { request, set });
      if (session) {
        assertSameOrigin(request, ctx.config);
        if (session.role === "host") await assertHostMay(ctx, request, session.hostId, hostRuleOf(request.method, route), params as Record<string, string | undefined>);
        return;
      }
      const token = bearerToken(request.headers.get("authorization"));
      if (token && (await eventTypeOfCredential(ctx.store, token))) {
        throw new ApiError("forbidden", "An event type's API token cannot use the admin API.", { hint: ADMIN_HINT });
      }
      throw new ApiError("unauthenticated", "Send the admin key as Authorization: Bearer <BOOKING_ADMIN_KEY>.", { hint: ADMIN_HINT });
    })
    .get("/event-types", async ({ request }) => ok((await admin.list()).map((view) => withFeedUrl(request, view))), {
      response: answers(envelope(Type.Array(EventTypeAdminView)), [401, 403]),
      detail: adminDoc({
        operationId: "adminListEventTypes",
        summary: "List event types",
        description: "Every event type with its settings and state (never its token hashes or webhook secret), with the address of its private booking feed as `feedUrl`.",
      }),
    })
    .post("/event-types", async ({ body, request }) => ok(withFeedUrl(request, await admin.create(body))), { body: EventTypeCreate,
      response: answers(envelope(Type.Composite([EventTypeAdminView, Type.Object({ token: Type.String(), overrideToken: Type.String(), webhookSecret: Type.String() })])), [401, 403, 413, 422]),
      detail: adminDoc({
        operationId: "adminCreateEventType",
        summary: "Create an event type",
        description: "Creates an event type from `title` and any of the settings `PATCH /admin/event-types/{id}` takes; without `hosts`, it books the default host's time. The answer carries, this once, the API token (`token`), the override token (`overrideToken`) and the webhook signing secret (`webhookSecret`), besides the link token and the feed address that can be read again.",
      }),
    })
    .get("/event-types/:id", async ({ params, request }) => ok(withFeedUrl(request, await admin.get(idOf(params.id)))), {
      response: answers(envelope(EventTypeAdminView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminGetEventType",
        summary: "Read an event type",
        description: "Its settings and state, with `slug`, `linkToken`, `feedToken` and `feedUrl`.",
      }),
    })
    .patch("/event-types/:id", async ({ params, body, request }) => ok(withFeedUrl(request, await admin.update(idOf(params.id), body))), { body: EventTypePatch,
      response: answers(envelope(EventTypeAdminView), [401, 403, 404, 413, 422]),
      detail: adminDoc({
        operationId: "adminUpdateEventType",
        summary: "Change an event type",
        description: "Changes any subset of the settings: `theme` and `locale` merge one level deep, other keys replace. Every field that is off is named in the 422. See docs/admin.md for each setting.",
      }),
    })
    .delete("/event-types/:id", async ({ params }) => {
      await admin.delete(idOf(params.id));
      return done("Event type deleted with its reservations.");
    }, {
      response: answers(Done, [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminDeleteEventType",
        summary: "Delete an event type",
        description: "Deletes the event type with its reservations; its tokens and feed stop working at once.",
      }),
    })
    .post("/event-types/:id/disable", async ({ params, request }) => ok(withFeedUrl(request, await admin.setDisabled(idOf(params.id), true))), {
      response: answers(envelope(EventTypeAdminView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminDisableEventType",
        summary: "Stop bookings of an event type",
        description: "The public API answers 403 `event_type_disabled` for it (init still answers, with `disabled: true`); existing bookings stay.",
      }),
    })
    .post("/event-types/:id/enable", async ({ params, request }) => ok(withFeedUrl(request, await admin.setDisabled(idOf(params.id), false))), {
      response: answers(envelope(EventTypeAdminView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminEnableEventType",
        summary: "Resume bookings of an event type",
        description: "Undoes `POST /admin/event-types/{id}/disable`.",
      }),
    })
    .post("/event-types/:id/feed-token", async ({ params, request }) => ok(withFeedUrl(request, await admin.rotateFeedToken(idOf(params.id)))), {
      response: answers(envelope(Type.Object({ id: Type.Integer(), feedToken: Type.String(), feedUrl: Type.String({ format: "uri" }) })), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRotateFeedToken",
        summary: "Give the booking feed a new address",
        description: "A new secret for the event type's private booking feed, answered as `feedToken` and `feedUrl`; the old address stops working at once.",
      }),
    })
    .post("/event-types/:id/token", async ({ params, body }) => ok(await admin.regenerateToken(idOf(params.id), body.kind ?? "api")), {
      transform(context) {
        context.body ??= {};
      },
      body: RegenerateTokenBody,
      response: answers(envelope(IssuedTokensView), [401, 403, 404, 422]),
      detail: adminDoc({
        optionalBody: true,
        operationId: "adminRegenerateToken",
        summary: "Issue new tokens",
        description: "Without a body (or `{\"kind\": \"api\"}`), a new API token and link token; with `{\"kind\": \"override\"}`, a new override token. The old ones stop working at once; the new ones are answered this once (the link token can be read again).",
      }),
    })
    .post("/event-types/:id/webhook-secret", async ({ params }) => ok(await admin.rotateWebhookSecret(idOf(params.id))), {
      response: answers(envelope(Type.Object({ id: Type.Integer(), webhookSecret: Type.String() })), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRotateWebhookSecret",
        summary: "Issue a new webhook signing secret",
        description: "Later webhooks are signed with it; it is answered this once and no other answer carries it.",
      }),
    })
    .get("/event-types/:id/webhook-deliveries", async ({ params, query }) => ok(await admin.webhookDeliveries(idOf(params.id), query.limit ?? 50)), {
      query: DeliveriesQuery,
      response: answers(envelope(Type.Array(DeliveryLog)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListWebhookDeliveries",
        summary: "List recent webhook events",
        description: "The event type's latest webhook events (newest first, `limit` 1-500, default 50) with their delivery state and every attempt.",
      }),
    })
    // The organizer's calendars whose busy times block the event type's slots.
    .get("/event-types/:id/busy-sources", async ({ params }) => ok(await calendars.list(idOf(params.id))), {
      response: answers(envelope(Type.Array(BusySourceView)), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminListBusySources",
        summary: "List the calendars that block an event type's slots",
        description: "The calendars of the event type's hosts, each with its sync status: last attempt, last good sync, the error of a failing one, cached objects and busy intervals. Passwords and tokens are never returned.",
      }),
    })
    .post("/event-types/:id/busy-sources", async ({ params, body }) => ok(await calendars.add(idOf(params.id), body)), { body: BusySourceCreate,
      response: answers(envelope(BusySourceView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminAddBusySource",
        summary: "Add a calendar whose busy times block slots",
        description: "A CalDAV account or calendar, or an iCalendar feed, for the event type's (first) host: it blocks every event type of that host. The background worker syncs it (or `POST /admin/busy-sources/{sourceId}/sync` now); from then on its busy times (recurring, all-day, in their own zones; free and cancelled events not) are left out of `GET /time-slots` and refused by bookings, inside the booking transaction. At most 10 per host.",
      }),
    })
    // Tries a calendar without storing it: the console's "test before saving".
    .post("/event-types/:id/busy-sources/test", async ({ params, body }) => ok(await calendars.test(idOf(params.id), body)), { body: BusySourceCreate,
      response: answers(envelope(Type.Object({ ok: Type.Literal(true), objects: Type.Integer({ minimum: 0 }) })), [401, 403, 404, 413, 422]),
      detail: adminDoc({
        operationId: "adminTestBusySource",
        summary: "Try a calendar without storing it",
        description: `Reads the calendar the body of \`POST /admin/event-types/{id}/busy-sources\` names, without storing anything: \`{ ok: true, objects }\`, or 422 on \`url\` with why it cannot be read (answered within ${SYNC_ANSWER_MS / 1000} seconds).`,
      }),
    })
    .get("/busy-sources/:sourceId", async ({ params }) => ok(await calendars.get(sourceIdOf(params.sourceId))), {
      response: answers(envelope(BusySourceView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminGetBusySource",
        hostAccess: "own-source",
        summary: "Read one calendar source and its sync status",
        description: "As listed.",
        host: "its own calendars; another host's is 404 `not_found`.",
      }),
    })
    .delete("/busy-sources/:sourceId", async ({ params }) => {
      await calendars.remove(sourceIdOf(params.sourceId));
      return done("Busy source removed with its cached calendar data.");
    }, {
      response: answers(Done, [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRemoveBusySource",
        hostAccess: "own-source",
        summary: "Remove a calendar source",
        description: "Its cached objects and busy times are dropped; the slots they blocked are offered again at once.",
        host: "its own calendars; another host's is 404 `not_found`.",
      }),
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
    }, {
      response: answers(SyncAnswer, [401, 403, 404], { 202: SyncAnswer }),
      detail: adminDoc({
        operationId: "adminSyncBusySource",
        hostAccess: "own-source",
        summary: "Sync a calendar source now",
        description: `Fetches what changed (CalDAV ctag and ETags with calendar-multiget; a feed with If-None-Match/If-Modified-Since). Answers within ${SYNC_ANSWER_MS / 1000} seconds: a sync that ended is answered 200 with \`state: "done"\` and what it did (a failure with \`sync.ok: false\`; the last good busy times stay in use). A sync still running then goes on, answered 202 with \`state: "syncing"\`, \`sync: null\` and \`Location:\` the source (\`GET /admin/busy-sources/{sourceId}\`): poll it until \`lastAttemptAt\` moves (\`syncing\` is true meanwhile on the instance running the sync).`,
        host: "its own calendars; another host's is 404 `not_found`.",
      }),
    })
    // The calendars of a CalDAV source's account, to choose the one bookings are written into.
    .get("/busy-sources/:sourceId/calendars", async ({ params }) => ok(await calendars.calendarsOf(sourceIdOf(params.sourceId))), {
      response: answers(envelope(Type.Array(WritableCalendar)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListBusySourceCalendars",
        hostAccess: "own-source",
        summary: "List the calendars bookings can be written into",
        description: `The calendars with events of this CalDAV source's account (every one, not only those read for busy times), each with its name and whether the host's bookings are written into it now: what to choose from for \`PUT /admin/busy-sources/{sourceId}/write-bookings\`. Listed within ${SYNC_ANSWER_MS / 1000} seconds; a server that does not answer in time, or refuses, is 422 \`validation_failed\` on \`calendar\` with the reason. An iCalendar feed has none: 422 on \`kind\`.`,
        host: "its own calendars; another host's is 404 `not_found`.",
      }),
    })
    // Where the event type's confirmed bookings are written: one calendar of one CalDAV source.
    .put("/busy-sources/:sourceId/write-bookings", async ({ params, body }) => ok(await calendars.writeBookings(sourceIdOf(params.sourceId), body)), { body: WriteBookingsBody,
      response: answers(envelope(BusySourceView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminWriteBookingsToCalendar",
        hostAccess: "own-source",
        summary: "Write the event type's bookings into a calendar of this CalDAV source",
        description: `From now on each confirmed booking of the event type is PUT as \`<calendar>/<key>.ics\` (UID \`<key>@booking-calendar\`, no METHOD, no manage link; the key is derived one-way from the reservation's uuid, the same as in the organizer's email copy and the booking feed, so the entry does not hand out the uuid) with the source's credentials, PUT again with a raised SEQUENCE when it is moved and DELETEd when it is cancelled, through the durable outbox (channel \`caldav\` in \`GET /admin/event-types/{id}/deliveries\`; 412, 5xx and network failures are retried with the webhooks' backoff, 401/403 fail with the reason). The calendar is one the account has (checked now by listing the account's calendars, 422 on \`calendar\` otherwise); left out, the first calendar found (among the chosen ones, if any). Replaces the event type's earlier bookings calendar; bookings made before are not written. Its own entries read back by the sync do not count as busy times for the event type. The event type shows it as \`bookingsCalendar\`. The listing must end within the answer window (${SYNC_ANSWER_MS / 1000} seconds, as \`POST /admin/busy-sources/{sourceId}/sync\`): a CalDAV server slower than that is answered 422 \`validation_failed\` on \`calendar\` ("did not list the source's calendars within ${SYNC_ANSWER_MS / 1000} s"), with nothing changed; send the request again once the server answers faster.`,
        host: "its own calendars; another host's is 404 `not_found`.",
      }),
    })
    .delete("/busy-sources/:sourceId/write-bookings", async ({ params }) => ok(await calendars.stopWritingBookings(sourceIdOf(params.sourceId))), {
      response: answers(envelope(BusySourceView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminStopWritingBookings",
        hostAccess: "own-source",
        summary: "Stop writing bookings into this source's calendar",
        description: "Later booking changes are not written; entries already written stay. Removing the source stops the writing too.",
        host: "its own calendars; another host's is 404 `not_found`.",
      }),
    })
    .get("/event-types/:id/deliveries", async ({ params, query }) => ok(await admin.deliveries(idOf(params.id), query.limit ?? 50)), {
      query: DeliveriesQuery,
      response: answers(envelope(Type.Array(DeliveryLog)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListDeliveries",
        summary: "List recent deliveries of every channel",
        description: "The event type's latest outbox events of every channel (`channel`: `webhook`, `email`, `caldav` or `reminder`; an email's `url` is `mailto:` its recipient), newest first (`limit` 1-500, default 50), with their attempts.",
      }),
    })
    .get("/event-types/:id/reservations", async ({ params, query }) => ok(await admin.reservations(idOf(params.id), query)), {
      query: ReservationListQuery,
      response: answers(envelope(Type.Array(EventTypeBookingView)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListEventTypeReservations",
        summary: "List an event type's bookings in a date range",
        description: "The event type's reservations whose start lies in the range (at most 5000), each with its `payment` (`status`, `amount`, `currency`, `paymentIntentId`, `refundId`) or null.",
      }),
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
      { query: ReservationSearchQuery,
      response: answers(envelope(BookingPage), [401, 403, 422]),
      detail: adminDoc({
        operationId: "adminSearchReservations",
        hostAccess: "narrowed",
        summary: "List bookings across event types, a page at a time",
        description: "Filtered by event type, host, status (the status time has made, so a page may hold fewer than `limit` items and still have a `next`), days (read in `timezone`, default UTC) and a part of the name or email (`q`); ordered by start. Answers `{ items, next }`: pass `next` as `cursor` for the following page (null on the last). Every page costs the same however deep.",
        host: "lists only bookings that take the host's time, whatever filters it sends; `hostId` of another host is 403 `forbidden`.",
      }),
    },
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
    }, {
      response: answers(envelope(BookingWithDeliveries), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminGetReservation",
        hostAccess: "own-booking",
        summary: "Read one booking",
        description: "With its manage link and its deliveries of every channel (webhooks, emails, reminders, calendar writes), times in the event type's zone.",
        host: "its own bookings only, without the webhook deliveries (the organizer's receiver); another host's booking is 404 `not_found`.",
      }),
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
      response: answers(Done, [401, 403, 404, 422]),
      detail: adminDoc({
        optionalBody: true,
        operationId: "adminCancelReservation",
        hostAccess: "own-booking",
        summary: "Cancel a booking as the organizer",
        description: "The visitor's cancel notice does not bind the organizer; `reason`, when given, is told to the visitor. A meeting that has ended answers `success: false`, `reservation_finished`.",
        host: "its own bookings only; another host's booking is 404 `not_found`.",
      }),
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
      { query: TimeSlotsQueryShape,
      response: answers(TimeSlotsResponse, [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListRescheduleTimeSlots",
        hostAccess: "own-booking",
        summary: "List the free times a booking can be moved to",
        description: `The slots of \`GET /time-slots\` for the same days (opening hours, seats, the hosts' other bookings and calendars), with the minimum notice and the horizon lifted as the organizer's reschedule lifts them: every free time still to come. No link token is needed, so a host's session can ask; the organizer console's reschedule dialog lists these. At most ${MAX_SLOTS_PER_ANSWER} slots, in whole days, with \`nextFrom\` as in \`GET /time-slots\`. A cancelled or expired booking answers \`success: false\`, \`reservation_finished\`, as its reschedule would.`,
        host: "its own bookings only; another host's booking is 404 `not_found`.",
      }),
    },
    )
    .post(
      "/event-types/:id/reservations/:uuid/reschedule",
      async ({ params, body, request }) => {
        const eventType = await eventTypeRecord(params.id);
        return ok(await reservations.reschedule(eventType, params.uuid, body, { origin: publicOrigin(ctx.config, request.url), organizer: true }));
      },
      { body: OrganizerRescheduleBody,
      response: answers(ReservationResponse, [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminRescheduleReservation",
        hostAccess: "own-booking",
        summary: "Move a booking as the organizer",
        description: "To a free time (one of `GET /admin/event-types/{id}/reservations/{uuid}/time-slots`): notice and horizon do not bind the organizer, opening hours, seats and the hosts' time do. A time not offered answers `success: false`, `slot_unavailable`; a cancelled or expired booking `reservation_finished`. The visitor and organizer get the updated invite when the server sends mail.",
        host: "its own bookings only; another host's booking is 404 `not_found`.",
      }),
    },
    )
    .post("/event-types/:id/deliveries/:deliveryId/retry", async ({ params }) => {
      if (!/^\d{1,12}$/.test(params.deliveryId)) throw new ApiError("not_found", `No delivery with id ${params.deliveryId.slice(0, 40)}.`);
      await admin.retryDelivery(idOf(params.id), Number(params.deliveryId));
      return done("The delivery is due now; the next pass of its worker tries it.");
    }, {
      response: answers(Done, [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRetryDelivery",
        summary: "Try a delivery again now",
        description: "Makes a failed or waiting delivery due now: the next pass of its worker tries it. 404 for one delivered, being sent, or a reminder withdrawn.",
      }),
    })
    // Signed-in browsers of the console; revoking one signs it out at once.
    .get("/sessions", async () => ok(await access.list()), {
      response: answers(envelope(Type.Array(SessionView)), [401, 403]),
      detail: adminDoc({
        operationId: "adminListSessions",
        summary: "List the console's signed-in browsers",
        description: "Every live console session, the organizer's and hosts', newest first; never their secrets.",
      }),
    })
    .delete("/sessions/:sessionId", async ({ params }) => {
      await access.revoke(params.sessionId);
      return done("The session is revoked.");
    }, {
      response: answers(Done, [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRevokeSession",
        summary: "Revoke a console session",
        description: "That browser is signed out at once (its next request is 401). 404 when no live session has this id.",
      }),
    })
    // Hosts: the people whose time event types book, their schedules, calendars and bookings.
    // A host's session sees only its own host.
    .get("/hosts", async ({ request }) => {
      const own = hostScopes.get(request);
      return ok((own === undefined ? await hosts.list() : [await hosts.get(own)]).map((view) => withFeedUrl(request, view)));
    }, {
      response: answers(envelope(Type.Array(HostView)), [401, 403]),
      detail: adminDoc({
        operationId: "adminListHosts",
        hostAccess: "narrowed",
        summary: "List hosts",
        description: "The people whose time event types book, oldest first, each with the ids of its event types. One is the default host: event types created without `hosts` belong to it (a one-person install never names hosts).",
        host: "its own host only.",
      }),
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
    }, {
      response: answers(envelope(Type.Object({ hostId: Type.Integer(), email: Type.String(), expiresAt: Type.String({ format: "date-time" }), sent: Type.Boolean() })), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminSendHostSignInLink",
        summary: "Email a host a sign-in link to the console",
        description: `Emails the host (over SMTP_URL, from MAIL_FROM) a one-time link to \`/console\` that works once within ${HOST_SIGN_IN_LINK_MS / 3_600_000} hours and opens a console session of role \`host\`: that session's admin API answers only the host's own host, bookings, schedules and calendars (403 \`forbidden\` for the rest). Without SMTP_URL, development logs the link and answers \`sent: false\`; production answers 503. The organizer only: a host's own session gets 403.`,
      }),
    })
    .post("/hosts", async ({ body, request }) => ok(withFeedUrl(request, await hosts.create(body))), { body: HostCreate,
      response: answers(envelope(HostView), [401, 403, 422]),
      detail: adminDoc({
        operationId: "adminCreateHost",
        summary: "Create a host",
        description: "A host has a name, an email (its copies of confirmations; the organizer of its invites), a time zone (default UTC; its new schedules default to it) and an optional avatar URL the booker shows. An event type books it once `hosts` names it (`POST`/`PATCH /admin/event-types`).",
      }),
    })
    .get("/hosts/:hostId", async ({ params, request }) => ok(withFeedUrl(request, await hosts.get(hostIdOf(params.hostId)))), {
      response: answers(envelope(HostView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminGetHost",
        hostAccess: "own-host",
        summary: "Read a host",
        description: "As listed.",
        host: "its own host; another host is 403 `forbidden`.",
      }),
    })
    .patch("/hosts/:hostId", async ({ params, body, request }) => ok(withFeedUrl(request, await hosts.update(hostIdOf(params.hostId), body))), { body: HostPatch,
      response: answers(envelope(HostView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminUpdateHost",
        hostAccess: "own-host",
        summary: "Change a host",
        description: "Any of name, email, timezone and avatarUrl (null removes the avatar); the others stay. Every event type of the host shows the change at once.",
        host: "its own name, email, timezone and avatar.",
      }),
    })
    // A new address for the host's own booking feed (the host in their session, or the organizer).
    .post("/hosts/:hostId/feed-token", async ({ params, request }) => ok(withFeedUrl(request, await hosts.rotateFeedToken(hostIdOf(params.hostId)))), {
      response: answers(envelope(HostView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminRotateHostFeedToken",
        hostAccess: "own-host",
        summary: "Give a host's booking feed a new address",
        description: "Every host has a private iCalendar feed of their own confirmed bookings (of every event type, no other host's) at `feedUrl` (`/feeds/{feedToken}.ics`, outside this API). This issues a new secret; the old address answers 404 at once. Answers the host as `GET /admin/hosts/{hostId}` does.",
        host: "its own feed only.",
      }),
    })
    .delete("/hosts/:hostId", async ({ params }) => {
      await hosts.delete(hostIdOf(params.hostId));
      return done("Host deleted with its schedules and calendars.");
    }, {
      response: answers(Done, [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminDeleteHost",
        summary: "Delete a host",
        description: "With its schedules and calendars. Refused (422 on `hostId`) for the default host, and while the host belongs to an event type or has bookings.",
      }),
    })
    .get("/hosts/:hostId/event-types", async ({ params, request }) => {
      const ids = await hosts.eventTypeIds(hostIdOf(params.hostId));
      const views = await Promise.all(ids.map(async (id) => withFeedUrl(request, await admin.get(id))));
      // A host's session reads its event types without what reaches beyond its own bookings.
      return ok(hostScopes.has(request) ? views.map(withoutOrganizerSecrets) : views);
    }, {
      response: answers(envelope(Type.Array(Type.Object({ id: Type.Integer(), title: Type.String(), hosts: Type.Array(Type.Object({ hostId: Type.Integer(), name: Type.String(), priority: Type.Integer(), scheduleId: Type.Union([Type.Integer(), Type.Null()]) })), assignment: Type.Union([Type.Literal("collective"), Type.Literal("round-robin")]) }, { additionalProperties: true }))), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminListHostEventTypes",
        hostAccess: "own-host",
        summary: "List a host's event types",
        description: "The event types the host belongs to (personal and team), as `GET /admin/event-types/{id}` answers them. A host's own session gets them without `feedToken`, `feedUrl` and `webhookUrl`: the event type's feed lists every host's bookings of a team, and the webhook address may carry the receiver's secret; the host's own feed is the host's `feedUrl`.",
        host: "its own host's.",
      }),
    })
    .get("/hosts/:hostId/reservations", async ({ params, query }) => ok(await hosts.reservations(hostIdOf(params.hostId), query)), { query: HostReservationsQuery,
      response: answers(envelope(Type.Array(HostBookingView)), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminListHostReservations",
        hostAccess: "own-host",
        summary: "List a host's bookings across event types",
        description: "The host's reservations of every event type (those of team event types it was assigned or, collective, takes part in) starting in whole days `from`..`until`, by start; at most 1000.",
        host: "its own host's.",
      }),
    })
    .get("/hosts/:hostId/schedules", async ({ params }) => ok(await hosts.schedules(hostIdOf(params.hostId))), {
      response: answers(envelope(Type.Array(ScheduleView)), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminListSchedules",
        hostAccess: "own-host",
        summary: "List a host's schedules",
        description: "Named weekly hours with date overrides, each with the event types that use it.",
        host: "its own host's.",
      }),
    })
    .post("/hosts/:hostId/schedules", async ({ params, body }) => ok(await hosts.createSchedule(hostIdOf(params.hostId), body)), { body: ScheduleCreate,
      response: answers(envelope(ScheduleView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminCreateSchedule",
        hostAccess: "own-host",
        summary: "Create a schedule",
        description: "Weekly hours (days left out are closed) and date overrides in `timezone` (default the host's). An event type uses it for the host with `hosts: [{hostId, scheduleId}]`; without one the host follows the event type's own `availability`. At most 50 per host.",
        host: "for its own host.",
      }),
    })
    .get("/schedules/:scheduleId", async ({ params }) => ok(await hosts.schedule(scheduleIdOf(params.scheduleId))), {
      response: answers(envelope(ScheduleView), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminGetSchedule",
        hostAccess: "own-schedule",
        summary: "Read a schedule",
        description: "As listed.",
        host: "its own schedules; another host's is 404 `not_found`.",
      }),
    })
    .patch("/schedules/:scheduleId", async ({ params, body }) => ok(await hosts.updateSchedule(scheduleIdOf(params.scheduleId), body)), { body: SchedulePatch,
      response: answers(envelope(ScheduleView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminUpdateSchedule",
        hostAccess: "own-schedule",
        summary: "Change a schedule",
        description: "Any of name, timezone and availability (replaced whole). Every event type using it offers the new hours at once; no booking is cancelled.",
        host: "its own schedules; another host's is 404 `not_found`.",
      }),
    })
    .delete("/schedules/:scheduleId", async ({ params }) => {
      await hosts.deleteSchedule(scheduleIdOf(params.scheduleId));
      return done("Schedule deleted.");
    }, {
      response: answers(Done, [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminDeleteSchedule",
        hostAccess: "own-schedule",
        summary: "Delete a schedule",
        description: "Refused (422 on `scheduleId`) while an event type uses it.",
        host: "its own schedules; another host's is 404 `not_found`.",
      }),
    })
    // The host's calendars: their busy times block every event type of the host.
    .get("/hosts/:hostId/busy-sources", async ({ params }) => ok(await calendars.listOfHost(hostIdOf(params.hostId))), {
      response: answers(envelope(Type.Array(BusySourceView)), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminListHostBusySources",
        hostAccess: "own-host",
        summary: "List a host's calendars",
        description: "The host's calendars with their sync status; their busy times block every event type of the host.",
        host: "its own host's; another host's is 403 `forbidden`.",
      }),
    })
    .post("/hosts/:hostId/busy-sources", async ({ params, body }) => ok(await calendars.addToHost(hostIdOf(params.hostId), body)), { body: BusySourceCreate,
      response: answers(envelope(BusySourceView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminAddHostBusySource",
        hostAccess: "own-host",
        summary: "Add a calendar to a host",
        description: "As `POST /admin/event-types/{id}/busy-sources`, for a host named directly: its busy times block every event type of the host, in slot lists and inside the booking transaction. At most 10 per host.",
        host: "to its own host; another host is 403 `forbidden`.",
      }),
    })
    // Tries a calendar for the host without storing it.
    .post("/hosts/:hostId/busy-sources/test", async ({ params, body }) => ok(await calendars.testForHost(hostIdOf(params.hostId), body)), { body: BusySourceCreate,
      response: answers(envelope(Type.Object({ ok: Type.Literal(true), objects: Type.Integer({ minimum: 0 }) })), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminTestHostBusySource",
        hostAccess: "own-host",
        summary: "Try a calendar for a host without storing it",
        description: `Checks the body as \`POST /admin/hosts/{hostId}/busy-sources\` does, then reads the calendar once (a CalDAV account's calendars discovered) within ${SYNC_ANSWER_MS / 1000} seconds, storing nothing. Answers \`{ ok: true, objects }\`, the calendar objects it holds; a calendar that cannot be read is a 422 \`validation_failed\` on \`url\` with the reason. The organizer console tries a calendar this way before it adds it.`,
        host: "for its own host; another host is 403 `forbidden`.",
      }),
    });
  return routes;
};
