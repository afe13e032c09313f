import type { ReservationStatus } from "@booking/wire";

/** How long an expired hold may still be refreshed or confirmed before it counts as cancelled. */
export const EXPIRED_GRACE_MS = 24 * 60 * 60_000;

/** The fields that decide where a reservation stands at a given instant. */
export interface Lifecycle {
  status: ReservationStatus;
  startMs: number;
  heldUntilMs: number | null;
  payment?: { status: string } | null;
}

/**
 * Payment states in which a hold keeps its seat past `heldUntil`: the visitor's money is in, or on
 * its way. Letting such a hold lapse would keep the money and give the seat to someone else.
 */
export const SEAT_KEEPING_PAYMENTS = ["succeeded", "processing"] as const;

/** True for a hold whose payment keeps its seat (see SEAT_KEEPING_PAYMENTS), whatever `heldUntil` says. */
export function paidHold(r: Lifecycle): boolean {
  return r.status === "held" && r.payment != null && (SEAT_KEEPING_PAYMENTS as readonly string[]).includes(r.payment.status);
}

/**
 * True while a paid hold (`paidHold`) keeps its seat at `nowMs`: a succeeded payment always; a
 * processing one only until the slot's start. Past the start nobody can confirm the hold any more,
 * so it lapses like an unpaid one (expired, hence cancelled), and money that still arrives is
 * refunded; without this an intent stuck in `processing` would keep the hold alive for ever.
 */
export function keepsSeat(r: Lifecycle, nowMs: number): boolean {
  return paidHold(r) && (r.payment!.status !== "processing" || nowMs < r.startMs);
}

/**
 * Where a reservation stands at `nowMs`. Expiry is derived from time, never waits for a sweep: a
 * hold past `heldUntil` is expired, and an expired hold not refreshed within 24 hours, or whose
 * slot has begun, is cancelled. A paid hold that keeps its seat (`keepsSeat`) does not lapse: it
 * stays held until it is confirmed (by the visitor, or by the sweep) or cancelled.
 */
export function statusAt(r: Lifecycle, nowMs: number): ReservationStatus {
  if (keepsSeat(r, nowMs)) return "held";
  if (r.status === "held" || r.status === "expired") {
    const heldUntil = r.heldUntilMs ?? 0;
    if (r.status === "held" && heldUntil > nowMs) return "held";
    return nowMs >= heldUntil + EXPIRED_GRACE_MS || nowMs >= r.startMs ? "cancelled" : "expired";
  }
  return r.status;
}

/** The `updatedAtMs` of a change: always past the previous one, even within one clock tick, so compare-and-set sees it. */
export function nextStamp(r: { updatedAtMs: number }, nowMs: number): number {
  return Math.max(nowMs, r.updatedAtMs + 1);
}

/**
 * True while a visitor may still change or cancel on their own: at least `noticeMinutes` before
 * the start. Later changes need the organizer's override token.
 */
export function withinPublicNotice(startMs: number, noticeMinutes: number, nowMs: number): boolean {
  return nowMs <= startMs - noticeMinutes * 60_000;
}
