import { standIns } from "../../domain/time-off.ts";
import type { EventTypeHostInfo, EventTypeRecord } from "../../store/event-types.ts";
import type { Store } from "../../store/store.ts";
import type { AwayInterval } from "../../store/time-off.ts";

/** An event type as slot lists and bookings see it while its hosts are away. */
export interface AwayView {
  /** The event type, with the colleagues standing in for its one host added as round-robin members (`within` their time off). */
  eventType: EventTypeRecord;
  /** The time off of its hosts meeting the range asked. */
  away: AwayInterval[];
  /** True when a colleague stands in: their time (of another host's revision) is part of the answer. */
  substituted: boolean;
  awayOf: (hostId: number) => AwayInterval[];
}

/**
 * The event type's hosts' time off meeting range [fromMs, untilMs), and for a personal event type (one host)
 * the colleagues its time off names, standing in with their own first schedule (or the event type's
 * hours when they have none) while the host is away (domain/time-off.ts). A booking made then goes
 * to the colleague: the derived event type is round robin between host and stand-ins, and only one
 * of them is ever free at a time.
 */
export async function awayView(store: Store, eventType: EventTypeRecord, { fromMs, untilMs }: { fromMs: number; untilMs: number }): Promise<AwayView> {
  const away = await store.timeOff.between(
    eventType.hosts.map((h) => h.hostId),
    fromMs,
    untilMs,
  );
  const awayOf = (hostId: number) => away.filter((a) => a.hostId === hostId);
  const plain = { eventType, away, substituted: false, awayOf };
  if (eventType.hosts.length !== 1 || !away.some((a) => a.colleagueHostId !== null && a.colleagueHostId !== eventType.hosts[0]!.hostId)) return plain;
  const host = eventType.hosts[0]!.hostId;
  const colleagueIds = [...new Set(away.flatMap((a) => (a.colleagueHostId === null || a.colleagueHostId === host ? [] : [a.colleagueHostId])))];
  const [colleagues, schedules, colleaguesAway] = await Promise.all([
    store.hosts.byIds(colleagueIds),
    Promise.all(colleagueIds.map(async (id) => [id, (await store.schedules.list(id))[0] ?? null] as const)),
    // A colleague away too is no stand-in meanwhile.
    store.timeOff.between(colleagueIds, fromMs, untilMs),
  ]);
  const scheduleOf = new Map(schedules);
  const members = standIns(eventType.hosts, away, (id) => {
    const s = scheduleOf.get(id);
    return s ? { timezone: s.timezone, availability: s.availability } : null;
  });
  const hosts: EventTypeHostInfo[] = [eventType.hosts[0]!];
  for (const m of members.slice(1)) {
    const colleague = colleagues.find((c) => c.id === m.hostId);
    if (!colleague) continue;
    hosts.push({
      hostId: colleague.id,
      priority: m.priority,
      scheduleId: scheduleOf.get(colleague.id)?.id ?? null,
      name: colleague.name,
      email: colleague.email,
      timezone: colleague.timezone,
      avatarUrl: colleague.avatarUrl,
      bookingsCalendar: colleague.bookingsCalendar,
      schedule: m.schedule,
      revision: colleague.revision,
      limits: colleague.limits,
      ...(m.within ? { within: m.within } : {}),
    });
  }
  if (hosts.length === 1) return plain;
  const all = [...away, ...colleaguesAway];
  return {
    eventType: { ...eventType, hosts, assignment: "round-robin" },
    away: all,
    substituted: true,
    awayOf: (hostId) => all.filter((a) => a.hostId === hostId),
  };
}
