/** The commands that set an event type's hours: a weekday's, or one date's. */
import { WEEKDAYS, type TimeRange, type Weekday } from "@booking/wire";
import { dateOf, required, UsageError } from "./args.ts";
import type { Command, CommandGroup, EventTypeView } from "./command.ts";

/** close and open-day: one date closed, or given its own hours, keeping the other dates and the weekly hours. */
const setDate: Command["run"] = async ({ name, id, flags, api, out }) => {
  const date = dateOf(required(flags.date, "--date"), "--date");
  const ranges = name === "close" ? [] : rangesOf(required(flags.ranges, "--ranges"));
  const et = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
  const overrides = [...et.availability.overrides.filter((o) => o.date !== date), { date, ranges }].sort((a, b) => a.date.localeCompare(b.date));
  const updated = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, { availability: { ...et.availability, overrides } });
  out(updated, () => `Event type #${id}: ${date} ${rangesText(ranges)}.`);
};

/** Hours: hours, close, open-day. */
export const hoursCommands: CommandGroup = {
  usage: `  hours <id> --day D --ranges R      Set one weekday's hours, keeping the other days
                                       e.g. --day monday --ranges 09:00-12:00,13:00-17:00 (none closes it)
  close <id> --date YYYY-MM-DD       Close one date
  open-day <id> --date D --ranges R  Give one date its own hours`,
  commands: {
    hours: {
      ids: 1,
      flags: ["day", "ranges"],
      async run({ id, flags, api, out }) {
        const day = weekdayOf(required(flags.day, "--day"));
        const ranges = rangesOf(required(flags.ranges, "--ranges"));
        const et = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        const availability = { ...et.availability, weekly: { ...et.availability.weekly, [day]: ranges } };
        const updated = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, { availability });
        out(updated, () => `Event type #${id}: ${day} ${rangesText(ranges)}.\n\n${weeklyText(updated)}`);
      },
    },
    close: { ids: 1, flags: ["date"], run: setDate },
    "open-day": { ids: 1, flags: ["date", "ranges"], run: setDate },
  },
};

export function weekdayOf(raw: string): Weekday {
  const lower = raw.toLowerCase();
  const day = WEEKDAYS.find((d) => d === lower || (lower.length >= 3 && d.startsWith(lower)));
  if (!day) throw new UsageError(`--day is a weekday such as monday, got "${raw}".`);
  return day;
}

/** "09:00-12:00,13:00-17:00" as ranges; "none" is a closed day. Order and bounds are the server's to check. */
export function rangesOf(raw: string): TimeRange[] {
  if (raw.trim().toLowerCase() === "none") return [];
  return raw.split(",").map((part) => {
    const match = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(part);
    if (!match) throw new UsageError(`--ranges takes HH:MM-HH:MM pairs separated by commas, or none; got "${part}".`);
    return { start: `${match[1]!.padStart(2, "0")}:${match[2]}`, end: `${match[3]!.padStart(2, "0")}:${match[4]}` };
  });
}

/** Ranges as a person reads them: "09:00-12:00, 13:00-17:00", or closed. */
export const rangesText = (ranges: TimeRange[]): string => (ranges.length === 0 ? "closed" : ranges.map((r) => `${r.start}-${r.end}`).join(", "));

/** The weekly hours, a line a weekday. */
export function weeklyText(et: EventTypeView): string {
  return ["Weekly hours:", ...WEEKDAYS.map((d) => `  ${d.padEnd(10)} ${rangesText(et.availability.weekly[d] ?? [])}`)].join("\n");
}
