import { WEEKDAYS, type BookingLimitsView, type HostView, type ScheduleView, type TimeRange, type Weekday } from "@booking/wire";
import { DateTime } from "luxon";
import type { AppContext } from "../../context.ts";
import { canonicalZone } from "../../lib/time.ts";
import type { Services } from "../../services.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { Lookup } from "./lookup.ts";
import type { ToolOutput } from "./model.ts";
import { rangesText, refOf } from "./present.ts";
import type { ToolAnswer, ToolArgs } from "./service.ts";

/**
 * The organizer's tools on hosts (the people whose time event types book), their schedules, their
 * bookings across event types and the hosts of an event type. Through the same services as the admin
 * API (`/admin/hosts`, `/admin/schedules`, `PATCH /admin/event-types/{id}`), so the same checks answer.
 */
export class HostTools {
  constructor(
    private readonly ctx: AppContext,
    private readonly services: Services,
    private readonly lookup: Lookup,
  ) {}

  async list(): Promise<ToolAnswer<ToolOutput<"list_hosts">>> {
    const hosts = await this.services.hosts.list();
    return {
      data: { hosts },
      text: hosts.length === 0 ? "There are no hosts." : `${hosts.length} host${hosts.length === 1 ? "" : "s"}:\n${hosts.map(hostLine).join("\n")}`,
    };
  }

  async get(args: ToolArgs<"get_host">): Promise<ToolAnswer<ToolOutput<"get_host">>> {
    const host = await this.services.hosts.get(args.hostId);
    const [schedules, calendars, eventTypes] = await Promise.all([
      this.services.hosts.schedules(args.hostId),
      this.services.calendars.listOfHost(args.hostId),
      Promise.all(host.eventTypeIds.map((id) => this.ctx.store.eventTypes.byId(id))),
    ]);
    const refs = eventTypes.filter((et): et is EventTypeRecord => et !== null).map(refOf);
    const text = [
      hostLine(host),
      refs.length === 0 ? "No event types." : `Event types: ${refs.map((et) => `#${et.id} ${et.title}`).join(", ")}`,
      schedules.length === 0 ? "No schedules (its event types use their own hours)." : `Schedules:\n${schedules.map(scheduleText).join("\n")}`,
      calendars.length === 0 ? "No calendars." : `Calendars: ${calendars.map((c) => `#${c.id} ${c.kind} ${c.url} (${c.status})`).join(", ")}`,
    ].join("\n");
    return { data: { host, schedules, calendars, eventTypes: refs }, text };
  }

  async create(args: ToolArgs<"create_host">): Promise<ToolAnswer<ToolOutput<"create_host">>> {
    const host = await this.services.hosts.create(args);
    return { data: { host }, text: `Created host ${hostLine(host)}. set_event_type_hosts makes it a host of event types.` };
  }

  async update(args: ToolArgs<"update_host">): Promise<ToolAnswer<ToolOutput<"update_host">>> {
    const { hostId, ...patch } = args;
    const host = await this.services.hosts.update(hostId, patch);
    return { data: { host }, text: `Updated host ${hostLine(host)}.` };
  }

  async delete(args: ToolArgs<"delete_host">): Promise<ToolAnswer<ToolOutput<"delete_host">>> {
    await this.services.hosts.delete(args.hostId);
    return { data: { hostId: args.hostId, deleted: true }, text: `Deleted host #${args.hostId} with its schedules and calendars.` };
  }

  async bookings(args: ToolArgs<"list_host_bookings">): Promise<ToolAnswer<ToolOutput<"list_host_bookings">>> {
    const host = await this.services.hosts.get(args.hostId);
    const rows = await this.services.hosts.reservations(args.hostId, { from: args.from, until: args.until, status: args.status, timezone: args.timezone });
    // The service refused an unknown zone already.
    const zone = args.timezone === undefined ? host.timezone : (canonicalZone(args.timezone) ?? host.timezone);
    const eventTypes = new Map<number, EventTypeRecord | null>();
    for (const id of new Set(rows.map((r) => r.eventTypeId))) eventTypes.set(id, await this.ctx.store.eventTypes.byId(id));
    const bookings = rows.map((r) => {
      const et = eventTypes.get(r.eventTypeId);
      return {
        uuid: r.uuid,
        eventType: et ? refOf(et) : { id: r.eventTypeId, title: "(deleted)", slug: null },
        hostIds: r.hostIds,
        status: r.status,
        start: DateTime.fromISO(r.start, { zone }).toISO({ suppressMilliseconds: true })!,
        end: DateTime.fromISO(r.end, { zone }).toISO({ suppressMilliseconds: true })!,
        name: `${r.firstname} ${r.lastname}`.trim() || null,
        email: r.email,
      };
    });
    const lines = bookings.map(
      (b) => `${b.start.slice(0, 16).replace("T", " ")}–${b.end.slice(11, 16)} ${b.status} "${b.eventType.title}" ${b.name ?? b.email} (${b.uuid})`,
    );
    const head = `${bookings.length} booking${bookings.length === 1 ? "" : "s"} of ${host.name} (#${host.id}) from ${args.from} to ${args.until} (${zone}), every event type`;
    return {
      data: { host: { id: host.id, name: host.name }, timezone: zone, from: args.from, until: args.until, bookings },
      text: bookings.length === 0 ? `${head}: none.` : `${head}:\n${lines.join("\n")}`,
    };
  }

  async createSchedule(args: ToolArgs<"create_schedule">): Promise<ToolAnswer<ToolOutput<"create_schedule">>> {
    const weekly: Partial<Record<Weekday, TimeRange[]>> = Object.fromEntries(WEEKDAYS.map((d) => [d, args.weekly[d] ?? []]));
    const schedule = await this.services.hosts.createSchedule(args.hostId, {
      name: args.name,
      availability: { weekly, overrides: args.overrides ?? [] },
      ...(args.timezone === undefined ? {} : { timezone: args.timezone }),
    });
    return {
      data: { schedule },
      text: `Created schedule ${scheduleText(schedule)}\nset_event_type_hosts with scheduleId ${schedule.id} makes an event type use it.`,
    };
  }

  async updateSchedule(args: ToolArgs<"update_schedule">): Promise<ToolAnswer<ToolOutput<"update_schedule">>> {
    const current = await this.services.hosts.schedule(args.scheduleId);
    const availability =
      args.weekly === undefined && args.overrides === undefined
        ? undefined
        : { weekly: { ...current.availability.weekly, ...definedDays(args.weekly ?? {}) }, overrides: args.overrides ?? current.availability.overrides ?? [] };
    const schedule = await this.services.hosts.updateSchedule(args.scheduleId, {
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.timezone === undefined ? {} : { timezone: args.timezone }),
      ...(availability === undefined ? {} : { availability }),
    });
    return { data: { schedule }, text: `Updated schedule ${scheduleText(schedule)}` };
  }

  async deleteSchedule(args: ToolArgs<"delete_schedule">): Promise<ToolAnswer<ToolOutput<"delete_schedule">>> {
    await this.services.hosts.deleteSchedule(args.scheduleId);
    return { data: { scheduleId: args.scheduleId, deleted: true }, text: `Deleted schedule #${args.scheduleId}.` };
  }

  async setEventTypeHosts(args: ToolArgs<"set_event_type_hosts">): Promise<ToolAnswer<ToolOutput<"set_event_type_hosts">>> {
    const eventType = await this.lookup.eventType(args);
    const view = await this.services.eventTypeAdmin.update(eventType.id, {
      hosts: args.hosts.map((h) => ({
        hostId: h.hostId,
        ...(h.priority === undefined ? {} : { priority: h.priority }),
        ...(h.scheduleId === undefined ? {} : { scheduleId: h.scheduleId }),
      })),
      ...(args.assignment === undefined ? {} : { assignment: args.assignment }),
    });
    const hosts = view.hosts;
    const how =
      hosts.length < 2
        ? "one host"
        : view.assignment === "round-robin"
          ? "round robin: each booking takes one free host, the highest priority first, then the least recently booked"
          : "collective: a time is offered when every host is free and the booking takes them all";
    return {
      data: { eventType: { id: view.id, title: view.title, slug: view.slug }, assignment: view.assignment, hosts },
      text: `"${view.title}" (#${view.id}) now books ${hosts.map((h) => `${h.name} (#${h.hostId}${hosts.length > 1 ? `, priority ${h.priority}` : ""}${h.scheduleId === null ? "" : `, schedule #${h.scheduleId}`})`).join(", ")}; ${how}.`,
    };
  }

  /** An event type's booking limits, or with `hostId` a host's across all of their event types. */
  async setLimits(args: ToolArgs<"set_booking_limits">): Promise<ToolAnswer<ToolOutput<"set_booking_limits">>> {
    if (args.hostId !== undefined) {
      const host = await this.services.hosts.update(args.hostId, { limits: args.limits });
      return {
        data: { eventType: null, host: { id: host.id, name: host.name }, limits: host.limits },
        text: `${host.name} (#${host.id}), across all of their event types, in ${host.timezone}: ${limitsLine(host.limits)}.`,
      };
    }
    const eventType = await this.lookup.eventType(args);
    const view = await this.services.eventTypeAdmin.update(eventType.id, { limits: args.limits });
    return {
      data: { eventType: { id: view.id, title: view.title, slug: view.slug }, host: null, limits: view.limits },
      text: `"${view.title}" (#${view.id}), in ${view.timezone}: ${limitsLine(view.limits)}.`,
    };
  }
}

/** Limits in a sentence. */
function limitsLine(limits: BookingLimitsView): string {
  const parts = [
    limits.bookingsPerDay === null ? null : `${limits.bookingsPerDay} bookings a day`,
    limits.bookingsPerWeek === null ? null : `${limits.bookingsPerWeek} bookings a week`,
    limits.bookingsPerMonth === null ? null : `${limits.bookingsPerMonth} bookings a month`,
    limits.minutesPerDay === null ? null : `${limits.minutesPerDay} minutes a day`,
    limits.minutesPerWeek === null ? null : `${limits.minutesPerWeek} minutes a week`,
  ].filter((p) => p !== null);
  return parts.length === 0 ? "no booking limits" : `at most ${parts.join(", ")}`;
}

/** The days given, without those left undefined. */
function definedDays(weekly: Partial<Record<Weekday, TimeRange[] | undefined>>): Partial<Record<Weekday, TimeRange[]>> {
  return Object.fromEntries(Object.entries(weekly).filter(([, ranges]) => ranges !== undefined)) as Partial<Record<Weekday, TimeRange[]>>;
}

function hostLine(h: HostView): string {
  return `#${h.id} ${h.name} <${h.email ?? "no email"}>, ${h.timezone}${h.isDefault ? ", the default host" : ""}; event types: ${h.eventTypeIds.length === 0 ? "none" : h.eventTypeIds.map((id) => `#${id}`).join(", ")}`;
}

function scheduleText(s: ScheduleView): string {
  const days = WEEKDAYS.map((d) => `${d} ${rangesText(s.availability.weekly[d] ?? [])}`).join("; ");
  return `#${s.id} "${s.name}" of host #${s.hostId} (${s.timezone}): ${days}${(s.availability.overrides ?? []).map((o) => `; ${o.date} ${rangesText(o.ranges)}`).join("")}`;
}
