import type { HostBusyInterval } from "./hosts.ts";
import type { HostView, ReservationRecord, SeatClaim } from "./reservations.ts";
import type { AwayInterval } from "./time-off.ts";

// What the seat claims of both engines share.

/** The instant a seat claim is judged at: its clock read now (inside the write transaction), or the instant it gave. */
export const claimInstant = (claim: SeatClaim): number => (typeof claim.nowMs === "function" ? claim.nowMs() : claim.nowMs);

/** Per-host views of a claim: each candidate host's busy intervals, when it was last booked and its time off. */
export function hostViews(
  hostIds: readonly number[],
  busy: readonly HostBusyInterval[],
  lastBooked: ReadonlyMap<number, number>,
  away: readonly AwayInterval[] = [],
): HostView[] {
  return hostIds.map((hostId) => ({
    hostId,
    busy: busy.filter((b) => b.hostId === hostId).map((b) => ({ startMs: b.startMs, endMs: b.endMs })),
    lastBookedAtMs: lastBooked.get(hostId) ?? null,
    away: away.filter((a) => a.hostId === hostId).map((a) => ({ startMs: a.startMs, endMs: a.endMs, colleagueHostId: a.colleagueHostId })),
  }));
}

/**
 * The hosts a claim writes: those the decision chose (which must be among the claim's candidates,
 * whose time was read and locked), or every candidate when it chose none.
 */
export function claimedHosts(record: ReservationRecord, candidates: readonly number[]): number[] {
  const chosen = record.hostIds && record.hostIds.length > 0 ? record.hostIds : [...candidates];
  if (chosen.some((id) => !candidates.includes(id))) throw new Error("a claim wrote a reservation for a host whose time it did not lock");
  return chosen;
}
