/**
 * The organizer's command line: `npm run admin -- <command> ...` from the repository root.
 *
 * A thin client of the admin API (`/admin`, decisions.md "Organizer side"): it speaks HTTP to
 * BOOKING_URL (default http://localhost:3000, `--url` overrides) with
 * `Authorization: Bearer $BOOKING_ADMIN_KEY` (`--key` overrides), so it works against a local or a
 * deployed server alike and never touches the database itself. Output is text for people;
 * `--json` prints the answer's data as the API sent it. Exit codes: 0 done, 1 the server refused or
 * could not be reached, 2 the command line itself is wrong.
 *
 * Webhooks: `webhook` sets the URL; `create` and `webhook-secret` (which rotates it) print the
 * `whsec_` signing secret receivers verify with (Standard Webhooks headers, e.g. the
 * standardwebhooks package), the only times it is shown; `deliveries` lists recent events with
 * their delivery attempts.
 *
 * This file reads the command line and dispatches; each group of commands lives in `admin/`
 * (event types, hours, limits, reservations, webhooks, hosts and schedules, time off, calendars) over the shared client (`admin/client.ts`).
 * A new command is an entry in its group's `commands` with its line in the group's `usage`, a new
 * group a file listed in GROUPS below, and a new flag a line in OPTIONS (`admin/args.ts`).
 */
import { parseArgs } from "node:util";
import { OPTIONS, UsageError, type Flags } from "./admin/args.ts";
import { calendarCommands } from "./admin/calendars.ts";
import { checkCommands } from "./admin/checks.ts";
import { client, RequestFailed } from "./admin/client.ts";
import type { Command, CommandGroup } from "./admin/command.ts";
import { eventTypeCommands, SETTINGS_USAGE } from "./admin/event-types.ts";
import { hostCommands } from "./admin/hosts.ts";
import { hoursCommands } from "./admin/hours.ts";
import { limitCommands } from "./admin/limits.ts";
import { reservationCommands } from "./admin/reservations.ts";
import { timeOffCommands } from "./admin/time-off.ts";
import { webhookCommands } from "./admin/webhooks.ts";

/** The command groups, in the order `help` lists them. */
const GROUPS: CommandGroup[] = [
  eventTypeCommands,
  hoursCommands,
  limitCommands,
  reservationCommands,
  webhookCommands,
  hostCommands,
  timeOffCommands,
  calendarCommands,
  checkCommands,
];
const COMMANDS: Record<string, Command> = Object.assign({}, ...GROUPS.map((group) => group.commands));

const USAGE = `Usage: npm run admin -- <command> [arguments] [options]

Manages the event types and hosts of a booking server through its admin API.

Commands:
${GROUPS.map((group) => group.usage).join("\n")}
  help                               Show this text

${SETTINGS_USAGE}

Options:
  --url URL    server address (BOOKING_URL, default http://localhost:3000)
  --key KEY    admin key (BOOKING_ADMIN_KEY)
  --json       print the raw data instead of text`;

async function main(argv: string[]): Promise<number> {
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usageFailure(error instanceof Error ? error.message : String(error));
  }
  const { values: flags, positionals } = parsed;
  const [command = "help", ...args] = positionals;
  if (command === "help" || flags.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    const spec = COMMANDS[command];
    if (!spec) throw new UsageError(`Unknown command "${command}".`);
    const stray = Object.keys(flags).filter((f) => !["url", "key", "json"].includes(f) && !spec.flags.includes(f));
    if (stray.length > 0) throw new UsageError(`${command} does not take --${stray.join(", --")}.`);
    if (args.length !== spec.ids + (spec.value ? 1 : 0)) {
      const idName = spec.idName ?? "event type id";
      throw new UsageError(
        spec.value
          ? `${command} takes ${/^[aeiou]/.test(idName) ? "an" : "a"} ${idName} and ${spec.value}.`
          : spec.ids
            ? `${command} takes one ${idName}.`
            : `${command} takes no arguments.`,
      );
    }
    const id = args[0];
    if (id !== undefined && !/^\d+$/.test(id))
      throw new UsageError(`${spec.idName === undefined ? "An event type id" : `A ${spec.idName}`} is a number, got "${id}".`);
    const api = client(flags);
    const out = (data: unknown, text: () => string) => console.log(flags.json ? JSON.stringify(data, null, 2) : text());
    return (await spec.run({ name: command, id: id ?? "", args, flags, api, out })) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error.message);
    if (error instanceof RequestFailed) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

function usageFailure(message: string): number {
  console.error(`${message}\nRun "npm run admin -- help" for usage.`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`Unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
