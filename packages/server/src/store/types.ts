import type {
  BusySourceKind as WireBusySourceKind,
  CustomFieldValue,
  DeliveryChannel,
  HostAssignment as WireHostAssignment,
  Location,
  PaymentStatus,
  ReservationStatus,
  SessionRole,
} from "@booking/wire";
import type { AvailabilityRules, EventTypeSettings } from "../domain/event-type.ts";
import type { AttemptLimiter, RateLimiter } from "./rate-limiter.ts";
import type { BusyInterval } from "../domain/slots.ts";

/**
 * A person whose time event types sell: their bookings of every event type, their schedules and their
 * calendars block them everywhere (docs/hosts.md). One host is the default: an event type created
 * without naming hosts belongs to it, and the migration gave it every event type that existed.
 */
export interface HostRecord {
  id: number;
  name: string;
  /** Where the host's copies of confirmations go and how invites name the organizer; null when unknown (a migrated default host). */
  email: string | null;
  /** IANA zone the host's schedules default to. */
  timezone: string;
  avatarUrl: string | null;
  isDefault: boolean;
  /** The CalDAV calendar the host's confirmed bookings are written into: a collection of one of the host's CalDAV busy sources. */
  bookingsCalendar: { sourceId: number; calendarUrl: string } | null;
  /** The secret of the host's own private booking feed `/feeds/{feedToken}.ics`: their confirmed bookings of every event type, nobody else's. */
  feedToken: string;
  /** Bumped by every change of the host, its schedules, its calendars' busy times and its bookings (of any event type). */
  revision: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What a new host needs. */
export type NewHost = Pick<HostRecord, "name" | "email" | "timezone" | "avatarUrl" | "feedToken">;
/** Fields of a host an update may replace. */
export type HostChange = Partial<NewHost & Pick<HostRecord, "bookingsCalendar">>;

/** A named availability of a host: weekly hours and date overrides in its zone. */
export interface ScheduleRecord {
  id: number;
  hostId: number;
  name: string;
  timezone: string;
  availability: AvailabilityRules;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What a new schedule needs. */
export type NewSchedule = Pick<ScheduleRecord, "hostId" | "name" | "timezone" | "availability">;
/** Fields of a schedule an update may replace. */
export type ScheduleChange = Partial<Pick<ScheduleRecord, "name" | "timezone" | "availability">>;

/** One host of an event type: its rank for round robin, and the schedule it uses there (null: the event type's own hours). */
export interface EventTypeHost {
  hostId: number;
  /** Round robin offers a booking to the free hosts of the highest priority first. */
  priority: number;
  scheduleId: number | null;
}

/**
 * A host of an event type as read with the event type: who they are, and the schedule used (null:
 * the event type's own hours). Read in the same statement as the event type, so a booking or a slot
 * list needs no more round trips for its hosts; a change of the host or schedule gives the event
 * type a new revision, so the record is never older than them.
 */
export interface EventTypeHostInfo extends EventTypeHost {
  name: string;
  email: string | null;
  timezone: string;
  avatarUrl: string | null;
  bookingsCalendar: HostRecord["bookingsCalendar"];
  schedule: Pick<ScheduleRecord, "timezone" | "availability"> | null;
  /** The host's revision as read with the event type (see HostRecord), which caches of the host's time key on. */
  revision?: number;
}

/**
 * How an event type with several hosts books: `collective` offers a time when every host is free and
 * the booking takes all of them; `round-robin` offers it when any host is free and assigns one. With
 * one host both are the same.
 */
export type HostAssignment = WireHostAssignment;

/** An event type as stored. Tokens are kept only as SHA-256 hashes. */
export interface EventTypeRecord {
  id: number;
  /**
   * Bumped by every change of the event type or of its reservations, and by every change of its
   * hosts (their bookings of other event types, calendars, schedules); caches key on it.
   */
  revision: number;
  /** Its hosts, in the order given; never empty. */
  hosts: EventTypeHostInfo[];
  assignment: HostAssignment;
  disabled: boolean;
  tokenHash: string;
  overrideTokenHash: string;
  /** URL-safe name of the event type's booking page, `/book/{slug}`; unique, null without a page. */
  slug: string | null;
  /**
   * The booking page's publishable credential (`bcl_...`). It is published in the page by design,
   * so it is kept in plain text; the public API accepts it like the API token, and regenerating the
   * API token replaces it.
   */
  linkToken: string;
  /**
   * The secret of the private iCalendar feed of the event type's confirmed bookings
   * (`/feeds/{feedToken}.ics`, `bcf_...`). Kept in plain text because the organizer is shown the
   * feed's URL again (calendar apps keep it as a subscription); it opens that feed and nothing else.
   */
  feedToken: string;
  settings: EventTypeSettings;
  /** `whsec_` secret the event type's webhooks are signed with. */
  webhookSecret: string;
  /** Set when the receiver answered 410 Gone: no more events are written until the URL is set again. */
  webhookDisabledAtMs: number | null;
  createdAt: string;
  updatedAt: string;
}

/** What a new event type needs; id, revision and timestamps are the store's. */
export type NewEventType = Pick<EventTypeRecord, "disabled" | "tokenHash" | "overrideTokenHash" | "slug" | "linkToken" | "settings" | "webhookSecret"> &
  /** The store makes a random feed token when none is given; without hosts the event type belongs to the default host, collective. */
  Partial<Pick<EventTypeRecord, "feedToken" | "assignment">> & { hosts?: EventTypeHost[] };

/** Fields of an event type that an update may replace. */
export type EventTypeChange = Partial<Omit<NewEventType, "hosts"> & Pick<EventTypeRecord, "webhookDisabledAtMs">> & { hosts?: EventTypeHost[] };

/** The card payment of a reservation: what was asked of the provider, and what it answered. */
export interface PaymentRecord {
  intentId: string;
  /** Connected account the intent lives on. */
  account: string;
  /** Amount and currency the intent was created for; a success for anything else is not accepted. */
  amount: number;
  currency: string;
  /**
   * `processing`: the provider has the payment but not the money yet; a processing or succeeded
   * payment keeps its hold's seat. `refunding`/`refunded`: the payment succeeded after its seat was
   * gone, so the reservation was cancelled and the money is (being) given back.
   */
  status: PaymentStatus;
  billing: Record<string, string>;
  succeededAtMs: number | null;
  /** The provider's refund (`re_...`) once the money was given back. */
  refundId?: string | null;
}

/** A reservation as stored; times are epoch milliseconds. */
export interface ReservationRecord {
  uuid: string;
  eventTypeId: number;
  /** The hosts the booking takes: every host of a collective event type, the one assigned by round robin. */
  hostIds: number[];
  status: ReservationStatus;
  startMs: number;
  endMs: number;
  heldUntilMs: number | null;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  timezone: string | null;
  /**
   * The language and clock the visitor booked in, a BCP 47 tag (`de`, `en-u-hc-h12`): the emails
   * and invites of the booking follow it. Absent or null when the request named none.
   */
  locale?: string | null;
  location: Location | null;
  guests: string[];
  customFields: CustomFieldValue[];
  meetLink: string | null;
  /**
   * iCalendar SEQUENCE of the booking's invites: 0 when booked, raised by each reschedule and
   * cancellation, so calendars take the newest invite of the same UID over older ones.
   */
  sequence: number;
  payment: PaymentRecord | null;
  confirmedAtMs: number | null;
  cancelledAtMs: number | null;
  /** What the visitor or organizer gave as the reason for cancelling; absent or null when none was given. */
  cancelReason?: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** A reservation that holds a seat, as slot computation needs it. */
export type SeatHolder = Pick<ReservationRecord, "uuid" | "startMs" | "endMs" | "heldUntilMs"> & Partial<Pick<ReservationRecord, "hostIds">>;

/**
 * A time a host is taken outside the event type in view: a booking of another event type (held until
 * `heldUntilMs`, or null when it holds for good) or a busy interval of the host's calendars (null).
 */
export interface HostBusyInterval {
  hostId: number;
  startMs: number;
  endMs: number;
  heldUntilMs: number | null;
}

/** What a claim hands its decision about one candidate host. */
export interface HostView {
  hostId: number;
  /** The host's calendars and bookings of other event types meeting the claim's busy span. */
  busy: BusyInterval[];
  /** When the host's latest held or confirmed booking of this event type was made; null for none or when not asked (`SeatClaim.lastBooked`). */
  lastBookedAtMs: number | null;
}

/** What a seat claim reads inside its transaction before deciding. */
export interface SeatClaim {
  eventTypeId: number;
  /** Seat holders overlapping [fromMs, untilMs) at `nowMs` are handed to the decision. */
  fromMs: number;
  untilMs: number;
  /**
   * The instant the claim is judged at, or the clock to read it from. A clock is read inside the
   * write transaction, so a request that waited (on Stripe, on the lock) is judged at the instant
   * of its write, never at the instant it started: a hold that lapsed meanwhile no longer holds.
   */
  nowMs: number | (() => number);
  /**
   * The span the written reservation will occupy, when known before deciding: PostgreSQL locks it
   * exclusively and the rest of the window shared, so claims of neighbouring slots do not wait for
   * each other; [fromMs, untilMs) when absent. A decision writing outside it is an error.
   */
  seat?: { startMs: number; endMs: number };
  /** The existing reservation the claim concerns: read in the transaction, and its own seat left out. */
  uuid?: string;
  /**
   * The hosts the written reservation may take (its `hostIds` must be among them): their time is
   * locked and read with the seats, so bookings of one host through different event types exclude
   * each other, and bookings of different hosts never wait for each other. The event type's hosts
   * when absent.
   */
  hostIds?: number[];
  /** Read when each candidate host was last booked through this event type (round robin's rule). */
  lastBooked?: boolean;
  /** Idempotency key of the request: the claimed reservation is tied to it in the same transaction. */
  idempotencyKey?: string;
  /**
   * The span (the seat with the organizer's buffers) whose busy intervals from the hosts' calendars
   * (`store.busy`) and bookings of other event types are read in the same transaction and handed to
   * the decision; none are read without it.
   */
  busySpan?: { fromMs: number; untilMs: number };
}

/** Kinds of busy sources: a CalDAV account or calendar, or a read-only iCalendar feed URL. */
export type BusySourceKind = WireBusySourceKind;

/** One of the organizer's calendars an event type reads busy times from, with its sync state. */
export interface BusySourceRecord {
  id: number;
  /** The host whose calendar it is: its busy times block every event type of the host. */
  hostId: number;
  kind: BusySourceKind;
  url: string;
  /** User name for HTTP authentication, or null. */
  username: string | null;
  /** Password or token; never shown by any API, only whether one is set. */
  secret: string | null;
  /** Calendar collection URLs chosen after discovery (CalDAV); empty: every calendar found. */
  calendars: string[];
  /** Minutes a sync stays fresh; null: the server's default. */
  freshnessMinutes: number | null;
  /** What the last good sync saw: CalDAV ctags per calendar, a feed's ETag and Last-Modified. */
  syncState: Record<string, string>;
  lastAttemptAtMs: number | null;
  lastSuccessAtMs: number | null;
  lastFailureAtMs: number | null;
  /** Why the last attempt failed; null once one succeeded after it. */
  lastError: string | null;
  /** Attempts that failed in a row since the last success: the sync waits longer before each retry. */
  failureCount: number;
  /** Objects the last expansion could not read and left out (the others counted), with why. */
  skippedObjects: SkippedObject[];
  /** Busy intervals are kept until this instant (the booking horizon when they were expanded). */
  expandedUntilMs: number | null;
  objectCount: number;
  intervalCount: number;
  createdAtMs: number;
}

/** A calendar object a sync could not read and left out, the others counting. */
export interface SkippedObject {
  href: string;
  reason: string;
}

/** What a new busy source needs. */
export type NewBusySource = Pick<BusySourceRecord, "hostId" | "kind" | "url" | "username" | "secret" | "calendars" | "freshnessMinutes">;

/** One calendar object as fetched: its URL (the feed's URL for a feed), ETag and iCalendar text. */
export interface BusyObject {
  href: string;
  etag: string | null;
  ics: string;
}

/** What one successful sync of a source writes, in one transaction. */
export interface BusySyncWrite {
  atMs: number;
  syncState: Record<string, string>;
  /** Objects new or changed. */
  upserts: BusyObject[];
  /** Hrefs of objects gone. */
  deletes: string[];
  /** The source's busy intervals afresh, or null when they stay as they are. */
  intervals: BusyInterval[] | null;
  /** The objects left out of those intervals; absent or null when they stay as they are (as the intervals do). */
  skippedObjects?: SkippedObject[] | null;
  expandedUntilMs: number | null;
}

/** Kinds of webhook events (decisions.md). */
export type WebhookKind = "reservation.created" | "reservation.rescheduled" | "reservation.cancelled";

/**
 * Delivery channels of the outbox: signed webhooks to the organizer's URL, confirmation emails,
 * bookings written into the organizer's calendar, and reminder emails (due some time before a
 * meeting, withdrawn when the booking changes; see `OutboxEvent.notBeforeMs`).
 * A channel is a name in the outbox's rows (no schema change adds one): another channel needs its
 * name here and a deliverer (modules/outbox/worker.ts) that takes its events.
 */
export type OutboxChannel = DeliveryChannel;

/**
 * What the store adds, for one reservation, to the `lastError` of its pending reminders when a later
 * change of the reservation withdraws them (they are marked failed, never sent).
 */
export const REMINDER_WITHDRAWN = "withdrawn: the booking changed before the reminder was due";

/**
 * The reservations whose pending reminders a batch of events withdraws: those it moves or cancels.
 * A booking's creation has none yet, so its events (the hot path) cost no extra statement.
 */
export function changedReservations(events: readonly OutboxEvent[]): Set<string> {
  return new Set(events.filter((e) => e.kind !== "reservation.created").map((e) => e.reservationUuid));
}

/** An outbox event to write in the same transaction as the change it reports. */
export interface OutboxEvent {
  /** Who delivers it; `webhook` when absent. */
  channel?: OutboxChannel;
  eventTypeId: number;
  reservationUuid: string;
  kind: WebhookKind;
  /** Message id, the same for every attempt: the Standard Webhooks id of a webhook, the Message-ID of an email. */
  msgId: string;
  /**
   * Where it goes: a webhook's is the event type's URL when the event was written and, after an
   * attempt, the URL that attempt went to; an email's is `mailto:` its recipient.
   */
  url: string;
  /** The JSON body: a webhook's is signed byte for byte; an email's is the rendered message (modules/mail/events.ts). */
  payload: string;
  createdAtMs: number;
  /**
   * Not delivered before this instant (a reminder's due time); due at once when absent. A
   * reschedule or cancel event of a reservation withdraws its reminders still pending, in the same
   * transaction, so the change leaves only the reminders it writes itself (see `changedReservations`).
   */
  notBeforeMs?: number;
}

/** An outbox event with its delivery state. */
export interface OutboxDelivery extends OutboxEvent {
  channel: OutboxChannel;
  id: number;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAtMs: number;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAtMs: number | null;
}

/** An outbox event of the webhook channel with its delivery state. */
export type WebhookDelivery = OutboxDelivery;

/** One try at delivering an event. */
export interface WebhookAttempt {
  attempt: number;
  atMs: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A decision taken with the seats in view: write this reservation (new or changed) and the events it causes, or refuse. */
export type SeatDecision = { write: ReservationRecord; events?: OutboxEvent[] } | { refuse: string };

/** Thrown when an event type would take the slug of another; nothing was written. */
export class SlugTakenError extends Error {
  constructor(readonly slug: string) {
    super(`the slug "${slug}" belongs to another event type`);
  }
}

/** Thrown when another writer holds the store beyond a short wait; nothing was written. */
export class StoreBusyError extends Error {
  constructor() {
    super("another writer holds the store");
  }
}

/**
 * Thrown when the store's database cannot be reached or ended the session (a restart, a failover, a
 * terminated backend). A transaction that lost its connection is rolled back by the database, unless
 * the loss came during its COMMIT (then StoreOutcomeUnknownError); a request may be tried again once
 * the database is back.
 */
export class StoreUnavailableError extends Error {}

/**
 * Thrown when the connection was lost while a transaction's COMMIT was on its way or its answer
 * was: the database may have saved the transaction or not, and this process cannot tell. Unlike
 * other losses, something may have changed; a keyed request learns which from its key
 * (`idempotency.begin` answers `saved` when its booking was committed).
 */
export class StoreOutcomeUnknownError extends StoreUnavailableError {}

/** Where a request with an idempotency key stands. */
export type IdempotencyState =
  | { state: "new" }
  | { state: "done"; status: number; response: string }
  | { state: "pending" }
  /**
   * A booking was saved under the key but no answer was stored: its request lost the connection at
   * COMMIT (answered 503, outcome unknown) or failed after it. A retry answers that booking.
   */
  | { state: "saved"; reservationUuid: string }
  | { state: "mismatch" };

/** Filter of the organizer's reservation list. */
export interface ReservationQuery {
  fromMs: number;
  untilMs: number;
  /** Stored statuses to include; all when absent. */
  statuses?: ReservationStatus[];
  limit: number;
}

/**
 * Filter of the organizer's reservation list across event types, newest start first or oldest
 * first, paged by keyset (`after`: the start and uuid of the last row of the page before), so the
 * thousandth page costs what the first does.
 */
export interface ReservationSearch {
  /** One event type, or all of them. */
  eventTypeIds?: number[];
  /** Only reservations that take this host's time. */
  hostId?: number;
  /** Reservations overlapping [fromMs, untilMs); unbounded where left out. */
  fromMs?: number;
  untilMs?: number;
  /** Stored statuses to include; all when absent. */
  statuses?: ReservationStatus[];
  /** Case-insensitive part of the visitor's name or email. */
  text?: string;
  order: "asc" | "desc";
  after?: { startMs: number; uuid: string };
  limit: number;
}

/** Who a console session acts as: the organizer (`admin`), or one host (`host`), who sees and manages only their own schedules, calendars and bookings. */
export type ConsoleRole = SessionRole;

/** A signed-in browser of the organizer console; only the hash of its cookie's secret is stored. */
export interface ConsoleSessionRecord {
  /** Public id, shown in the list of sessions and used to revoke one. */
  id: string;
  tokenHash: string;
  role: ConsoleRole;
  /** The host a host's session is limited to; null for the organizer. */
  hostId: number | null;
  /** How it was opened: with the admin key, or with a one-time sign-in link. */
  method: "key" | "link";
  /** Hash of the admin key it was opened with (or of "" for a link): a changed key ends such sessions. */
  keyFingerprint: string;
  createdAtMs: number;
  expiresAtMs: number;
  lastSeenAtMs: number;
  revokedAtMs: number | null;
  address: string;
  userAgent: string;
}

/** A one-time sign-in link to the console: its secret's hash, whom it signs in, until when. */
export interface ConsoleSignInLink {
  tokenHash: string;
  role: ConsoleRole;
  hostId: number | null;
  createdAtMs: number;
  expiresAtMs: number;
}

/**
 * What the record of an attempt writes with it, whatever the attempt's outcome, and only when the
 * worker still holds the attempt (so once per event across workers): `events` added to the outbox
 * (withdrawing nothing), and the event's payload replaced by `payload` (so a later attempt does not
 * write them again).
 */
export interface AttemptFollowUps {
  events: OutboxEvent[];
  payload: string;
}

/** The events of one outbox channel, as its worker sees them. */
export interface ChannelOutbox {
  /**
   * Takes up to `limit` due events for delivery: pending, due, not leased by another worker, and
   * with no earlier undelivered event of the same reservation on this channel (order per reservation and channel). Leases them
   * until `nowMs + leaseMs` and counts the attempt, in one write transaction, so two workers (even
   * in two processes) never hold the same attempt. No more events of one event type are leased
   * than `perEventType` less the leases every worker holds at the start of the call, so one slow
   * receiver cannot take every delivery slot (no such bound without `perEventType`). On SQLite the
   * bound is exact; on PostgreSQL two workers claiming at the same instant do not see each other's
   * new leases and may each lease up to the bound.
   */
  claimDue(nowMs: number, leaseMs: number, limit: number, perEventType?: number): Promise<OutboxDelivery[]>;
  /**
   * Records an attempt and what follows: delivered, another try at `nextAttemptAtMs`, or failed;
   * only while the attempt is still the event's latest (a worker whose lease ran out writes nothing).
   * `url`, where the attempt went (the event type's URL at the time), becomes the event's `url`;
   * `followUps` are written in the same transaction (see `AttemptFollowUps`).
   */
  recordAttempt(
    id: number,
    attempt: WebhookAttempt,
    outcome: ({ status: "delivered" | "failed" } | { status: "pending"; nextAttemptAtMs: number }) & { url?: string; followUps?: AttemptFollowUps },
  ): Promise<void>;
  /** The event type's most recent events, newest first, each with its attempts. */
  recent(eventTypeId: number, limit: number): Promise<(OutboxDelivery & { attemptLog: WebhookAttempt[] })[]>;
}

/**
 * The storage of the service. Asynchronous so that the embedded SQLite engine and a networked
 * engine serve routes and domain code through the same calls.
 */
export interface Store {
  readonly engine: string;
  /** A rate limiter whose counters live in the store, shared by every instance on it; absent for an embedded store. */
  readonly rateLimiter?: RateLimiter;
  /**
   * Attempt counters of one limit kept in the store (keys apart by `name`), shared by every instance
   * and process on its database, SQLite file or PostgreSQL: the console's sign-in failures, which
   * must hold however the guesses are spread.
   */
  attemptLimiter(name: string, limit: number, windowSeconds: number): AttemptLimiter;
  /** The people whose time is booked (docs/hosts.md). */
  readonly hosts: {
    create(input: NewHost, nowMs: number): Promise<HostRecord>;
    byId(id: number): Promise<HostRecord | null>;
    /** Several at once, in the order asked; unknown ids are left out. */
    byIds(ids: readonly number[]): Promise<HostRecord[]>;
    list(): Promise<HostRecord[]>;
    /** The host of event types created without naming hosts. */
    defaultHost(): Promise<HostRecord>;
    /** The host whose own booking feed has this secret, or null. */
    byFeedToken(feedToken: string): Promise<HostRecord | null>;
    /** Replaces the given fields and bumps the revision; null when the id is unknown. */
    update(id: number, change: HostChange, nowMs: number): Promise<HostRecord | null>;
    /** Deletes a host with its schedules and calendars; refused while it is the default, hosts an event type or has bookings. */
    delete(id: number): Promise<"deleted" | "not_found" | "default" | "in_use">;
    /** Ids of the event types the host belongs to. */
    eventTypeIds(hostId: number): Promise<number[]>;
    /** The host's reservations of every event type meeting [fromMs, untilMs), by start. */
    reservations(hostId: number, query: ReservationQuery): Promise<ReservationRecord[]>;
    /**
     * What takes the hosts' time at `nowMs` outside event type `exceptEventTypeId` and meets
     * [fromMs, untilMs): their held or confirmed bookings of other event types and their calendars'
     * busy intervals. Slot lists read it; claims read the same inside their transaction.
     */
    busy(hostIds: readonly number[], exceptEventTypeId: number, fromMs: number, untilMs: number, nowMs: number): Promise<HostBusyInterval[]>;
  };
  /** Named weekly hours of hosts. */
  readonly schedules: {
    /** Bumps the host's revision. */
    create(input: NewSchedule, nowMs: number): Promise<ScheduleRecord>;
    byId(id: number): Promise<ScheduleRecord | null>;
    /** Schedules of one host, or of all, oldest first. */
    list(hostId?: number): Promise<ScheduleRecord[]>;
    /** Replaces the given fields and bumps the host's revision; null when unknown. */
    update(id: number, change: ScheduleChange, nowMs: number): Promise<ScheduleRecord | null>;
    /** Deletes a schedule no event type uses; `in_use` otherwise. */
    delete(id: number): Promise<"deleted" | "not_found" | "in_use">;
  };
  readonly eventTypes: {
    /** Throws SlugTakenError when another event type has the slug. */
    create(input: NewEventType, nowIso: string): Promise<EventTypeRecord>;
    byId(id: number): Promise<EventTypeRecord | null>;
    byTokenHash(tokenHash: string): Promise<EventTypeRecord | null>;
    /** The event type whose booking page credential this is. */
    byLinkToken(linkToken: string): Promise<EventTypeRecord | null>;
    /** The event type whose private booking feed this is. */
    byFeedToken(feedToken: string): Promise<EventTypeRecord | null>;
    /** The event type whose booking page is `/book/{slug}`. */
    bySlug(slug: string): Promise<EventTypeRecord | null>;
    list(): Promise<EventTypeRecord[]>;
    count(): Promise<number>;
    /** Replaces the given fields and bumps the revision; null when the id is unknown. Throws SlugTakenError when another event type has the slug. */
    update(id: number, change: EventTypeChange, nowIso: string): Promise<EventTypeRecord | null>;
    /** Deletes the event type and its reservations; false when the id is unknown. */
    delete(id: number): Promise<boolean>;
  };
  readonly reservations: {
    /** Reservations that hold a seat at `nowMs` (confirmed, or held until later) and overlap [fromMs, untilMs). */
    seatHolders(eventTypeId: number, fromMs: number, untilMs: number, nowMs: number): Promise<SeatHolder[]>;
    byUuid(eventTypeId: number, uuid: string): Promise<ReservationRecord | null>;
    byPaymentIntent(intentId: string): Promise<ReservationRecord | null>;
    list(eventTypeId: number, query: ReservationQuery): Promise<ReservationRecord[]>;
    /** The organizer's list across event types: one page of `search`, in its order. */
    search(search: ReservationSearch): Promise<ReservationRecord[]>;
    /**
     * Stores reservations as given, in one transaction, and bumps the event type's revision: for
     * seeding and imports only. Nothing is judged (seats may end up oversold) and, on PostgreSQL,
     * claims of the same time running meanwhile are not excluded; never call it while the event
     * types concerned take bookings.
     */
    insertMany(records: ReservationRecord[]): Promise<void>;
    /**
     * The one way seats are taken. In a single write transaction: reads the seat holders of the
     * window (and the reservation `claim.uuid`, whose own seat is left out), lets `decide` choose,
     * and writes what it chose, so confirmed plus held never exceed a slot's seats, whatever runs
     * at the same time in this or another process. Throws StoreBusyError when the store is held by
     * another writer beyond a short wait. Answers the written reservation or the refusal. `decide`
     * gets the instant the claim is judged at: `claim.nowMs` (its clock read inside the transaction), or the database's own clock where the
     * engine keeps one time for several hosts (so hosts whose clocks differ never disagree about
     * whether a hold still holds its seat).
     */
    claim(
      claim: SeatClaim,
      decide: (holders: SeatHolder[], current: ReservationRecord | null, nowMs: number, busy: BusyInterval[], hosts: HostView[]) => SeatDecision,
    ): Promise<{ record: ReservationRecord } | { refused: string }>;
    /**
     * Replaces a reservation that takes no new seat (cancelling, recording a payment) if nobody
     * changed it since `expectedUpdatedAtMs`; false when someone did.
     */
    save(record: ReservationRecord, expectedUpdatedAtMs: number, events?: OutboxEvent[]): Promise<boolean>;
    /**
     * Held reservations whose payment succeeded and whose hold time is over, oldest hold first: the
     * sweep confirms them (the visitor paid and left). Apart from `processingDue`, so payments that
     * stay processing for days never crowd them out of the sweep's batch.
     */
    paidHoldsDue(nowMs: number, limit: number): Promise<ReservationRecord[]>;
    /**
     * Reservations whose payment is recorded `processing` while they no longer wait for it: held past
     * their hold time, or no longer held (lapsed at the slot's start, cancelled by the organizer).
     * Least recently changed first (the sweep's check of one still processing moves it to the back).
     * The sweep asks Stripe about each, so a lost webhook never leaves money kept without a booking.
     */
    processingDue(nowMs: number, limit: number): Promise<ReservationRecord[]>;
    /** Cancelled reservations whose payment is still `refunding` (the refund call failed), least recently changed first: the sweep retries them (and moves one that failed again to the back). */
    refundsDue(limit: number): Promise<ReservationRecord[]>;
    /** Persists what time already decided (holds past their time become expired, stale ones cancelled) and forgets old idempotency keys. */
    sweep(nowMs: number): Promise<{ expired: number; cancelled: number }>;
  };
  /** The outbox of every delivery channel: each channel's events are leased and delivered apart. */
  readonly outbox: {
    /** The events of one channel, as its worker claims and records them. */
    channel(channel: OutboxChannel): ChannelOutbox;
    /** The event type's most recent events of every channel, newest first, each with its attempts. */
    recent(eventTypeId: number, limit: number): Promise<(OutboxDelivery & { attemptLog: WebhookAttempt[] })[]>;
    /**
     * Makes a failed or waiting event of the event type due at `nowMs` (a failed one pending again,
     * its attempts kept), unless a worker holds it right now or it is a reminder withdrawn by a
     * change of its booking; false when nothing was changed.
     */
    retryNow(eventTypeId: number, id: number, nowMs: number): Promise<boolean>;
  };
  /**
   * The hosts' calendars (busy sources), the objects last fetched from them and the busy intervals
   * expanded from those, which slot lists and seat claims read by time range.
   */
  readonly busy: {
    add(input: NewBusySource, nowMs: number): Promise<BusySourceRecord>;
    /** Sources of one host, or of all when left out, oldest first. */
    list(hostId?: number): Promise<BusySourceRecord[]>;
    byId(id: number): Promise<BusySourceRecord | null>;
    /** Deletes the source with its objects and intervals (bumping the host's revision); false when unknown. */
    remove(id: number): Promise<boolean>;
    objects(sourceId: number): Promise<BusyObject[]>;
    /** The objects' hrefs and ETags only: what a sync compares before it downloads anything. */
    objectTags(sourceId: number): Promise<Pick<BusyObject, "href" | "etag">[]>;
    /**
     * Writes a successful sync in one transaction: objects, state, success time (the failures in a
     * row back to none), and (when given) the intervals and the objects left out of them, bumping the host's revision when they differ from those kept, so cached
     * slot pages are recomputed. Answers whether the intervals changed; false for an unknown source.
     */
    recordSync(sourceId: number, write: BusySyncWrite): Promise<boolean>;
    /** Notes a failed sync (one more in a row); the objects and intervals of the last good one stay. */
    recordFailure(sourceId: number, atMs: number, error: string): Promise<void>;
    /** Busy intervals of all sources of the host meeting [fromMs, untilMs), by start. */
    between(hostId: number, fromMs: number, untilMs: number): Promise<BusyInterval[]>;
  };
  /** Signed-in browsers of the organizer console and the one-time links that sign one in. */
  readonly consoleSessions: {
    create(session: ConsoleSessionRecord): Promise<void>;
    /** The session whose cookie secret hashes to `tokenHash`, revoked or expired ones included. */
    byTokenHash(tokenHash: string): Promise<ConsoleSessionRecord | null>;
    /** Notes the session's last use and moves its expiry (an idle session ends, an active one lasts). */
    touch(id: string, lastSeenAtMs: number, expiresAtMs: number): Promise<void>;
    /** Sessions neither revoked nor expired at `nowMs`, newest first. */
    active(nowMs: number): Promise<ConsoleSessionRecord[]>;
    /** Revokes one session; false when it is unknown or was already revoked. */
    revoke(id: string, nowMs: number): Promise<boolean>;
    addLink(link: ConsoleSignInLink): Promise<void>;
    /** Uses a link up, once: its holder when it was unused and unexpired at `nowMs`, else null. */
    useLink(tokenHash: string, nowMs: number): Promise<Pick<ConsoleSignInLink, "role" | "hostId"> | null>;
  };
  /** The outbox's webhook channel (`outbox.channel("webhook")`). */
  readonly webhooks: ChannelOutbox;
  readonly idempotency: {
    /** Registers a keyed request, or tells how an earlier one with the same key stands. */
    begin(eventTypeId: number, key: string, requestHash: string, nowMs: number): Promise<IdempotencyState>;
    /** Stores the answer given to a keyed request, to be replayed to its retries; the first answer stored stays. */
    finish(eventTypeId: number, key: string, status: number, response: string): Promise<void>;
    /**
     * Forgets a keyed request that failed, so a retry runs afresh; a key tied to a booking is kept,
     * since that booking was saved. After a lost COMMIT this is what settles the key: the claim that
     * links a key holds its row until its transaction ends, so the delete waits for the end (or
     * fails, leaving the key to its lease) and frees the key only if the booking was not saved.
     */
    release(eventTypeId: number, key: string): Promise<void>;
  };
  close(): Promise<void>;
}
