import type { AppContext } from "../../context.ts";
import { ApiError } from "../../http/errors.ts";
import { ID_PATTERN } from "../../http/path-params.ts";
import type { HostAccess } from "../../http/route-doc.ts";
import { isUuid } from "../../lib/ids.ts";

/** The host a request's console session is limited to; absent for the organizer (admin key or admin session). */
export const hostScopes = new WeakMap<Request, number>();

const FORBIDDEN_HINT = "A host's console session manages only that host's own schedules, calendars and bookings; ask the organizer for the rest.";

/**
 * What a host's console session may do with the admin API, as each route declares it (`hostAccess`
 * beside the route, see route-doc.ts): read its own host, change its name, email or timezone, read
 * its event types and bookings (and cancel or move its own bookings, with the free times to move
 * them to), and read and change its own schedules and calendars (with the calendar its bookings are
 * written into). A route that declares nothing (other hosts, event types, sessions, sign-in links) is
 * 403 `forbidden`; another host's schedule, calendar or booking is 404, as one that does not exist.
 * Sets `hostScopes` for the routes that narrow their answer (`GET /admin/hosts`, `/admin/reservations`).
 */
export async function assertHostMay(
  ctx: AppContext,
  request: Request,
  hostId: number | null,
  rule: HostAccess | undefined,
  params: Record<string, string | undefined>,
): Promise<void> {
  if (hostId === null || !rule) throw forbidden();
  hostScopes.set(request, hostId);
  switch (rule) {
    case "narrowed":
      return;
    case "own-host":
      if (params.hostId !== String(hostId)) throw forbidden();
      return;
    case "own-schedule": {
      const id = idParam(params.scheduleId);
      const record = id === null ? null : await ctx.store.schedules.byId(id);
      // Someone else's schedule is as unknown to a host as one that does not exist.
      if (!record || record.hostId !== hostId) throw new ApiError("not_found", `No schedule with id ${String(params.scheduleId).slice(0, 40)}.`);
      return;
    }
    case "own-source": {
      const id = idParam(params.sourceId);
      const record = id === null ? null : await ctx.store.busy.byId(id);
      if (!record || record.hostId !== hostId) throw new ApiError("not_found", `No busy source with id ${String(params.sourceId).slice(0, 40)}.`);
      return;
    }
    case "own-booking": {
      // The host's own bookings: read one, cancel it or move it (as the organizer may).
      const eventTypeId = idParam(params.id);
      const uuid = params.uuid === undefined ? null : decodedSegment(params.uuid);
      const record = eventTypeId !== null && uuid !== null && isUuid(uuid) ? await ctx.store.reservations.byUuid(eventTypeId, uuid.toLowerCase()) : null;
      if (!record?.hostIds.includes(hostId)) throw new ApiError("not_found", "No reservation of this host with this id.");
      return;
    }
  }
}

const ID = new RegExp(ID_PATTERN);

/** A numeric id from a path, or null when it is not one: the guard runs before the route's `params` are checked. */
function idParam(raw: string | undefined): number | null {
  return raw !== undefined && ID.test(raw) ? Number(raw) : null;
}

/**
 * Fields of an event type's admin view that reach beyond one host: the event type's booking feed
 * (every host's bookings of a team), its webhook address (which may carry the receiver's secret)
 * and the calendar its bookings are written into (the team's first host's). A host's session is
 * answered without them; its own feed and calendar are on its host (`feedUrl`, `bookingsCalendar`).
 */
export const ORGANIZER_ONLY_EVENT_TYPE_FIELDS = ["feedToken", "feedUrl", "webhookUrl", "bookingsCalendar"] as const;

/** An event type's view as a host's session may read it: without ORGANIZER_ONLY_EVENT_TYPE_FIELDS. */
export function withoutOrganizerSecrets<T extends object>(view: T): Omit<T, (typeof ORGANIZER_ONLY_EVENT_TYPE_FIELDS)[number]> {
  const copy: Record<string, unknown> = { ...(view as Record<string, unknown>) };
  for (const field of ORGANIZER_ONLY_EVENT_TYPE_FIELDS) delete copy[field];
  return copy as Omit<T, (typeof ORGANIZER_ONLY_EVENT_TYPE_FIELDS)[number]>;
}

/** A path segment decoded, or null when its percent-encoding is malformed (`%E0%A4%A`): as unknown as any other. */
function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const forbidden = () => new ApiError("forbidden", "A host's console session may not use this part of the admin API.", { hint: FORBIDDEN_HINT });
