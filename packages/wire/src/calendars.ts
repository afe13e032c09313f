import { oneOf } from "./literals.ts";
import { Type, type Static } from "@sinclair/typebox";
import { BUSY_SOURCE_KINDS, BUSY_SOURCE_STATUSES } from "./constants.ts";
import { Nullable } from "./event-type-views.ts";

/** Longest calendar URL a busy source takes. */
export const BUSY_SOURCE_URL_MAX_LENGTH = 2000;
/** Longest user name, password or token of a busy source. */
export const BUSY_SOURCE_CREDENTIAL_MAX_LENGTH = 500;
/** Most calendars one CalDAV source may be limited to. */
export const MAX_CHOSEN_CALENDARS = 50;
/** Longest freshness a source may ask for: a week. */
export const MAX_FRESHNESS_MINUTES = 10_080;

const anyValue = Type.Optional(Type.Unknown());

/** One of BUSY_SOURCE_KINDS. */
export const BusySourceKindSchema = oneOf(BUSY_SOURCE_KINDS, {
  description: "caldav: a CalDAV server, principal or calendar URL (collections are discovered); ical: a read-only iCalendar feed (webcal:// accepted).",
});

/**
 * A calendar to read a host's busy times from, as the organizer gives it (the admin API's
 * `POST .../busy-sources`, the assistant's `add_busy_source`, the console's form).
 */
export const BusySourceInput = Type.Object(
  {
    kind: BusySourceKindSchema,
    url: Type.String({
      minLength: 1,
      maxLength: BUSY_SOURCE_URL_MAX_LENGTH,
      description: "Without user name or password (send them as `username` and `password`). Stored as given, query included.",
    }),
    username: Type.Optional(Type.String({ maxLength: BUSY_SOURCE_CREDENTIAL_MAX_LENGTH })),
    password: Type.Optional(Type.String({ maxLength: BUSY_SOURCE_CREDENTIAL_MAX_LENGTH, description: "With username: HTTP Basic." })),
    token: Type.Optional(Type.String({ maxLength: BUSY_SOURCE_CREDENTIAL_MAX_LENGTH, description: "Alone: HTTP Bearer. Never returned." })),
    calendars: Type.Optional(
      Type.Array(Type.String({ maxLength: BUSY_SOURCE_URL_MAX_LENGTH }), {
        maxItems: MAX_CHOSEN_CALENDARS,
        description: "CalDAV only: the calendar URLs (or paths) to read; default every calendar the URL leads to.",
      }),
    ),
    freshnessMinutes: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_FRESHNESS_MINUTES, description: "Minutes a sync stays fresh; default the server's." }),
    ),
  },
  { additionalProperties: false },
);
export type BusySourceInput = Static<typeof BusySourceInput>;

/**
 * Body of `POST /admin/.../busy-sources` as the route takes it: only the keys are checked there
 * (each value is `BusySourceInput`'s, checked by the server's calendar service, which answers one
 * 422 naming every field that is off).
 */
export const BusySourceCreate = Type.Object(
  { kind: anyValue, url: anyValue, username: anyValue, password: anyValue, token: anyValue, calendars: anyValue, freshnessMinutes: anyValue } satisfies Record<
    keyof BusySourceInput,
    unknown
  >,
  { additionalProperties: false },
);
export type BusySourceCreate = Static<typeof BusySourceCreate>;

/** The organizer's view of a busy source: never its password or token, only whether one is set. */
export const BusySourceView = Type.Object({
  id: Type.Integer(),
  hostId: Type.Integer({ description: "The host whose calendar it is: its busy times block every event type of the host." }),
  eventTypeId: Nullable(Type.Integer(), {
    description: "The event type it was listed or added through, else the host's first event type; null when the host has none.",
  }),
  kind: oneOf(BUSY_SOURCE_KINDS),
  url: Type.String({ description: "As given (a feed's secret address included): answered to the organizer only, never written into errors or logs in full." }),
  username: Nullable(Type.String()),
  credentialsSet: Type.Boolean({ description: "Whether a password or token is stored; it is never returned." }),
  calendars: Type.Array(Type.String(), { description: "CalDAV calendars chosen; empty: every calendar the URL leads to." }),
  freshnessMinutes: Type.Integer({ description: "Minutes a sync stays fresh (the source's, else BOOKING_CALENDAR_FRESHNESS_MINUTES)." }),
  status: oneOf(BUSY_SOURCE_STATUSES, {
    description: "never: not synced yet; ok: the last attempt worked; failing: the last attempt failed, the last good busy times stay in use.",
  }),
  stale: Type.Boolean({ description: "The last good sync is older than the freshness, or there is none." }),
  lastAttemptAt: Nullable(Type.String({ format: "date-time" })),
  lastSuccessAt: Nullable(Type.String({ format: "date-time" })),
  lastFailureAt: Nullable(Type.String({ format: "date-time" })),
  lastError: Nullable(Type.String(), {
    description: "Why the last attempt failed. URLs in it keep scheme, host and path only (no user name, password or query).",
  }),
  skippedObjects: Type.Array(Type.Object({ href: Type.String(), reason: Type.String() }), {
    description:
      "Calendar objects the last sync could not read and left out (their URL, a feed's own URL, without query, and why); the other objects' busy times are used. A sync where no object can be read fails instead, keeping the last good data.",
  }),
  objects: Type.Integer({ description: "Calendar objects cached from the source." }),
  busyIntervals: Type.Integer({ description: "Busy intervals kept over the booking horizon." }),
  syncing: Type.Boolean({ description: "A sync asked for now that outlasted its answer is still under way on the answering instance." }),
  writeBookings: Type.Boolean({ description: "Whether the host's confirmed bookings (of every event type) are written into a calendar of this source." }),
  writeCalendar: Nullable(Type.String(), { description: "The calendar bookings are written into; null when this source is not written to." }),
});
export type BusySourceView = Static<typeof BusySourceView>;

/** What one sync of a busy source did. */
export const SyncOutcome = Type.Object({
  ok: Type.Boolean(),
  changed: Type.Boolean({ description: "Whether the busy times changed (cached slot pages are recomputed)." }),
  downloaded: Type.Integer({ description: "Objects downloaded: only new and changed ones." }),
  error: Nullable(Type.String()),
});
export type SyncOutcome = Static<typeof SyncOutcome>;

/** What "sync now" answers: what the sync did when it ended in time, else that it goes on (poll the source). */
export const SyncNowAnswer = Type.Union([
  Type.Object({ state: Type.Literal("done"), sync: SyncOutcome, source: BusySourceView }),
  Type.Object({ state: Type.Literal("syncing"), sync: Type.Null(), source: BusySourceView }),
]);
export type SyncNowAnswer = Static<typeof SyncNowAnswer>;

/** Answer of a connection test (`POST .../busy-sources/test`): the calendar could be read, with this many objects. */
export const BusySourceTestAnswer = Type.Object({ ok: Type.Literal(true), objects: Type.Integer({ minimum: 0 }) });
export type BusySourceTestAnswer = Static<typeof BusySourceTestAnswer>;

/** A calendar of a CalDAV source's account that bookings may be written into. */
export const WritableCalendar = Type.Object({
  url: Type.String({ description: "Send it as `calendar` to `PUT /admin/busy-sources/{sourceId}/write-bookings`." }),
  name: Type.String({ description: "Its display name (its URL when it has none)." }),
  writing: Type.Boolean({ description: "Whether the host's bookings are written into it now." }),
});
export type WritableCalendar = Static<typeof WritableCalendar>;

/** The calendar to write a host's bookings into, as the organizer gives it: absolute, or a path on the source's server; left out, the source's first calendar. */
export const WriteBookingsInput = Type.Object(
  {
    calendar: Type.Optional(
      Type.String({
        maxLength: BUSY_SOURCE_URL_MAX_LENGTH,
        description: "A calendar URL, or a path on the source's server; default the source's first calendar.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type WriteBookingsInput = Static<typeof WriteBookingsInput>;

/** Body of `PUT /admin/busy-sources/{sourceId}/write-bookings` as the route takes it: the value is checked by the calendar service. */
export const WriteBookingsBody = Type.Object({ calendar: anyValue } satisfies Record<keyof WriteBookingsInput, unknown>, { additionalProperties: false });
export type WriteBookingsBody = Static<typeof WriteBookingsBody>;
