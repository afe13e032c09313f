/**
 * The commands that manage the calendars busy times are read from, and bookings written into. A
 * calendar belongs to a host: it blocks every event type of the host; one added through an event
 * type goes to its (first) host.
 */
import type { BusySourceView } from "../../modules/calendars/service.ts";
import { UsageError, type Flags } from "./args.ts";
import type { CommandGroup } from "./command.ts";

const SOURCE_FLAGS = ["kind", "user", "password", "token", "calendar", "freshness"];

/** The body that adds a calendar, from its URL and the flags. */
function sourceBody(url: string, flags: Flags): Record<string, unknown> {
  const kind = flags.kind ?? "caldav";
  if (kind !== "caldav" && kind !== "ical") throw new UsageError(`--kind is caldav or ical, got "${kind}".`);
  if (flags.freshness !== undefined && !/^\d{1,5}$/.test(flags.freshness)) throw new UsageError(`--freshness takes whole minutes, got "${flags.freshness}".`);
  return {
    kind,
    url,
    ...(flags.user === undefined ? {} : { username: flags.user }),
    ...(flags.password === undefined ? {} : { password: flags.password }),
    ...(flags.token === undefined ? {} : { token: flags.token }),
    ...(flags.calendar === undefined ? {} : { calendars: flags.calendar }),
    ...(flags.freshness === undefined ? {} : { freshnessMinutes: Number(flags.freshness) }),
  };
}

/** Calendars: calendars, calendar-add, host-calendars, host-calendar-add, calendar-sync, calendar-remove, calendar-write, calendar-write-stop. */
export const calendarCommands: CommandGroup = {
  usage: `  calendars <id>                     The calendars whose busy times block the event type's slots
                                       (its hosts'), with their sync status (last sync, error,
                                       objects, intervals)
  calendar-add <id> URL [--kind caldav|ical] [--user U] [--password P | --token T]
               [--calendar URL ...] [--freshness MIN]
                                     Read busy times from a CalDAV account or calendar (the default
                                       kind) or an iCalendar feed, for the event type's host; syncs it at once
  host-calendars <host-id>           The host's calendars, with their sync status
  host-calendar-add <host-id> URL [same options as calendar-add]
                                     Add a calendar to a host: it blocks every event type of the host
  calendar-sync <source-id>          Sync one calendar now and show the outcome
  calendar-remove <source-id>        Stop reading a calendar; its cached busy times are dropped
  calendar-write <source-id> [--calendar URL]
                                     Write the host's confirmed bookings (of every event type) into a
                                       calendar of this CalDAV source (default: its first calendar)
  calendar-write-stop <source-id>    Stop writing bookings into the source's calendar`,
  commands: {
    calendars: {
      ids: 1,
      flags: [],
      async run({ id, api, out }) {
        const rows = await api<BusySourceRow[]>("GET", `/admin/event-types/${id}/busy-sources`);
        out(rows, () => (rows.length === 0 ? `Event type #${id} reads no calendars; add one with calendar-add.` : rows.map(sourceText).join("\n\n")));
      },
    },
    "calendar-add": {
      ids: 1,
      flags: SOURCE_FLAGS,
      value: "the calendar's URL",
      async run({ id, args, flags, api, out }) {
        const added = await api<BusySourceRow>("POST", `/admin/event-types/${id}/busy-sources`, sourceBody(args[1]!, flags));
        const synced = await api<SyncAnswer>("POST", `/admin/busy-sources/${added.id}/sync`);
        out(
          synced,
          () =>
            `Added calendar source #${added.id} to event type #${id} (its host #${added.hostId}: it blocks every event type of the host).\n${syncText(synced)}\n\n${sourceText(synced.source)}`,
        );
        if (synced.sync && !synced.sync.ok) return 1;
      },
    },
    "host-calendars": {
      ids: 1,
      flags: [],
      idName: "host id",
      async run({ id, api, out }) {
        const rows = await api<BusySourceRow[]>("GET", `/admin/hosts/${id}/busy-sources`);
        out(rows, () => (rows.length === 0 ? `Host #${id} has no calendars; add one with host-calendar-add.` : rows.map(sourceText).join("\n\n")));
      },
    },
    "host-calendar-add": {
      ids: 1,
      flags: SOURCE_FLAGS,
      value: "the calendar's URL",
      idName: "host id",
      async run({ id, args, flags, api, out }) {
        const added = await api<BusySourceRow>("POST", `/admin/hosts/${id}/busy-sources`, sourceBody(args[1]!, flags));
        const synced = await api<SyncAnswer>("POST", `/admin/busy-sources/${added.id}/sync`);
        out(
          synced,
          () =>
            `Added calendar source #${added.id} to host #${id}: its busy times block every event type of the host.\n${syncText(synced)}\n\n${sourceText(synced.source)}`,
        );
        if (synced.sync && !synced.sync.ok) return 1;
      },
    },
    "calendar-sync": {
      ids: 1,
      flags: [],
      idName: "busy source id",
      async run({ id, api, out }) {
        const synced = await api<SyncAnswer>("POST", `/admin/busy-sources/${id}/sync`);
        out(synced, () => `${syncText(synced)}\n\n${sourceText(synced.source)}`);
        if (synced.sync && !synced.sync.ok) return 1;
      },
    },
    "calendar-remove": {
      ids: 1,
      flags: [],
      idName: "busy source id",
      async run({ id, api, out }) {
        await api<undefined>("DELETE", `/admin/busy-sources/${id}`);
        out({ id: Number(id), deleted: true }, () => `Removed calendar source #${id}; its busy times no longer block slots.`);
      },
    },
    "calendar-write": {
      ids: 1,
      flags: ["calendar"],
      idName: "busy source id",
      async run({ id, flags, api, out }) {
        if ((flags.calendar?.length ?? 0) > 1) throw new UsageError("calendar-write takes one --calendar.");
        const body = flags.calendar?.[0] === undefined ? {} : { calendar: flags.calendar[0] };
        const source = await api<BusySourceRow>("PUT", `/admin/busy-sources/${id}/write-bookings`, body);
        out(
          source,
          () =>
            `Confirmed bookings of host #${source.hostId} (every event type of the host) are now written into ${source.writeCalendar}.\n\n${sourceText(source)}`,
        );
      },
    },
    "calendar-write-stop": {
      ids: 1,
      flags: [],
      idName: "busy source id",
      async run({ id, api, out }) {
        const source = await api<BusySourceRow>("DELETE", `/admin/busy-sources/${id}/write-bookings`);
        out(source, () => `Bookings are no longer written into a calendar of source #${id}; entries already written stay.\n\n${sourceText(source)}`);
      },
    },
  },
};

/** A busy source as the admin API lists it. */
type BusySourceRow = BusySourceView;
/** What a sync did, as the admin API answers it. */
interface SyncRow {
  ok: boolean;
  changed: boolean;
  downloaded: number;
  error: string | null;
}

/** What "sync now" answers: the sync's outcome, or null while it goes on past the answer. */
interface SyncAnswer {
  state: "done" | "syncing";
  sync: SyncRow | null;
  source: BusySourceRow;
}

function syncText({ sync: s, source }: SyncAnswer): string {
  if (!s) return `The sync is still running; see how it ended with: npm run admin -- host-calendars ${source.hostId}`;
  if (!s.ok) return `Sync failed: ${s.error}\nThe busy times of the last good sync (if any) stay in use.`;
  return `Synced: ${s.downloaded} calendar object${s.downloaded === 1 ? "" : "s"} downloaded; busy times ${s.changed ? "changed" : "unchanged"}.`;
}

function sourceText(s: BusySourceRow): string {
  const status =
    (s.status === "never" ? "not synced yet" : s.status === "ok" ? `ok${s.stale ? " (stale)" : ""}` : `FAILING${s.stale ? " (stale)" : ""}`) +
    (s.syncing ? ", syncing now" : "");
  return [
    `#${s.id} ${s.kind === "caldav" ? "CalDAV" : "iCalendar feed"} ${s.url} (host #${s.hostId})`,
    `  user: ${s.username ?? "-"}   credentials: ${s.credentialsSet ? "set" : "none"}   fresh for ${s.freshnessMinutes} min`,
    ...(s.calendars.length > 0 ? [`  calendars: ${s.calendars.join(", ")}`] : []),
    ...(s.writeBookings ? [`  writes bookings into: ${s.writeCalendar}`] : []),
    `  status: ${status}   last sync: ${s.lastSuccessAt ?? "never"}   last attempt: ${s.lastAttemptAt ?? "never"}`,
    ...(s.lastError ? [`  error: ${s.lastError} (at ${s.lastFailureAt})`] : []),
    ...s.skippedObjects.map((o) => `  left out: ${o.href}: ${o.reason}`),
    `  ${s.objects} calendar object${s.objects === 1 ? "" : "s"}, ${s.busyIntervals} busy interval${s.busyIntervals === 1 ? "" : "s"}`,
  ].join("\n");
}
