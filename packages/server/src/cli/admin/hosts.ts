/** The commands that manage hosts (the people whose time event types book), their schedules and their bookings. */
import { readFileSync } from "node:fs";
import { WEEKDAYS, type Availability, type HostView, type ScheduleView } from "@booking/wire";
import type { HostBookingView } from "../../modules/hosts/service.ts";
import { bookingsQuery, required, UsageError, type Flags } from "./args.ts";
import { table, type CommandGroup } from "./command.ts";
import { rangesOf, rangesText, weekdayOf } from "./hours.ts";

/** Hosts: hosts, host, host-create, host-update, host-delete, host-bookings, schedules, schedule-create, schedule-update, schedule-hours, schedule-delete. */
export const hostCommands: CommandGroup = {
  usage: `  hosts                              List hosts: the people whose time event types book
  host <host-id>                     Show a host with its schedules, calendars and event types
  host-create --name N --email E [--timezone Z] [--avatar URL]
                                     Add a host
  host-update <host-id> [--name N] [--email E] [--timezone Z] [--avatar URL|none]
                                     Change only the fields given
  host-delete <host-id>              Delete a host no event type uses (with its schedules and calendars)
  host-bookings <host-id> --from D --until D [--status S] [--timezone Z]
                                     The host's bookings of every event type in a range of days
  schedules <host-id>                The host's schedules (named weekly hours)
  schedule-create <host-id> --name N [--timezone Z] [--ranges R | --file F]
                                     Add a schedule: R is Monday-Friday hours (09:00-17:00 by
                                       default), F a JSON availability {"weekly": ..., "overrides": [...]}
  schedule-update <schedule-id> [--name N] [--timezone Z] [--file F]
                                     Rename a schedule, change its zone or replace its hours
  schedule-hours <schedule-id> --day D --ranges R
                                     Set one weekday's hours of a schedule, keeping the other days
  schedule-delete <schedule-id>      Delete a schedule no event type uses
  Event types choose their hosts with create/update --host and --assignment (see Settings).`,
  commands: {
    hosts: {
      ids: 0,
      flags: [],
      async run({ api, out }) {
        const all = await api<HostView[]>("GET", "/admin/hosts");
        out(all, () =>
          table([
            ["ID", "NAME", "EMAIL", "TIMEZONE", "EVENT TYPES"],
            ...all.map((h) => [
              String(h.id),
              `${h.name}${h.isDefault ? " (default)" : ""}`,
              h.email ?? "-",
              h.timezone,
              h.eventTypeIds.length === 0 ? "none" : h.eventTypeIds.map((id) => `#${id}`).join(", "),
            ]),
          ]),
        );
      },
    },
    host: {
      ids: 1,
      flags: [],
      idName: "host id",
      async run({ id, api, out }) {
        const [host, schedules, calendars] = await Promise.all([
          api<HostView>("GET", `/admin/hosts/${id}`),
          api<ScheduleView[]>("GET", `/admin/hosts/${id}/schedules`),
          api<{ id: number; kind: string; url: string; status: string; writeBookings: boolean }[]>("GET", `/admin/hosts/${id}/busy-sources`),
        ]);
        out({ ...host, schedules, calendars }, () =>
          [
            hostText(host),
            schedules.length === 0 ? "Schedules:     none (its event types use their own hours)" : ["Schedules:", ...schedules.map(scheduleLine)].join("\n"),
            calendars.length === 0
              ? "Calendars:     none; add one with host-calendar-add"
              : [
                  "Calendars:",
                  ...calendars.map(
                    (c) =>
                      `  #${c.id} ${c.kind === "caldav" ? "CalDAV" : "iCalendar feed"} ${c.url} (${c.status}${c.writeBookings ? ", bookings written here" : ""})`,
                  ),
                ].join("\n"),
          ].join("\n"),
        );
      },
    },
    "host-create": {
      ids: 0,
      flags: ["name", "email", "timezone", "avatar"],
      async run({ flags, api, out }) {
        const body = { name: required(flags.name, "--name"), email: required(flags.email, "--email"), ...hostFields(flags) };
        const host = await api<HostView>("POST", "/admin/hosts", body);
        out(
          host,
          () =>
            `Created host #${host.id} "${host.name}".\n\n${hostText(host)}\n\nGive it event types with: npm run admin -- update <event-type-id> --host ${host.id}`,
        );
      },
    },
    "host-update": {
      ids: 1,
      flags: ["name", "email", "timezone", "avatar"],
      idName: "host id",
      async run({ id, flags, api, out }) {
        const patch = {
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.email === undefined ? {} : { email: flags.email }),
          ...hostFields(flags),
        };
        if (Object.keys(patch).length === 0) throw new UsageError("host-update needs at least one of --name, --email, --timezone, --avatar.");
        const host = await api<HostView>("PATCH", `/admin/hosts/${id}`, patch);
        out(host, () => `Updated host #${host.id}.\n\n${hostText(host)}`);
      },
    },
    "host-delete": {
      ids: 1,
      flags: [],
      idName: "host id",
      async run({ id, api, out }) {
        await api<undefined>("DELETE", `/admin/hosts/${id}`);
        out({ id: Number(id), deleted: true }, () => `Deleted host #${id} with its schedules and calendars.`);
      },
    },
    "host-bookings": {
      ids: 1,
      flags: ["from", "until", "status", "timezone"],
      idName: "host id",
      async run({ id, flags, api, out }) {
        const query = bookingsQuery(flags);
        const rows = await api<HostBookingView[]>("GET", `/admin/hosts/${id}/reservations?${query}`);
        out(rows, () =>
          rows.length === 0
            ? "No bookings of this host in this range."
            : table([
                ["START", "END", "STATUS", "EVENT TYPE", "NAME", "EMAIL", "UUID"],
                ...rows.map((r) => [r.start, r.end, r.status, `#${r.eventTypeId}`, `${r.firstname} ${r.lastname}`.trim() || "-", r.email, r.uuid]),
              ]),
        );
      },
    },
    schedules: {
      ids: 1,
      flags: [],
      idName: "host id",
      async run({ id, api, out }) {
        const rows = await api<ScheduleView[]>("GET", `/admin/hosts/${id}/schedules`);
        out(rows, () => (rows.length === 0 ? `Host #${id} has no schedules; add one with schedule-create.` : rows.map(scheduleText).join("\n\n")));
      },
    },
    "schedule-create": {
      ids: 1,
      flags: ["name", "timezone", "ranges", "file"],
      idName: "host id",
      async run({ id, flags, api, out }) {
        if (flags.ranges !== undefined && flags.file !== undefined) throw new UsageError("schedule-create takes --ranges or --file, not both.");
        const availability = flags.file !== undefined ? availabilityFile(flags.file) : weekdays(rangesOf(flags.ranges ?? "09:00-17:00"));
        const body = { name: required(flags.name, "--name"), availability, ...(flags.timezone === undefined ? {} : { timezone: flags.timezone }) };
        const schedule = await api<ScheduleView>("POST", `/admin/hosts/${id}/schedules`, body);
        out(
          schedule,
          () =>
            `Created schedule #${schedule.id} "${schedule.name}" of host #${schedule.hostId}.\n\n${scheduleText(schedule)}\n\nAn event type uses it with: npm run admin -- update <event-type-id> --host ${schedule.hostId}@${schedule.id}`,
        );
      },
    },
    "schedule-update": {
      ids: 1,
      flags: ["name", "timezone", "file"],
      idName: "schedule id",
      async run({ id, flags, api, out }) {
        const patch = {
          ...(flags.name === undefined ? {} : { name: flags.name }),
          ...(flags.timezone === undefined ? {} : { timezone: flags.timezone }),
          ...(flags.file === undefined ? {} : { availability: availabilityFile(flags.file) }),
        };
        if (Object.keys(patch).length === 0) throw new UsageError("schedule-update needs at least one of --name, --timezone, --file.");
        const schedule = await api<ScheduleView>("PATCH", `/admin/schedules/${id}`, patch);
        out(schedule, () => `Updated schedule #${schedule.id}.\n\n${scheduleText(schedule)}`);
      },
    },
    "schedule-hours": {
      ids: 1,
      flags: ["day", "ranges"],
      idName: "schedule id",
      async run({ id, flags, api, out }) {
        const day = weekdayOf(required(flags.day, "--day"));
        const ranges = rangesOf(required(flags.ranges, "--ranges"));
        const current = await api<ScheduleView>("GET", `/admin/schedules/${id}`);
        const schedule = await api<ScheduleView>("PATCH", `/admin/schedules/${id}`, {
          availability: { ...current.availability, weekly: { ...current.availability.weekly, [day]: ranges } },
        });
        out(schedule, () => `Schedule #${id}: ${day} ${rangesText(ranges)}.\n\n${scheduleText(schedule)}`);
      },
    },
    "schedule-delete": {
      ids: 1,
      flags: [],
      idName: "schedule id",
      async run({ id, api, out }) {
        await api<undefined>("DELETE", `/admin/schedules/${id}`);
        out({ id: Number(id), deleted: true }, () => `Deleted schedule #${id}.`);
      },
    },
  },
};

/** --timezone and --avatar as host fields (--avatar none removes the picture). */
function hostFields(flags: Flags): { timezone?: string; avatarUrl?: string | null } {
  return {
    ...(flags.timezone === undefined ? {} : { timezone: flags.timezone }),
    ...(flags.avatar === undefined ? {} : { avatarUrl: flags.avatar === "none" ? null : flags.avatar }),
  };
}

/** The same hours Monday to Friday, the weekend closed. */
function weekdays(ranges: { start: string; end: string }[]): Availability {
  return { weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, d === "saturday" || d === "sunday" ? [] : ranges])), overrides: [] };
}

/** An availability read from a JSON file: `{ "weekly": {...}, "overrides": [...] }`; the server checks the rest. */
function availabilityFile(path: string): Availability {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read --file ${path}: ${error instanceof Error ? error.message : error}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--file ${path} is not valid JSON.`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError(`--file ${path} must hold a JSON object: {"weekly": {...}, "overrides": [...]}.`);
  return parsed as Availability;
}

function hostText(h: HostView): string {
  return [
    `#${h.id} ${h.name}${h.isDefault ? " (default host: event types created without --host belong to it)" : ""}`,
    `Email:         ${h.email ?? "none"}`,
    `Timezone:      ${h.timezone}`,
    `Avatar:        ${h.avatarUrl ?? "none"}`,
    `Event types:   ${h.eventTypeIds.length === 0 ? "none" : h.eventTypeIds.map((id) => `#${id}`).join(", ")}`,
    ...(h.bookingsCalendar ? [`Bookings into: ${h.bookingsCalendar.calendarUrl} (calendar source #${h.bookingsCalendar.sourceId})`] : []),
    ...(h.feedUrl ? [`Booking feed:  ${h.feedUrl} (private: the host's confirmed bookings as iCalendar)`] : []),
  ].join("\n");
}

function scheduleLine(s: ScheduleView): string {
  return `  #${s.id} ${s.name} (${s.timezone})${s.eventTypeIds.length > 0 ? `, used by ${s.eventTypeIds.map((id) => `#${id}`).join(", ")}` : ""}`;
}

function scheduleText(s: ScheduleView): string {
  return [
    `#${s.id} ${s.name} of host #${s.hostId}, ${s.timezone}${s.eventTypeIds.length > 0 ? `; used by event type ${s.eventTypeIds.map((id) => `#${id}`).join(", ")}` : ""}`,
    ...WEEKDAYS.map((d) => `  ${d.padEnd(10)} ${rangesText(s.availability.weekly[d] ?? [])}`),
    ...(s.availability.overrides ?? []).map((o) => `  ${o.date} ${rangesText(o.ranges)}`),
  ].join("\n");
}
