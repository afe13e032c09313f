import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { BusySourceTestAnswer, BusySourceView, SyncNowAnswer, WritableCalendar } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { answers, Done, envelope } from "../../http/answers.ts";
import { done, ok } from "../../http/envelope.ts";
import { BusySourceId, EventTypeId, HostId } from "../../http/path-params.ts";
import { adminDoc } from "../../http/route-doc.ts";
import { publicOrigin } from "../../lib/links.ts";
import type { AdminGuard } from "../admin/guard.ts";
import { BusySourceCreate, WriteBookingsBody } from "./model.ts";
import { SYNC_ANSWER_MS, type CalendarAdmin } from "./service.ts";

/** The answer of a sync asked for now: 200 when it ended within the answer, 202 while it goes on. */
const SyncAnswer = envelope(SyncNowAnswer);

/**
 * The organizer's calendars under `/admin` (docs/calendars.md): those whose busy times block slots,
 * added for an event type's host or a host named directly, each source read, removed and synced now,
 * and the CalDAV calendar a host's bookings are written into. Behind the admin guard.
 */
export const calendarOrganizerRoutes = (ctx: AppContext, guard: AdminGuard, calendars: CalendarAdmin) => {
  return (
    new Elysia()
      .use(guard)
      // The organizer's calendars whose busy times block the event type's slots.
      .get("/event-types/:id/busy-sources", async ({ params }) => ok(await calendars.list(params.id)), {
        params: Type.Object({ id: EventTypeId }),
        response: answers(envelope(Type.Array(BusySourceView)), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminListBusySources",
          summary: "List the calendars that block an event type's slots",
          description:
            "The calendars of the event type's hosts, each with its sync status: last attempt, last good sync, the error of a failing one, cached objects and busy intervals. Passwords and tokens are never returned.",
        }),
      })
      .post("/event-types/:id/busy-sources", async ({ params, body }) => ok(await calendars.add(params.id, body)), {
        params: Type.Object({ id: EventTypeId }),
        body: BusySourceCreate,
        response: answers(envelope(BusySourceView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminAddBusySource",
          summary: "Add a calendar whose busy times block slots",
          description:
            "A CalDAV account or calendar, or an iCalendar feed, for the event type's (first) host: it blocks every event type of that host. The background worker syncs it (or `POST /admin/busy-sources/{sourceId}/sync` now); from then on its busy times (recurring, all-day, in their own zones; free and cancelled events not) are left out of `GET /time-slots` and refused by bookings, inside the booking transaction. At most 10 per host.",
        }),
      })
      // Tries a calendar without storing it: the console's "test before saving".
      .post("/event-types/:id/busy-sources/test", async ({ params, body }) => ok(await calendars.test(params.id, body)), {
        params: Type.Object({ id: EventTypeId }),
        body: BusySourceCreate,
        response: answers(envelope(BusySourceTestAnswer), [401, 403, 404, 413, 422]),
        detail: adminDoc({
          operationId: "adminTestBusySource",
          summary: "Try a calendar without storing it",
          description: `Reads the calendar the body of \`POST /admin/event-types/{id}/busy-sources\` names, without storing anything: \`{ ok: true, objects }\`, or 422 on \`url\` with why it cannot be read (answered within ${SYNC_ANSWER_MS / 1000} seconds).`,
        }),
      })
      .get("/busy-sources/:sourceId", async ({ params }) => ok(await calendars.get(params.sourceId)), {
        params: Type.Object({ sourceId: BusySourceId }),
        response: answers(envelope(BusySourceView), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminGetBusySource",
          hostAccess: "own-source",
          summary: "Read one calendar source and its sync status",
          description: "As listed.",
          host: "its own calendars; another host's is 404 `not_found`.",
        }),
      })
      .delete(
        "/busy-sources/:sourceId",
        async ({ params }) => {
          await calendars.remove(params.sourceId);
          return done("Busy source removed with its cached calendar data.");
        },
        {
          params: Type.Object({ sourceId: BusySourceId }),
          response: answers(Done, [401, 403, 404]),
          detail: adminDoc({
            operationId: "adminRemoveBusySource",
            hostAccess: "own-source",
            summary: "Remove a calendar source",
            description: "Its cached objects and busy times are dropped; the slots they blocked are offered again at once.",
            host: "its own calendars; another host's is 404 `not_found`.",
          }),
        },
      )
      .post(
        "/busy-sources/:sourceId/sync",
        async ({ params, request, set, status }) => {
          const id = params.sourceId;
          const answer = await calendars.syncNowWithin(id);
          if (answer.state === "done") return ok(answer);
          // The sync outlasts a request: 202, and where to see it end.
          set.headers.location = `${publicOrigin(ctx.config, request.url)}/admin/busy-sources/${id}`;
          return status(202, ok(answer));
        },
        {
          params: Type.Object({ sourceId: BusySourceId }),
          response: answers(SyncAnswer, [401, 403, 404], { 202: SyncAnswer }),
          detail: adminDoc({
            operationId: "adminSyncBusySource",
            hostAccess: "own-source",
            summary: "Sync a calendar source now",
            description: `Fetches what changed (CalDAV ctag and ETags with calendar-multiget; a feed with If-None-Match/If-Modified-Since). Answers within ${SYNC_ANSWER_MS / 1000} seconds: a sync that ended is answered 200 with \`state: "done"\` and what it did (a failure with \`sync.ok: false\`; the last good busy times stay in use). A sync still running then goes on, answered 202 with \`state: "syncing"\`, \`sync: null\` and \`Location:\` the source (\`GET /admin/busy-sources/{sourceId}\`): poll it until \`lastAttemptAt\` moves (\`syncing\` is true meanwhile on the instance running the sync).`,
            host: "its own calendars; another host's is 404 `not_found`.",
          }),
        },
      )
      // The calendars of a CalDAV source's account, to choose the one bookings are written into.
      .get("/busy-sources/:sourceId/calendars", async ({ params }) => ok(await calendars.calendarsOf(params.sourceId)), {
        params: Type.Object({ sourceId: BusySourceId }),
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
      .put("/busy-sources/:sourceId/write-bookings", async ({ params, body }) => ok(await calendars.writeBookings(params.sourceId, body)), {
        params: Type.Object({ sourceId: BusySourceId }),
        body: WriteBookingsBody,
        response: answers(envelope(BusySourceView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminWriteBookingsToCalendar",
          hostAccess: "own-source",
          summary: "Write the event type's bookings into a calendar of this CalDAV source",
          description: `From now on each confirmed booking of the event type is PUT as \`<calendar>/<key>.ics\` (UID \`<key>@booking-calendar\`, no METHOD, no manage link; the key is derived one-way from the reservation's uuid, the same as in the organizer's email copy and the booking feed, so the entry does not hand out the uuid) with the source's credentials, PUT again with a raised SEQUENCE when it is moved and DELETEd when it is cancelled, through the durable outbox (channel \`caldav\` in \`GET /admin/event-types/{id}/deliveries\`; 412, 5xx and network failures are retried with the webhooks' backoff, 401/403 fail with the reason). The calendar is one the account has (checked now by listing the account's calendars, 422 on \`calendar\` otherwise); left out, the first calendar found (among the chosen ones, if any). Replaces the event type's earlier bookings calendar; bookings made before are not written. Its own entries read back by the sync do not count as busy times for the event type. The event type shows it as \`bookingsCalendar\`. The listing must end within the answer window (${SYNC_ANSWER_MS / 1000} seconds, as \`POST /admin/busy-sources/{sourceId}/sync\`): a CalDAV server slower than that is answered 422 \`validation_failed\` on \`calendar\` ("did not list the source's calendars within ${SYNC_ANSWER_MS / 1000} s"), with nothing changed; send the request again once the server answers faster.`,
          host: "its own calendars; another host's is 404 `not_found`.",
        }),
      })
      .delete("/busy-sources/:sourceId/write-bookings", async ({ params }) => ok(await calendars.stopWritingBookings(params.sourceId)), {
        params: Type.Object({ sourceId: BusySourceId }),
        response: answers(envelope(BusySourceView), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminStopWritingBookings",
          hostAccess: "own-source",
          summary: "Stop writing bookings into this source's calendar",
          description: "Later booking changes are not written; entries already written stay. Removing the source stops the writing too.",
          host: "its own calendars; another host's is 404 `not_found`.",
        }),
      })
      // The host's calendars: their busy times block every event type of the host.
      .get("/hosts/:hostId/busy-sources", async ({ params }) => ok(await calendars.listOfHost(params.hostId)), {
        params: Type.Object({ hostId: HostId }),
        response: answers(envelope(Type.Array(BusySourceView)), [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminListHostBusySources",
          hostAccess: "own-host",
          summary: "List a host's calendars",
          description: "The host's calendars with their sync status; their busy times block every event type of the host.",
          host: "its own host's; another host's is 403 `forbidden`.",
        }),
      })
      .post("/hosts/:hostId/busy-sources", async ({ params, body }) => ok(await calendars.addToHost(params.hostId, body)), {
        params: Type.Object({ hostId: HostId }),
        body: BusySourceCreate,
        response: answers(envelope(BusySourceView), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminAddHostBusySource",
          hostAccess: "own-host",
          summary: "Add a calendar to a host",
          description:
            "As `POST /admin/event-types/{id}/busy-sources`, for a host named directly: its busy times block every event type of the host, in slot lists and inside the booking transaction. At most 10 per host.",
          host: "to its own host; another host is 403 `forbidden`.",
        }),
      })
      // Tries a calendar for the host without storing it.
      .post("/hosts/:hostId/busy-sources/test", async ({ params, body }) => ok(await calendars.testForHost(params.hostId, body)), {
        params: Type.Object({ hostId: HostId }),
        body: BusySourceCreate,
        response: answers(envelope(BusySourceTestAnswer), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminTestHostBusySource",
          hostAccess: "own-host",
          summary: "Try a calendar for a host without storing it",
          description: `Checks the body as \`POST /admin/hosts/{hostId}/busy-sources\` does, then reads the calendar once (a CalDAV account's calendars discovered) within ${SYNC_ANSWER_MS / 1000} seconds, storing nothing. Answers \`{ ok: true, objects }\`, the calendar objects it holds; a calendar that cannot be read is a 422 \`validation_failed\` on \`url\` with the reason. The organizer console tries a calendar this way before it adds it.`,
          host: "for its own host; another host is 403 `forbidden`.",
        }),
      })
  );
};
