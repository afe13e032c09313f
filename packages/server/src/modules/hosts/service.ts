import { DateTime } from "luxon";
import {
  limitsView,
  setLimits,
  type HostBookingView,
  type HostCreate,
  type HostPatch,
  type HostView,
  type ScheduleCreate,
  type SchedulePatch,
  type ScheduleView,
  type TimeRange,
} from "@booking/wire";

export type { HostBookingView } from "@booking/wire";
import { checkAvailability } from "../../domain/availability.ts";
import { addError, DomainError, ValidationFailed } from "../../domain/errors.ts";
import { isHttpUrl } from "../../lib/links.ts";
import { FEED_TOKEN_PREFIX, newToken } from "../../lib/tokens.ts";
import type { AvailabilityRules } from "../../domain/event-type.ts";
import { statusAt } from "../../domain/reservation.ts";
import { canonicalZone, utc } from "../../lib/time.ts";
import type { HostRecord, ScheduleRecord } from "../../store/hosts.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import type { ReservationStatus } from "@booking/wire";

/** Most schedules one host may keep. */
export const MAX_SCHEDULES_PER_HOST = 50;
/** Most bookings one listing of a host's bookings answers. */
const MAX_LISTED = 1000;

/** Query of a host's bookings across event types: whole days in `timezone` (default the host's). */
export interface HostReservationsQuery {
  from: string;
  until: string;
  status?: ReservationStatus | undefined;
  timezone?: string | undefined;
}

/**
 * The organizer's operations on hosts and their schedules (docs/hosts.md), shared by the admin API
 * and the other organizer channels: create, edit and delete hosts and schedules, list a host's
 * bookings across its event types. A host is deleted only when nothing uses it; the default host
 * never is.
 */
export class HostAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  async list(): Promise<HostView[]> {
    return Promise.all((await this.store.hosts.list()).map((h) => this.view(h)));
  }

  async get(id: number): Promise<HostView> {
    return this.view(await this.host(id));
  }

  async create(input: HostCreate): Promise<HostView> {
    const { limits, ...fields } = input;
    const checked = checkHost({ timezone: "UTC", avatarUrl: null, ...fields });
    return this.view(await this.store.hosts.create({ ...checked, limits: setLimits(limits), feedToken: newToken(FEED_TOKEN_PREFIX) }, this.now()));
  }

  /** Gives the host's booking feed a new secret: the old address stops working at once (a leaked one, say). */
  async rotateFeedToken(id: number): Promise<HostView> {
    await this.host(id);
    const updated = await this.store.hosts.update(id, { feedToken: newToken(FEED_TOKEN_PREFIX) }, this.now());
    if (!updated) throw notFound(id);
    return this.view(updated);
  }

  async update(id: number, patch: HostPatch): Promise<HostView> {
    const current = await this.host(id);
    const { limits, ...fields } = patch;
    // A change of the limits alone leaves the other fields unjudged (the migrated default host has no email).
    const checked =
      Object.keys(fields).length === 0
        ? {}
        : checkHost({ name: current.name, email: current.email ?? "", timezone: current.timezone, avatarUrl: current.avatarUrl, ...fields });
    const change = limits === undefined ? checked : { ...checked, limits: setLimits(limits) };
    const updated = await this.store.hosts.update(id, change, this.now());
    if (!updated) throw notFound(id);
    return this.view(updated);
  }

  async delete(id: number): Promise<void> {
    const outcome = await this.store.hosts.delete(id);
    if (outcome === "not_found") throw notFound(id);
    if (outcome === "default") throw new ValidationFailed({ hostId: ["The default host cannot be deleted: event types created without hosts belong to it."] });
    if (outcome === "in_use")
      throw new ValidationFailed({ hostId: ["The host has event types or bookings; take it off its event types (bookings keep it) before deleting it."] });
  }

  async schedules(hostId: number): Promise<ScheduleView[]> {
    await this.host(hostId);
    const used = await this.scheduleUse();
    return (await this.store.schedules.list(hostId)).map((s) => scheduleView(s, used.get(s.id) ?? []));
  }

  async schedule(id: number): Promise<ScheduleView> {
    const s = await this.existingSchedule(id);
    return scheduleView(s, (await this.scheduleUse()).get(id) ?? []);
  }

  async createSchedule(hostId: number, input: ScheduleCreate): Promise<ScheduleView> {
    const host = await this.host(hostId);
    if ((await this.store.schedules.list(hostId)).length >= MAX_SCHEDULES_PER_HOST) {
      throw new ValidationFailed({ name: [`A host keeps at most ${MAX_SCHEDULES_PER_HOST} schedules; remove one first.`] });
    }
    const checked = checkSchedule({ name: input.name, timezone: input.timezone ?? host.timezone, availability: input.availability });
    return scheduleView(await this.store.schedules.create({ hostId, ...checked }, this.now()), []);
  }

  async updateSchedule(id: number, patch: SchedulePatch): Promise<ScheduleView> {
    const current = await this.existingSchedule(id);
    const checked = checkSchedule({
      name: patch.name ?? current.name,
      timezone: patch.timezone ?? current.timezone,
      availability: patch.availability ?? current.availability,
    });
    const updated = await this.store.schedules.update(id, checked, this.now());
    if (!updated) throw scheduleNotFound(id);
    return scheduleView(updated, (await this.scheduleUse()).get(id) ?? []);
  }

  async deleteSchedule(id: number): Promise<void> {
    const outcome = await this.store.schedules.delete(id);
    if (outcome === "not_found") throw scheduleNotFound(id);
    if (outcome === "in_use") throw new ValidationFailed({ scheduleId: ["An event type uses the schedule; give it other hours first."] });
  }

  /** The event types of the host, by id. */
  async eventTypeIds(hostId: number): Promise<number[]> {
    await this.host(hostId);
    return this.store.hosts.eventTypeIds(hostId);
  }

  /** The host's bookings of every event type in whole days `from`..`until` (the host's zone unless asked), by start. */
  async reservations(hostId: number, query: HostReservationsQuery): Promise<HostBookingView[]> {
    const host = await this.host(hostId);
    const errors: Record<string, string[]> = {};
    const zone = query.timezone === undefined ? host.timezone : canonicalZone(query.timezone);
    if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
    const from = DateTime.fromISO(query.from, { zone: zone ?? "UTC" });
    const until = DateTime.fromISO(query.until, { zone: zone ?? "UTC" });
    if (!from.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(query.from)) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
    if (!until.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(query.until)) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
    else if (from.isValid && until < from) addError(errors, "until", "Must not be before from.");
    ValidationFailed.check(errors);
    const nowMs = this.now();
    const rows = await this.store.hosts.reservations(hostId, {
      fromMs: from.startOf("day").toMillis(),
      untilMs: until.plus({ days: 1 }).startOf("day").toMillis(),
      limit: MAX_LISTED,
    });
    return rows
      .map((r) => ({ r, status: statusAt(r, nowMs) }))
      .filter(({ status }) => query.status === undefined || status === query.status)
      .map(({ r, status }) => bookingView(r, status));
  }

  private async view(h: HostRecord): Promise<HostView> {
    return {
      id: h.id,
      name: h.name,
      email: h.email,
      timezone: h.timezone,
      avatarUrl: h.avatarUrl,
      isDefault: h.isDefault,
      bookingsCalendar: h.bookingsCalendar,
      eventTypeIds: await this.store.hosts.eventTypeIds(h.id),
      limits: limitsView(h.limits),
      feedToken: h.feedToken,
      createdAt: utc(h.createdAtMs),
      updatedAt: utc(h.updatedAtMs),
    };
  }

  /** Which event types use each schedule. */
  private async scheduleUse(): Promise<Map<number, number[]>> {
    const used = new Map<number, number[]>();
    for (const et of await this.store.eventTypes.list()) {
      for (const h of et.hosts) if (h.scheduleId !== null) used.set(h.scheduleId, [...(used.get(h.scheduleId) ?? []), et.id]);
    }
    return used;
  }

  private async host(id: number): Promise<HostRecord> {
    const h = await this.store.hosts.byId(id);
    if (!h) throw notFound(id);
    return h;
  }

  private async existingSchedule(id: number): Promise<ScheduleRecord> {
    const s = await this.store.schedules.byId(id);
    if (!s) throw scheduleNotFound(id);
    return s;
  }
}

/** A host's fields checked beyond their schema: a real zone, a name on one line, an http(s) avatar. */
function checkHost(input: { name: string; email: string; timezone: string; avatarUrl: string | null }): {
  name: string;
  email: string;
  timezone: string;
  avatarUrl: string | null;
} {
  const errors: Record<string, string[]> = {};
  const name = input.name.trim();
  if (name === "" || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) addError(errors, "name", "Expected a name: visible text on one line.");
  if (input.email.trim() === "") addError(errors, "email", "Expected an email address.");
  const zone = canonicalZone(input.timezone);
  if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
  const avatarUrl = input.avatarUrl === "" ? null : input.avatarUrl;
  if (avatarUrl !== null && !isHttpUrl(avatarUrl)) addError(errors, "avatarUrl", "Expected an http(s) URL.");
  ValidationFailed.check(errors);
  return { name, email: input.email.trim(), timezone: zone!, avatarUrl };
}

/** A schedule's fields checked beyond their schema: a real zone, ordered ranges, real and distinct override dates. */
function checkSchedule(input: {
  name: string;
  timezone: string;
  availability: { weekly: Partial<Record<string, TimeRange[]>>; overrides?: { date: string; ranges: TimeRange[] }[] };
}): {
  name: string;
  timezone: string;
  availability: AvailabilityRules;
} {
  const errors: Record<string, string[]> = {};
  const name = input.name.trim();
  if (name === "" || /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) addError(errors, "name", "Expected a name: visible text on one line.");
  const zone = canonicalZone(input.timezone);
  if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
  const availability: AvailabilityRules = { weekly: { ...input.availability.weekly }, overrides: input.availability.overrides ?? [] };
  checkAvailability(availability, errors);
  ValidationFailed.check(errors);
  return { name, timezone: zone!, availability };
}

function scheduleView(s: ScheduleRecord, eventTypeIds: number[]): ScheduleView {
  return {
    id: s.id,
    hostId: s.hostId,
    name: s.name,
    timezone: s.timezone,
    availability: s.availability,
    eventTypeIds,
    createdAt: utc(s.createdAtMs),
    updatedAt: utc(s.updatedAtMs),
  };
}

function bookingView(r: ReservationRecord, status: ReservationStatus): HostBookingView {
  return {
    uuid: r.uuid,
    eventTypeId: r.eventTypeId,
    hostIds: r.hostIds,
    status,
    start: utc(r.startMs),
    end: utc(r.endMs),
    email: r.email,
    firstname: r.firstname,
    lastname: r.lastname,
    createdAt: utc(r.createdAtMs),
  };
}

function notFound(id: number): DomainError {
  return new DomainError("not_found", `No host with id ${id}.`);
}

function scheduleNotFound(id: number): DomainError {
  return new DomainError("not_found", `No schedule with id ${id}.`);
}
