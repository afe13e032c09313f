import type { BusySourceKind as WireBusySourceKind } from "@booking/wire";
import type { BusyInterval } from "../domain/slots.ts";

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

/**
 * The hosts' calendars (busy sources), the objects last fetched from them and the busy intervals
 * expanded from those, which slot lists and seat claims read by time range.
 */
export interface BusyRepository {
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
}
