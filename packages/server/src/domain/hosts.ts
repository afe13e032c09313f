import type { AvailabilityRules } from "./event-type.ts";
import { isOffered, retakable, seatCounter, seatsLeft, slotsBetween, type BusyInterval, type Slot, type SlotRules } from "./slots.ts";
import { blockedByBusy, busyChecker, forwardBusyChecker } from "./busy.ts";
import { awayDuring, insideOf } from "./time-off.ts";

/**
 * Hosts and teams (docs/hosts.md). An event type sells the time of one or more hosts. Each host is
 * offered by their own hours (a schedule of theirs, or the event type's own hours) and is taken by
 * their bookings of every event type and by their calendars. With one host, an event type books as
 * it always did. With several:
 *
 * - collective: a time is offered when every host offers it and is free; the booking takes them all.
 * - round robin: a time is offered when any host offers it and is free; the booking takes one, chosen
 *   among the free hosts by `roundRobinChoice`: highest priority first, then the one least recently
 *   booked through this event type (never booked counts as longest ago), then the first in the event
 *   type's list of hosts.
 *
 * Seats of a collective event type are the event type's, as before; round robin counts them per host
 * (a reservation takes a seat of the host it was assigned).
 */
export type HostAssignment = "collective" | "round-robin";

/** A host as slot computation and assignment see it. */
export interface HostMember {
  hostId: number;
  priority: number;
  /** The host's schedule used by this event type; null: the event type's own hours. */
  schedule: { timezone: string; availability: AvailabilityRules } | null;
  /** A colleague standing in for an away host (domain/time-off.ts): offered only inside these intervals. */
  within?: readonly BusyInterval[];
}

/** A seat holder with the hosts it took (none recorded: it counts for every host). */
export interface HostedHolder extends BusyInterval {
  uuid?: string;
  heldUntilMs: number | null;
  hostIds?: number[] | undefined;
}

/** One candidate host's time outside the event type in view, and when it was last booked through it. */
export interface HostTime {
  hostId: number;
  busy: BusyInterval[];
  lastBookedAtMs: number | null;
  /** The host's time off: it blocks like busy time, except in a collective event type, which leaves the host out. */
  away?: readonly BusyInterval[];
}

const rulesMemo = new WeakMap<object, WeakMap<object, SlotRules>>();

/**
 * The event type's rules with the host's schedule as its hours (and zone): what the host's slots
 * follow. The same object for the same settings and schedule objects, so the memoized day hours of
 * domain/slots.ts are kept per revision.
 */
export function hostRules<S extends SlotRules>(settings: S, member: Pick<HostMember, "schedule">): S {
  if (!member.schedule) return settings;
  let bySchedule = rulesMemo.get(settings);
  if (!bySchedule) rulesMemo.set(settings, (bySchedule = new WeakMap()));
  let rules = bySchedule.get(member.schedule) as S | undefined;
  if (!rules) {
    rules = { ...settings, timezone: member.schedule.timezone, availability: member.schedule.availability };
    bySchedule.set(member.schedule, rules);
  }
  return rules;
}

/** The seat holders that count for a host: all of them when collective, those assigned to the host by round robin. */
export function holdersOf<H extends HostedHolder>(assignment: HostAssignment, holders: readonly H[], hostId: number): H[] {
  if (assignment === "collective") return [...holders];
  return holders.filter((h) => !h.hostIds || h.hostIds.length === 0 || h.hostIds.includes(hostId));
}

/** Options of `teamSlots`: notice and horizon lifted (the organizer's reschedule), and the hosts' booking limits (domain/limits.ts). */
export interface TeamSlotOptions {
  ignoreNoticeAndHorizon?: boolean;
  /** True when a booking of [startMs, endMs) would pass one of the host's booking limits: the host is not free then. */
  limited?: (hostId: number, startMs: number, endMs: number) => boolean;
  /** Each host's time off: it blocks the host like busy time, except in a collective team, which meets without them. */
  awayOf?: (hostId: number) => readonly BusyInterval[];
}

/**
 * Free slots of the event type starting in [fromMs, untilMs): per host, the host's hours less the
 * seats taken, less the host's busy time (with the event type's buffers) and less the times past
 * the host's booking limits; then every host's (collective: the least free seats count) or any
 * host's (round robin: the most free seats count).
 */
export function teamSlots(
  settings: SlotRules,
  assignment: HostAssignment,
  members: readonly HostMember[],
  holders: readonly HostedHolder[],
  busyOf: (hostId: number) => readonly BusyInterval[],
  fromMs: number,
  untilMs: number,
  nowMs: number,
  options: TeamSlotOptions = {},
): Slot[] {
  const awayOf = options.awayOf;
  // Away time blocks a host like busy time, except in a collective team, which leaves the host out.
  const leaveOut = assignment === "collective" && members.length > 1 && awayOf !== undefined;
  const blockingOf = awayOf && !leaveOut ? (id: number) => [...busyOf(id), ...awayOf(id)] : busyOf;
  if (assignment === "round-robin" && members.length > 1) return roundRobinSlots(settings, members, holders, blockingOf, fromMs, untilMs, nowMs, options);
  const limited = options.limited;
  const perHost = members.map((m) => {
    const blocked = busyChecker(settings, blockingOf(m.hostId));
    return slotsBetween(hostRules(settings, m), fromMs, untilMs, holdersOf(assignment, holders, m.hostId), nowMs, options).filter(
      (slot) =>
        slot.freeSeats > 0 &&
        (!options.ignoreNoticeAndHorizon || slot.startMs > nowMs) &&
        !blocked(slot.startMs, slot.endMs) &&
        !limited?.(m.hostId, slot.startMs, slot.endMs) &&
        insideOf(m.within, slot.startMs, slot.endMs),
    );
  });
  if (perHost.length === 1) return perHost[0]!;
  if (leaveOut) return collectiveWithout(members, perHost, awayOf);
  const byStart = new Map<number, { slot: Slot; hosts: number }>();
  for (const slots of perHost) {
    for (const slot of slots) {
      const seen = byStart.get(slot.startMs);
      if (!seen) byStart.set(slot.startMs, { slot: { ...slot }, hosts: 1 });
      else {
        seen.hosts++;
        seen.slot.freeSeats = assignment === "collective" ? Math.min(seen.slot.freeSeats, slot.freeSeats) : Math.max(seen.slot.freeSeats, slot.freeSeats);
      }
    }
  }
  const out: Slot[] = [];
  for (const { slot, hosts } of byStart.values()) if (assignment === "round-robin" || hosts === members.length) out.push(slot);
  return out.sort((a, b) => a.startMs - b.startMs);
}

/**
 * A collective team's slots when some hosts are away: a slot is offered when every host not away
 * during it offers it (the least free seats count), and at least one host is there. An away host's
 * own slots do not matter: the meeting happens without them.
 */
function collectiveWithout(members: readonly HostMember[], perHost: Slot[][], awayOf: (hostId: number) => readonly BusyInterval[]): Slot[] {
  const offered = perHost.map((slots) => new Map(slots.map((slot) => [slot.startMs, slot])));
  const starts = new Map<number, Slot>();
  for (const slots of perHost) for (const slot of slots) if (!starts.has(slot.startMs)) starts.set(slot.startMs, slot);
  const out: Slot[] = [];
  for (const candidate of starts.values()) {
    let freeSeats = Number.POSITIVE_INFINITY;
    let present = 0;
    for (let i = 0; i < members.length && freeSeats > 0; i++) {
      if (awayDuring(awayOf(members[i]!.hostId), candidate.startMs, candidate.endMs)) continue;
      const slot = offered[i]!.get(candidate.startMs);
      freeSeats = slot && slot.endMs === candidate.endMs ? Math.min(freeSeats, slot.freeSeats) : 0;
      present++;
    }
    if (present > 0 && freeSeats > 0) out.push({ ...candidate, freeSeats });
  }
  return out.sort((a, b) => a.startMs - b.startMs);
}

/**
 * `teamSlots` of a round-robin team, with the same answer at a fraction of the work: the slot grid is
 * built once per distinct hours (every host without a schedule of their own shares the event type's),
 * and each slot of it asks the hosts with those hours in turn, each host's seat holders and busy time
 * sorted once and passed by a forward pointer, until one has every seat free (the most a slot can
 * list). A slot is listed with the most free seats any host has, when some host has one.
 */
function roundRobinSlots(
  settings: SlotRules,
  members: readonly HostMember[],
  holders: readonly HostedHolder[],
  busyOf: (hostId: number) => readonly BusyInterval[],
  fromMs: number,
  untilMs: number,
  nowMs: number,
  options: TeamSlotOptions,
): Slot[] {
  const byHours = new Map<SlotRules, HostMember[]>();
  for (const m of members) {
    const rules = hostRules(settings, m);
    const group = byHours.get(rules);
    if (group) group.push(m);
    else byHours.set(rules, [m]);
  }
  const lists: Slot[][] = [];
  for (const [rules, group] of byHours) {
    const hosts = group.map((m) => ({
      hostId: m.hostId,
      seats: seatCounter(rules, holdersOf("round-robin", holders, m.hostId)),
      blocked: forwardBusyChecker(settings, busyOf(m.hostId)),
      within: m.within,
    }));
    const out: Slot[] = [];
    for (const slot of slotsBetween(rules, fromMs, untilMs, [], nowMs, options)) {
      if (options.ignoreNoticeAndHorizon && slot.startMs <= nowMs) continue;
      let free = 0;
      for (const host of hosts) {
        // A host skipped for some slots asks about later ones only, so its pointer still moves forward.
        if (
          host.blocked(slot.startMs, slot.endMs) ||
          !insideOf(host.within, slot.startMs, slot.endMs) ||
          options.limited?.(host.hostId, slot.startMs, slot.endMs)
        )
          continue;
        free = Math.max(free, host.seats(slot.startMs, slot.endMs));
        if (free === slot.seats) break;
      }
      if (free > 0) out.push({ startMs: slot.startMs, endMs: slot.endMs, seats: slot.seats, freeSeats: free });
    }
    lists.push(out);
  }
  if (lists.length === 1) return lists[0]!;
  const byStart = new Map<number, Slot>();
  for (const slots of lists) {
    for (const slot of slots) {
      const seen = byStart.get(slot.startMs);
      if (!seen) byStart.set(slot.startMs, slot);
      else seen.freeSeats = Math.max(seen.freeSeats, slot.freeSeats);
    }
  }
  return [...byStart.values()].sort((a, b) => a.startMs - b.startMs);
}

/**
 * The hosts whose hours offer [startMs, endMs) (notice and horizon as `isOffered`): for a collective
 * event type all of them or none, for round robin those that do.
 */
export function offeringHosts(
  settings: SlotRules,
  assignment: HostAssignment,
  members: readonly HostMember[],
  startMs: number,
  endMs: number,
  nowMs: number,
  options: { ignoreNoticeAndHorizon?: boolean; awayOf?: (hostId: number) => readonly BusyInterval[] } = {},
): number[] {
  const offers = (m: HostMember) => insideOf(m.within, startMs, endMs) && isOffered(hostRules(settings, m), startMs, endMs, nowMs, options);
  if (assignment === "collective" && members.length > 1 && options.awayOf) {
    // Away hosts are left out (still named, so the claim reads their time off again under its lock).
    const awayOf = options.awayOf;
    const present = members.filter((m) => !awayDuring(awayOf(m.hostId), startMs, endMs));
    return present.length > 0 && present.every(offers) ? members.map((m) => m.hostId) : [];
  }
  const offering = members.filter(offers).map((m) => m.hostId);
  if (assignment === "collective") return offering.length === members.length ? offering : [];
  return offering;
}

/**
 * The round-robin pick among `free` hosts: highest priority, then least recently booked through this
 * event type (never booked first), then the first in the event type's list (`members` order).
 */
export function roundRobinChoice(members: readonly HostMember[], free: readonly HostTime[]): number | null {
  const position = new Map(members.map((m, i) => [m.hostId, i]));
  const priority = new Map(members.map((m) => [m.hostId, m.priority]));
  const ranked = [...free].sort(
    (a, b) =>
      (priority.get(b.hostId) ?? 0) - (priority.get(a.hostId) ?? 0) ||
      (a.lastBookedAtMs ?? Number.NEGATIVE_INFINITY) - (b.lastBookedAtMs ?? Number.NEGATIVE_INFINITY) ||
      (position.get(a.hostId) ?? 0) - (position.get(b.hostId) ?? 0),
  );
  return ranked[0]?.hostId ?? null;
}

/**
 * The hosts a booking of [startMs, endMs) takes, decided inside the claim: collective, all candidate
 * hosts when a seat is left and none of them is busy; round robin, the current host when `keep` names
 * one that is free (a reschedule keeps its host), else the `roundRobinChoice` among the free ones.
 * Null when nobody can take it. `retake`: a lapsed hold taking its seat again (its hours, not notice).
 */
export function hostsFor(
  settings: SlotRules,
  assignment: HostAssignment,
  members: readonly HostMember[],
  candidates: readonly HostTime[],
  holders: readonly HostedHolder[],
  startMs: number,
  endMs: number,
  options: { keep?: readonly number[]; retake?: { nowMs: number } } = {},
): number[] | null {
  const seatFree = (hostId: number) => {
    const member = members.find((m) => m.hostId === hostId);
    const rules = member ? hostRules(settings, member) : settings;
    const counted = holdersOf(assignment, holders, hostId);
    return options.retake ? retakable(rules, startMs, endMs, counted, options.retake.nowMs) : seatsLeft(rules, startMs, endMs, counted) > 0;
  };
  const within = (hostId: number) => insideOf(members.find((m) => m.hostId === hostId)?.within, startMs, endMs);
  if (assignment === "collective" && candidates.length > 1) {
    // An away host is left out: the others meet without them (domain/time-off.ts).
    const present = candidates.filter((c) => !awayDuring(c.away, startMs, endMs));
    const free = present.filter((c) => seatFree(c.hostId) && !blockedByBusy(settings, startMs, endMs, c.busy));
    return free.length === present.length && free.length > 0 ? free.map((c) => c.hostId) : null;
  }
  const free = candidates.filter(
    (c) => within(c.hostId) && seatFree(c.hostId) && !blockedByBusy(settings, startMs, endMs, c.away ? [...c.busy, ...c.away] : c.busy),
  );
  if (assignment === "collective" || candidates.length <= 1) return free.length === candidates.length && free.length > 0 ? free.map((c) => c.hostId) : null;
  const kept = options.keep?.find((id) => free.some((c) => c.hostId === id));
  if (kept !== undefined) return [kept];
  const chosen = roundRobinChoice(members, free);
  return chosen === null ? null : [chosen];
}
