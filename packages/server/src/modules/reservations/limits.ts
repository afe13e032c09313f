import { hasLimits } from "@booking/wire";
import { limitChecker, limitSpan, type CountedBooking, type LimitFrame } from "../../domain/limits.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ClaimDecide, LimitBooking, LimitRead } from "../../store/reservations.ts";

/** The limits that bind bookings of an event type: its own (in its zone and week) and each of its hosts' (in theirs, weeks from Monday). */
export interface LimitFrames {
  own: LimitFrame | null;
  hosts: Map<number, LimitFrame>;
}

/** The limit frames of `eventType`; empty when neither it nor a host of it sets a limit. */
export function limitFramesOf(eventType: EventTypeRecord): LimitFrames {
  const s = eventType.settings;
  const own = hasLimits(s.limits) ? { limits: s.limits!, zone: s.timezone, weekStart: s.locale.startDayOfWeek } : null;
  const hosts = new Map<number, LimitFrame>();
  for (const h of eventType.hosts) if (hasLimits(h.limits)) hosts.set(h.hostId, { limits: h.limits!, zone: h.timezone, weekStart: "monday" });
  return { own, hosts };
}

/** Whether any limit binds the event type's bookings. */
export const anyLimit = (frames: LimitFrames): boolean => frames.own !== null || frames.hosts.size > 0;

/** The span whose bookings decide the limits of `frames` for bookings starting in [fromMs, untilMs); null without limits. */
export function framesSpan(frames: LimitFrames, fromMs: number, untilMs: number): { fromMs: number; untilMs: number } | null {
  let span: { fromMs: number; untilMs: number } | null = null;
  for (const frame of [...(frames.own ? [frames.own] : []), ...frames.hosts.values()]) {
    const s = limitSpan(frame, fromMs, untilMs);
    if (s) span = span ? { fromMs: Math.min(span.fromMs, s.fromMs), untilMs: Math.max(span.untilMs, s.untilMs) } : s;
  }
  return span;
}

/**
 * Checkers of the limits for slots starting in [fromMs, untilMs), given the bookings that count: the
 * event type's own (null when it sets none) and one per limited host. Each answers true for a
 * booking that would pass a limit.
 */
export function limitCheckers(
  frames: LimitFrames,
  counted: readonly LimitBooking[],
  fromMs: number,
  untilMs: number,
): { own: ((startMs: number, endMs: number) => boolean) | null; host: (hostId: number, startMs: number, endMs: number) => boolean } {
  const byHost = new Map<number | null, CountedBooking[]>();
  for (const c of counted) {
    const list = byHost.get(c.hostId);
    if (list) list.push(c);
    else byHost.set(c.hostId, [c]);
  }
  const own = frames.own ? limitChecker(frames.own, byHost.get(null) ?? [], fromMs, untilMs) : null;
  const hosts = new Map<number, (startMs: number, endMs: number) => boolean>();
  for (const [hostId, frame] of frames.hosts) {
    const check = limitChecker(frame, byHost.get(hostId) ?? [], fromMs, untilMs);
    if (check) hosts.set(hostId, check);
  }
  return { own, host: (hostId, startMs, endMs) => hosts.get(hostId)?.(startMs, endMs) ?? false };
}

/**
 * The booking limits of a claim of [startMs, endMs): what the claim reads (none without limits) and
 * its decision guarded by them. The reservation the claim concerns (`uuid`, a reschedule or a
 * payment) is not counted against itself. The event type's limit reached refuses; a host at their
 * limit is left out of a round-robin choice and refuses a collective booking (and a host's own).
 */
export function limitedClaim(
  eventType: EventTypeRecord,
  startMs: number,
  endMs: number,
  uuid: string | undefined,
  candidates: readonly number[],
): { read: LimitRead | undefined; guard: (decide: ClaimDecide) => ClaimDecide } {
  const frames = limitFramesOf(eventType);
  const hostIds = candidates.filter((id) => frames.hosts.has(id));
  const span = framesSpan({ own: frames.own, hosts: new Map(hostIds.map((id) => [id, frames.hosts.get(id)!])) }, startMs, startMs + 1);
  if (!span) return { read: undefined, guard: (decide) => decide };
  const read: LimitRead = { eventType: frames.own !== null, hostIds, ...span };
  const guard =
    (decide: ClaimDecide): ClaimDecide =>
    (holders, current, at, busy, hosts, counted) => {
      const checks = limitCheckers(
        frames,
        counted.filter((c) => c.uuid !== uuid),
        startMs,
        startMs + 1,
      );
      if (checks.own?.(startMs, endMs)) return { refuse: "limit_reached" };
      const full = new Set(hosts.filter((h) => checks.host(h.hostId, startMs, endMs)).map((h) => h.hostId));
      if (full.size === 0) return decide(holders, current, at, busy, hosts, counted);
      if (eventType.assignment !== "round-robin" || hosts.length <= 1) return { refuse: "limit_reached" };
      const left = hosts.filter((h) => !full.has(h.hostId));
      return left.length === 0 ? { refuse: "limit_reached" } : decide(holders, current, at, busy, left, counted);
    };
  return { read, guard };
}
