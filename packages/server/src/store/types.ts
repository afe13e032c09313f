import type { Location, ReservationStatus, CustomFieldValue } from "@booking/wire";
import type { EventTypeSettings } from "../domain/event-type.ts";

/** An event type as stored. Tokens are kept only as SHA-256 hashes. */
export interface EventTypeRecord {
  id: number;
  /** Bumped by every change of the event type or of its reservations; caches key on it. */
  revision: number;
  disabled: boolean;
  tokenHash: string;
  overrideTokenHash: string;
  settings: EventTypeSettings;
  createdAt: string;
  updatedAt: string;
}

/** What a new event type needs; id, revision and timestamps are the store's. */
export type NewEventType = Pick<EventTypeRecord, "disabled" | "tokenHash" | "overrideTokenHash" | "settings">;

/** Fields of an event type that an update may replace. */
export type EventTypeChange = Partial<NewEventType>;

/** A reservation as stored; times are epoch milliseconds. */
export interface ReservationRecord {
  uuid: string;
  eventTypeId: number;
  status: ReservationStatus;
  startMs: number;
  endMs: number;
  heldUntilMs: number | null;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  timezone: string | null;
  location: Location | null;
  guests: string[];
  customFields: CustomFieldValue[];
  createdAtMs: number;
  updatedAtMs: number;
}

/** Filter of the organizer's reservation list. */
export interface ReservationQuery {
  fromMs: number;
  untilMs: number;
  status?: ReservationStatus;
  limit: number;
}

/**
 * The storage of the service. Asynchronous so that the embedded SQLite engine and a networked
 * engine serve routes and domain code through the same calls.
 */
export interface Store {
  readonly engine: string;
  readonly eventTypes: {
    create(input: NewEventType, nowIso: string): Promise<EventTypeRecord>;
    byId(id: number): Promise<EventTypeRecord | null>;
    byTokenHash(tokenHash: string): Promise<EventTypeRecord | null>;
    list(): Promise<EventTypeRecord[]>;
    count(): Promise<number>;
    /** Replaces the given fields and bumps the revision; null when the id is unknown. */
    update(id: number, change: EventTypeChange, nowIso: string): Promise<EventTypeRecord | null>;
    /** Deletes the event type and its reservations; false when the id is unknown. */
    delete(id: number): Promise<boolean>;
  };
  readonly reservations: {
    /** Reservations that hold a seat at `nowMs` (confirmed, or held until later) and overlap [fromMs, untilMs). */
    seatHolders(eventTypeId: number, fromMs: number, untilMs: number, nowMs: number): Promise<Pick<ReservationRecord, "startMs" | "endMs" | "heldUntilMs">[]>;
    byUuid(eventTypeId: number, uuid: string): Promise<ReservationRecord | null>;
    list(eventTypeId: number, query: ReservationQuery): Promise<ReservationRecord[]>;
    /** Stores reservations as given, in one transaction, and bumps the event type's revision. */
    insertMany(records: ReservationRecord[]): Promise<void>;
  };
  close(): Promise<void>;
}
