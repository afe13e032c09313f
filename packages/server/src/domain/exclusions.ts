import type { AvailabilityReasonCode } from "@booking/wire";
import { blockedByBusy } from "./busy.ts";
import { holdersOf, hostRules, type HostAssignment, type HostedHolder, type HostMember } from "./hosts.ts";
import { freeSeatsOf, horizonEnd, isOffered, noticeEnd, type BusyInterval, type SlotRules } from "./slots.ts";

/**
 * Why a time is not offered: the steps of the slot page, one candidate at a time.
 *
 * The slot page (`slotsBetween`, `teamSlots`) leaves a candidate start out by these steps, per host:
 *
 * 1. hours (`outside_hours`): the start is on the grid of one of the host's ranges and the meeting fits the open hours;
 * 2. notice (`min_notice`): the start is at or after `noticeEnd`; the page starts its grid there;
 * 3. horizon (`horizon`): the start is before `horizonEnd`; the page stops its grid there;
 * 4. seats (`seats_full`, or `host_busy`/`buffer` for another booking of the same event type): `freeSeatsOf`
 *    over the seat holders that count for the host (`holdersOf`);
 * 5. blocks: every `HostBlock` of the host whose time meets the slot with its buffers (`blockedByBusy`,
 *    indexed on the page by `busyChecker`/`forwardBusyChecker`): a booking of another event type
 *    (`host_busy`), a calendar event (`calendar_busy`), or a block a further step added (`code`); a
 *    block that meets only the buffers is a `buffer`.
 *
 * then the team rule (`teamBookable`): a collective time needs every host, a round-robin time one.
 *
 * `hostExclusions` asks each step of one candidate with the same functions the page calls (the hours
 * through `isOffered`, which runs `slotsBetween` itself; the seat count through `freeSeatsOf`, which
 * collects every blocking holder when asked), and answers every step that leaves it out rather than
 * the first. A test compares both over a month of a busy host (test/availability-check-month.test.ts).
 *
 * Further steps plug in as blocks with their own `code` and `note`. Time off is one: the check adds a
 * host's away time as `time_off` blocks, read by `awayView` as the slot page reads it (which passes it
 * to `teamSlots` as `awayOf`). Booking limits are checkers, not intervals: `TimeSlotService.gather`
 * answers `ownLimited` and `limited` (modules/reservations/limits.ts), which the slot page filters
 * with and the check reports as `limit_reached`.
 */
export type ExclusionCode = AvailabilityReasonCode;

/** Codes a block may carry of its own (a further step's); without one, a block is a booking or a calendar event by its provenance. */
export type BlockCode = Extract<ExclusionCode, "time_off" | "limit_reached">;

/**
 * Something that takes a host's time outside the event type in view, with where it comes from: a
 * booking of another event type (`eventTypeId`, `reservationUuid`), a calendar event (`sourceId`),
 * or a further step's block (`code`).
 */
export interface HostBlock extends BusyInterval {
  eventTypeId?: number | null;
  sourceId?: number | null;
  reservationUuid?: string | null;
  code?: BlockCode;
  /** What a further step's block says of itself (the note of a time off, the limit reached). */
  note?: string;
}

/** One step leaving a candidate out for a host, with what it found (the block or the seat holder). */
export interface HostExclusion {
  code: ExclusionCode;
  block?: HostBlock;
  holder?: HostedHolder;
}

const MINUTE = 60_000;

/** The code a block gives when it meets the slot itself. */
export function blockCode(block: HostBlock): ExclusionCode {
  if (block.code) return block.code;
  return block.eventTypeId !== undefined && block.eventTypeId !== null ? "host_busy" : "calendar_busy";
}

/**
 * Every step that leaves the start `startMs` out for `member` at `nowMs` (none: the host could take
 * it), in the order of the steps. `holders`: the event type's seat holders around the slot; `blocks`:
 * the host's blocks around it (both as `TimeSlotService.gather` reads them for the page).
 */
export function hostExclusions(
  settings: SlotRules,
  assignment: HostAssignment,
  member: HostMember,
  holders: readonly HostedHolder[],
  blocks: readonly HostBlock[],
  startMs: number,
  nowMs: number,
): HostExclusion[] {
  const rules = hostRules(settings, member);
  const endMs = startMs + settings.durationMinutes * MINUTE;
  const out: HostExclusion[] = [];
  if (!isOffered(rules, startMs, endMs, nowMs, { ignoreNoticeAndHorizon: true })) out.push({ code: "outside_hours" });
  if (startMs < noticeEnd(rules, nowMs)) out.push({ code: "min_notice" });
  if (startMs >= horizonEnd(rules, nowMs)) out.push({ code: "horizon" });

  const counted = holdersOf(assignment, holders, member.hostId).sort((a, b) => a.startMs - b.startMs);
  const longest = counted.reduce((m, b) => Math.max(m, b.endMs - b.startMs), 0);
  const blockers: HostedHolder[] = [];
  const free = freeSeatsOf(counted, longest, startMs, endMs, rules.bufferBeforeMinutes * MINUTE, rules.bufferAfterMinutes * MINUTE, rules.seats, blockers);
  for (const holder of blockers) out.push({ code: meets(holder, startMs, endMs) ? "host_busy" : "buffer", holder });
  if (blockers.length === 0 && free === 0) out.push({ code: "seats_full" });

  for (const block of blocks) {
    if (blockedByBusy(settings, startMs, endMs, [block])) out.push({ code: meets(block, startMs, endMs) ? blockCode(block) : "buffer", block });
  }
  return out;
}

/** The team rule of the slot page: a collective time needs every host free, a round-robin time one. */
export function teamBookable(assignment: HostAssignment, free: readonly boolean[]): boolean {
  if (free.length === 0) return false;
  return assignment === "collective" ? free.every(Boolean) : free.some(Boolean);
}

/** True when the interval meets [startMs, endMs) itself, not only its buffers. */
function meets(b: BusyInterval, startMs: number, endMs: number): boolean {
  return b.startMs < endMs && b.endMs > startMs;
}
