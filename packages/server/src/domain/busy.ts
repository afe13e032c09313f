import type { BusyInterval, SlotRules } from "./slots.ts";

/**
 * Where else the organizer is busy, besides the reservations that hold seats (which the store
 * answers as seat holders and which keep their own rule: a reservation at exactly a slot's times
 * takes one of its seats). Slot computation (`GET /time-slots`, the first free day, the assistant's
 * availability) and the booking decision (book, prepare, reschedule) both leave out every slot
 * whose buffered span meets one of these intervals. The server's source is the store's busy
 * intervals, synced from the organizer's calendars (modules/calendars); NO_BUSY_SOURCE is none.
 *
 * A source whose answers change without a booking (a calendar) must also bound how long
 * `GET /time-slots` answers are cached: they are kept per event type revision until time alone
 * would change them (TimeSlotService).
 */
export interface BusySource {
  /** Busy intervals, in epoch ms, of the event type's organizer that meet [fromMs, untilMs). */
  busyBetween(eventTypeId: number, fromMs: number, untilMs: number): Promise<BusyInterval[]>;
  /**
   * True when these are the store's busy intervals, which every seat claim reads again inside its
   * own transaction (SeatClaim.busySpan): a booking then asks nothing of the source beforehand.
   */
  readonly checkedInClaim?: boolean;
}

/** The busy source of a server without calendar connections: nothing is busy besides reservations. */
export const NO_BUSY_SOURCE: BusySource = { busyBetween: () => Promise.resolve([]) };

/**
 * Whether the slot [startMs, endMs) is blocked by a busy interval: the slot with its buffers
 * (the organizer's time before and after a meeting) meets it. Whole-seat: a busy organizer has no seat left.
 */
export function blockedByBusy(
  rules: Pick<SlotRules, "bufferBeforeMinutes" | "bufferAfterMinutes">,
  startMs: number,
  endMs: number,
  busy: readonly BusyInterval[],
): boolean {
  const from = startMs - rules.bufferBeforeMinutes * 60_000;
  const until = endMs + rules.bufferAfterMinutes * 60_000;
  return busy.some((b) => b.startMs < until && b.endMs > from);
}

/** How many of the ascending `sorted` are below `value`: the index of the first at or after it (binary search). */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `blockedByBusy` for many slots against the same intervals: sorted once, then each slot answered by
 * a binary search (the intervals starting before the slot's buffered end) and the largest end among
 * them, so a page of thousands of slots against thousands of calendar events stays cheap.
 */
export function busyChecker(
  rules: Pick<SlotRules, "bufferBeforeMinutes" | "bufferAfterMinutes">,
  busy: readonly BusyInterval[],
): (startMs: number, endMs: number) => boolean {
  if (busy.length === 0) return () => false;
  const sorted = [...busy].sort((a, b) => a.startMs - b.startMs);
  const starts = sorted.map((b) => b.startMs);
  const latestEnd: number[] = [];
  let latest = -Infinity;
  for (const b of sorted) latestEnd.push((latest = Math.max(latest, b.endMs)));
  const before = rules.bufferBeforeMinutes * 60_000;
  const after = rules.bufferAfterMinutes * 60_000;
  return (startMs, endMs) => {
    const from = startMs - before;
    const until = endMs + after;
    // The busy intervals starting before `until`; the latest end among them decides.
    const lo = lowerBound(starts, until);
    return lo > 0 && latestEnd[lo - 1]! > from;
  };
}

/**
 * `busyChecker` for slots asked in ascending order of start (and end), as a slot grid is walked: the
 * intervals sorted once and passed by a pointer that only moves forward, keeping the latest end of
 * those passed. A slot asked out of order gets `busyChecker`'s answer (a binary search).
 */
export function forwardBusyChecker(
  rules: Pick<SlotRules, "bufferBeforeMinutes" | "bufferAfterMinutes">,
  busy: readonly BusyInterval[],
): (startMs: number, endMs: number) => boolean {
  if (busy.length === 0) return () => false;
  const sorted = [...busy].sort((a, b) => a.startMs - b.startMs);
  const before = rules.bufferBeforeMinutes * 60_000;
  const after = rules.bufferAfterMinutes * 60_000;
  let next = 0;
  let latest = -Infinity;
  let lastUntil = -Infinity;
  let fallback: ((startMs: number, endMs: number) => boolean) | null = null;
  return (startMs, endMs) => {
    const from = startMs - before;
    const until = endMs + after;
    if (until < lastUntil) return (fallback ??= busyChecker(rules, sorted))(startMs, endMs);
    lastUntil = until;
    // Every interval starting before `until` has been passed; the latest end among them decides.
    while (next < sorted.length && sorted[next]!.startMs < until) latest = Math.max(latest, sorted[next++]!.endMs);
    return latest > from;
  };
}

/**
 * Whether the busy intervals together cover [fromMs, untilMs) without a gap: then every slot
 * starting in it starts inside a busy time and is blocked, and none needs to be built (a week of
 * the organizer's leave costs a first-free scan no slots).
 */
export function coversWhole(busy: readonly BusyInterval[], fromMs: number, untilMs: number): boolean {
  let reached = fromMs;
  for (const b of [...busy].sort((x, y) => x.startMs - y.startMs)) {
    if (reached >= untilMs) break;
    if (b.startMs > reached) return false;
    reached = Math.max(reached, b.endMs);
  }
  return reached >= untilMs;
}

/** The slot with the organizer's buffers around it: the time busy intervals must not meet (`blockedByBusy`). */
export function bufferedSpan(
  rules: Pick<SlotRules, "bufferBeforeMinutes" | "bufferAfterMinutes">,
  startMs: number,
  endMs: number,
): { fromMs: number; untilMs: number } {
  return { fromMs: startMs - rules.bufferBeforeMinutes * 60_000, untilMs: endMs + rules.bufferAfterMinutes * 60_000 };
}
