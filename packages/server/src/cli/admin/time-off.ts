/** The commands that manage a host's time off: away days or ranges, with a note and a colleague who takes the bookings. */
import type { TimeOffCreate, TimeOffView } from "@booking/wire";
import { dateOf, UsageError } from "./args.ts";
import { table, type CommandGroup } from "./command.ts";

/** When a time off is, as a person reads it: its days, or its range in UTC. */
const whenText = (t: TimeOffView): string => (t.startDate ? `${t.startDate} to ${t.endDate} (whole days)` : `${t.start} to ${t.end}`);

/** Time off: time-off, time-off-add, time-off-remove. */
export const timeOffCommands: CommandGroup = {
  usage: `  time-off <host-id>                 The host's time off still to come
  time-off-add <host-id> (--from D --until D | --start T --end T) [--note N] [--colleague HOST-ID]
                                     Mark whole days (in the host's zone, --until inclusive) or a
                                       time range (ISO 8601 with an offset) as away; the colleague
                                       takes the host's personal bookings meanwhile
  time-off-remove <host-id> <time-off-id>
                                     Remove a time off`,
  commands: {
    "time-off": {
      ids: 1,
      idName: "host id",
      flags: [],
      async run({ id, api, out }) {
        const all = await api<TimeOffView[]>("GET", `/admin/hosts/${id}/time-off`);
        out(all, () =>
          all.length === 0
            ? `Host #${id} has no time off to come.`
            : table([
                ["ID", "WHEN", "COLLEAGUE", "NOTE"],
                ...all.map((t) => [String(t.id), whenText(t), t.colleagueName ? `${t.colleagueName} (#${t.colleagueHostId})` : "-", t.note ?? ""]),
              ]),
        );
        return undefined;
      },
    },
    "time-off-add": {
      ids: 1,
      idName: "host id",
      flags: ["from", "until", "start", "end", "note", "colleague"],
      async run({ id, flags, api, out }) {
        const body: TimeOffCreate = {};
        if (flags.from !== undefined || flags.until !== undefined) {
          if (flags.start !== undefined || flags.end !== undefined)
            throw new UsageError("Give --from and --until (whole days) or --start and --end, not both.");
          body.startDate = dateOf(flags.from ?? "", "--from");
          body.endDate = dateOf(flags.until ?? flags.from ?? "", "--until");
        } else if (flags.start !== undefined && flags.end !== undefined) {
          body.start = flags.start;
          body.end = flags.end;
        } else throw new UsageError("time-off-add needs --from and --until (whole days) or --start and --end (a time range).");
        if (flags.note !== undefined) body.note = flags.note;
        if (flags.colleague !== undefined) {
          if (!/^\d+$/.test(flags.colleague)) throw new UsageError(`--colleague is a host id, got "${flags.colleague}".`);
          body.colleagueHostId = Number(flags.colleague);
        }
        const created = await api<TimeOffView>("POST", `/admin/hosts/${id}/time-off`, body);
        out(
          created,
          () =>
            `Host #${id} is away ${whenText(created)}${created.colleagueName ? `; ${created.colleagueName} takes the bookings` : ""} (time off #${created.id}).`,
        );
        return undefined;
      },
    },
    "time-off-remove": {
      ids: 1,
      idName: "host id",
      value: "a time off id",
      flags: [],
      async run({ id, args, api, out }) {
        const timeOffId = args[1]!;
        if (!/^\d+$/.test(timeOffId)) throw new UsageError(`A time off id is a number, got "${timeOffId}".`);
        await api<undefined>("DELETE", `/admin/hosts/${id}/time-off/${timeOffId}`);
        out({ id: Number(timeOffId), hostId: Number(id), deleted: true }, () => `Time off #${timeOffId} of host #${id} removed.`);
        return undefined;
      },
    },
  },
};
