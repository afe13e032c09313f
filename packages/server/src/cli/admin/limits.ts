/** The commands that set booking limits: an event type's (`limits`) and a host's across all of their event types (`host-limits`). */
import { LIMIT_KINDS, type BookingLimits, type BookingLimitsView, type LimitKind } from "@booking/wire";
import { UsageError, type Flags } from "./args.ts";
import type { Command, CommandGroup, EventTypeView } from "./command.ts";

/** The flag of each kind of limit. */
const FLAG_OF: Record<LimitKind, string> = {
  bookingsPerDay: "per-day",
  bookingsPerWeek: "per-week",
  bookingsPerMonth: "per-month",
  minutesPerDay: "minutes-per-day",
  minutesPerWeek: "minutes-per-week",
};

const LABEL_OF: Record<LimitKind, string> = {
  bookingsPerDay: "Bookings per day",
  bookingsPerWeek: "Bookings per week",
  bookingsPerMonth: "Bookings per month",
  minutesPerDay: "Minutes per day",
  minutesPerWeek: "Minutes per week",
};

/** The flags of the limits commands. */
export const LIMIT_FLAGS = LIMIT_KINDS.map((kind) => FLAG_OF[kind]);

/**
 * The limits after the flags given: each flag sets its kind (a positive whole number) or removes it
 * (`none`); kinds without a flag keep their current limit. Null when no flag was given.
 */
export function limitsFromFlags(current: BookingLimitsView, flags: Flags): BookingLimits | null {
  const values = flags as Record<string, string | undefined>;
  if (LIMIT_KINDS.every((kind) => values[FLAG_OF[kind]] === undefined)) return null;
  const next: BookingLimits = {};
  for (const kind of LIMIT_KINDS) {
    const raw = values[FLAG_OF[kind]];
    if (raw === undefined) {
      if (current[kind] !== null) next[kind] = current[kind];
    } else if (raw !== "none") {
      if (!/^[1-9]\d*$/.test(raw)) throw new UsageError(`--${FLAG_OF[kind]} is a whole number of at least 1, or none; got "${raw}".`);
      next[kind] = Number(raw);
    }
  }
  return next;
}

/** Limits as lines of text; "none" when there is none. */
export function limitsText(limits: BookingLimitsView, where: string): string {
  const set = LIMIT_KINDS.filter((kind) => limits[kind] !== null);
  if (set.length === 0) return "Limits:        none";
  return [`Limits (${where}):`, ...set.map((kind) => `  ${LABEL_OF[kind].padEnd(20)}${limits[kind]}`)].join("\n");
}

/** A command that shows the limits of what `path` names, or sets them from the flags. */
function limitsCommand(idName: string, path: (id: string) => string, where: (view: { limits: BookingLimitsView; timezone: string }) => string): Command {
  return {
    ids: 1,
    flags: LIMIT_FLAGS,
    idName,
    async run({ id, flags, api, out }) {
      const current = await api<{ limits: BookingLimitsView; timezone: string }>("GET", path(id));
      const limits = limitsFromFlags(current.limits, flags);
      const view = limits === null ? current : await api<{ limits: BookingLimitsView; timezone: string }>("PATCH", path(id), { limits });
      out(view.limits, () => `${limits === null ? "" : "Saved.\n"}${limitsText(view.limits, where(view))}`);
    },
  };
}

const kindsUsage = "[--per-day N] [--per-week N] [--per-month N] [--minutes-per-day N] [--minutes-per-week N]";

/** limits, host-limits. */
export const limitCommands: CommandGroup = {
  usage: `  limits <id> ${kindsUsage}
                                     Show or set an event type's booking limits: at most N bookings
                                       per calendar day, week or month, N minutes per day or week
                                       (in its zone); none removes one, flags left out keep theirs
  host-limits <host-id> ${kindsUsage}
                                     The same for a host, across all of their event types (in the
                                       host's zone, weeks from Monday)`,
  commands: {
    limits: limitsCommand(
      "event type id",
      (id) => `/admin/event-types/${id}`,
      (view) => `${view.timezone}, weeks from ${weekStartOf(view)}`,
    ),
    "host-limits": limitsCommand(
      "host id",
      (id) => `/admin/hosts/${id}`,
      (view) => `${view.timezone}, weeks from Monday`,
    ),
  },
};

function weekStartOf(view: unknown): string {
  return (view as Partial<EventTypeView>).locale?.startDayOfWeek === "sunday" ? "Sunday" : "Monday";
}
