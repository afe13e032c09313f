import type { DeliveryChannel } from "@booking/wire";
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

/** The outbox of every delivery channel: each channel's events are leased and delivered apart. */
export interface OutboxRepository {
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
}
