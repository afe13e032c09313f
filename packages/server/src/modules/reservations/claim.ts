import { conflictWindow, type BusyInterval } from "../../domain/slots.ts";
import { blockedByBusy, bufferedSpan, type BusySource } from "../../domain/busy.ts";
import { hostsFor, type HostTime } from "../../domain/hosts.ts";
import { BusinessFailure } from "../../domain/errors.ts";
import { StoreBusyError } from "../../store/errors.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { HostView, ReservationRecord, SeatDecision, SeatHolder } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { limitedClaim } from "./limits.ts";

/** Refusal reasons of a seat claim, as the business codes clients see. */
const REFUSALS = {
  slot_unavailable: "The slot is no longer available.",
  reservation_finished: "The reservation can no longer be changed this way.",
  slot_locked: "The reservation changed meanwhile (it was rescheduled); try again.",
  limit_reached: "The booking limit of this day, week or month is reached; pick another day.",
} as const;
type Refusal = keyof typeof REFUSALS;

/** What a claim decides from what it read inside its transaction: the seat holders, the reservation as it is now, the instant, busy times and the candidate hosts. */
export type SeatDecide = (holders: SeatHolder[], current: ReservationRecord | null, at: number, busy: BusyInterval[], hosts: HostView[]) => SeatDecision;

/**
 * Runs a seat claim for [startMs, endMs) over the candidate hosts' time (`hostIds`, by default the
 * event type's) and turns refusals and a busy store into business answers. The store's claim is the
 * only way a seat is taken, so no slot is ever over-booked.
 */
export async function claimSeat(
  store: Store,
  now: () => number,
  eventType: EventTypeRecord,
  {
    startMs,
    endMs,
    uuid,
    idempotencyKey,
    hostIds,
  }: { startMs: number; endMs: number; uuid: string | undefined; idempotencyKey: string | undefined; hostIds: number[] | undefined },
  decide: SeatDecide,
): Promise<ReservationRecord> {
  let outcome: Awaited<ReturnType<Store["reservations"]["claim"]>>;
  const candidates = hostIds ?? eventType.hosts.map((h) => h.hostId);
  // Booking limits are read and judged in the same transaction as the seats (modules/reservations/limits.ts).
  const limits = limitedClaim(eventType, startMs, endMs, uuid, candidates);
  try {
    outcome = await store.reservations.claim(
      // The clock, not an instant: the claim is judged when its write happens, which may be long after
      // the request started (a slow Stripe answer, a wait for the lock); a hold may have lapsed since.
      {
        eventTypeId: eventType.id,
        ...conflictWindow(eventType.settings, startMs, endMs),
        seat: { startMs, endMs },
        busySpan: bufferedSpan(eventType.settings, startMs, endMs),
        nowMs: now,
        hostIds: candidates,
        // Round robin's rule reads when each candidate was last booked.
        lastBooked: eventType.assignment === "round-robin" && candidates.length > 1,
        ...(uuid ? { uuid } : {}),
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(limits.read ? { limits: limits.read } : {}),
      },
      limits.guard(decide),
    );
  } catch (error) {
    if (error instanceof StoreBusyError) throw failure("slot_locked", "Someone else is booking this slot right now; try again.");
    throw error;
  }
  if ("refused" in outcome) {
    const reason = outcome.refused as Refusal;
    throw failure(reason, REFUSALS[reason]);
  }
  return outcome.record;
}

/**
 * True when the reservation was rescheduled since `seen` was read: a claim made for the old seat
 * must not write it (the store refuses writes outside the seat a claim locked), so it is refused
 * and the caller asked to try again.
 */
export function moved(current: ReservationRecord, seen: ReservationRecord): boolean {
  return current.startMs !== seen.startMs || current.endMs !== seen.endMs;
}

/** A business refusal of a change: the slot is gone, locked by a change under way, or the reservation finished. */
export function failure(code: "slot_unavailable" | "slot_locked" | "reservation_finished" | "limit_reached", message: string): BusinessFailure {
  return new BusinessFailure(code, message);
}

/**
 * The hosts a claim about an existing reservation reads and locks: the ones it holds (the event
 * type's when it records none).
 */
export function heldHosts(r: ReservationRecord): number[] | undefined {
  return r.hostIds.length > 0 ? r.hostIds : undefined;
}

/**
 * Whether the busy source says the organizer is busy during the slot (with its buffers), as
 * `GET /time-slots` leaves it out. The store's own intervals (the organizer's synced calendars) are
 * read inside the seat claim's transaction instead (`busySpan`); only another source is asked here,
 * before the claim, its answer not being the store's.
 */
export async function busyAt(busy: BusySource, eventType: EventTypeRecord, startMs: number, endMs: number): Promise<boolean> {
  if (busy.checkedInClaim) return false;
  const window = conflictWindow(eventType.settings, startMs, endMs);
  return blockedByBusy(eventType.settings, startMs, endMs, await busy.busyBetween(eventType.id, window.fromMs, window.untilMs));
}

/**
 * The hosts a booking of [startMs, endMs) takes, judged on what the claim read (see `hostsFor`):
 * every host of a collective event type, or one by round robin; null when it cannot be had.
 */
export function hostsTaking(
  eventType: EventTypeRecord,
  hosts: HostView[],
  holders: SeatHolder[],
  startMs: number,
  endMs: number,
  options: { keep?: readonly number[]; retake?: { nowMs: number } } = {},
): number[] | null {
  const times: HostTime[] = hosts;
  // A colleague standing in is offered only inside the away host's time off as read under the claim's lock.
  const members = eventType.hosts.map((m) =>
    m.within === undefined ? m : { ...m, within: hosts.flatMap((h) => h.away.filter((a) => a.colleagueHostId === m.hostId && h.hostId !== m.hostId)) },
  );
  return hostsFor(eventType.settings, eventType.assignment, members, times, holders, startMs, endMs, options);
}
