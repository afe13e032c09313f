import { t } from "elysia";
import { Type, type TSchema } from "@sinclair/typebox";

/**
 * What a path parameter that fails its schema is answered with: the route's 404 `not_found`, worded
 * from the segment as the router decoded it (null when its percent-encoding is malformed) and the
 * route's other segments. A path that names nothing the schema allows is as unknown as one that
 * names nothing stored: never a 422.
 */
export type NotFoundMessage = (value: unknown, params: Readonly<Record<string, unknown>>) => string;

/** A path parameter's schema with the sentence of its 404 (read by the contract's error handler, `failures.ts`). */
export type PathParamSchema = TSchema & { notFound?: NotFoundMessage };

/** The form of a numeric id in a path: digits, at most 12 (no sign, exponent, spaces or hex), as the store's ids are. */
export const ID_PATTERN = "^[0-9]{1,12}$";

/** Largest id a path can name. */
const MAX_ID = 999_999_999_999;

/** The form of a uuid in a path: 8-4-4-4-12 hex digits, either case. */
export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** Up to 40 characters of a segment the client sent, for a message; a segment that did not decode has none. */
const quoted = (value: unknown): string | null => (typeof value === "string" ? value.slice(0, 40) : null);

/**
 * A numeric id in a path (`/admin/hosts/:hostId`), given to the handler as a number. Anything else
 * answers 404 `No <what> with id <segment>.`, as an id nothing has does.
 */
function numericId(what: string, description: string) {
  const notFound: NotFoundMessage = (value) => {
    const segment = quoted(value);
    return segment === null ? `No ${what} with this id.` : `No ${what} with id ${segment}.`;
  };
  return t
    .Transform(Type.String({ pattern: ID_PATTERN, description, notFound }))
    .Decode((digits) => Number(digits))
    .Encode((id) => String(id));
}

/** A uuid in a path; anything else answers 404 with `notFound`. */
function uuid(description: string, notFound: NotFoundMessage) {
  return Type.String({ pattern: UUID_PATTERN, description, notFound });
}

/**
 * A segment of a page's or file's path (a slug, a file name, a build version), whatever it holds:
 * the route answers an unknown one itself. One whose percent-encoding is malformed (`%ZZ`), which the
 * router reads as null, reaches the handler as the empty string, as unknown as any other.
 */
function segment(description: string) {
  return t
    .Transform(Type.Union([Type.String(), Type.Null()], { description }))
    .Decode((value) => value ?? "")
    .Encode((value) => value);
}

/** `:id` of the admin API: the event type. */
export const EventTypeId = numericId("event type", "The event type.");
/** `:hostId`: the host. */
export const HostId = numericId("host", "The host.");
/** `:scheduleId`: the schedule. */
export const ScheduleId = numericId("schedule", "The schedule.");
/** `:sourceId`: the busy source (a calendar read for busy times). */
export const BusySourceId = numericId("busy source", "The busy source.");
/** `:timeOffId`: one time off of the host the path names. */
export const TimeOffId = numericId("time off", "The time off.");
/** `:deliveryId`: one delivery of the event type's outbox (a webhook, an email, a calendar write). */
export const DeliveryId = numericId("delivery", "The delivery.");

/** `:reservationUuid` of the public API: the caller's event type's reservation, worded as the reservation service words an unknown one. */
export const ReservationUuid = uuid(
  "The reservation; an unknown or malformed uuid answers 404.",
  () => "No reservation with this uuid exists for this event type.",
);

/** `:uuid` of the admin API's booking routes, after the event type's `:id`. */
export const BookingUuid = uuid(
  "The reservation; an unknown or malformed uuid, or one of another event type, answers 404.",
  (value, params) => `No reservation ${quoted(value) ?? "with this uuid"} of event type ${quoted(params.id)}.`,
);

/** `:sessionId`: a console session (as `GET /admin/sessions` lists them). */
export const SessionId = uuid("The console session.", () => "No live console session with this id.");

/** `:slug` of a booking page. */
export const PageSlug = segment("The event type's slug.");
/** `:file` of a booking feed: its secret token followed by `.ics`. */
export const FeedFile = segment("The feed's secret token followed by `.ics`.");
/** `:file` of the calendar's texts in one language: `{language}.json`. */
export const LocaleFile = segment("`{language}.json`, e.g. `de.json`.");
/** `:file` of a part of the calendar's code: `popup.js`, `payment.js` or `manage.js`. */
export const PartFile = segment("`popup.js`, `payment.js` or `manage.js`.");
/** `:version` of a script's build, as its current URL names it; another version is answered as the route says. */
export const BuildVersion = segment("The build's version, as the current script's URL names it.");

/**
 * The 404 sentence of a path that fails its route's `params`: the first failing parameter's, in the
 * order the route declares them (its path's order), from the validation issues Elysia lists.
 */
export function notFoundOfParams(issues: readonly { path?: string; value?: unknown; schema?: unknown }[], params: unknown): string | null {
  for (const issue of issues) {
    const notFound = (issue.schema as PathParamSchema | undefined)?.notFound;
    if (typeof notFound === "function") return notFound(issue.value, (params ?? {}) as Record<string, unknown>);
  }
  return null;
}

/**
 * How a path parameter's schema is documented: its description as the parameter's, a numeric id as
 * the integer it names (its digits are how an integer is written in a path), a uuid with its format,
 * and a page's segment as the string it is on the wire (null is only how the server reads one that
 * does not decode).
 */
export function documentedPathParam(schema: Record<string, unknown>): { description?: string; schema: Record<string, unknown> } {
  const { description, ...rest } = schema as { description?: string } & Record<string, unknown>;
  if (rest.type === "string" && rest.pattern === ID_PATTERN) return { description, schema: { type: "integer", minimum: 1, maximum: MAX_ID } };
  if (rest.type === "string" && rest.pattern === UUID_PATTERN) return { description, schema: { type: "string", format: "uuid", pattern: UUID_PATTERN } };
  // A page's segment, which the document's generator writes as `type: ["string", "null"]`.
  if (Array.isArray(rest.type)) {
    const types = rest.type.filter((type) => type !== "null");
    return { description, schema: { ...rest, type: types.length === 1 ? types[0] : types } };
  }
  return { description, schema: rest };
}
