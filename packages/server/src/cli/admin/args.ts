/** The admin CLI's flags, and the checks of the command line shared by its commands. */
import type { parseArgs } from "node:util";
import { RESERVATION_STATUSES } from "@booking/wire";

/** Every flag of every command; main refuses those a command does not take. */
export const OPTIONS = {
  url: { type: "string" },
  key: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  title: { type: "string" },
  description: { type: "string" },
  timezone: { type: "string" },
  duration: { type: "string" },
  interval: { type: "string" },
  seats: { type: "string" },
  hold: { type: "string" },
  notice: { type: "string" },
  horizon: { type: "string" },
  price: { type: "string" },
  currency: { type: "string" },
  account: { type: "string" },
  webhook: { type: "string" },
  reminders: { type: "string" },
  file: { type: "string" },
  slug: { type: "string" },
  language: { type: "string" },
  override: { type: "boolean" },
  day: { type: "string" },
  ranges: { type: "string" },
  date: { type: "string" },
  from: { type: "string" },
  until: { type: "string" },
  status: { type: "string" },
  limit: { type: "string" },
  kind: { type: "string" },
  user: { type: "string" },
  password: { type: "string" },
  token: { type: "string" },
  calendar: { type: "string", multiple: true },
  freshness: { type: "string" },
  name: { type: "string" },
  email: { type: "string" },
  avatar: { type: "string" },
  host: { type: "string", multiple: true },
  assignment: { type: "string" },
  "per-day": { type: "string" },
  "per-week": { type: "string" },
  "per-month": { type: "string" },
  "minutes-per-day": { type: "string" },
  "minutes-per-week": { type: "string" },
  start: { type: "string" },
  "event-type": { type: "string" },
  end: { type: "string" },
  note: { type: "string" },
  colleague: { type: "string" },
} as const;
/** The flags as parsed. */
export type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

/** A mistake in the command line: printed with a pointer to `help`, exit code 2. */
export class UsageError extends Error {}

/** The flag's value, or a UsageError naming the flag. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new UsageError(`This command needs ${flag}.`);
  return value;
}

/** A YYYY-MM-DD date given to `flag`; the server checks that it is a real day. */
export function dateOf(raw: string, flag: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw new UsageError(`${flag} is a date as YYYY-MM-DD, got "${raw}".`);
  return raw;
}

/**
 * The query of a listing of bookings from the flags: the days `--from` to `--until` (both needed),
 * and `--status` (one of the reservation statuses) and `--timezone` when given.
 */
export function bookingsQuery(flags: Flags): URLSearchParams {
  const query = new URLSearchParams({ from: dateOf(required(flags.from, "--from"), "--from"), until: dateOf(required(flags.until, "--until"), "--until") });
  if (flags.status !== undefined) {
    if (!(RESERVATION_STATUSES as readonly string[]).includes(flags.status)) throw new UsageError(`--status is one of ${RESERVATION_STATUSES.join(", ")}.`);
    query.set("status", flags.status);
  }
  if (flags.timezone !== undefined) query.set("timezone", flags.timezone);
  return query;
}
