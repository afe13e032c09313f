import type { CustomFieldValue, Location, PaymentStatus, ReservationStatus } from "@booking/wire";
import type { BusyInterval } from "../domain/slots.ts";
import type { SeriesMember, SeriesRule } from "../domain/series.ts";
import type { OutboxEvent } from "./outbox.ts";

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
  /** The series this reservation is an occurrence of (recurring bookings); absent or null for a single booking. */
  seriesId?: string | null;
  /** With `seriesId`: the series' rule and this occurrence's place in it. */
  seriesRule?: SeriesRule | null;
  /**
   * Not stored: the series' other occurrences as read when a change of this one began, so the
   * change's messages can say the whole series (see domain/series.ts `seriesPicture`).
   */
  seriesOthers?: SeriesMember[];
  createdAtMs: number;
  updatedAtMs: number;
}

/** A reservation that holds a seat, as slot computation needs it. */
export type SeatHolder = Pick<ReservationRecord, "uuid" | "startMs" | "endMs" | "heldUntilMs"> & Partial<Pick<ReservationRecord, "hostIds">>;

/**
 * A booking that booking limits count (domain/limits.ts): of the event type in view (`hostId` null)
 * or of one host through any event type. `heldUntilMs`: when a hold among them lapses, null for good.
 */
export interface LimitBooking {
  hostId: number | null;
  uuid: string;
  startMs: number;
  endMs: number;
  heldUntilMs: number | null;
}

/** Which bookings a claim reads for booking limits: those starting in [fromMs, untilMs) of the event type (when `eventType`) and of `hostIds`. */
export interface LimitRead {
  eventType: boolean;
  hostIds: number[];
  fromMs: number;
  untilMs: number;
}

/** What a seat claim's decision is handed: the seat holders, the reservation as it is now, the instant, busy times, the candidate hosts and the bookings limits count. */
export type ClaimDecide = (
  holders: SeatHolder[],
  current: ReservationRecord | null,
  nowMs: number,
  busy: BusyInterval[],
  hosts: HostView[],
  counted: LimitBooking[],
) => SeatDecision;

/** What a claim hands its decision about one candidate host. */
export interface HostView {
  hostId: number;
  /** The host's calendars and bookings of other event types meeting the claim's busy span. */
  busy: BusyInterval[];
  /** When the host's latest held or confirmed booking of this event type was made; null for none or when not asked (`SeatClaim.lastBooked`). */
  lastBookedAtMs: number | null;
  /** The host's time off meeting the claim's busy span, each with the colleague who takes its bookings (store/time-off.ts). */
  away: { startMs: number; endMs: number; colleagueHostId: number | null }[];
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
  /**
   * The bookings booking limits count, read in the same transaction and handed to the decision
   * (none without it). On PostgreSQL the claim also takes an exclusive lock per limited event type
   * and host, so two claims that each fit a limit alone never both commit past it.
   */
  limits?: LimitRead;
}

/** The answer of `claimSeries`: every record written, or the claims refused (and nothing written). */
export type SeriesOutcome = { records: ReservationRecord[] } | { refused: { index: number; reason: string }[] };

/** A decision taken with the seats in view: write this reservation (new or changed) and the events it causes, or refuse. */
export type SeatDecision = { write: ReservationRecord; events?: OutboxEvent[] } | { refuse: string };

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

/** The bookings of every event type, and the one way seats are taken (`claim`). */
export interface ReservationRepository {
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
  claim(claim: SeatClaim, decide: ClaimDecide): Promise<{ record: ReservationRecord } | { refused: string }>;
  /**
   * The bookings booking limits count at `nowMs`, starting in [fromMs, untilMs): of event type
   * `eventTypeId` (none for null) and of `hostIds` through any event type (domain/limits.ts).
   */
  limitBookings(eventTypeId: number | null, hostIds: readonly number[], fromMs: number, untilMs: number, nowMs: number): Promise<LimitBooking[]>;
  /**
   * The seats of a series (recurring bookings), all or nothing: in one write transaction, each claim
   * as `claim` runs it, in order (each sees what the ones before wrote). When any is refused, none
   * is written and every refused one is named. Each claim must name its `hostIds`.
   */
  claimSeries(claims: SeatClaim[], decide: ClaimDecide[]): Promise<SeriesOutcome>;
  /** The occurrences of a series of an event type, first first. */
  series(eventTypeId: number, seriesId: string): Promise<ReservationRecord[]>;
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
}
