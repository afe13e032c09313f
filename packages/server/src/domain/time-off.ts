import type { AvailabilityRules } from "./event-type.ts";
import type { BusyInterval } from "./slots.ts";

/** A host as slot computation sees it (domain/hosts.ts `HostMember`, repeated here so neither file imports the other). */
interface Member {
  hostId: number;
  priority: number;
  schedule: { timezone: string; availability: AvailabilityRules } | null;
  within?: readonly BusyInterval[];
}

/**
 * Time off (docs/hosts.md). A host's away time blocks them like a calendar event (with the event
 * type's buffers), so round robin gives the slot to another host. A collective event type leaves an
 * away host out instead: the meeting happens with the others, the away host is not booked. A
 * personal event type (one host) offers, while its host is away, the times of the colleague the
 * time off names: the colleague stands in (`standIns`), and a booking then goes to the colleague.
 */
export interface Away extends BusyInterval {
  hostId: number;
  /** The host who takes the away host's personal bookings meanwhile; null: nobody, no times. */
  colleagueHostId: number | null;
}

/** Whether [startMs, endMs) meets one of the away intervals (no buffers: being away is not a meeting). */
export function awayDuring(away: readonly BusyInterval[] | undefined, startMs: number, endMs: number): boolean {
  return away?.some((a) => a.startMs < endMs && a.endMs > startMs) ?? false;
}

/** Whether [startMs, endMs) lies inside one of `within` (a stand-in is offered only there). */
export function insideOf(within: readonly BusyInterval[] | undefined, startMs: number, endMs: number): boolean {
  return within === undefined || within.some((w) => w.startMs <= startMs && w.endMs >= endMs);
}

/**
 * The members of a personal event type with its host's colleagues standing in: each colleague named
 * by a time off of the one host becomes a member offered only inside that time off (`within`), at the
 * lowest priority, with their own hours (`scheduleOf`: their first schedule, or null for the event
 * type's hours). Team event types, and hosts without time off naming a colleague, are left as they are.
 */
export function standIns<M extends Member>(members: readonly M[], away: readonly Away[], scheduleOf: (hostId: number) => Member["schedule"]): (M | Member)[] {
  if (members.length !== 1) return [...members];
  const host = members[0]!;
  const byColleague = new Map<number, BusyInterval[]>();
  for (const a of away) {
    if (a.hostId !== host.hostId || a.colleagueHostId === null || a.colleagueHostId === host.hostId) continue;
    const list = byColleague.get(a.colleagueHostId) ?? [];
    list.push({ startMs: a.startMs, endMs: a.endMs });
    byColleague.set(a.colleagueHostId, list);
  }
  const out: (M | Member)[] = [host];
  for (const [hostId, within] of byColleague) out.push({ hostId, priority: Number.MIN_SAFE_INTEGER, schedule: scheduleOf(hostId), within });
  return out;
}
