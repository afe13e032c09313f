/** What a command of the admin CLI is, and what every command gets to run with. */
import type { EventTypeView as ServiceView } from "../../modules/event-types/organizer.ts";
import type { Flags } from "./args.ts";
import type { AdminApi } from "./client.ts";

/** An event type as the admin API answers it: the service's view with its booking feed's address. */
export type EventTypeView = ServiceView & { feedUrl: string };

/** What a command runs with, once main has checked its arguments and flags. */
export interface CommandRun {
  /** The command's name as typed (one run can serve two names, such as disable and enable). */
  name: string;
  /** The first argument: an event type id, or for some commands another id (`idName`); a number, checked. Empty for commands that take none. */
  id: string;
  /** All the arguments after the command's name, the id first. */
  args: string[];
  flags: Flags;
  api: AdminApi;
  /** Prints `data` as JSON with --json, else the text made by `text`. */
  out: (data: unknown, text: () => string) => void;
}

/** One command: the arguments and flags it takes (checked by main before it runs) and what it does. */
export interface Command {
  /** How many ids it takes: 0 or 1. */
  ids: 0 | 1;
  /** Flags it accepts besides --url, --key, --json and --help. */
  flags: readonly string[];
  /** Names a second argument after the id (a URL, say). */
  value?: string;
  /** What the id is, when it is not an event type's ("busy source id"). */
  idName?: string;
  /** Does it; answers the exit code when it is not 0 (the server answered, but what it did failed). */
  run(command: CommandRun): Promise<number | undefined>;
}

/** A group of commands with its lines of the usage text, in the order `help` lists them. */
export interface CommandGroup {
  usage: string;
  commands: Record<string, Command>;
}

/** Rows as aligned columns, the first row the header; the last column is not padded. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}
