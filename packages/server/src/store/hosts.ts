import type { BookingLimits } from "@booking/wire";
import type { AvailabilityRules } from "../domain/event-type.ts";
import type { ReservationQuery, ReservationRecord } from "./reservations.ts";

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
  /** The host's booking limits across all of their event types, counted in their zone (domain/limits.ts); null: none. */
  limits: BookingLimits | null;
  /** Bumped by every change of the host, its schedules, its calendars' busy times and its bookings (of any event type). */
  revision: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What a new host needs. */
export type NewHost = Pick<HostRecord, "name" | "email" | "timezone" | "avatarUrl" | "feedToken"> & Partial<Pick<HostRecord, "limits">>;
/** Fields of a host an update may replace. */
export type HostChange = Partial<NewHost & Pick<HostRecord, "bookingsCalendar" | "limits">>;

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

/**
 * A time a host is taken outside the event type in view: a booking of another event type (held until
 * `heldUntilMs`, or null when it holds for good; `eventTypeId` and `reservationUuid` name it) or a busy
 * interval of the host's calendars (`heldUntilMs` null; `sourceId` names the calendar). The slot page
 * and the availability check read the same rows, so the check can say which of them takes a time.
 */
export interface HostBusyInterval {
  hostId: number;
  startMs: number;
  endMs: number;
  heldUntilMs: number | null;
  eventTypeId: number | null;
  sourceId: number | null;
  reservationUuid: string | null;
}

/** The people whose time is booked (docs/hosts.md). */
export interface HostRepository {
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
}

/** Named weekly hours of hosts. */
export interface ScheduleRepository {
  /** Bumps the host's revision. */
  create(input: NewSchedule, nowMs: number): Promise<ScheduleRecord>;
  byId(id: number): Promise<ScheduleRecord | null>;
  /** Schedules of one host, or of all, oldest first. */
  list(hostId?: number): Promise<ScheduleRecord[]>;
  /** Replaces the given fields and bumps the host's revision; null when unknown. */
  update(id: number, change: ScheduleChange, nowMs: number): Promise<ScheduleRecord | null>;
  /** Deletes a schedule no event type uses; `in_use` otherwise. */
  delete(id: number): Promise<"deleted" | "not_found" | "in_use">;
}
