import { DateTime } from "luxon";
import { canonicalZone, utc } from "../../lib/time.ts";
import { LIMITS, type TimeSlot, type TimeSlotsQuery } from "@booking/wire";
import { busyWindow, horizonEnd, type Slot } from "../../domain/slots.ts";
import { addError, ValidationFailed } from "../../domain/errors.ts";
import { PreparedJson } from "../../lib/prepared-body.ts";
import { coversWhole, lowerBound, NO_BUSY_SOURCE, type BusySource } from "../../domain/busy.ts";
import { teamSlots } from "../../domain/hosts.ts";
import { framesSpan, limitCheckers, limitFramesOf } from "../reservations/limits.ts";
import { TimedCache } from "../../lib/timed-cache.ts";
import { ZonedIsoWriter } from "../../lib/zoned-iso.ts";
import type { Store } from "../../store/store.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { HostBusyInterval } from "../../store/hosts.ts";
import { awayView } from "../time-off/stand-ins.ts";
import type { HostBlock } from "../../domain/exclusions.ts";
import type { Gathered } from "./gathered.ts";

const DAY_MS = 86_400_000;
/**
 * The first-free-day scan asks for a week of slots at a time; weeks are counted from the epoch, so
 * queries from any day and in any zone share them.
 */
const WEEK_MS = 7 * DAY_MS;
/** Memory the free slot starts of scanned weeks, of all event types, may take together (8 bytes a start). */
const FREE_WEEKS_BYTES = 16 * 1024 * 1024;
/** Most weeks the first-free-day scan reads at once: about the 62 days a slot page may span. */
const MAX_SCAN_RUN_WEEKS = 8;

/** Query of `GET /time-slots/first-free`. */
export interface FirstFreeQuery {
  from: string;
  timezone?: string | undefined;
}
/** Memory the hosts' busy times of slot windows may take together (about 96 bytes an interval with where it comes from). */
const HOST_BUSY_BYTES = 16 * 1024 * 1024;
/** Memory the slot pages of all event types may take together. */
const PAGE_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * Most slots one `GET /time-slots` answer lists (about 3.8 MB of JSON). Beyond it a request could
 * cost a core a second: 62 days of overlapping ranges on 5-minute grids list a slot every minute.
 * Ordinary calendars never reach it, not even 62 days of a 5-minute grid open 13 hours a day.
 */
export const MAX_SLOTS_PER_ANSWER = 10_000;

/** A colleague standing in for an away host, with their revision when a page was computed. */
interface StandIn {
  hostId: number;
  revision: number;
}

/** Slots of a window together with the instant until which they stay true if nothing is booked. */
export interface SlotsAnswer {
  slots: Slot[];
  /** Now, when colleagues stand in: their time is not counted in the event type's revision. */
  validUntilMs: number;
  /** The colleagues standing in, and until when the slots stay true while their revisions do. */
  standIns?: { hosts: StandIn[]; validUntilMs: number };
}

/** A checked `GET /time-slots` query: whole days in `zone`, as an instant range. */
export interface SlotWindow {
  zone: string;
  from: string;
  until: string;
  fromMs: number;
  untilMs: number;
}

/** Reads and checks the query; 422 with per-field messages on anything off. */
export function slotWindow(query: TimeSlotsQuery, defaultZone: string): SlotWindow {
  const errors: Record<string, string[]> = {};
  const asked = query.timezone === undefined ? null : canonicalZone(query.timezone);
  if (query.timezone !== undefined && asked === null) addError(errors, "timezone", "Unknown IANA timezone.");
  const zone = asked ?? defaultZone;
  const from = calendarDay(query.from);
  const until = calendarDay(query.until);
  if (from === null) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
  if (until === null) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
  if (from !== null && until !== null) {
    // Whole calendar days between two dates; no zone is involved in counting them.
    const days = (until - from) / DAY_MS + 1;
    if (days < 1) addError(errors, "until", "Must not be before from.");
    else if (days > LIMITS.maxSlotRangeDays) addError(errors, "until", `The range spans at most ${LIMITS.maxSlotRangeDays} days.`);
  }
  ValidationFailed.check(errors);
  return { zone, from: query.from, until: query.until, fromMs: localMidnight(from!, zone), untilMs: localMidnight(until! + DAY_MS, zone) };
}

/** The first of the ascending `starts` at or after `ms` (binary search), or undefined. */
function firstAtOrAfter(starts: Float64Array, ms: number): number | undefined {
  const at = lowerBound(starts, ms);
  return at < starts.length ? starts[at] : undefined;
}

/** A YYYY-MM-DD calendar date as its UTC midnight (a day number, not an instant), or null. */
function calendarDay(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  return check.getUTCFullYear() === y && check.getUTCMonth() === mo - 1 && check.getUTCDate() === d ? ms : null;
}

/** The instant a calendar day starts in `zone` (luxon moves a missing midnight to the first real instant). */
function localMidnight(day: number, zone: string): number {
  const d = new Date(day);
  return DateTime.fromObject({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, { zone }).toMillis();
}

/** The body of `GET /time-slots`, which its route declares as `TimeSlotsResponse` (model.ts). */
interface TimeSlotsAnswer {
  success: true;
  data: TimeSlot[];
  nextFrom?: string;
}

/**
 * Computes free slots and serves `GET /time-slots`: the organizer's hours less the seats
 * reservations hold and less what the busy source says (the organizer's synced calendars, see
 * domain/busy.ts and modules/calendars). Answers
 * are cached per event type revision (bumped by every booking and settings change, also from other
 * processes) and only until the earliest instant at which time alone would change them.
 */
export class TimeSlotService {
  // Weighed as twice its plain body: room for the compressed forms it gains once served.
  private readonly pages = new TimedCache<{ body: PreparedJson<TimeSlotsAnswer>; standIns: StandIn[] }>(
    1000,
    PAGE_CACHE_BYTES,
    (page) => 2 * page.body.byteLength,
  );
  /** The free slot starts of one week of an event type (key `id|week`), for the first-free-day scan. */
  private readonly freeWeeks = new TimedCache<Float64Array>(20_000, FREE_WEEKS_BYTES, (starts) => starts.byteLength + 64);
  /**
   * One host's time outside an event type in a slot window (key `host|event type|from|until`), kept
   * per host revision (bumped by the host's bookings of any event type and its calendars' changes),
   * so a team's page after one booking reads that host again, not every host.
   */
  private readonly hostBusy = new TimedCache<HostBusyInterval[]>(20_000, HOST_BUSY_BYTES, (rows) => rows.length * 96 + 64);

  constructor(
    private readonly store: Store,
    private readonly busy: BusySource = NO_BUSY_SOURCE,
  ) {}

  /**
   * Free and partly booked slots whose start lies in [fromMs, untilMs). `ignoreNoticeAndHorizon`
   * also lists the future times only the organizer may move a reservation to (inside the minimum
   * notice, beyond the horizon).
   */
  async freeSlots(
    listed: EventTypeRecord,
    fromMs: number,
    untilMs: number,
    nowMs: number,
    options: { ignoreNoticeAndHorizon?: boolean; moving?: string } = {},
  ): Promise<SlotsAnswer> {
    const s = listed.settings;
    // Time off of its hosts; a personal event type's away host has their colleague stand in.
    const away = await awayView(this.store, listed, busyWindow(s, fromMs, untilMs));
    const eventType = away.eventType;
    const hostIds = eventType.hosts.map((h) => h.hostId);
    const { holders, hostBusy, blocksOf, counted, ownLimited, limited } = await this.gather(eventType, fromMs, untilMs, nowMs, { moving: options.moving });
    // Seat holders share a slot by its seats; busy time leaves it out whole. A range every host's
    // calendar fills whole (a leave, say) has nothing free: no slot is built.
    const allBusy = hostIds.every((id) => coversWhole(blocksOf(id), fromMs, untilMs));
    const offered =
      allBusy || (eventType.assignment === "collective" && hostIds.some((id) => coversWhole(blocksOf(id), fromMs, untilMs)))
        ? []
        : teamSlots(s, eventType.assignment, eventType.hosts, holders, blocksOf, fromMs, untilMs, nowMs, {
            ...(options.ignoreNoticeAndHorizon ? { ignoreNoticeAndHorizon: true } : {}),
            ...(limited ? { limited } : {}),
            awayOf: away.awayOf,
          });
    const slots = ownLimited ? offered.filter((slot) => !ownLimited(slot.startMs, slot.endMs)) : offered;
    let validUntilMs = DateTime.fromMillis(nowMs, { zone: s.timezone }).startOf("day").plus({ days: 1 }).toMillis();
    if (slots[0]) validUntilMs = Math.min(validUntilMs, slots[0].startMs - s.minNoticeMinutes * 60_000 + 1);
    for (const h of holders) if (h.heldUntilMs !== null && h.heldUntilMs > nowMs) validUntilMs = Math.min(validUntilMs, h.heldUntilMs);
    // A hold of another event type frees the host when it lapses.
    for (const b of hostBusy) if (b.heldUntilMs !== null && b.heldUntilMs > nowMs) validUntilMs = Math.min(validUntilMs, b.heldUntilMs);
    // A hold counted against a limit gives its place back when it lapses.
    for (const b of counted) if (b.heldUntilMs !== null && b.heldUntilMs > nowMs) validUntilMs = Math.min(validUntilMs, b.heldUntilMs);
    if (!away.substituted) return { slots, validUntilMs };
    // A colleague's time is not counted in the event type's revision: kept only by who checks theirs.
    const standIns = eventType.hosts.slice(1).map((h) => ({ hostId: h.hostId, revision: h.revision ?? -1 }));
    return { slots, validUntilMs: nowMs, standIns: { hosts: standIns, validUntilMs } };
  }

  /**
   * What decides the slots starting in [fromMs, untilMs), read once for the slot page and the
   * availability check alike: the event type's seat holders and each host's blocks (bookings of
   * other event types and calendar events, with where each comes from; see domain/exclusions.ts for
   * how further steps add theirs here). `fresh`: read past the hosts' cache and keep nothing in it
   * (a check of one time would only crowd it).
   */
  async gather(
    eventType: EventTypeRecord,
    fromMs: number,
    untilMs: number,
    nowMs: number,
    options: { fresh?: boolean; moving?: string } = {},
  ): Promise<Gathered> {
    const around = busyWindow(eventType.settings, fromMs, untilMs);
    const hostIds = eventType.hosts.map((h) => h.hostId);
    const keyOf = (hostId: number) => `${hostId}|${eventType.id}|${around.fromMs}|${around.untilMs}`;
    const known: HostBusyInterval[] = [];
    const unread: number[] = [];
    for (const h of eventType.hosts) {
      const hit = h.revision === undefined || options.fresh ? undefined : this.hostBusy.get(keyOf(h.hostId), h.revision, nowMs);
      if (hit) known.push(...hit);
      else unread.push(h.hostId);
    }
    // Booking limits (modules/reservations/limits.ts): the bookings they count over the whole periods the window meets.
    const frames = limitFramesOf(eventType);
    const span = framesSpan(frames, fromMs, untilMs);
    const [holders, read, extra, counted] = await Promise.all([
      this.store.reservations.seatHolders(eventType.id, around.fromMs, around.untilMs, nowMs),
      // The hosts' time outside this event type: their bookings of other event types and their calendars (one statement for the hosts not cached).
      unread.length === 0 ? [] : this.store.hosts.busy(unread, eventType.id, around.fromMs, around.untilMs, nowMs),
      this.busy.checkedInClaim ? [] : this.busy.busyBetween(eventType.id, around.fromMs, around.untilMs),
      span ? this.store.reservations.limitBookings(frames.own ? eventType.id : null, [...frames.hosts.keys()], span.fromMs, span.untilMs, nowMs) : [],
    ]);
    const limits = span ? limitCheckers(frames, options.moving ? counted.filter((c) => c.uuid !== options.moving) : counted, fromMs, untilMs) : null;
    const hostBusy = known.length === 0 ? read : [...known, ...read];
    if (unread.length > 0 && !options.fresh) this.keepHostBusy(eventType, unread, read, keyOf, nowMs);
    const blocks = new Map<number, HostBlock[]>(hostIds.map((id) => [id, [...extra]]));
    for (const b of hostBusy) blocks.get(b.hostId)?.push(b);
    // The host limits apply only when a host has one (the event type's own are `limits.own`).
    const limited = limits && frames.hosts.size > 0 ? limits.host : undefined;
    return { holders, hostBusy, blocksOf: (id) => blocks.get(id) ?? extra, counted, ownLimited: limits?.own ?? undefined, limited };
  }

  /**
   * Keeps each host's busy time just read, under the host's revision, until a hold among it lapses or
   * the organizer's day ends (as long as a slot page is kept at most).
   */
  private keepHostBusy(
    eventType: EventTypeRecord,
    hostIds: readonly number[],
    read: readonly HostBusyInterval[],
    keyOf: (hostId: number) => string,
    nowMs: number,
  ): void {
    const endOfDay = DateTime.fromMillis(nowMs, { zone: eventType.settings.timezone }).startOf("day").plus({ days: 1 }).toMillis();
    const byHost = new Map<number, HostBusyInterval[]>(hostIds.map((id) => [id, []]));
    for (const b of read) byHost.get(b.hostId)?.push(b);
    for (const h of eventType.hosts) {
      const rows = byHost.get(h.hostId);
      if (!rows || h.revision === undefined) continue;
      let validUntilMs = endOfDay;
      for (const b of rows) if (b.heldUntilMs !== null && b.heldUntilMs > nowMs) validUntilMs = Math.min(validUntilMs, b.heldUntilMs);
      this.hostBusy.set(keyOf(h.hostId), h.revision, validUntilMs, rows);
    }
  }

  /**
   * The whole `GET /time-slots` body. The cache is keyed by the raw query, so a hit skips even the
   * checks: only a query that passed them was ever stored. At most `MAX_SLOTS_PER_ANSWER` slots, in
   * whole days: a longer list ends before the day that would pass the bound, and `nextFrom` names
   * that day, from which the client asks again.
   */
  async page(eventType: EventTypeRecord, query: TimeSlotsQuery, nowMs: number): Promise<PreparedJson<TimeSlotsAnswer>> {
    const key = `${eventType.id}|${query.from}|${query.until}|${query.timezone ?? ""}`;
    const cached = this.pages.get(key, eventType.revision, nowMs);
    if (cached && (await this.standInsUnchanged(cached.standIns))) return cached.body;
    const window = slotWindow(query, eventType.settings.timezone);
    const { slots, validUntilMs, standIns } = await this.freeSlots(eventType, window.fromMs, window.untilMs, nowMs);
    const { data, nextFrom } = this.bounded(eventType, slots, window.zone);
    const body = new PreparedJson<TimeSlotsAnswer>(nextFrom === undefined ? { success: true, data } : { success: true, data, nextFrom });
    // A page with colleagues standing in is kept with their revisions, and served while they hold.
    this.pages.set(key, eventType.revision, standIns ? standIns.validUntilMs : validUntilMs, { body, standIns: standIns?.hosts ?? [] });
    return body;
  }

  /** Whether the colleagues a kept page stood in with are as they were then (one read of their revisions). */
  private async standInsUnchanged(standIns: readonly StandIn[]): Promise<boolean> {
    if (standIns.length === 0) return true;
    const now = await this.store.hosts.byIds(standIns.map((h) => h.hostId));
    return standIns.every((h) => now.find((n) => n.id === h.hostId)?.revision === h.revision);
  }

  /**
   * The times the organizer may move a reservation of the event type to: the slots of `GET
   * /time-slots` for the same query (hours, seats, the hosts' busy time and bookings), with the
   * minimum notice and the horizon lifted as the organizer's reschedule lifts them; only times still
   * to come. Read afresh (not cached): the organizer's list differs from the visitors' pages. The
   * booking `moving` is not counted against the booking limits, as its move does not count it twice.
   */
  async rescheduleSlots(eventType: EventTypeRecord, query: TimeSlotsQuery, nowMs: number, moving?: string): Promise<{ data: TimeSlot[]; nextFrom?: string }> {
    const window = slotWindow(query, eventType.settings.timezone);
    const { slots } = await this.freeSlots(eventType, window.fromMs, window.untilMs, nowMs, {
      ignoreNoticeAndHorizon: true,
      ...(moving ? { moving } : {}),
    });
    return this.bounded(eventType, slots, window.zone);
  }

  /** At most `MAX_SLOTS_PER_ANSWER` slots in `zone`, in whole days, and the day to ask from for the rest. */
  private bounded(eventType: EventTypeRecord, slots: Slot[], zone: string): { data: TimeSlot[]; nextFrom?: string } {
    const writer = new ZonedIsoWriter(zone);
    let shown = slots;
    let nextFrom: string | undefined;
    if (slots.length > MAX_SLOTS_PER_ANSWER) {
      nextFrom = writer.iso(slots[MAX_SLOTS_PER_ANSWER]!.startMs).slice(0, 10);
      let end = MAX_SLOTS_PER_ANSWER;
      while (end > 0 && writer.iso(slots[end - 1]!.startMs).slice(0, 10) === nextFrom) end--;
      shown = slots.slice(0, end);
    }
    const data = shown.map((slot) => this.present(eventType, slot, writer));
    return nextFrom === undefined ? { data } : { data, nextFrom };
  }

  /**
   * `GET /time-slots/first-free`: the first day on or after `from` (in the asked zone, default the
   * event type's) holding a free slot within the booking horizon, or null when there is none. It
   * scans a week at a time, so a calendar whose shown month is empty can offer that day at once.
   * Each week's free slot starts are cached like slot pages (per event type revision, until time
   * alone would change them) and shared by every `from` and zone, so however the query varies, the
   * horizon of an event type with nothing free is scanned once per revision, not on every request.
   */
  async firstFreeDay(eventType: EventTypeRecord, query: FirstFreeQuery, nowMs: number): Promise<string | null> {
    const errors: Record<string, string[]> = {};
    const asked = query.timezone === undefined ? null : canonicalZone(query.timezone);
    if (query.timezone !== undefined && asked === null) addError(errors, "timezone", "Unknown IANA timezone.");
    const from = calendarDay(query.from);
    if (from === null) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
    ValidationFailed.check(errors);
    const zone = asked ?? eventType.settings.timezone;
    const endMs = horizonEnd(eventType.settings, nowMs);
    // Slots that already started are never free, so the scan starts no earlier than now.
    const startMs = Math.max(localMidnight(from!, zone), nowMs);
    // Weeks not cached are read a run at a time, the run doubling while nothing is free (fewer round trips).
    let run = 1;
    for (let week = Math.floor(startMs / WEEK_MS); week * WEEK_MS < endMs; ) {
      const cached = this.freeWeeks.get(`${eventType.id}|${week}`, eventType.revision, nowMs);
      const weeks = cached ? [cached] : await this.scanWeeks(eventType, week, run, endMs, nowMs);
      if (!cached) run = Math.min(2 * run, MAX_SCAN_RUN_WEEKS);
      for (const starts of weeks) {
        const first = firstAtOrAfter(starts, startMs);
        if (first !== undefined) return new ZonedIsoWriter(zone).iso(first).slice(0, 10);
      }
      week += weeks.length;
    }
    return null;
  }

  /**
   * The free slot starts of `count` weeks from week number `week` (counted from the epoch), up to
   * the horizon's end, one list a week; each cached until what time alone would change in the run.
   */
  private async scanWeeks(eventType: EventTypeRecord, week: number, count: number, endMs: number, nowMs: number): Promise<Float64Array[]> {
    const fromMs = week * WEEK_MS;
    // Up to the horizon's end of today only: the entries expire at the organizer's midnight, when it moves.
    const untilMs = Math.min(fromMs + count * WEEK_MS, endMs);
    const { slots, validUntilMs } = await this.freeSlots(eventType, fromMs, untilMs, nowMs);
    const weeks: Float64Array[] = [];
    let i = 0;
    for (let w = week; w * WEEK_MS < untilMs; w++) {
      const starts: number[] = [];
      for (; i < slots.length && slots[i]!.startMs < (w + 1) * WEEK_MS; i++) starts.push(slots[i]!.startMs);
      const list = Float64Array.from(starts);
      this.freeWeeks.set(`${eventType.id}|${w}`, eventType.revision, validUntilMs, list);
      weeks.push(list);
    }
    return weeks;
  }

  /** One slot in the writer's zone. */
  private present(eventType: EventTypeRecord, slot: Slot, writer: ZonedIsoWriter): TimeSlot {
    const seated = slot.seats > 1;
    const startIso = writer.iso(slot.startMs);
    const endIso = writer.iso(slot.endMs);
    return {
      date: startIso.slice(0, 10),
      dateIso8601: writer.dayStartUtc(slot.startMs),
      // The ISO form is already in the asked zone: its HH:MM is the local wall time.
      readable_start: startIso.slice(11, 16),
      start: startIso,
      startIso8601: utc(slot.startMs),
      readable_end: endIso.slice(11, 16),
      end: endIso,
      endIso8601: utc(slot.endMs),
      seats: slot.seats,
      available_seats: slot.freeSeats,
      booked: slot.freeSeats < slot.seats,
      calendar_id: eventType.id,
      title: eventType.settings.title,
      readable_type: seated ? `Group, ${slot.seats} seats` : "One-on-one",
      type: seated ? "seated" : "single",
    };
  }
}
