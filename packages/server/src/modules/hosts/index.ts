import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { HostBookingView, HostView, ScheduleView, SignInLinkSent } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { answers, Done, envelope } from "../../http/answers.ts";
import { done, ok } from "../../http/envelope.ts";
import { ApiError } from "../../http/errors.ts";
import { HostId, ScheduleId } from "../../http/path-params.ts";
import { adminDoc } from "../../http/route-doc.ts";
import { publicOrigin } from "../../lib/links.ts";
import type { AdminGuard } from "../admin/guard.ts";
import { hostScopes, withoutOrganizerSecrets } from "../admin/host-scope.ts";
import { HOST_SIGN_IN_LINK_MS, type ConsoleAccess } from "../console/service.ts";
import type { EventTypeAdmin } from "../event-types/organizer.ts";
import { feedAddressed } from "../feeds/service.ts";
import { HostCreate, HostPatch, HostReservationsQuery, ScheduleCreate, SchedulePatch } from "./model.ts";
import type { HostAdmin } from "./service.ts";
import { sendSignInLink } from "./sign-in-link.ts";

/**
 * Hosts and their schedules under `/admin` (docs/hosts.md): the people whose time event types book,
 * their sign-in links to the console, feeds, event types, bookings across event types and schedules.
 * Behind the admin guard; a host's own session reaches only its own host (each route's `hostAccess`).
 */
export const hostOrganizerRoutes = (ctx: AppContext, guard: AdminGuard, hosts: HostAdmin, eventTypes: EventTypeAdmin, access: ConsoleAccess) => {
  /** An answer that carries a feed token, with the feed's absolute URL beside it. */
  const withFeedUrl = <T extends { feedToken: string }>(request: Request, answer: T) => feedAddressed(publicOrigin(ctx.config, request.url), answer);
  return (
    new Elysia()
      .use(guard)
      // Hosts: the people whose time event types book, their schedules, calendars and bookings.
      // A host's session sees only its own host.
      .get(
        "/hosts",
        async ({ request }) => {
          const own = hostScopes.get(request);
          return ok((own === undefined ? await hosts.list() : [await hosts.get(own)]).map((view) => withFeedUrl(request, view)));
        },
        {
          response: answers(envelope(Type.Array(HostView)), [401, 403]),
          detail: adminDoc({
            operationId: "adminListHosts",
            hostAccess: "narrowed",
            summary: "List hosts",
            description:
              "The people whose time event types book, oldest first, each with the ids of its event types. One is the default host: event types created without `hosts` belong to it (a one-person install never names hosts).",
            host: "its own host only.",
          }),
        },
      )
      // Emails the host a one-time link that signs them in to the console as that host (organizer only).
      .post(
        "/hosts/:hostId/sign-in-link",
        async ({ params, request }) => {
          const host = await hosts.get(params.hostId);
          if (!host.email)
            throw new ApiError("validation_failed", "The host has no email address to send a sign-in link to.", {
              errors: { email: ["Set the host's email first."] },
            });
          const link = await access.issueHostLink(host.id);
          const url = `${publicOrigin(ctx.config, request.url)}/console#link=${link}`;
          const outcome = await sendSignInLink(ctx, host, url);
          if (outcome.error)
            throw new ApiError("service_unavailable", `The sign-in link could not be emailed: ${outcome.error}`, { headers: { "retry-after": "60" } });
          return ok({ hostId: host.id, email: host.email, expiresAt: new Date(ctx.clock.now() + HOST_SIGN_IN_LINK_MS).toISOString(), sent: outcome.sent });
        },
        {
          params: Type.Object({ hostId: HostId }),
          response: answers(envelope(SignInLinkSent), [401, 403, 404, 422]),
          detail: adminDoc({
            operationId: "adminSendHostSignInLink",
            summary: "Email a host a sign-in link to the console",
            description: `Emails the host (over SMTP_URL, from MAIL_FROM) a one-time link to \`/console\` that works once within ${HOST_SIGN_IN_LINK_MS / 3_600_000} hours and opens a console session of role \`host\`: that session's admin API answers only the host's own host, bookings, schedules and calendars (403 \`forbidden\` for the rest). Without SMTP_URL, development logs the link and answers \`sent: false\`; production answers 503. The organizer only: a host's own session gets 403.`,
          }),
        },
      )
      .post("/hosts", async ({ body, request }) => ok(withFeedUrl(request, await hosts.create(body))), {
        body: HostCreate,
        response: answers(envelope(HostView), [401, 403, 422]),
        detail: adminDoc({
          operationId: "adminCreateHost",
          summary: "Create a host",
          description:
            "A host has a name, an email (its copies of confirmations; the organizer of its invites), a time zone (default UTC; its new schedules default to it) an optional avatar URL the booker shows and optional booking `limits` across all of its event types (docs/admin.md#limits). An event type books it once `hosts` names it (`POST`/`PATCH /admin/event-types`).",
        }),
      })
      .get("/hosts/:hostId", async ({ params, request }) => ok(withFeedUrl(request, await hosts.get(params.hostId))), {
        params: Type.Object({ hostId: HostId }),
        response: answers(envelope(HostView), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminGetHost",
          hostAccess: "own-host",
          summary: "Read a host",
          description: "As listed.",
          host: "its own host; another host is 403 `forbidden`.",
        }),
      })
      .patch("/hosts/:hostId", async ({ params, body, request }) => ok(withFeedUrl(request, await hosts.update(params.hostId, body))), {
        params: Type.Object({ hostId: HostId }),
        body: HostPatch,
        response: answers(envelope(HostView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminUpdateHost",
          hostAccess: "own-host",
          summary: "Change a host",
          description:
            "Any of name, email, timezone, avatarUrl (null removes the avatar) and limits (the host's booking limits across all of their event types, replaced whole; `{}` removes them, docs/admin.md#limits); the others stay. Every event type of the host shows the change at once.",
          host: "its own name, email, timezone and avatar.",
        }),
      })
      // A new address for the host's own booking feed (the host in their session, or the organizer).
      .post("/hosts/:hostId/feed-token", async ({ params, request }) => ok(withFeedUrl(request, await hosts.rotateFeedToken(params.hostId))), {
        params: Type.Object({ hostId: HostId }),
        response: answers(envelope(HostView), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminRotateHostFeedToken",
          hostAccess: "own-host",
          summary: "Give a host's booking feed a new address",
          description:
            "Every host has a private iCalendar feed of their own confirmed bookings (of every event type, no other host's) at `feedUrl` (`/feeds/{feedToken}.ics`, outside this API). This issues a new secret; the old address answers 404 at once. Answers the host as `GET /admin/hosts/{hostId}` does.",
          host: "its own feed only.",
        }),
      })
      .delete(
        "/hosts/:hostId",
        async ({ params }) => {
          await hosts.delete(params.hostId);
          return done("Host deleted with its schedules and calendars.");
        },
        {
          params: Type.Object({ hostId: HostId }),
          response: answers(Done, [401, 403, 404, 422]),
          detail: adminDoc({
            operationId: "adminDeleteHost",
            summary: "Delete a host",
            description:
              "With its schedules and calendars. Refused (422 on `hostId`) for the default host, and while the host belongs to an event type or has bookings.",
          }),
        },
      )
      .get(
        "/hosts/:hostId/event-types",
        async ({ params, request }) => {
          const ids = await hosts.eventTypeIds(params.hostId);
          const views = await Promise.all(ids.map(async (id) => withFeedUrl(request, await eventTypes.get(id))));
          // A host's session reads its event types without what reaches beyond its own bookings.
          return ok(hostScopes.has(request) ? views.map(withoutOrganizerSecrets) : views);
        },
        {
          params: Type.Object({ hostId: HostId }),
          response: answers(
            envelope(
              Type.Array(
                Type.Object(
                  {
                    id: Type.Integer(),
                    title: Type.String(),
                    hosts: Type.Array(
                      Type.Object({
                        hostId: Type.Integer(),
                        name: Type.String(),
                        priority: Type.Integer(),
                        scheduleId: Type.Union([Type.Integer(), Type.Null()]),
                      }),
                    ),
                    assignment: Type.Union([Type.Literal("collective"), Type.Literal("round-robin")]),
                  },
                  { additionalProperties: true },
                ),
              ),
            ),
            [401, 403, 404],
          ),
          detail: adminDoc({
            operationId: "adminListHostEventTypes",
            hostAccess: "own-host",
            summary: "List a host's event types",
            description:
              "The event types the host belongs to (personal and team), as `GET /admin/event-types/{id}` answers them. A host's own session gets them without `feedToken`, `feedUrl` and `webhookUrl`: the event type's feed lists every host's bookings of a team, and the webhook address may carry the receiver's secret; the host's own feed is the host's `feedUrl`.",
            host: "its own host's.",
          }),
        },
      )
      .get("/hosts/:hostId/reservations", async ({ params, query }) => ok(await hosts.reservations(params.hostId, query)), {
        params: Type.Object({ hostId: HostId }),
        query: HostReservationsQuery,
        response: answers(envelope(Type.Array(HostBookingView)), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminListHostReservations",
          hostAccess: "own-host",
          summary: "List a host's bookings across event types",
          description:
            "The host's reservations of every event type (those of team event types it was assigned or, collective, takes part in) starting in whole days `from`..`until`, by start; at most 1000.",
          host: "its own host's.",
        }),
      })
      .get("/hosts/:hostId/schedules", async ({ params }) => ok(await hosts.schedules(params.hostId)), {
        params: Type.Object({ hostId: HostId }),
        response: answers(envelope(Type.Array(ScheduleView)), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminListSchedules",
          hostAccess: "own-host",
          summary: "List a host's schedules",
          description: "Named weekly hours with date overrides, each with the event types that use it.",
          host: "its own host's.",
        }),
      })
      .post("/hosts/:hostId/schedules", async ({ params, body }) => ok(await hosts.createSchedule(params.hostId, body)), {
        params: Type.Object({ hostId: HostId }),
        body: ScheduleCreate,
        response: answers(envelope(ScheduleView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminCreateSchedule",
          hostAccess: "own-host",
          summary: "Create a schedule",
          description:
            "Weekly hours (days left out are closed) and date overrides in `timezone` (default the host's). An event type uses it for the host with `hosts: [{hostId, scheduleId}]`; without one the host follows the event type's own `availability`. At most 50 per host.",
          host: "for its own host.",
        }),
      })
      .get("/schedules/:scheduleId", async ({ params }) => ok(await hosts.schedule(params.scheduleId)), {
        params: Type.Object({ scheduleId: ScheduleId }),
        response: answers(envelope(ScheduleView), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminGetSchedule",
          hostAccess: "own-schedule",
          summary: "Read a schedule",
          description: "As listed.",
          host: "its own schedules; another host's is 404 `not_found`.",
        }),
      })
      .patch("/schedules/:scheduleId", async ({ params, body }) => ok(await hosts.updateSchedule(params.scheduleId, body)), {
        params: Type.Object({ scheduleId: ScheduleId }),
        body: SchedulePatch,
        response: answers(envelope(ScheduleView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminUpdateSchedule",
          hostAccess: "own-schedule",
          summary: "Change a schedule",
          description:
            "Any of name, timezone and availability (replaced whole). Every event type using it offers the new hours at once; no booking is cancelled.",
          host: "its own schedules; another host's is 404 `not_found`.",
        }),
      })
      .delete(
        "/schedules/:scheduleId",
        async ({ params }) => {
          await hosts.deleteSchedule(params.scheduleId);
          return done("Schedule deleted.");
        },
        {
          params: Type.Object({ scheduleId: ScheduleId }),
          response: answers(Done, [401, 403, 404, 422]),
          detail: adminDoc({
            operationId: "adminDeleteSchedule",
            hostAccess: "own-schedule",
            summary: "Delete a schedule",
            description: "Refused (422 on `scheduleId`) while an event type uses it.",
            host: "its own schedules; another host's is 404 `not_found`.",
          }),
        },
      )
  );
};
