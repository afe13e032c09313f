import type { BusyRepository } from "./busy.ts";
import type { ConsoleSessionRepository } from "./console-sessions.ts";
import type { EventTypeRepository } from "./event-types.ts";
import type { HostRepository, ScheduleRepository } from "./hosts.ts";
import type { IdempotencyRepository } from "./idempotency.ts";
import type { ChannelOutbox, OutboxRepository } from "./outbox.ts";
import type { AttemptLimiter, RateLimiter } from "./rate-limiter.ts";
import type { ReservationRepository } from "./reservations.ts";
import type { TimeOffRepository } from "./time-off.ts";

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
  readonly hosts: HostRepository;
  /** Named weekly hours of hosts. */
  readonly schedules: ScheduleRepository;
  /** Hosts' time off: away time that blocks them like a calendar event, with a colleague who may take their bookings. */
  readonly timeOff: TimeOffRepository;
  readonly eventTypes: EventTypeRepository;
  readonly reservations: ReservationRepository;
  /** The outbox of every delivery channel: each channel's events are leased and delivered apart. */
  readonly outbox: OutboxRepository;
  /**
   * The hosts' calendars (busy sources), the objects last fetched from them and the busy intervals
   * expanded from those, which slot lists and seat claims read by time range.
   */
  readonly busy: BusyRepository;
  /** Signed-in browsers of the organizer console and the one-time links that sign one in. */
  readonly consoleSessions: ConsoleSessionRepository;
  /** The outbox's webhook channel (`outbox.channel("webhook")`). */
  readonly webhooks: ChannelOutbox;
  readonly idempotency: IdempotencyRepository;
  close(): Promise<void>;
}
