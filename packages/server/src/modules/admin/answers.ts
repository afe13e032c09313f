import { Type } from "@sinclair/typebox";
import { RESERVATION_STATUSES } from "@booking/wire";

/**
 * The answers of the organizer's routes, as the routes declare them (`response`) and the OpenAPI
 * document describes them.
 */

export const BusySourceView = Type.Object({
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
export const SyncOutcome = Type.Object({ ok: Type.Boolean(), changed: Type.Boolean({ description: "Whether the busy times changed (cached slot pages are recomputed)." }), downloaded: Type.Integer({ description: "Objects downloaded: only new and changed ones." }), error: Type.Union([Type.String(), Type.Null()]) });

export const HostBookingView = Type.Object({
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


/** A booking as the organizer's lists show it (`GET /admin/reservations`, one booking, its host's bookings). */
export const AdminBookingView = Type.Object({
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
export const Delivery = Type.Object({
  id: Type.Integer(),
  channel: Type.String({ description: "`webhook`, `email`, `caldav` or `reminder`." }),
  kind: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
});
/** A signed-in browser of the console: never its secret. */
export const SessionView = Type.Object({
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
export const WritableCalendar = Type.Object({
  url: Type.String({ format: "uri", description: "Send it as `calendar` to `PUT /admin/busy-sources/{sourceId}/write-bookings`." }),
  name: Type.String({ description: "Its display name (its URL when it has none)." }),
  writing: Type.Boolean({ description: "Whether the host's bookings are written into it now." }),
});

/**
 * The organizer's view of an event type: its settings (those of `PATCH /admin/event-types/{id}`) and
 * state, never token hashes nor the webhook signing secret.
 */
export const EventTypeAdminView = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    reminderMinutes: Type.Array(Type.Integer(), { description: "The reminder offsets in use." }),
    slug: Type.Union([Type.String(), Type.Null()], { description: "Name of the booking page `/book/{slug}`, or null." }),
    linkToken: Type.String({ description: "The booking page's publishable credential; public by design." }),
    feedToken: Type.String({ description: "The secret of the private booking feed." }),
    feedUrl: Type.String({ format: "uri", description: "The private booking feed `/feeds/{feedToken}.ics`." }),
    disabled: Type.Boolean(),
    webhookDisabledAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "When the receiver answered 410 Gone; events resume once `webhookUrl` is set again." }),
    hosts: Type.Array(Type.Object({ hostId: Type.Integer(), name: Type.String(), priority: Type.Integer(), scheduleId: Type.Union([Type.Integer(), Type.Null()]) }), {
      description: "Whose time it books, in order, with each host's name and the schedule used (null: `availability`).",
    }),
    assignment: Type.Union([Type.Literal("collective"), Type.Literal("round-robin")]),
    createdAt: Type.String({ format: "date-time" }),
    updatedAt: Type.String({ format: "date-time" }),
  },
  { additionalProperties: true, description: "Every setting of `PATCH /admin/event-types/{id}` besides these." },
);

/** The plain tokens of a new or regenerated event type, shown this once. */
export const IssuedTokensView = Type.Object({
  id: Type.Integer(),
  token: Type.Optional(Type.String({ description: "The API token (`bk_…`), for servers." })),
  overrideToken: Type.Optional(Type.String({ description: "The organizer's override token, lifting the visitors' notice rules." })),
  linkToken: Type.Optional(Type.String({ description: "The publishable link token (`bcl_…`), for pages." })),
});

/** A booking list's page: its bookings and the cursor of the next page. */
export const BookingPage = Type.Object({ items: Type.Array(AdminBookingView), next: Type.Union([Type.String(), Type.Null()]) });
/** One booking with what was sent about it. */
export const BookingWithDeliveries = Type.Object({ ...AdminBookingView.properties, deliveries: Type.Array(Delivery) });

/** One try at delivering an event. */
const AttemptView = Type.Object({ attempt: Type.Integer(), at: Type.String({ format: "date-time" }), statusCode: Type.Union([Type.Integer(), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]), durationMs: Type.Integer() });

/** An event of the durable outbox with its delivery state and attempts. */
export const DeliveryLog = Type.Object({
  id: Type.Integer(),
  channel: Type.Optional(Type.String({ description: "`webhook`, `email`, `caldav` or `reminder` (the list of every channel)." })),
  webhookId: Type.String({ description: "The event's id (a webhook's `webhook-id`)." }),
  kind: Type.String(),
  reservationUuid: Type.Union([Type.String(), Type.Null()]),
  url: Type.String({ description: "Where it goes: the webhook URL, `mailto:` the recipient, the calendar entry." }),
  status: Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed")]),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  deliveredAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  createdAt: Type.String({ format: "date-time" }),
  attemptLog: Type.Array(AttemptView),
});

/** A booking of one event type as its range list shows it. */
export const EventTypeBookingView = Type.Omit(AdminBookingView, ["eventTypeId", "eventTypeTitle", "manageUrl"]);
