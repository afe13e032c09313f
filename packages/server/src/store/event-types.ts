import type { EventTypeSettings } from "../domain/event-type.ts";
import type { HostAssignment } from "../domain/hosts.ts";
import type { HostRecord, ScheduleRecord } from "./hosts.ts";

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
  /** The host's booking limits (see HostRecord); null: none. */
  limits: HostRecord["limits"];
  /** The host's revision as read with the event type (see HostRecord), which caches of the host's time key on. */
  revision?: number;
  /** Never stored: a colleague standing in for the away host of a personal event type is offered only inside these (modules/time-off/stand-ins.ts). */
  within?: readonly { startMs: number; endMs: number }[];
}

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

/** The event types the organizer sells, each with its hosts, settings and credentials. */
export interface EventTypeRepository {
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
}
