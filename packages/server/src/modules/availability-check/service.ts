import { DateTime } from "luxon";
import type { AvailabilityCheck, AvailabilityReason, HostAvailability, HostAvailabilityCheck } from "@booking/wire";
import { DomainError, ValidationFailed } from "../../domain/errors.ts";
import { hostExclusions, teamBookable, type HostBlock, type HostExclusion } from "../../domain/exclusions.ts";
import { hostRules, type HostMember } from "../../domain/hosts.ts";
import { insideOf } from "../../domain/time-off.ts";
import { busyWindow, horizonEnd, noticeEnd } from "../../domain/slots.ts";
import { utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { Store } from "../../store/store.ts";
import { existingEventType } from "../event-types/organizer.ts";
import { awayView } from "../time-off/stand-ins.ts";
import type { TimeSlotService } from "../time-slots/service.ts";
import { calendarEventTitle } from "./titles.ts";

/**
 * Who asks: the organizer (`hostId` undefined) sees every detail; a host's console session sees the
 * details of its own time (which booking, which calendar and the event's title) and of other hosts
 * only the code and the words.
 */
export interface CheckViewer {
  hostId?: number | undefined;
}

const MINUTE = 60_000;

/**
 * Answers "why is this time not offered?" for an event type or a host, with the steps of the slot
 * page (domain/exclusions.ts) over the very data the page reads (`TimeSlotService.gather`), so
 * `bookable` is exactly whether `GET /time-slots` lists the start.
 */
export class AvailabilityCheckService {
  constructor(
    private readonly store: Store,
    private readonly slots: TimeSlotService,
    private readonly now: () => number,
  ) {}

  /** `GET /admin/event-types/{id}/availability-check`. */
  async eventType(eventTypeId: number, start: string, viewer: CheckViewer): Promise<AvailabilityCheck> {
    const startMs = instant(start);
    const eventType = await existingEventType(this.store, eventTypeId);
    if (viewer.hostId !== undefined && !eventType.hosts.some((h) => h.hostId === viewer.hostId))
      throw new DomainError("not_found", `No event type with id ${eventTypeId}.`);
    return this.check(eventType, eventType.hosts, startMs, viewer);
  }

  /** `GET /admin/hosts/{hostId}/availability-check`: the host through each of its event types (or the one asked). */
  async host(hostId: number, start: string, eventTypeId: number | undefined, viewer: CheckViewer): Promise<HostAvailabilityCheck> {
    const startMs = instant(start);
    const host = await this.store.hosts.byId(hostId);
    if (!host) throw new DomainError("not_found", `No host with id ${hostId}.`);
    const ids = await this.store.hosts.eventTypeIds(hostId);
    if (eventTypeId !== undefined && !ids.includes(eventTypeId))
      throw new DomainError("not_found", `Host ${hostId} is not a host of an event type with id ${eventTypeId}.`);
    const eventTypes = (await Promise.all((eventTypeId === undefined ? ids : [eventTypeId]).map((id) => this.store.eventTypes.byId(id)))).filter(
      (e): e is EventTypeRecord => e !== null,
    );
    const checks = await Promise.all(
      eventTypes.map((e) =>
        this.check(
          e,
          e.hosts.filter((h) => h.hostId === hostId),
          startMs,
          viewer,
        ),
      ),
    );
    return { hostId, start: utc(startMs), bookable: checks.some((c) => c.bookable), eventTypes: checks };
  }

  /** The check of one start through `eventType`, about `members` (all its hosts, or one). */
  private async check(eventType: EventTypeRecord, members: EventTypeRecord["hosts"], startMs: number, viewer: CheckViewer): Promise<AvailabilityCheck> {
    const nowMs = this.now();
    const s = eventType.settings;
    const endMs = startMs + s.durationMinutes * MINUTE;
    // Time off is a further step's block (`time_off`), read as the slot page reads it; on a personal
    // event type a colleague standing in for the away host is one more member, offered only then.
    const away = await awayView(this.store, eventType, busyWindow(s, startMs, startMs + 1));
    const standIn = away.substituted && members.length === eventType.hosts.length;
    const offered = standIn ? away.eventType : eventType;
    const asked = standIn ? offered.hosts.filter((m, i) => i === 0 || insideOf(m.within, startMs, endMs)) : members;
    const { holders, blocksOf, ownLimited, limited } = await this.slots.gather(offered, startMs, startMs + 1, nowMs, { fresh: true });
    const awayBlocks = (hostId: number): HostBlock[] => away.awayOf(hostId).map((a) => ({ startMs: a.startMs, endMs: a.endMs, code: "time_off", note: "" }));
    const hosts: HostAvailability[] = [];
    const awayNow: boolean[] = [];
    for (const member of asked) {
      const own = awayBlocks(member.hostId);
      awayNow.push(own.some((b) => b.startMs < endMs && startMs < b.endMs));
      const found = hostExclusions(s, offered.assignment, member, holders, [...blocksOf(member.hostId), ...own], startMs, nowMs);
      // The host's booking limits, by the checker the slot page asks (modules/reservations/limits.ts).
      if (limited?.(member.hostId, startMs, endMs))
        found.push({
          code: "limit_reached",
          block: {
            startMs,
            endMs,
            code: "limit_reached",
            note: `${member.name} has reached a booking limit (bookings or minutes per day, week or month) for this period.`,
          },
        });
      const reasons = await Promise.all(found.map((f) => this.reason(eventType, member, f, startMs, endMs, nowMs, viewer)));
      hosts.push({ hostId: member.hostId, name: member.name, free: reasons.length === 0, reasons });
    }
    const disabled: AvailabilityReason[] = eventType.disabled
      ? [{ code: "disabled", message: "The event type is disabled: its booking page offers no times." }]
      : [];
    // A collective team meets without its away hosts (domain/hosts.ts): only those present count, and one must be.
    const leaveOut = offered.assignment === "collective" && asked.length > 1 && awayNow.some(Boolean) && !awayNow.every(Boolean);
    const counted = leaveOut ? hosts.filter((_, i) => !awayNow[i]) : hosts;
    // The event type's own limits leave the time out whoever hosts it.
    const full: AvailabilityReason[] = ownLimited?.(startMs, endMs)
      ? [{ code: "limit_reached", message: "The event type has reached a booking limit (bookings or minutes per day, week or month) for this period." }]
      : [];
    const bookable =
      disabled.length === 0 &&
      full.length === 0 &&
      teamBookable(
        offered.assignment,
        counted.map((h) => h.free),
      );
    const reasons = bookable ? [] : [...disabled, ...full, ...hosts.flatMap((h) => h.reasons)];
    return { eventTypeId: eventType.id, title: s.title, start: utc(startMs), end: utc(endMs), bookable, reasons, hosts };
  }

  /** One step's finding in words, with the details the viewer may see. */
  private async reason(
    eventType: EventTypeRecord,
    member: HostMember & { name: string; scheduleId: number | null },
    found: HostExclusion,
    startMs: number,
    endMs: number,
    nowMs: number,
    viewer: CheckViewer,
  ): Promise<AvailabilityReason> {
    const rules = hostRules(eventType.settings, member);
    const who = member.name;
    const own = viewer.hostId === undefined || viewer.hostId === member.hostId;
    const base = { code: found.code, hostId: member.hostId };
    const interval = found.block ?? found.holder;
    const span = interval ? { busyFrom: utc(interval.startMs), busyUntil: utc(interval.endMs) } : {};
    switch (found.code) {
      case "outside_hours": {
        const schedule = member.scheduleId === null ? null : await this.store.schedules.byId(member.scheduleId);
        const name = schedule ? schedule.name : "the event type's own hours";
        return {
          ...base,
          message: `${who}: ${fmt(startMs, rules.timezone)}–${fmt(endMs, rules.timezone).slice(11)} is not within ${schedule ? `the schedule "${name}"` : name} (${rules.timezone}), or not on its grid of ${eventType.settings.slotIntervalMinutes} minutes.`,
          schedule: { id: schedule?.id ?? null, name },
          timezone: rules.timezone,
        };
      }
      case "min_notice": {
        const from = noticeEnd(rules, nowMs);
        const message =
          startMs < nowMs
            ? "The time has already begun or passed."
            : `Inside the minimum notice of ${rules.minNoticeMinutes} minutes: the first bookable start now is ${utc(from)}.`;
        return { ...base, message, bookableFrom: utc(from) };
      }
      case "horizon": {
        const until = horizonEnd(rules, nowMs);
        return {
          ...base,
          message: `Past the booking horizon of ${rules.horizonDays} days: bookable only until ${fmt(until, rules.timezone)} (${rules.timezone}).`,
          bookableUntil: utc(until),
          timezone: rules.timezone,
        };
      }
      case "seats_full":
        return { ...base, message: `All ${rules.seats} seat${rules.seats === 1 ? " is" : "s are"} taken.`, seats: rules.seats };
      case "buffer":
        return {
          ...base,
          ...span,
          message: `${who} is busy ${utc(interval!.startMs)}–${utc(interval!.endMs)}, within the buffer of ${eventType.settings.bufferBeforeMinutes} minutes before and ${eventType.settings.bufferAfterMinutes} after a meeting.`,
        };
      case "host_busy": {
        const otherId = found.block?.eventTypeId ?? eventType.id;
        const uuid = found.block?.reservationUuid ?? found.holder?.uuid;
        if (!own) return { ...base, ...span, message: `${who} has another booking then.` };
        const other = otherId === eventType.id ? eventType : await this.store.eventTypes.byId(otherId);
        const title = other?.settings.title ?? `#${otherId}`;
        return {
          ...base,
          ...span,
          message: `${who} is booked then through "${title}".`,
          eventType: { id: otherId, title },
          ...(uuid ? { reservationUuid: uuid } : {}),
        };
      }
      case "calendar_busy": {
        const sourceId = found.block?.sourceId ?? null;
        if (!own || sourceId === null) return { ...base, ...span, message: `${who}'s calendar is busy then.` };
        const source = await this.store.busy.byId(sourceId);
        const title = source ? await calendarEventTitle(this.store, source, interval!.startMs, interval!.endMs) : null;
        return {
          ...base,
          ...span,
          message: `${who}'s calendar ${source ? `${source.url} ` : ""}is busy then${title ? `: "${title}"` : ""}.`,
          ...(source ? { calendar: { id: source.id, kind: source.kind, url: source.url } } : {}),
          ...(title ? { title } : {}),
        };
      }
      case "time_off":
        return { ...base, ...span, message: `${who} is away ${utc(interval!.startMs)}–${utc(interval!.endMs)} (time off).` };
      default: {
        // A further step's block (a limit): it says itself what it is.
        const note = found.block?.note;
        return { ...base, ...span, message: note ?? `${who} is not available then (${found.code}).` };
      }
    }
  }
}

/** The asked start as epoch ms: an ISO 8601 date-time with an offset or Z; 422 on `start` otherwise. */
function instant(start: string): number {
  const at = /(Z|[+-]\d{2}:?\d{2})$/i.test(start) ? DateTime.fromISO(start, { setZone: true }) : null;
  if (!at?.isValid) throw new ValidationFailed({ start: ["Expected an ISO 8601 date-time with an offset or Z, such as 2026-05-12T10:00:00+02:00."] });
  return at.toMillis();
}

/** "YYYY-MM-DD HH:MM" of an instant in `zone`. */
function fmt(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd HH:mm");
}
