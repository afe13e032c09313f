import type { AvailabilityCheck, HostAvailabilityCheck } from "@booking/wire";
import { required, UsageError } from "./args.ts";
import type { CommandGroup } from "./command.ts";

/** "Why is this time not offered?": why, host-why (the admin API's availability check). */
export const checkCommands: CommandGroup = {
  usage: `  why <id> --start T                 Whether a start (ISO 8601 with offset, 2026-12-08T10:00:00+01:00) is bookable,
                                       and every reason it is not (hours, notice, horizon, bookings, calendars, ...)
  host-why <host-id> --start T [--event-type ID]
                                     The same about one host, through each of their event types (or one)`,
  commands: {
    why: {
      ids: 1,
      flags: ["start"],
      async run({ id, flags, api, out }) {
        const check = await api<AvailabilityCheck>("GET", `/admin/event-types/${id}/availability-check?${startQuery(flags.start)}`);
        out(check, () => checkText(check));
      },
    },
    "host-why": {
      ids: 1,
      flags: ["start", "event-type"],
      idName: "host id",
      async run({ id, flags, api, out }) {
        const query = startQuery(flags.start);
        const eventType = flags["event-type"];
        if (eventType !== undefined) {
          if (!/^\d+$/.test(eventType)) throw new UsageError("--event-type is an event type id.");
          query.set("eventTypeId", eventType);
        }
        const check = await api<HostAvailabilityCheck>("GET", `/admin/hosts/${id}/availability-check?${query}`);
        out(check, () => (check.eventTypes.length === 0 ? `Host #${id} hosts no event type.` : check.eventTypes.map(checkText).join("\n\n")));
      },
    },
  },
};

/** The query of a check: `--start`, which the server judges (an offset or Z is needed). */
function startQuery(start: string | undefined): URLSearchParams {
  return new URLSearchParams({ start: required(start, "--start") });
}

/** A check in lines: bookable, or each reason with its code; a team's hosts each with theirs. */
function checkText(check: AvailabilityCheck): string {
  const lines = [`#${check.eventTypeId} ${check.title}, ${check.start}: ${check.bookable ? "bookable" : "not bookable"}`];
  for (const reason of check.reasons) lines.push(`  ${reason.code}: ${reason.message}`);
  if (check.hosts.length > 1)
    for (const host of check.hosts) lines.push(`  host #${host.hostId} ${host.name}: ${host.free ? "free" : host.reasons.map((r) => r.code).join(", ")}`);
  return lines.join("\n");
}
