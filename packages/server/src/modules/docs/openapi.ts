import type { TSchema } from "@sinclair/typebox";
import { ErrorBody, ERROR_CODES, LIMITS, EventTypeConfiguration, CustomField, InitData, Reservation, TimeSlot, Location, HostCreate, HostPatch, HostView, ScheduleCreate, SchedulePatch, ScheduleView, RESERVATION_STATUSES } from "@booking/wire";
import { ConfigurationResponse, InitBody, InitResponse } from "../event-types/model.ts";
import { FirstFreeResponse, TimeSlotsResponse } from "../time-slots/model.ts";
import { MAX_SLOTS_PER_ANSWER } from "../time-slots/service.ts";
import { SYNC_ANSWER_MS } from "../calendars/service.ts";
import { CancelInput, CancelResponse, ConfirmInput, PaymentInput, PaymentResponse, RefreshResponse, RescheduleInput, ReservationInput, ReservationResponse } from "../reservations/model.ts";
import { Type } from "@sinclair/typebox";
import { ConsoleSignInBody, OrganizerCancelBody, OrganizerRescheduleBody } from "../admin/model.ts";
import { HOST_SIGN_IN_LINK_MS } from "../console/service.ts";

/** One operation of the public API as the document and the docs page describe it. */
export interface Operation {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  operationId: string;
  summary: string;
  description: string;
  auth: boolean;
  query?: { name: string; required: boolean; description: string; schema: TSchema }[];
  /** True for paths with `{reservationUuid}`. */
  reservationPath?: boolean;
  /** True for POSTs that honour an `Idempotency-Key` header. */
  idempotent?: boolean;
  body?: { schema: TSchema; required: boolean };
  response: TSchema;
  errors: number[];
}

/** The success envelope around an answer's `data`. */
const envelope = (data: TSchema) => Type.Object({ success: Type.Boolean(), data });
/** The answer of a route that reports what it did in a sentence. */
const done = Type.Object({ success: Type.Boolean(), message: Type.String() });
/** The `from` and `until` query parameters of a range of whole days. */
const DAY_RANGE: NonNullable<Operation["query"]> = [
  { name: "from", required: true, description: "First day, YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
  { name: "until", required: true, description: "Last day (inclusive), YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
];

const TimezonesResponse = envelope(Type.Array(Type.String()));

/** The operations this server implements, in the spec's order. */
export const OPERATIONS: Operation[] = [
  {
    method: "get",
    path: "/time-slots",
    operationId: "listTimeSlots",
    summary: "List bookable time slots",
    description:
      `Slots whose start lies between the start of \`from\` and the end of \`until\`, read as whole days in \`timezone\` (default: the event type's zone). At most ${LIMITS.maxSlotRangeDays} days per request. \`start\`/\`end\` carry the offset of that zone; the \`*Iso8601\` fields are UTC. Only slots with at least one free seat are listed. An answer lists at most ${MAX_SLOTS_PER_ANSWER} slots, in whole days: a range holding more (only calendars with a slot every few minutes around the clock) ends early, and \`nextFrom\` names the day to ask from next.`,
    auth: true,
    query: [...DAY_RANGE, { name: "timezone", required: false, description: "IANA zone for dates and readable times.", schema: Type.String() }],
    response: TimeSlotsResponse,
    errors: [401, 403, 422, 429],
  },
  {
    method: "get",
    path: "/time-slots/first-free",
    operationId: "findFirstFreeDay",
    summary: "Find the first day with a free slot",
    description:
      "The first day on or after `from`, read in `timezone` (default: the event type's zone), that holds a slot with a free seat within the booking horizon; `date` is null when there is none. The calendar offers it when the month shown has no free time. An addition to the spec.",
    auth: true,
    query: [
      { name: "from", required: true, description: "Day to look from, YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
      { name: "timezone", required: false, description: "IANA zone the days are read in.", schema: Type.String() },
    ],
    response: FirstFreeResponse,
    errors: [401, 403, 422, 429],
  },
  {
    method: "get",
    path: "/configuration",
    operationId: "getEventTypeConfiguration",
    summary: "Read the booking calendar configuration",
    description:
      "The configuration of the event type that owns the token: bookable day range, locale, theme, and the event type's public settings. `emailConfirmation` says whether the visitor will be emailed a confirmation with a calendar invite (the server has SMTP configured), so a success screen promises an email only when one is sent.",
    auth: true,
    response: ConfigurationResponse,
    errors: [401, 403, 429],
  },
  {
    method: "post",
    path: "/event-types/init",
    operationId: "initEventType",
    summary: "Start the booking calendar",
    description:
      "Everything the calendar needs to start: configuration, custom fields, and with `reservationUuid` the reservation being rescheduled. Also answers for a disabled event type, with `disabled: true`.",
    auth: true,
    body: { schema: InitBody, required: false },
    response: InitResponse,
    errors: [400, 401, 404, 422, 429],
  },
  {
    method: "post",
    path: "/reservations",
    operationId: "createReservation",
    summary: "Book a slot in one step",
    description:
      "Books a slot offered by GET /time-slots and confirms it at once. When the slot is full or not offered the answer is HTTP 200 with `success: false` and code `slot_unavailable`; when another request is writing it at this moment, `slot_locked`. A paid event type answers 422 `payment_required`: prepare, pay, then confirm. The answer carries `meetLink` (video meetings) and `location` (the organizer's address or number, or the link). When the server sends mail, the visitor and each guest get a confirmation with a calendar invite (METHOD:REQUEST; ORGANIZER the event type's organizer, the visitor and guests ATTENDEEs), in the language and clock of `locale` (else the event type's preset language, else English) and times in `timezone`; the event type's organizer email gets a notification with the entry attached as METHOD:PUBLISH (not an invitation). The visitor and guests get a reminder email before the start at each of the event type's `reminderMinutes` (admin API; default a day and an hour before; those already past when booked are left out).",
    auth: true,
    idempotent: true,
    body: { schema: ReservationInput, required: true },
    response: ReservationResponse,
    errors: [400, 401, 403, 413, 422, 429],
  },
  {
    method: "post",
    path: "/reservations/prepare",
    operationId: "prepareReservation",
    summary: "Hold a slot",
    description:
      "Holds a slot for the event type's `holdMinutes` (status `held`). The hold expires on its own; it can be refreshed, confirmed, or cancelled. Same outcomes as create for full, not offered or locked slots.",
    auth: true,
    idempotent: true,
    body: { schema: ReservationInput, required: true },
    response: ReservationResponse,
    errors: [400, 401, 403, 413, 422, 429],
  },
  {
    method: "put",
    path: "/reservations/{reservationUuid}",
    operationId: "rescheduleReservation",
    summary: "Reschedule a reservation",
    description:
      "Moves a held or confirmed reservation to another offered slot; the status stays as it was. A visitor may reschedule until `rescheduleNoticeMinutes` before the current start (later: 403 `forbidden`); the organizer's `overrideToken` lifts that rule and the minimum notice and horizon of the new slot. A cancelled or expired reservation answers `success: false`, `reservation_finished`. A confirmed reservation keeps its meeting: the answer carries its `meetLink` and `location`, and when the server sends mail the visitor and organizer get the updated invite (same UID, higher SEQUENCE); the reminders of the old time are withdrawn and new ones scheduled for the new time.",
    auth: true,
    reservationPath: true,
    body: { schema: RescheduleInput, required: true },
    response: ReservationResponse,
    errors: [400, 401, 403, 404, 413, 422, 429],
  },
  {
    method: "delete",
    path: "/reservations/{reservationUuid}",
    operationId: "cancelReservation",
    summary: "Cancel a reservation",
    description:
      "Cancels and frees the seat at once. Cancelling a cancelled reservation succeeds again without change. A hold can always be cancelled; a confirmed reservation until `cancelNoticeMinutes` before its start (later: 403 `forbidden`, unless the query carries the organizer's `overrideToken`). A meeting that has ended answers `success: false`, `reservation_finished`. Cancelling a confirmed reservation emails the visitor (and organizer) an invite with METHOD:CANCEL when the server sends mail. An optional JSON body `{ \"reason\": \"…\" }` (at most 500 characters; an addition to the spec) is stored with the reservation, sent as `cancelReason` in the `reservation.cancelled` webhook and shown in the cancellation emails and their cancel invites; its line breaks are kept as LF, and any other control character (a NUL among them) answers 422 `validation_failed` with `control_characters` on `reason`. Its pending reminder emails are withdrawn: none is sent after a cancel.",
    auth: true,
    reservationPath: true,
    body: { schema: CancelInput, required: false },
    query: [{ name: "overrideToken", required: false, description: "The organizer's override token, lifting the cancel notice rule; the `Booking-Override-Token` header does the same and keeps it out of URLs.", schema: Type.String() }],
    response: CancelResponse,
    errors: [401, 403, 404, 422, 429],
  },
  {
    method: "post",
    path: "/reservations/{reservationUuid}/confirm",
    operationId: "confirmReservation",
    summary: "Confirm a held reservation",
    description:
      "Confirms a prepared reservation; passed attributes update it (custom field answers merge by uuid). A paid event type needs a successful payment first (422 `payment_required`). An expired hold is confirmed only if its seat can be taken again, else `reservation_finished`. Confirming a confirmed reservation answers the same result again. `meetLink` is set for video meetings; `location` says where the meeting is (for an in-person meeting, the organizer's address).",
    auth: true,
    reservationPath: true,
    idempotent: true,
    body: { schema: ConfirmInput, required: false },
    response: ReservationResponse,
    errors: [400, 401, 403, 404, 413, 422, 429],
  },
  {
    method: "post",
    path: "/reservations/{reservationUuid}/refresh",
    operationId: "refreshReservation",
    summary: "Extend a hold",
    description:
      "Holds a held or expired reservation again for `holdMinutes` from now if its seat is still free; `data` is an empty array. Otherwise, and for confirmed or cancelled reservations, HTTP 200 with `success: false`, code `reservation_finished`.",
    auth: true,
    reservationPath: true,
    idempotent: true,
    response: RefreshResponse,
    errors: [401, 403, 404, 429],
  },
  {
    method: "post",
    path: "/reservations/{reservationUuid}/payments",
    operationId: "createReservationPayment",
    summary: "Create the card payment of a held reservation",
    description:
      "Creates (or reuses while still payable) a Stripe PaymentIntent on the organizer's connected account for the event type's amount and currency. Use `clientSecret` with Stripe.js on `providerAccountId`, then confirm the reservation. 400 `provider_not_configured` when card payments are not set up. A reservation that is not held answers `success: false`, `reservation_finished`.",
    auth: true,
    reservationPath: true,
    idempotent: true,
    body: { schema: PaymentInput, required: true },
    response: PaymentResponse,
    errors: [400, 401, 403, 404, 413, 422, 429],
  },
  {
    method: "get",
    path: "/timezones",
    operationId: "listTimezones",
    summary: "List supported IANA timezones",
    description: "Every IANA timezone identifier the API accepts. Needs no token.",
    auth: false,
    response: TimezonesResponse,
    errors: [429],
  },
];

const BusySourceView = Type.Object({
  id: Type.Integer(),
  hostId: Type.Integer({ description: "The host whose calendar it is: its busy times block every event type of the host." }),
  eventTypeId: Type.Union([Type.Integer(), Type.Null()], { description: "The event type it was listed or added through, else the host's first event type; null when the host has none." }),
  kind: Type.Union([Type.Literal("caldav"), Type.Literal("ical")]),
  url: Type.String({ description: "As given (a feed's secret address included): answered to the organizer only, never written into errors or logs in full." }),
  username: Type.Union([Type.String(), Type.Null()]),
  credentialsSet: Type.Boolean({ description: "Whether a password or token is stored; it is never returned." }),
  calendars: Type.Array(Type.String(), { description: "CalDAV calendars chosen; empty: every calendar the URL leads to." }),
  freshnessMinutes: Type.Integer({ description: "Minutes a sync stays fresh (the source's, else BOOKING_CALENDAR_FRESHNESS_MINUTES)." }),
  status: Type.Union([Type.Literal("never"), Type.Literal("ok"), Type.Literal("failing")], { description: "failing: the last attempt failed; the last good busy times stay in use." }),
  stale: Type.Boolean({ description: "The last good sync is older than the freshness, or there is none." }),
  lastAttemptAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  lastSuccessAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  lastFailureAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()], { description: "Why the last attempt failed. URLs in it keep scheme, host and path only (no user name, password or query)." }),
  skippedObjects: Type.Array(Type.Object({ href: Type.String(), reason: Type.String() }), {
    description: "Calendar objects the last sync could not read and left out (their URL, a feed's own URL, without query, and why); the other objects' busy times are used. A sync where no object can be read fails instead, keeping the last good data.",
  }),
  objects: Type.Integer({ description: "Calendar objects cached from the source." }),
  busyIntervals: Type.Integer({ description: "Busy intervals kept over the booking horizon." }),
  syncing: Type.Boolean({ description: "A sync asked for with `POST /admin/busy-sources/{sourceId}/sync` that outlasted its answer is still under way on the answering instance." }),
  writeBookings: Type.Boolean({ description: "Whether the host's confirmed bookings (of every event type) are written into a calendar of this source (see `PUT /admin/busy-sources/{sourceId}/write-bookings`)." }),
  writeCalendar: Type.Union([Type.String(), Type.Null()], { description: "The calendar bookings are written into; null when this source is not written to." }),
});
const SyncOutcome = Type.Object({ ok: Type.Boolean(), changed: Type.Boolean({ description: "Whether the busy times changed (cached slot pages are recomputed)." }), downloaded: Type.Integer({ description: "Objects downloaded: only new and changed ones." }), error: Type.Union([Type.String(), Type.Null()]) });
const BusySourceInput = Type.Object(
  {
    kind: Type.Union([Type.Literal("caldav"), Type.Literal("ical")], { description: "caldav: a CalDAV server, principal or calendar URL (collections are discovered); ical: a read-only iCalendar feed (webcal:// accepted)." }),
    url: Type.String({ maxLength: 2000, description: "Without user name or password (422 on `url`: send them as `username` and `password`). Stored as given, query included." }),
    username: Type.Optional(Type.String({ maxLength: 500 })),
    password: Type.Optional(Type.String({ maxLength: 500, description: "With username: HTTP Basic." })),
    token: Type.Optional(Type.String({ maxLength: 500, description: "Alone: HTTP Bearer. Never returned." })),
    calendars: Type.Optional(Type.Array(Type.String(), { maxItems: 50, description: "CalDAV only: the calendar URLs (or paths) to read." })),
    freshnessMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10080 })),
  },
  { additionalProperties: false },
);

const HostBookingView = Type.Object({
  uuid: Type.String({ format: "uuid" }),
  eventTypeId: Type.Integer({ description: "The event type it was booked through." }),
  hostIds: Type.Array(Type.Integer(), { description: "The hosts it takes: every host of a collective event type, the one assigned by round robin." }),
  status: Type.Union(RESERVATION_STATUSES.map((st) => Type.Literal(st))),
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
});

/** The path parameters admin routes take, and how the document names each. */
const PATH_PARAMS = {
  id: "The event type.",
  sourceId: "The busy source.",
  hostId: "The host.",
  scheduleId: "The schedule.",
  uuid: "The reservation; an unknown or malformed uuid, or one of another event type, answers 404.",
  sessionId: "The console session.",
} as const;
type PathParam = keyof typeof PATH_PARAMS;
/** Path parameters that are not integer ids. */
const PATH_PARAM_SCHEMAS: Partial<Record<PathParam, Record<string, unknown>>> = { uuid: { type: "string", format: "uuid" }, sessionId: { type: "string", format: "uuid" } };

/** A booking as the organizer's lists show it (`GET /admin/reservations`, one booking, its host's bookings). */
const AdminBookingView = Type.Object({
  eventTypeId: Type.Integer(),
  eventTypeTitle: Type.String(),
  manageUrl: Type.Union([Type.String({ format: "uri" }), Type.Null()], { description: "The visitor's reschedule and cancel page (null when the event type is gone)." }),
  uuid: Type.String({ format: "uuid" }),
  status: Type.Union(RESERVATION_STATUSES.map((st) => Type.Literal(st)), { description: "As time has made it (a lapsed hold is `expired`)." }),
  start: Type.String({ format: "date-time", description: "In the asked zone (default UTC; one booking: the event type's)." }),
  end: Type.String({ format: "date-time" }),
  startIso8601: Type.String({ format: "date-time" }),
  endIso8601: Type.String({ format: "date-time" }),
  heldUntil: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  phone: Type.String(),
  timezone: Type.Union([Type.String(), Type.Null()]),
  location: Type.Union([Type.Object({ type: Type.String(), value: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  guests: Type.Array(Type.String()),
  customFields: Type.Array(Type.Object({ uuid: Type.Optional(Type.String()), name: Type.Optional(Type.String()), value: Type.Unknown() })),
  payment: Type.Union([
    Type.Object({ status: Type.String(), amount: Type.Integer(), currency: Type.String(), paymentIntentId: Type.String(), refundId: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  createdAt: Type.String({ format: "date-time" }),
  cancelReason: Type.Union([Type.String(), Type.Null()]),
});
const Delivery = Type.Object({
  id: Type.Integer(),
  channel: Type.String({ description: "`webhook`, `email`, `caldav` or `reminder`." }),
  kind: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
});
/** A signed-in browser of the console: never its secret. */
const SessionView = Type.Object({
  id: Type.String({ format: "uuid" }),
  role: Type.Union([Type.Literal("admin"), Type.Literal("host")], { description: "admin: the organizer (admin key or development link); host: one host, limited to its own data." }),
  hostId: Type.Union([Type.Integer(), Type.Null()], { description: "The host of a `host` session." }),
  method: Type.String({ description: "How it was opened: `key` or `link`." }),
  createdAt: Type.String({ format: "date-time" }),
  expiresAt: Type.String({ format: "date-time" }),
  lastSeenAt: Type.String({ format: "date-time" }),
  address: Type.String({ description: "The client address it signed in from." }),
  userAgent: Type.String(),
});
const WritableCalendar = Type.Object({
  url: Type.String({ format: "uri", description: "Send it as `calendar` to `PUT /admin/busy-sources/{sourceId}/write-bookings`." }),
  name: Type.String({ description: "Its display name (its URL when it has none)." }),
  writing: Type.Boolean({ description: "Whether the host's bookings are written into it now." }),
});
const RESCHEDULE_SLOT_QUERY = [
  { name: "from", required: true, description: "First day, YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
  { name: "until", required: true, description: `Last day (inclusive), YYYY-MM-DD; at most ${LIMITS.maxSlotRangeDays} days.`, schema: Type.String({ format: "date" }) },
  { name: "timezone", required: false, description: "IANA zone for the days and readable times (default: the event type's).", schema: Type.String() },
];

/**
 * The organizer's routes documented here (the rest of the admin API is described in docs/admin.md):
 * hosts with their schedules, bookings and calendars (docs/hosts.md), and the calendars whose busy
 * times block slots. Behind `Authorization: Bearer $BOOKING_ADMIN_KEY`; absent (404) without a
 * configured key.
 */
export const ADMIN_OPERATIONS: (Omit<Operation, "auth" | "reservationPath" | "idempotent"> & {
  pathParam: PathParam | PathParam[] | null;
  /** When the operation may also answer 202 (work going on after the answer): what that answer means. */
  accepted?: string;
  /** What a host's console session may do with it; absent: the organizer only (403 `forbidden` for a host). */
  host?: string;
  /** `sign-in`: no credential (it opens a session); `session`: the console's cookie only. Default: the admin key or the console's cookie. */
  access?: "sign-in" | "session";
})[] = [
  {
    method: "post",
    path: "/console/session",
    pathParam: null,
    access: "sign-in",
    operationId: "consoleSignIn",
    summary: "Sign in to the organizer console",
    description:
      "Exchanges the admin key (`adminKey`, role `admin`) or the secret of a one-time sign-in link (`link`, `bcsl_…`: development's printed link, role `admin`, or a host's emailed link, role `host`) for a session: the answer sets an HttpOnly, SameSite=Strict cookie (`booking_console`; in production `__Host-booking_console`, Secure) with which the admin API is used from the console's own origin. A wrong key or a used, expired or unknown link is 401 `unauthenticated`; a request from another origin 403 `forbidden`; after 10 failed sign-ins from one address in 10 minutes (counted in the database, shared by every instance, however many arrive at once), 429 with `Retry-After`; 503 `service_unavailable` when the attempt cannot be counted (it is not checked). 404 when the console is off (production without BOOKING_ADMIN_KEY).",
    body: { schema: ConsoleSignInBody, required: true },
    response: envelope(SessionView),
    errors: [400, 401, 403, 404, 422, 429, 503],
  },
  {
    method: "get",
    path: "/console/session",
    pathParam: null,
    access: "session",
    operationId: "consoleGetSession",
    summary: "Who is signed in to the console",
    description: "The session the cookie opens: its role (`admin` or `host`) and host. 401 `unauthenticated` without one, or once it has ended (idle 12 hours, 7 days after sign-in, signed out or revoked). Like every use of the session, an answer that moves its end on renews the cookie (`Set-Cookie`) for the idle time, or what is left of the 7 days when less.",
    response: envelope(SessionView),
    errors: [401],
  },
  {
    method: "delete",
    path: "/console/session",
    pathParam: null,
    access: "session",
    operationId: "consoleSignOut",
    summary: "Sign out of the console",
    description: "Ends the cookie's session and clears the cookie; succeeds without a session too. From another origin: 403 `forbidden`.",
    response: done,
    errors: [403],
  },
  {
    method: "get",
    path: "/admin/sessions",
    pathParam: null,
    operationId: "adminListSessions",
    summary: "List the console's signed-in browsers",
    description: "Every live console session, the organizer's and hosts', newest first; never their secrets.",
    response: envelope(Type.Array(SessionView)),
    errors: [401, 403],
  },
  {
    method: "delete",
    path: "/admin/sessions/{sessionId}",
    pathParam: "sessionId",
    operationId: "adminRevokeSession",
    summary: "Revoke a console session",
    description: "That browser is signed out at once (its next request is 401). 404 when no live session has this id.",
    response: done,
    errors: [401, 403, 404],
  },
  {
    method: "get",
    path: "/admin/reservations",
    pathParam: null,
    operationId: "adminSearchReservations",
    summary: "List bookings across event types, a page at a time",
    description:
      "Filtered by event type, host, status (the status time has made, so a page may hold fewer than `limit` items and still have a `next`), days (read in `timezone`, default UTC) and a part of the name or email (`q`); ordered by start. Answers `{ items, next }`: pass `next` as `cursor` for the following page (null on the last). Every page costs the same however deep.",
    host: "lists only bookings that take the host's time, whatever filters it sends; `hostId` of another host is 403 `forbidden`.",
    query: [
      { name: "eventTypeId", required: false, description: "One event type's bookings.", schema: Type.Integer({ minimum: 1 }) },
      { name: "hostId", required: false, description: "Bookings that take this host's time.", schema: Type.Integer({ minimum: 1 }) },
      { name: "status", required: false, description: "held, confirmed, expired or cancelled.", schema: Type.Union(RESERVATION_STATUSES.map((st) => Type.Literal(st))) },
      { name: "from", required: false, description: "First day, YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
      { name: "until", required: false, description: "Last day (inclusive), YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
      { name: "timezone", required: false, description: "IANA zone of the days and of `start`/`end`; default UTC.", schema: Type.String({ maxLength: 64 }) },
      { name: "q", required: false, description: "Part of the visitor's name or email.", schema: Type.String({ maxLength: 200 }) },
      { name: "order", required: false, description: "asc (default) or desc, by start.", schema: Type.Union([Type.Literal("asc"), Type.Literal("desc")]) },
      { name: "cursor", required: false, description: "The `next` of the page before.", schema: Type.String({ maxLength: 200 }) },
      { name: "limit", required: false, description: "1-200, default 50.", schema: Type.Integer({ minimum: 1, maximum: 200 }) },
    ],
    response: envelope(Type.Object({ items: Type.Array(AdminBookingView), next: Type.Union([Type.String(), Type.Null()]) })),
    errors: [401, 403, 422],
  },
  {
    method: "get",
    path: "/admin/event-types/{id}/reservations/{uuid}",
    pathParam: ["id", "uuid"],
    operationId: "adminGetReservation",
    summary: "Read one booking",
    description: "With its manage link and its deliveries of every channel (webhooks, emails, reminders, calendar writes), times in the event type's zone.",
    host: "its own bookings only, without the webhook deliveries (the organizer's receiver); another host's booking is 404 `not_found`.",
    response: envelope(Type.Object({ ...AdminBookingView.properties, deliveries: Type.Array(Delivery) })),
    errors: [401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/event-types/{id}/reservations/{uuid}/cancel",
    pathParam: ["id", "uuid"],
    operationId: "adminCancelReservation",
    summary: "Cancel a booking as the organizer",
    description: "The visitor's cancel notice does not bind the organizer; `reason`, when given, is told to the visitor. A meeting that has ended answers `success: false`, `reservation_finished`.",
    host: "its own bookings only; another host's booking is 404 `not_found`.",
    body: { schema: OrganizerCancelBody, required: false },
    response: done,
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/event-types/{id}/reservations/{uuid}/time-slots",
    pathParam: ["id", "uuid"],
    operationId: "adminListRescheduleTimeSlots",
    summary: "List the free times a booking can be moved to",
    description: `The slots of \`GET /time-slots\` for the same days (opening hours, seats, the hosts' other bookings and calendars), with the minimum notice and the horizon lifted as the organizer's reschedule lifts them: every free time still to come. No link token is needed, so a host's session can ask; the organizer console's reschedule dialog lists these. At most ${MAX_SLOTS_PER_ANSWER} slots, in whole days, with \`nextFrom\` as in \`GET /time-slots\`. A cancelled or expired booking answers \`success: false\`, \`reservation_finished\`, as its reschedule would.`,
    host: "its own bookings only; another host's booking is 404 `not_found`.",
    query: RESCHEDULE_SLOT_QUERY,
    response: TimeSlotsResponse,
    errors: [401, 403, 404, 422],
  },
  {
    method: "post",
    path: "/admin/event-types/{id}/reservations/{uuid}/reschedule",
    pathParam: ["id", "uuid"],
    operationId: "adminRescheduleReservation",
    summary: "Move a booking as the organizer",
    description:
      "To a free time (one of `GET /admin/event-types/{id}/reservations/{uuid}/time-slots`): notice and horizon do not bind the organizer, opening hours, seats and the hosts' time do. A time not offered answers `success: false`, `slot_unavailable`; a cancelled or expired booking `reservation_finished`. The visitor and organizer get the updated invite when the server sends mail.",
    host: "its own bookings only; another host's booking is 404 `not_found`.",
    body: { schema: OrganizerRescheduleBody, required: true },
    response: ReservationResponse,
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/hosts",
    pathParam: null,
    operationId: "adminListHosts",
    host: "its own host only.",
    summary: "List hosts",
    description: "The people whose time event types book, oldest first, each with the ids of its event types. One is the default host: event types created without `hosts` belong to it (a one-person install never names hosts).",
    response: envelope(Type.Array(HostView)),
    errors: [401, 403],
  },
  {
    method: "post",
    path: "/admin/hosts",
    pathParam: null,
    operationId: "adminCreateHost",
    summary: "Create a host",
    description: "A host has a name, an email (its copies of confirmations; the organizer of its invites), a time zone (default UTC; its new schedules default to it) and an optional avatar URL the booker shows. An event type books it once `hosts` names it (`POST`/`PATCH /admin/event-types`).",
    body: { schema: HostCreate, required: true },
    response: envelope(HostView),
    errors: [400, 401, 403, 422],
  },
  {
    method: "get",
    path: "/admin/hosts/{hostId}",
    pathParam: "hostId",
    operationId: "adminGetHost",
    host: "its own host; another host is 403 `forbidden`.",
    summary: "Read a host",
    description: "As listed.",
    response: envelope(HostView),
    errors: [401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/hosts/{hostId}/sign-in-link",
    pathParam: "hostId",
    operationId: "adminSendHostSignInLink",
    summary: "Email a host a sign-in link to the console",
    description:
      "Emails the host (over SMTP_URL, from MAIL_FROM) a one-time link to `/console` that works once within " + HOST_SIGN_IN_LINK_MS / 3_600_000 + " hours and opens a console session of role `host`: that session's admin API answers only the host's own host, bookings, schedules and calendars (403 `forbidden` for the rest). Without SMTP_URL, development logs the link and answers `sent: false`; production answers 503. The organizer only: a host's own session gets 403.",
    response: envelope(Type.Object({ hostId: Type.Integer(), email: Type.String(), expiresAt: Type.String({ format: "date-time" }), sent: Type.Boolean() })),
    errors: [401, 403, 404, 422, 503],
  },
  {
    method: "post",
    path: "/admin/hosts/{hostId}/feed-token",
    pathParam: "hostId",
    operationId: "adminRotateHostFeedToken",
    host: "its own feed only.",
    summary: "Give a host's booking feed a new address",
    description:
      "Every host has a private iCalendar feed of their own confirmed bookings (of every event type, no other host's) at `feedUrl` (`/feeds/{feedToken}.ics`, outside this API). This issues a new secret; the old address answers 404 at once. Answers the host as `GET /admin/hosts/{hostId}` does.",
    response: envelope(HostView),
    errors: [401, 403, 404],
  },
  {
    method: "patch",
    path: "/admin/hosts/{hostId}",
    pathParam: "hostId",
    operationId: "adminUpdateHost",
    host: "its own name, email, timezone and avatar.",
    summary: "Change a host",
    description: "Any of name, email, timezone and avatarUrl (null removes the avatar); the others stay. Every event type of the host shows the change at once.",
    body: { schema: HostPatch, required: true },
    response: envelope(HostView),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "delete",
    path: "/admin/hosts/{hostId}",
    pathParam: "hostId",
    operationId: "adminDeleteHost",
    summary: "Delete a host",
    description: "With its schedules and calendars. Refused (422 on `hostId`) for the default host, and while the host belongs to an event type or has bookings.",
    response: done,
    errors: [401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/hosts/{hostId}/event-types",
    pathParam: "hostId",
    operationId: "adminListHostEventTypes",
    host: "its own host's.",
    summary: "List a host's event types",
    description:
      "The event types the host belongs to (personal and team), as `GET /admin/event-types/{id}` answers them. A host's own session gets them without `feedToken`, `feedUrl` and `webhookUrl`: the event type's feed lists every host's bookings of a team, and the webhook address may carry the receiver's secret; the host's own feed is the host's `feedUrl`.",
    response: envelope(Type.Array(Type.Object({ id: Type.Integer(), title: Type.String(), hosts: Type.Array(Type.Object({ hostId: Type.Integer(), name: Type.String(), priority: Type.Integer(), scheduleId: Type.Union([Type.Integer(), Type.Null()]) })), assignment: Type.Union([Type.Literal("collective"), Type.Literal("round-robin")]) }, { additionalProperties: true }))),
    errors: [401, 403, 404],
  },
  {
    method: "get",
    path: "/admin/hosts/{hostId}/reservations",
    pathParam: "hostId",
    operationId: "adminListHostReservations",
    host: "its own host's.",
    summary: "List a host's bookings across event types",
    description: "The host's reservations of every event type (those of team event types it was assigned or, collective, takes part in) starting in whole days `from`..`until`, by start; at most 1000.",
    query: [
      ...DAY_RANGE,
      { name: "status", required: false, description: "Only this status.", schema: Type.Union(RESERVATION_STATUSES.map((st) => Type.Literal(st))) },
      { name: "timezone", required: false, description: "IANA zone the days are read in; default the host's.", schema: Type.String() },
    ],
    response: envelope(Type.Array(HostBookingView)),
    errors: [401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/hosts/{hostId}/schedules",
    pathParam: "hostId",
    operationId: "adminListSchedules",
    host: "its own host's.",
    summary: "List a host's schedules",
    description: "Named weekly hours with date overrides, each with the event types that use it.",
    response: envelope(Type.Array(ScheduleView)),
    errors: [401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/hosts/{hostId}/schedules",
    pathParam: "hostId",
    operationId: "adminCreateSchedule",
    host: "for its own host.",
    summary: "Create a schedule",
    description: "Weekly hours (days left out are closed) and date overrides in `timezone` (default the host's). An event type uses it for the host with `hosts: [{hostId, scheduleId}]`; without one the host follows the event type's own `availability`. At most 50 per host.",
    body: { schema: ScheduleCreate, required: true },
    response: envelope(ScheduleView),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/schedules/{scheduleId}",
    pathParam: "scheduleId",
    operationId: "adminGetSchedule",
    host: "its own schedules; another host's is 404 `not_found`.",
    summary: "Read a schedule",
    description: "As listed.",
    response: envelope(ScheduleView),
    errors: [401, 403, 404],
  },
  {
    method: "patch",
    path: "/admin/schedules/{scheduleId}",
    pathParam: "scheduleId",
    operationId: "adminUpdateSchedule",
    host: "its own schedules; another host's is 404 `not_found`.",
    summary: "Change a schedule",
    description: "Any of name, timezone and availability (replaced whole). Every event type using it offers the new hours at once; no booking is cancelled.",
    body: { schema: SchedulePatch, required: true },
    response: envelope(ScheduleView),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "delete",
    path: "/admin/schedules/{scheduleId}",
    pathParam: "scheduleId",
    operationId: "adminDeleteSchedule",
    host: "its own schedules; another host's is 404 `not_found`.",
    summary: "Delete a schedule",
    description: "Refused (422 on `scheduleId`) while an event type uses it.",
    response: done,
    errors: [401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/hosts/{hostId}/busy-sources",
    pathParam: "hostId",
    operationId: "adminListHostBusySources",
    host: "its own host's; another host's is 403 `forbidden`.",
    summary: "List a host's calendars",
    description: "The host's calendars with their sync status; their busy times block every event type of the host.",
    response: envelope(Type.Array(BusySourceView)),
    errors: [401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/hosts/{hostId}/busy-sources",
    pathParam: "hostId",
    operationId: "adminAddHostBusySource",
    host: "to its own host; another host is 403 `forbidden`.",
    summary: "Add a calendar to a host",
    description: "As `POST /admin/event-types/{id}/busy-sources`, for a host named directly: its busy times block every event type of the host, in slot lists and inside the booking transaction. At most 10 per host.",
    body: { schema: BusySourceInput, required: true },
    response: envelope(BusySourceView),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "post",
    path: "/admin/hosts/{hostId}/busy-sources/test",
    pathParam: "hostId",
    operationId: "adminTestHostBusySource",
    host: "for its own host; another host is 403 `forbidden`.",
    summary: "Try a calendar for a host without storing it",
    description: "Checks the body as `POST /admin/hosts/{hostId}/busy-sources` does, then reads the calendar once (a CalDAV account's calendars discovered) within " + SYNC_ANSWER_MS / 1000 + " seconds, storing nothing. Answers `{ ok: true, objects }`, the calendar objects it holds; a calendar that cannot be read is a 422 `validation_failed` on `url` with the reason. The organizer console tries a calendar this way before it adds it.",
    body: { schema: BusySourceInput, required: true },
    response: envelope(Type.Object({ ok: Type.Literal(true), objects: Type.Integer({ minimum: 0 }) })),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/event-types/{id}/busy-sources",
    pathParam: "id",
    operationId: "adminListBusySources",
    summary: "List the calendars that block an event type's slots",
    description: "The calendars of the event type's hosts, each with its sync status: last attempt, last good sync, the error of a failing one, cached objects and busy intervals. Passwords and tokens are never returned.",
    response: envelope(Type.Array(BusySourceView)),
    errors: [401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/event-types/{id}/busy-sources",
    pathParam: "id",
    operationId: "adminAddBusySource",
    summary: "Add a calendar whose busy times block slots",
    description:
      "A CalDAV account or calendar, or an iCalendar feed, for the event type's (first) host: it blocks every event type of that host. The background worker syncs it (or `POST /admin/busy-sources/{sourceId}/sync` now); from then on its busy times (recurring, all-day, in their own zones; free and cancelled events not) are left out of `GET /time-slots` and refused by bookings, inside the booking transaction. At most 10 per host.",
    body: { schema: BusySourceInput, required: true },
    response: envelope(BusySourceView),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "get",
    path: "/admin/busy-sources/{sourceId}",
    pathParam: "sourceId",
    operationId: "adminGetBusySource",
    host: "its own calendars; another host's is 404 `not_found`.",
    summary: "Read one calendar source and its sync status",
    description: "As listed.",
    response: envelope(BusySourceView),
    errors: [401, 403, 404],
  },
  {
    method: "post",
    path: "/admin/busy-sources/{sourceId}/sync",
    pathParam: "sourceId",
    operationId: "adminSyncBusySource",
    host: "its own calendars; another host's is 404 `not_found`.",
    summary: "Sync a calendar source now",
    description:
      "Fetches what changed (CalDAV ctag and ETags with calendar-multiget; a feed with If-None-Match/If-Modified-Since). Answers within " + SYNC_ANSWER_MS / 1000 + " seconds: a sync that ended is answered 200 with `state: \"done\"` and what it did (a failure with `sync.ok: false`; the last good busy times stay in use). A sync still running then goes on, answered 202 with `state: \"syncing\"`, `sync: null` and `Location:` the source (`GET /admin/busy-sources/{sourceId}`): poll it until `lastAttemptAt` moves (`syncing` is true meanwhile on the instance running the sync).",
    response: envelope(
      Type.Object({
        state: Type.Union([Type.Literal("done"), Type.Literal("syncing")], { description: "done: the sync ended within the answer (HTTP 200); syncing: it goes on (HTTP 202)." }),
        sync: Type.Union([SyncOutcome, Type.Null()], { description: "What the sync did; null while it goes on." }),
        source: BusySourceView,
      }),
    ),
    accepted: "The sync goes on past the answer: `state: \"syncing\"`, `sync: null`; `Location` is the source to poll.",
    errors: [401, 403, 404],
  },
  {
    method: "delete",
    path: "/admin/busy-sources/{sourceId}",
    pathParam: "sourceId",
    operationId: "adminRemoveBusySource",
    host: "its own calendars; another host's is 404 `not_found`.",
    summary: "Remove a calendar source",
    description: "Its cached objects and busy times are dropped; the slots they blocked are offered again at once.",
    response: done,
    errors: [401, 403, 404],
  },
  {
    method: "get",
    path: "/admin/busy-sources/{sourceId}/calendars",
    pathParam: "sourceId",
    operationId: "adminListBusySourceCalendars",
    summary: "List the calendars bookings can be written into",
    description:
      "The calendars with events of this CalDAV source's account (every one, not only those read for busy times), each with its name and whether the host's bookings are written into it now: what to choose from for `PUT /admin/busy-sources/{sourceId}/write-bookings`. Listed within " + SYNC_ANSWER_MS / 1000 + " seconds; a server that does not answer in time, or refuses, is 422 `validation_failed` on `calendar` with the reason. An iCalendar feed has none: 422 on `kind`.",
    host: "its own calendars; another host's is 404 `not_found`.",
    response: envelope(Type.Array(WritableCalendar)),
    errors: [401, 403, 404, 422],
  },
  {
    method: "put",
    path: "/admin/busy-sources/{sourceId}/write-bookings",
    pathParam: "sourceId",
    operationId: "adminWriteBookingsToCalendar",
    host: "its own calendars; another host's is 404 `not_found`.",
    summary: "Write the event type's bookings into a calendar of this CalDAV source",
    description:
      "From now on each confirmed booking of the event type is PUT as `<calendar>/<key>.ics` (UID `<key>@booking-calendar`, no METHOD, no manage link; the key is derived one-way from the reservation's uuid, the same as in the organizer's email copy and the booking feed, so the entry does not hand out the uuid) with the source's credentials, PUT again with a raised SEQUENCE when it is moved and DELETEd when it is cancelled, through the durable outbox (channel `caldav` in `GET /admin/event-types/{id}/deliveries`; 412, 5xx and network failures are retried with the webhooks' backoff, 401/403 fail with the reason). The calendar is one the account has (checked now by listing the account's calendars, 422 on `calendar` otherwise); left out, the first calendar found (among the chosen ones, if any). Replaces the event type's earlier bookings calendar; bookings made before are not written. Its own entries read back by the sync do not count as busy times for the event type. The event type shows it as `bookingsCalendar`. The listing must end within the answer window (" + SYNC_ANSWER_MS / 1000 + " seconds, as `POST /admin/busy-sources/{sourceId}/sync`): a CalDAV server slower than that is answered 422 `validation_failed` on `calendar` (\"did not list the source's calendars within " + SYNC_ANSWER_MS / 1000 + " s\"), with nothing changed; send the request again once the server answers faster.",
    body: { schema: Type.Object({ calendar: Type.Optional(Type.String({ maxLength: 2000, description: "A calendar URL, or a path on the source's server." })) }, { additionalProperties: false }), required: true },
    response: envelope(BusySourceView),
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: "delete",
    path: "/admin/busy-sources/{sourceId}/write-bookings",
    pathParam: "sourceId",
    operationId: "adminStopWritingBookings",
    host: "its own calendars; another host's is 404 `not_found`.",
    summary: "Stop writing bookings into this source's calendar",
    description: "Later booking changes are not written; entries already written stay. Removing the source stops the writing too.",
    response: envelope(BusySourceView),
    errors: [401, 403, 404],
  },
];

const STATUS_TEXT: Record<number, string> = {
  400: "Malformed request (bad JSON, unsupported API version).",
  401: "Missing or invalid bearer token.",
  403: "Event type disabled, or action not allowed.",
  404: "Unknown path or reservation.",
  405: "Method not allowed on this path.",
  413: "Request body over 64 KiB.",
  422: "Invalid input; `errors` lists messages by field, and `fieldErrors` gives each message with its field and a stable `code` (`required`, `invalid_email`, `too_long` with `max`, `too_small` with `min`, ...) for clients that word errors in their own language.",
  429: "Rate limit exceeded; wait `Retry-After` seconds.",
  500: "Unexpected failure.",
  503: "The store is busy or the database out of reach for a moment (a restart, a failover); nothing was changed. Send the request again after `Retry-After` seconds.",
};

/** An admin operation's description with what a host's console session may do with it. */
export function adminDescription(op: (typeof ADMIN_OPERATIONS)[number]): string {
  if (op.access) return op.description;
  return `${op.description} A host's console session: ${op.host ?? "refused, 403 `forbidden` (the organizer only)."}`;
}

/** A JSON body of the schema, as a request body or an answer carries it. */
const json = (schema: TSchema) => ({ "application/json": { schema: plain(schema) } });

/** An operation's query parameters and request body, as both kinds of route document them. */
function inputs(op: Pick<Operation, "query" | "body">) {
  return {
    query: (op.query ?? []).map((q) => ({ name: q.name, in: "query", required: q.required, description: q.description, schema: plain(q.schema) })),
    body: op.body ? { requestBody: { required: op.body.required, content: json(op.body.schema) } } : {},
  };
}

/** The error answers of these statuses, each a reference to the shared response of its status. */
const errorResponses = (statuses: number[]) => Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/E${status}` }]));

/** Builds the OpenAPI 3.1 document of the public API. */
export function openApiDocument(aliasPrefix: string): Record<string, unknown> {
  const headers = {
    "Service-Api-Version": { description: "API version of the answer; always 1.", schema: { type: "string", const: "1" } },
    "apigw-requestid": { description: "Unique id of this request; quote it to support.", schema: { type: "string" } },
    "RateLimit-Policy": { description: "Limit and window, e.g. `60;w=60`.", schema: { type: "string" } },
    RateLimit: { description: "`limit=<n>, remaining=<n>, reset=<seconds>`.", schema: { type: "string" } },
    "X-RateLimit-Limit": { schema: { type: "integer" } },
    "X-RateLimit-Remaining": { schema: { type: "integer" } },
  };
  const headerRefs = Object.fromEntries(Object.keys(headers).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const statuses = [...op.errors, 405, 413, 500, 503].filter((s, i, all) => all.indexOf(s) === i).sort();
    const responses = {
      "200": { description: "Success envelope.", headers: headerRefs, content: json(op.response) },
      ...errorResponses(statuses.filter((status) => status !== 413 || op.body)),
    };
    const { query, body } = inputs(op);
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      security: op.auth ? [{ bearerAuth: [] }] : [],
      parameters: [
        { name: "Service-Api-Version", in: "header", required: false, description: "Pin the API version; only `1` is known.", schema: { type: "string", enum: ["1"] } },
        ...(op.reservationPath ? [{ name: "reservationUuid", in: "path", required: true, description: "The reservation; an unknown or malformed uuid answers 404.", schema: { type: "string", format: "uuid" } }] : []),
        ...(op.idempotent
          ? [{ name: "Idempotency-Key", in: "header", required: false, description: "Retries with the same key and body get the first answer (header `Idempotent-Replayed: true`); the same key with another body is 422.", schema: { type: "string", maxLength: 255 } }]
          : []),
        ...query,
      ],
      ...body,
      responses,
    };
  }
  for (const op of ADMIN_OPERATIONS) {
    const responses = {
      "200": { description: "Success envelope.", content: json(op.response) },
      ...(op.accepted
        ? { "202": { description: op.accepted, headers: { Location: { description: "Where to follow the work.", schema: { type: "string", format: "uri" } } }, content: json(op.response) } }
        : {}),
      ...errorResponses([...op.errors, 500, 503]),
    };
    const { query, body } = inputs(op);
    const pathParams = op.pathParam === null ? [] : Array.isArray(op.pathParam) ? op.pathParam : [op.pathParam];
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      tags: [op.path.startsWith("/console") ? "Console" : "Admin"],
      summary: op.summary,
      description: adminDescription(op),
      security: op.access === "sign-in" ? [] : op.access === "session" ? [{ consoleSession: [] }] : [{ adminKey: [] }, { consoleSession: [] }],
      parameters: [
        ...pathParams.map((name) => ({ name, in: "path", required: true, description: PATH_PARAMS[name], schema: PATH_PARAM_SCHEMAS[name] ?? { type: "integer" } })),
        ...query,
      ],
      ...body,
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Booking API",
      version: "1",
      description:
        "Public API of the booking calendar: slots, configuration and booking of one event type, identified by its API token (or its publishable link token, which acts alike). Which token goes where: pages (the `<booking-calendar>` element, booking pages, embed HTML) carry the link token (`bcl_…`, the admin API's `linkToken`), which is public by design; the API token (`bk_…`) is for servers and kept secret. Rate limit: each of an event type's tokens counts per event type and client address (IPv6 per /64), so no client, whichever token it holds, can use up another address's budget; requests without a valid token count per client address. Every response carries `Service-Api-Version: 1`, an `apigw-requestid` and the rate limit headers; every error is JSON. An event type with a slug has a shareable HTML booking page at `/book/{slug}` (outside this API): the configuration answers its address as `bookingUrl`, and reservation results carry the visitor's reschedule and cancel link as `manageUrl`. The organizer's private iCalendar feed of an event type's confirmed bookings is at `/feeds/{feedToken}.ics` (outside this API, `text/calendar` with an ETag; its address is in the admin API's event type answer as `feedUrl`). The element's script-tag file is served (outside this API, to any origin) at `/embed/v/{version}/booking-calendar.js`, immutable and cached for a year (an earlier version's URL redirects to the current one), and at `/embed/booking-calendar.js`, revalidated after five minutes; the same file opens the calendar in a popup or from a floating button. Beside either URL it fetches what only some pages need, on first need: its texts in other languages at `locales/{language}.json`, and parts of its code at `parts/popup.js` (the popup and floating button) and `parts/payment.js` (the card payment step) and `parts/manage.js` (the screens of an existing booking), e.g. `/embed/parts/popup.js` or, immutable, `/embed/v/{version}/parts/popup.js`. For a paid event type the configuration's `payment.stripeJsUrl`, when present, names the Stripe.js the element loads instead of Stripe's own (the server's stand-in outside production).",
    },
    servers: [{ url: "/" }, { url: aliasPrefix, description: "Path-based alias; same routes." }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The event type's publishable link token (bcl_...), which pages carry, or its API token (bk_...), which servers keep secret. Either counts in a rate limit budget per event type and client address." },
        adminKey: { type: "http", scheme: "bearer", description: "The server's BOOKING_ADMIN_KEY (admin routes, tagged Admin)." },
        consoleSession: {
          type: "apiKey",
          in: "cookie",
          name: "booking_console",
          description: "The organizer console's session cookie (`__Host-booking_console` in production), set by `POST /console/session`. Changes sent with it must carry the console's own `Origin` (403 `forbidden` otherwise). An `admin` session may use every admin route; a `host` session only what each route says of hosts, for its own host. An answer that moves the session's end on (at most once a minute) renews the cookie for as long, whatever its status; a lockout of sign-ins from the address never ends a session.",
        },
      },
      headers,
      schemas: {
        Error: plain(ErrorBody),
        TimeSlot: plain(TimeSlot),
        EventTypeConfiguration: plain(EventTypeConfiguration),
        CustomField: plain(CustomField),
        Reservation: plain(Reservation),
        Location: plain(Location),
        InitData: plain(InitData),
        ReservationInput: plain(ReservationInput),
      },
      responses: Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, description]) => [
          `E${status}`,
          {
            description: `${description} Codes: ${Object.entries(ERROR_CODES).filter(([, s]) => String(s) === status).map(([c]) => c).join(", ")}.`,
            headers: status === "429" || status === "503" ? { ...headerRefs, "Retry-After": { schema: { type: "integer" } } } : headerRefs,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        ]),
      ),
    },
  };
}

/** A TypeBox schema as plain JSON Schema (drops TypeBox's symbol markers). */
export function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema));
}
