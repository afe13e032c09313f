import { Elysia, t } from "elysia";
import { Type } from "@sinclair/typebox";
import { TimeOffCreate, TimeOffPatch, TimeOffView } from "@booking/wire";
import { answers, Done, envelope } from "../../http/answers.ts";
import { done, ok } from "../../http/envelope.ts";
import { HostId, TimeOffId } from "../../http/path-params.ts";
import { adminDoc } from "../../http/route-doc.ts";
import type { AdminGuard } from "../admin/guard.ts";
import type { TimeOffAdmin } from "./service.ts";

const HOST_ACCESS = "its own time off; another host's is 403 `forbidden`.";

/**
 * A host's time off under `/admin/hosts/{hostId}/time-off` (docs/hosts.md): whole days in the host's
 * zone or a time range, with a note and a colleague who takes the host's personal bookings
 * meanwhile. The organizer for any host; a host's own console session for itself.
 */
export const timeOffOrganizerRoutes = (guard: AdminGuard, timeOff: TimeOffAdmin) => {
  const host = t.Object({ hostId: HostId });
  const one = t.Object({ hostId: HostId, timeOffId: TimeOffId });
  return new Elysia()
    .use(guard)
    .get("/hosts/:hostId/time-off", async ({ params }) => ok(await timeOff.list(params.hostId)), {
      params: host,
      response: answers(envelope(Type.Array(TimeOffView)), [401, 403, 404]),
      detail: adminDoc({
        operationId: "adminListTimeOff",
        hostAccess: "own-host",
        summary: "List a host's time off",
        description: "The host's time off not over yet, by start: whole days (`startDate`..`endDate` in the host's zone) or time ranges.",
        host: HOST_ACCESS,
      }),
    })
    .post("/hosts/:hostId/time-off", async ({ params, body }) => ok(await timeOff.create(params.hostId, body)), {
      params: host,
      body: TimeOffCreate,
      response: answers(envelope(TimeOffView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminCreateTimeOff",
        hostAccess: "own-host",
        summary: "Add time off",
        description:
          "Whole days `startDate`..`endDate` (inclusive, midnight to midnight in the host's zone as it is now) or a range `start`..`end` (ISO 8601 with an offset). Away time blocks the host like a calendar event: round robin gives the time to another host, a collective event type meets without them, and a personal event type offers the times of `colleagueHostId` (another host; the booking then goes to them) or none, with `note` shown on the booking page. Bookings already made stay. 422 on the fields for a range that ends before it starts, the host as their own colleague or an unknown colleague.",
        host: HOST_ACCESS,
      }),
    })
    .patch("/hosts/:hostId/time-off/:timeOffId", async ({ params, body }) => ok(await timeOff.update(params.hostId, params.timeOffId, body)), {
      params: one,
      body: TimeOffPatch,
      response: answers(envelope(TimeOffView), [401, 403, 404, 422]),
      detail: adminDoc({
        operationId: "adminUpdateTimeOff",
        hostAccess: "own-host",
        summary: "Change time off",
        description: "Any of the fields: days or a range replace the time whole; `note` and `colleagueHostId` (null removes them) stay when left out.",
        host: HOST_ACCESS,
      }),
    })
    .delete(
      "/hosts/:hostId/time-off/:timeOffId",
      async ({ params }) => {
        await timeOff.delete(params.hostId, params.timeOffId);
        return done("Time off removed.");
      },
      {
        params: one,
        response: answers(Done, [401, 403, 404]),
        detail: adminDoc({
          operationId: "adminDeleteTimeOff",
          hostAccess: "own-host",
          summary: "Remove time off",
          description: "The host is offered again at once where their hours allow.",
          host: HOST_ACCESS,
        }),
      },
    );
};
