import { Elysia, t } from "elysia";
import { AVAILABILITY_REASON_CODES } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { answers, envelope } from "../../http/answers.ts";
import { ok } from "../../http/envelope.ts";
import { EventTypeId, HostId } from "../../http/path-params.ts";
import { adminDoc } from "../../http/route-doc.ts";
import type { AdminGuard } from "../admin/guard.ts";
import { hostScopes } from "../admin/host-scope.ts";
import { AvailabilityCheck, AvailabilityCheckQuery, HostAvailabilityCheck, HostCheckQueryShape } from "./model.ts";
import type { AvailabilityCheckService } from "./service.ts";

const CODES = AVAILABILITY_REASON_CODES.map((c) => `\`${c}\``).join(", ");

/**
 * "Why is this time not offered?" under `/admin`: an event type's check and a host's, answered by the
 * steps that build the slot page (domain/exclusions.ts). Behind the admin guard.
 */
export const availabilityCheckRoutes = (_ctx: AppContext, guard: AdminGuard, checks: AvailabilityCheckService) =>
  new Elysia()
    .use(guard)
    .get(
      "/event-types/:id/availability-check",
      async ({ params, query, request }) => ok(await checks.eventType(params.id, query.start, { hostId: hostScopes.get(request) })),
      {
        params: t.Object({ id: EventTypeId }),
        query: AvailabilityCheckQuery,
        response: answers(envelope(AvailabilityCheck), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminCheckEventTypeAvailability",
          hostAccess: "narrowed",
          summary: "Why is a time (not) offered",
          description: `Whether \`start\` is bookable through the event type now, and every reason it is not, each with a stable \`code\` (${CODES}) and English \`message\`, plus what it is about (the schedule, the booking's event type, the calendar and its event's title, the notice's first start, ...). The answer comes from the same steps that build \`GET /time-slots\`: \`bookable\` is true exactly when the slot page lists that start. A team event type lists each host with their own reasons in \`hosts\` (round robin: bookable when one host is free).`,
          host: "an event type the host belongs to (another is 404); the details of other hosts' bookings and calendars are left out, only their codes and words shown.",
        }),
      },
    )
    .get(
      "/hosts/:hostId/availability-check",
      async ({ params, query, request }) => ok(await checks.host(params.hostId, query.start, query.eventTypeId, { hostId: hostScopes.get(request) })),
      {
        params: t.Object({ hostId: HostId }),
        query: HostCheckQueryShape,
        response: answers(envelope(HostAvailabilityCheck), [401, 403, 404, 422]),
        detail: adminDoc({
          operationId: "adminCheckHostAvailability",
          hostAccess: "own-host",
          summary: "Why is a host's time (not) offered",
          description:
            "The check of `GET /admin/event-types/{id}/availability-check` about one host: through each event type the host belongs to (or `eventTypeId` only), each answer about this host alone. `bookable` is true when one of them offers the host at `start`.",
          host: "its own host; another host is 403 `forbidden`.",
        }),
      },
    );
