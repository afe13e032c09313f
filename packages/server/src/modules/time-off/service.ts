import { DateTime } from "luxon";
import type { AwayNotice, TimeOffCreate, TimeOffPatch, TimeOffView } from "@booking/wire";
import { addError, DomainError, ValidationFailed } from "../../domain/errors.ts";
import { horizonEnd } from "../../domain/slots.ts";
import { offsetInstant, utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { HostRecord } from "../../store/hosts.ts";
import type { Store } from "../../store/store.ts";
import type { NewTimeOff, TimeOffRecord } from "../../store/time-off.ts";

/** Most time off one host keeps still to come: a holiday calendar, not a log. */
export const MAX_TIME_OFF_PER_HOST = 200;

/**
 * The organizer's operations on hosts' time off (docs/hosts.md), shared by the admin API, the CLI
 * and the assistant server: list what is still to come, add whole days in the host's zone or a time
 * range, change or remove it. Every change bumps the host's revision, so every event type of the
 * host offers its new times at once; bookings already made inside a new time off stay.
 */
export class TimeOffAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** The host's time off not over yet, by start. */
  async list(hostId: number): Promise<TimeOffView[]> {
    await this.host(hostId);
    return this.views(await this.store.timeOff.list(hostId, this.now()));
  }

  async create(hostId: number, input: TimeOffCreate): Promise<TimeOffView> {
    const host = await this.host(hostId);
    const errors: Record<string, string[]> = {};
    const time = timeOf(input, host, errors, true);
    const colleagueHostId = await this.colleague(host, input.colleagueHostId ?? null, errors);
    ValidationFailed.check(errors);
    if ((await this.store.timeOff.list(hostId, this.now())).length >= MAX_TIME_OFF_PER_HOST) {
      throw new ValidationFailed({ hostId: [`A host keeps at most ${MAX_TIME_OFF_PER_HOST} time off still to come; remove some first.`] });
    }
    const record: NewTimeOff = { hostId, ...time!, note: noteOf(input.note), colleagueHostId };
    return (await this.views([await this.store.timeOff.create(record, this.now())]))[0]!;
  }

  async update(hostId: number, id: number, patch: TimeOffPatch): Promise<TimeOffView> {
    const host = await this.host(hostId);
    const current = await this.existing(hostId, id);
    const errors: Record<string, string[]> = {};
    const time = timeOf(patch, host, errors, false);
    const colleagueHostId = patch.colleagueHostId === undefined ? current.colleagueHostId : await this.colleague(host, patch.colleagueHostId, errors);
    ValidationFailed.check(errors);
    const change = { ...(time ?? {}), colleagueHostId, ...(patch.note === undefined ? {} : { note: noteOf(patch.note) }) };
    const updated = await this.store.timeOff.update(id, change, this.now());
    if (!updated) throw notFound(id);
    return (await this.views([updated]))[0]!;
  }

  async delete(hostId: number, id: number): Promise<void> {
    await this.existing(hostId, id);
    if (!(await this.store.timeOff.delete(id))) throw notFound(id);
  }

  private async host(id: number): Promise<HostRecord> {
    const host = await this.store.hosts.byId(id);
    if (!host) throw new DomainError("not_found", `No host with id ${id}.`);
    return host;
  }

  /** The host's time off with this id; another host's is as unknown as one that does not exist. */
  private async existing(hostId: number, id: number): Promise<TimeOffRecord> {
    const record = await this.store.timeOff.byId(id);
    if (!record || record.hostId !== hostId) throw notFound(id);
    return record;
  }

  private async colleague(host: HostRecord, id: number | null, errors: Record<string, string[]>): Promise<number | null> {
    if (id === null) return null;
    if (id === host.id) addError(errors, "colleagueHostId", "A host cannot stand in for themselves; name another host.");
    else if (!(await this.store.hosts.byId(id))) addError(errors, "colleagueHostId", `No host with id ${id}.`);
    return id;
  }

  private async views(records: TimeOffRecord[]): Promise<TimeOffView[]> {
    const ids = [...new Set(records.flatMap((r) => (r.colleagueHostId === null ? [] : [r.colleagueHostId])))];
    const names = new Map((await this.store.hosts.byIds(ids)).map((h) => [h.id, h.name]));
    return records.map((r) => ({
      id: r.id,
      hostId: r.hostId,
      start: utc(r.startMs),
      end: utc(r.endMs),
      startDate: r.startDate,
      endDate: r.endDate,
      note: r.note,
      colleagueHostId: r.colleagueHostId,
      colleagueName: r.colleagueHostId === null ? null : (names.get(r.colleagueHostId) ?? null),
      createdAt: utc(r.createdAtMs),
      updatedAt: utc(r.updatedAtMs),
    }));
  }
}

const notFound = (id: number) => new DomainError("not_found", `No time off with id ${id} for this host.`);

const noteOf = (note: string | null | undefined): string | null => (note?.trim() ? note.trim() : null);

/**
 * The time an input names: whole days `startDate`..`endDate` (inclusive) from midnight to midnight
 * in the host's zone, so a day of a daylight saving change is 23 or 25 hours; or the range
 * `start`..`end`. Undefined when a change names neither (the time stays); 422 on the fields otherwise.
 */
function timeOf(
  input: TimeOffCreate,
  host: HostRecord,
  errors: Record<string, string[]>,
  required: boolean,
): Pick<NewTimeOff, "startMs" | "endMs" | "startDate" | "endDate"> | undefined {
  const days = input.startDate !== undefined || input.endDate !== undefined;
  const range = input.start !== undefined || input.end !== undefined;
  if (days && range) {
    addError(errors, "start", "Give whole days (startDate, endDate) or a time range (start, end), not both.");
    return undefined;
  }
  if (days) {
    const first = input.startDate === undefined ? null : dayIn(input.startDate, host.timezone);
    const last = input.endDate === undefined ? null : dayIn(input.endDate, host.timezone);
    if (!first) addError(errors, "startDate", "Expected a calendar date, YYYY-MM-DD.");
    if (!last) addError(errors, "endDate", "Expected a calendar date, YYYY-MM-DD.");
    if (!first || !last) return undefined;
    if (last < first) {
      addError(errors, "endDate", "Must not be before startDate.");
      return undefined;
    }
    return { startMs: first.toMillis(), endMs: last.plus({ days: 1 }).toMillis(), startDate: input.startDate!, endDate: input.endDate! };
  }
  if (range) {
    const startMs = input.start === undefined ? null : offsetInstant(input.start);
    const endMs = input.end === undefined ? null : offsetInstant(input.end);
    if (startMs === null) addError(errors, "start", "Expected an ISO 8601 date-time with an offset, e.g. 2026-05-04T09:00:00+02:00.");
    if (endMs === null) addError(errors, "end", "Expected an ISO 8601 date-time with an offset, e.g. 2026-05-04T13:00:00+02:00.");
    if (startMs === null || endMs === null) return undefined;
    if (endMs <= startMs) {
      addError(errors, "end", "Must be after start.");
      return undefined;
    }
    return { startMs, endMs, startDate: null, endDate: null };
  }
  if (required) addError(errors, "startDate", "Give whole days (startDate, endDate) or a time range (start, end).");
  return undefined;
}

/** The start of calendar day YYYY-MM-DD in `zone`, or null when it is not one. */
function dayIn(value: string, zone: string): DateTime | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = DateTime.fromISO(value, { zone });
  return day.isValid ? day.startOf("day") : null;
}

/**
 * The notices of a personal event type's booking calendar (`EventTypeConfiguration.away`): its
 * host's time off between now and the booking horizon, with the colleague standing in. None for a
 * team: round robin gives the time to another host, a collective meeting goes ahead without them.
 */
export async function awayNotices(store: Store, eventType: EventTypeRecord, nowMs: number): Promise<{ notices: AwayNotice[]; validUntilMs: number }> {
  const host = eventType.hosts[0]!;
  const untilMs = horizonEnd(eventType.settings, nowMs);
  if (eventType.hosts.length !== 1) return { notices: [], validUntilMs: Number.POSITIVE_INFINITY };
  const records = (await store.timeOff.list(host.hostId, nowMs)).filter((r) => r.startMs < untilMs);
  const colleagues = await store.hosts.byIds([...new Set(records.flatMap((r) => (r.colleagueHostId === null ? [] : [r.colleagueHostId])))]);
  const zone = eventType.settings.timezone;
  const notices = records.map((r) => ({
    hostName: host.name,
    start: utc(r.startMs),
    end: utc(r.endMs),
    lastDay: DateTime.fromMillis(r.endMs - 1, { zone }).toISODate()!,
    note: r.note,
    colleagueName: colleagues.find((c) => c.id === r.colleagueHostId)?.name ?? null,
  }));
  // A notice goes when its time off is over.
  return { notices, validUntilMs: records.reduce((m, r) => Math.min(m, r.endMs), Number.POSITIVE_INFINITY) };
}
