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
 * Webhooks: `webhook` sets the URL and prints the `whsec_` signing secret receivers verify with
 * (Standard Webhooks headers, e.g. the standardwebhooks package), `webhook-secret` rotates it and
 * `deliveries` lists recent events with their delivery attempts.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { RESERVATION_STATUSES, WEEKDAYS, type ErrorBody, type EventTypePatch, type TimeRange, type Weekday } from "@booking/wire";
import { bookingUrlOf, embedSnippet } from "../lib/links.ts";
import type { EventTypeView as ServiceView } from "../modules/admin/service.ts";

/** An event type as the admin API answers it: the service's view with its booking feed's address. */
type EventTypeView = ServiceView & { feedUrl: string };

const USAGE = `Usage: npm run admin -- <command> [arguments] [options]

Manages the event types of a booking server through its admin API.

Commands:
  list                               List event types
  show <id>                          Show one event type's settings
  create --title T [settings]        Create an event type and print its tokens (shown once)
  update <id> [settings]             Change only the settings given
  disable <id> | enable <id>         Stop or resume taking bookings
  delete <id>                        Delete an event type with its reservations
  token <id> [--override]            Issue a new API token (or override token); the old one stops working
  feed-token <id>                    Issue a new address for the private booking feed; the old one stops working
  hours <id> --day D --ranges R      Set one weekday's hours, keeping the other days
                                       e.g. --day monday --ranges 09:00-12:00,13:00-17:00 (none closes it)
  close <id> --date YYYY-MM-DD       Close one date
  open-day <id> --date D --ranges R  Give one date its own hours
  reservations <id> --from D --until D [--status S] [--timezone Z]
                                     List reservations in a range of days;
                                       S is ${RESERVATION_STATUSES.join(", ")}
  webhook <id> URL|none              Set the webhook URL (and print the signing secret) or remove it;
                                       setting it again resumes an endpoint that answered 410 Gone
  webhook-secret <id>                Issue a new webhook signing secret; receivers must switch to it
  deliveries <id> [--limit N]        Recent webhook events, newest first, with their delivery state
  calendars <id>                     The calendars whose busy times block the event type's slots,
                                       with their sync status (last sync, error, objects, intervals)
  calendar-add <id> URL [--kind caldav|ical] [--user U] [--password P | --token T]
               [--calendar URL ...] [--freshness MIN]
                                     Read busy times from a CalDAV account or calendar (the default
                                       kind) or an iCalendar feed; syncs it at once
  calendar-sync <source-id>          Sync one calendar now and show the outcome
  calendar-remove <source-id>        Stop reading a calendar; its cached busy times are dropped
  calendar-write <source-id> [--calendar URL]
                                     Write the event type's confirmed bookings into a calendar of
                                       this CalDAV source (default: its first calendar)
  calendar-write-stop <source-id>    Stop writing bookings into the source's calendar
  help                               Show this text

Settings (create and update):
  --title T --description T --timezone Zone --duration MIN --interval MIN --seats N
  --hold MIN --notice MIN --horizon DAYS --webhook URL|none
  --slug S|none                      booking page name: the page is <server>/book/S (none removes it)
  --price 50.00 --currency eur --account acct_x   card payment (--price none removes it)
  --file settings.json               a JSON body of settings; flags given win over its keys

Options:
  --url URL    server address (BOOKING_URL, default http://localhost:3000)
  --key KEY    admin key (BOOKING_ADMIN_KEY)
  --json       print the raw data instead of text`;

const OPTIONS = {
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
  file: { type: "string" },
  slug: { type: "string" },
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
} as const;
type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

const SETTINGS = ["title", "description", "timezone", "duration", "interval", "seats", "hold", "notice", "horizon", "price", "currency", "account", "webhook", "slug", "file"];
/** Flags each command accepts besides --url, --key, --json and --help; `value` names a second argument after the id. */
const COMMANDS: Record<string, { ids: number; flags: string[]; value?: string; idName?: string }> = {
  list: { ids: 0, flags: [] },
  show: { ids: 1, flags: [] },
  create: { ids: 0, flags: SETTINGS },
  update: { ids: 1, flags: SETTINGS },
  disable: { ids: 1, flags: [] },
  enable: { ids: 1, flags: [] },
  delete: { ids: 1, flags: [] },
  token: { ids: 1, flags: ["override"] },
  hours: { ids: 1, flags: ["day", "ranges"] },
  close: { ids: 1, flags: ["date"] },
  "open-day": { ids: 1, flags: ["date", "ranges"] },
  reservations: { ids: 1, flags: ["from", "until", "status", "timezone"] },
  webhook: { ids: 1, flags: [], value: "a webhook URL (or none)" },
  "webhook-secret": { ids: 1, flags: [] },
  "feed-token": { ids: 1, flags: [] },
  deliveries: { ids: 1, flags: ["limit"] },
  calendars: { ids: 1, flags: [] },
  "calendar-add": { ids: 1, flags: ["kind", "user", "password", "token", "calendar", "freshness"], value: "the calendar's URL" },
  "calendar-sync": { ids: 1, flags: [], idName: "busy source id" },
  "calendar-remove": { ids: 1, flags: [], idName: "busy source id" },
  "calendar-write": { ids: 1, flags: ["calendar"], idName: "busy source id" },
  "calendar-write-stop": { ids: 1, flags: [], idName: "busy source id" },
  help: { ids: 0, flags: [] },
};
const NUMBER_FLAGS = { duration: "durationMinutes", interval: "slotIntervalMinutes", seats: "seats", hold: "holdMinutes", notice: "minNoticeMinutes", horizon: "horizonDays" } as const;

/** A mistake in the command line: printed with a pointer to `help`, exit code 2. */
class UsageError extends Error {}
/** The server refused or could not be reached: exit code 1. */
class RequestFailed extends Error {}

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
      throw new UsageError(spec.value ? `${command} takes an event type id and ${spec.value}.` : spec.ids ? `${command} takes one ${spec.idName ?? "event type id"}.` : `${command} takes no arguments.`);
    }
    const id = args[0];
    if (id !== undefined && !/^\d+$/.test(id)) throw new UsageError(`${spec.idName === undefined ? "An event type id" : `A ${spec.idName}`} is a number, got "${id}".`);
    const api = client(flags);
    const out = (data: unknown, text: () => string) => console.log(flags.json ? JSON.stringify(data, null, 2) : text());

    switch (command) {
      case "list": {
        const all = await api<EventTypeView[]>("GET", "/admin/event-types");
        out(all, () => listText(all));
        break;
      }
      case "show": {
        const et = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        out(et, () => showText(et, api.base));
        break;
      }
      case "create": {
        const body = await settingsBody(flags, null);
        if (typeof body.title !== "string") throw new UsageError("create needs --title (or a title in --file).");
        const et = await api<EventTypeView & { token: string; overrideToken: string }>("POST", "/admin/event-types", body);
        out(et, () => `Created event type #${et.id} "${et.title}"${et.disabled ? " (disabled)" : ""}.${pageText(et, api.base)}\n\n${tokensText(et)}\n\n${embedText(api.base, et.linkToken)}`);
        break;
      }
      case "update": {
        const current = flags.price || flags.currency || flags.account ? () => api<EventTypeView>("GET", `/admin/event-types/${id}`) : null;
        const patch = await settingsBody(flags, current);
        if (Object.keys(patch).length === 0) throw new UsageError("update needs at least one setting flag or --file.");
        const et = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, patch);
        out(et, () => `Updated event type #${et.id}.\n\n${showText(et, api.base)}`);
        break;
      }
      case "disable":
      case "enable": {
        const et = await api<EventTypeView>("POST", `/admin/event-types/${id}/${command}`);
        out(et, () => `Event type #${et.id} "${et.title}" is ${et.disabled ? "disabled: it takes no bookings" : "enabled: it takes bookings"}.`);
        break;
      }
      case "delete": {
        await api<undefined>("DELETE", `/admin/event-types/${id}`);
        out({ id: Number(id), deleted: true }, () => `Deleted event type #${id} with its reservations.`);
        break;
      }
      case "token": {
        const issued = await api<{ id: number; token?: string; overrideToken?: string; linkToken?: string }>("POST", `/admin/event-types/${id}/token`, { kind: flags.override ? "override" : "api" });
        out(issued, () => `New ${flags.override ? "override token" : "API token"} for event type #${id}; the previous one no longer works.\n\n${tokensText(issued)}${issued.linkToken ? `\n\n${embedText(api.base, issued.linkToken)}` : ""}`);
        break;
      }
      case "feed-token": {
        const issued = await api<{ id: number; feedToken: string; feedUrl: string }>("POST", `/admin/event-types/${id}/feed-token`);
        out(issued, () => `New booking feed address for event type #${id}; the previous one no longer works.\n\nBooking feed:  ${issued.feedUrl}`);
        break;
      }
      case "hours": {
        const day = weekdayOf(required(flags.day, "--day"));
        const ranges = rangesOf(required(flags.ranges, "--ranges"));
        const et = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        const availability = { ...et.availability, weekly: { ...et.availability.weekly, [day]: ranges } };
        const updated = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, { availability });
        out(updated, () => `Event type #${id}: ${day} ${rangesText(ranges)}.\n\n${weeklyText(updated)}`);
        break;
      }
      case "close":
      case "open-day": {
        const date = dateOf(required(flags.date, "--date"), "--date");
        const ranges = command === "close" ? [] : rangesOf(required(flags.ranges, "--ranges"));
        const et = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        const overrides = [...et.availability.overrides.filter((o) => o.date !== date), { date, ranges }].sort((a, b) => a.date.localeCompare(b.date));
        const updated = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, { availability: { ...et.availability, overrides } });
        out(updated, () => `Event type #${id}: ${date} ${rangesText(ranges)}.`);
        break;
      }
      case "reservations": {
        const query = new URLSearchParams({ from: dateOf(required(flags.from, "--from"), "--from"), until: dateOf(required(flags.until, "--until"), "--until") });
        if (flags.status !== undefined) {
          if (!(RESERVATION_STATUSES as readonly string[]).includes(flags.status)) throw new UsageError(`--status is one of ${RESERVATION_STATUSES.join(", ")}.`);
          query.set("status", flags.status);
        }
        if (flags.timezone !== undefined) query.set("timezone", flags.timezone);
        const rows = await api<ReservationRow[]>("GET", `/admin/event-types/${id}/reservations?${query}`);
        out(rows, () => reservationsText(rows));
        break;
      }
      case "webhook": {
        const url = args[1]!;
        const before = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        const et = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, { webhookUrl: url === "none" ? null : url });
        out(et, () => webhookSetText(et, before));
        break;
      }
      case "webhook-secret": {
        const rotated = await api<{ id: number; webhookSecret: string }>("POST", `/admin/event-types/${id}/webhook-secret`);
        out(rotated, () =>
          [
            `New webhook signing secret for event type #${rotated.id}:`,
            "",
            `  ${rotated.webhookSecret}`,
            "",
            "Update the receiver now: every delivery from here on, retries of earlier events included, is signed with it",
            "and the previous secret no longer verifies.",
          ].join("\n"),
        );
        break;
      }
      case "deliveries": {
        const limit = flags.limit ?? "50";
        if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 500) throw new UsageError(`--limit takes a whole number from 1 to 500, got "${limit}".`);
        const rows = await api<DeliveryRow[]>("GET", `/admin/event-types/${id}/webhook-deliveries?limit=${Number(limit)}`);
        out(rows, () => deliveriesText(rows, Number(id), Number(limit)));
        break;
      }
      case "calendars": {
        const rows = await api<BusySourceRow[]>("GET", `/admin/event-types/${id}/busy-sources`);
        out(rows, () => (rows.length === 0 ? `Event type #${id} reads no calendars; add one with calendar-add.` : rows.map(sourceText).join("\n\n")));
        break;
      }
      case "calendar-add": {
        const kind = flags.kind ?? "caldav";
        if (kind !== "caldav" && kind !== "ical") throw new UsageError(`--kind is caldav or ical, got "${kind}".`);
        const freshness = flags.freshness === undefined ? undefined : Number(flags.freshness);
        if (flags.freshness !== undefined && !/^\d{1,5}$/.test(flags.freshness)) throw new UsageError(`--freshness takes whole minutes, got "${flags.freshness}".`);
        const body = {
          kind,
          url: args[1]!,
          ...(flags.user === undefined ? {} : { username: flags.user }),
          ...(flags.password === undefined ? {} : { password: flags.password }),
          ...(flags.token === undefined ? {} : { token: flags.token }),
          ...(flags.calendar === undefined ? {} : { calendars: flags.calendar }),
          ...(freshness === undefined ? {} : { freshnessMinutes: freshness }),
        };
        const added = await api<BusySourceRow>("POST", `/admin/event-types/${id}/busy-sources`, body);
        const synced = await api<SyncAnswer>("POST", `/admin/busy-sources/${added.id}/sync`);
        out(synced, () => `Added calendar source #${added.id} to event type #${id}.\n${syncText(synced)}\n\n${sourceText(synced.source)}`);
        if (synced.sync && !synced.sync.ok) return 1;
        break;
      }
      case "calendar-sync": {
        const synced = await api<SyncAnswer>("POST", `/admin/busy-sources/${id}/sync`);
        out(synced, () => `${syncText(synced)}\n\n${sourceText(synced.source)}`);
        if (synced.sync && !synced.sync.ok) return 1;
        break;
      }
      case "calendar-write": {
        if ((flags.calendar?.length ?? 0) > 1) throw new UsageError("calendar-write takes one --calendar.");
        const body = flags.calendar?.[0] === undefined ? {} : { calendar: flags.calendar[0] };
        const source = await api<BusySourceRow>("PUT", `/admin/busy-sources/${id}/write-bookings`, body);
        out(source, () => `Confirmed bookings of event type #${source.eventTypeId} are now written into ${source.writeCalendar}.\n\n${sourceText(source)}`);
        break;
      }
      case "calendar-write-stop": {
        const source = await api<BusySourceRow>("DELETE", `/admin/busy-sources/${id}/write-bookings`);
        out(source, () => `Bookings are no longer written into a calendar of source #${id}; entries already written stay.\n\n${sourceText(source)}`);
        break;
      }
      case "calendar-remove": {
        await api<undefined>("DELETE", `/admin/busy-sources/${id}`);
        out({ id: Number(id), deleted: true }, () => `Removed calendar source #${id}; its busy times no longer block slots.`);
        break;
      }
    }
    return 0;
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

/** A caller of the admin API that answers the envelope's data or throws RequestFailed. */
function client(flags: Flags) {
  const base = (flags.url ?? process.env.BOOKING_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const key = flags.key ?? process.env.BOOKING_ADMIN_KEY;
  if (!key) throw new UsageError("No admin key: set BOOKING_ADMIN_KEY or pass --key.");
  if (!/^https?:\/\/[^/]/.test(base)) throw new UsageError(`--url (or BOOKING_URL) must be an http(s) address, got "${base}".`);

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "it did not answer within 30 seconds" : "the connection failed";
      throw new RequestFailed(`Cannot reach the booking server at ${base}: ${reason}.\nIs it running (npm start)? Set BOOKING_URL or pass --url to point elsewhere.`);
    }
    const text = await response.text();
    let answer: { success?: boolean; data?: T; code?: string; message?: string } | undefined;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (response.ok && answer?.success === true) return answer.data as T;
    // The whole admin API missing means the server was started without an admin key.
    if (response.status === 404 && answer?.code === "not_found" && /Nothing is served at \/admin/.test(answer.message ?? "")) {
      throw new RequestFailed(`The server at ${base} has no admin API: start it with BOOKING_ADMIN_KEY set (the same key the CLI uses).`);
    }
    if (answer && typeof answer.code === "string") throw new RequestFailed(errorText(answer as ErrorBody, response.status));
    throw new RequestFailed(`The server at ${base} answered HTTP ${response.status} without an API error body; is BOOKING_URL the booking server?`);
  };
  return Object.assign(call, { base });
}

/** The spec's error body as lines for a person: status and code, message, each field's problems, the hint. */
function errorText(e: ErrorBody, status: number): string {
  const lines = [`Error ${e.status ?? status} ${e.code}: ${e.message}`];
  for (const [field, messages] of Object.entries(e.errors ?? {})) for (const m of messages) lines.push(`  ${field}: ${m}`);
  // The server's hints for 401 and 403 speak to booking clients; an organizer needs the admin key.
  const hint = e.code === "unauthenticated" || e.code === "forbidden" ? "Check that BOOKING_ADMIN_KEY (or --key) is the server's admin key." : e.hint;
  if (hint) lines.push(`Hint: ${hint}`);
  return lines.join("\n");
}

/** The body of create or update from `--file` and the setting flags, flags winning. */
async function settingsBody(flags: Flags, current: (() => Promise<EventTypeView>) | null): Promise<EventTypePatch & Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  if (flags.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.file, "utf8");
    } catch (error) {
      throw new UsageError(`Cannot read --file ${flags.file}: ${error instanceof Error ? error.message : error}`);
    }
    try {
      body = JSON.parse(text);
    } catch {
      throw new UsageError(`--file ${flags.file} is not valid JSON.`);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new UsageError(`--file ${flags.file} must hold a JSON object of settings.`);
  }
  if (flags.title !== undefined) body.title = flags.title;
  if (flags.description !== undefined) body.description = flags.description;
  if (flags.timezone !== undefined) body.timezone = flags.timezone;
  for (const [flag, key] of Object.entries(NUMBER_FLAGS)) {
    const raw = flags[flag as keyof typeof NUMBER_FLAGS];
    if (raw === undefined) continue;
    if (!/^\d{1,9}$/.test(raw)) throw new UsageError(`--${flag} takes a whole number, got "${raw}".`);
    body[key] = Number(raw);
  }
  if (flags.webhook !== undefined) body.webhookUrl = flags.webhook === "none" ? null : flags.webhook;
  if (flags.slug !== undefined) body.slug = flags.slug === "none" ? null : flags.slug;
  if (flags.price === "none") {
    if (flags.currency || flags.account) throw new UsageError("--price none removes the payment; leave out --currency and --account.");
    body.payment = null;
  } else if (flags.price !== undefined || flags.currency !== undefined || flags.account !== undefined) {
    // A partial change (say a new price) keeps the rest of the payment the event type already has.
    const before = current ? (await current()).payment : null;
    const currency = (flags.currency ?? before?.currency)?.toLowerCase();
    const account = flags.account ?? before?.providerAccountId;
    if (!currency || !/^[a-z]{3}$/.test(currency)) throw new UsageError("A payment needs --currency, a three-letter code such as eur.");
    if (!account) throw new UsageError("A payment needs --account, the provider account id such as acct_123.");
    const amount = flags.price !== undefined ? minorUnits(flags.price, currency) : before?.amount;
    if (amount === undefined) throw new UsageError("A payment needs --price, such as 50.00.");
    body.payment = { amount, currency, providerAccountId: account };
  }
  return body;
}

/** Decimal places of a currency's smallest unit (2 for eur, 0 for jpy). */
function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    throw new UsageError(`Unknown currency "${currency}".`);
  }
}

/** "50.00" eur -> 5000, computed on the digits so no float rounding creeps in. */
function minorUnits(price: string, currency: string): number {
  const digits = currencyDigits(currency);
  const match = /^(\d{1,9})(?:\.(\d+))?$/.exec(price);
  if (!match || (match[2]?.length ?? 0) > digits) throw new UsageError(`--price takes an amount such as ${digits ? "50." + "0".repeat(digits) : "5000"} in ${currency.toUpperCase()}, got "${price}".`);
  return Number(match[1]! + (match[2] ?? "").padEnd(digits, "0"));
}

function priceText(p: NonNullable<EventTypeView["payment"]>): string {
  const digits = currencyDigits(p.currency);
  return `${(p.amount / 10 ** digits).toFixed(digits)} ${p.currency.toUpperCase()}`;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new UsageError(`This command needs ${flag}.`);
  return value;
}

function weekdayOf(raw: string): Weekday {
  const lower = raw.toLowerCase();
  const day = WEEKDAYS.find((d) => d === lower || (lower.length >= 3 && d.startsWith(lower)));
  if (!day) throw new UsageError(`--day is a weekday such as monday, got "${raw}".`);
  return day;
}

function dateOf(raw: string, flag: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw new UsageError(`${flag} is a date as YYYY-MM-DD, got "${raw}".`);
  return raw;
}

/** "09:00-12:00,13:00-17:00" as ranges; "none" is a closed day. Order and bounds are the server's to check. */
function rangesOf(raw: string): TimeRange[] {
  if (raw.trim().toLowerCase() === "none") return [];
  return raw.split(",").map((part) => {
    const match = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(part);
    if (!match) throw new UsageError(`--ranges takes HH:MM-HH:MM pairs separated by commas, or none; got "${part}".`);
    return { start: `${match[1]!.padStart(2, "0")}:${match[2]}`, end: `${match[3]!.padStart(2, "0")}:${match[4]}` };
  });
}

const rangesText = (ranges: TimeRange[]): string => (ranges.length === 0 ? "closed" : ranges.map((r) => `${r.start}-${r.end}`).join(", "));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}

function listText(all: EventTypeView[]): string {
  if (all.length === 0) return 'No event types yet. Create one with: npm run admin -- create --title "Intro call"';
  return table([
    ["ID", "TITLE", "TIMEZONE", "DURATION", "PRICE", "STATE"],
    ...all.map((et) => [String(et.id), et.title, et.timezone, `${et.durationMinutes} min`, et.payment ? priceText(et.payment) : "free", et.disabled ? "disabled" : "enabled"]),
  ]);
}

function weeklyText(et: EventTypeView): string {
  return ["Weekly hours:", ...WEEKDAYS.map((d) => `  ${d.padEnd(10)} ${rangesText(et.availability.weekly[d] ?? [])}`)].join("\n");
}

/** Where the event type's booking page is, and the link token it carries. */
function pageText(et: EventTypeView, base: string): string {
  if (!et.slug) return "\nNo booking page yet: give it one with --slug.";
  return `\nBooking page:  ${bookingUrlOf(base, et.slug)}`;
}

function showText(et: EventTypeView, base: string): string {
  const lines = [
    `#${et.id} ${et.title} [${et.disabled ? "disabled" : "enabled"}]`,
    ...(et.description ? [`  ${et.description}`] : []),
    `Booking page:  ${et.slug ? `${bookingUrlOf(base, et.slug)} (link token ${et.linkToken})` : "none (set one with --slug)"}`,
    `Booking feed:  ${et.feedUrl} (private: confirmed bookings as iCalendar)`,
    `Timezone:      ${et.timezone}`,
    `Meetings:      ${et.durationMinutes} min, a slot every ${et.slotIntervalMinutes} min, ${et.seats} seat${et.seats === 1 ? "" : "s"}, held ${et.holdMinutes} min while booking`,
    `Booking:       at least ${et.minNoticeMinutes} min ahead, up to ${et.horizonDays} days ahead`,
    `Payment:       ${et.payment ? `${priceText(et.payment)} to ${et.payment.providerAccountId}` : "free"}`,
    ...webhookLines(et),
    `Locations:     ${et.locations.map((l) => (l.value ? `${l.type} (${l.value})` : l.type)).join(", ")}`,
    `Custom fields: ${et.customFields.length === 0 ? "none" : et.customFields.map((f) => `${f.name} (${f.type}${f.required ? ", required" : ""})`).join(", ")}`,
    weeklyText(et),
  ];
  if (et.availability.overrides.length > 0) {
    lines.push("Date overrides:", ...et.availability.overrides.map((o) => `  ${o.date} ${rangesText(o.ranges)}`));
  }
  lines.push(`Created ${et.createdAt}, updated ${et.updatedAt}`, "", embedText(base, et.linkToken));
  return lines.join("\n");
}

function tokensText(t: { token?: string; overrideToken?: string; linkToken?: string }): string {
  const lines = [];
  if (t.token) lines.push(`  API token:      ${t.token} (for servers: never put it in a page)`);
  if (t.overrideToken) lines.push(`  Override token: ${t.overrideToken}`);
  lines.push("", "Copy them now: they are shown only once, as the server keeps only their hashes.");
  if (t.linkToken) lines.push(`The link token, which pages and the element carry, is now ${t.linkToken} (public by design; show shows it again).`);
  return lines.join("\n");
}

/** The HTML that embeds the calendar on a site, with the link token (every visitor has their own rate limit budget with it). */
function embedText(base: string, linkToken: string): string {
  return `Embed on a site (with the public link token; the API token stays on servers):\n${embedSnippet(base, linkToken).replace(/^/gm, "  ")}`;
}

interface ReservationRow {
  uuid: string;
  status: string;
  start: string;
  end: string;
  email: string;
  firstname: string;
  lastname: string;
}

function reservationsText(rows: ReservationRow[]): string {
  if (rows.length === 0) return "No reservations in this range.";
  return table([
    ["START", "END", "STATUS", "NAME", "EMAIL", "UUID"],
    ...rows.map((r) => [r.start, r.end, r.status, `${r.firstname} ${r.lastname}`.trim() || "-", r.email, r.uuid]),
  ]);
}

function webhookLines(et: EventTypeView): string[] {
  return [
    `Webhook:       ${et.webhookUrl ?? "none"}`,
    ...(et.webhookDisabledAt ? [`               disabled since ${et.webhookDisabledAt}: the receiver answered 410 Gone; set the URL again to resume`] : []),
    `               secret ${et.webhookSecret}`,
  ];
}

/** What `webhook` did, with the secret and how receivers use it when a URL is set. */
function webhookSetText(et: EventTypeView, before: EventTypeView): string {
  if (et.webhookUrl === null) return `Event type #${et.id} has no webhook URL now: no webhook events are sent.`;
  const lines = [`Event type #${et.id} sends its webhook events to ${et.webhookUrl}.`];
  if (before.webhookDisabledAt) lines.push(`It had stopped at ${before.webhookDisabledAt} after the receiver answered 410 Gone; events are sent again.`);
  lines.push(
    "",
    `  Signing secret: ${et.webhookSecret}`,
    "",
    "Receivers verify the webhook-id, webhook-timestamp and webhook-signature headers of each request with this",
    'secret (the Standard Webhooks scheme), e.g. with the standardwebhooks package: new Webhook(secret).verify(body, headers).',
    "Rotate it with: npm run admin -- webhook-secret " + et.id,
  );
  return lines.join("\n");
}

interface DeliveryRow {
  kind: string;
  reservationUuid: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
}

/** The last attempt's outcome: "HTTP 200", "HTTP 500", "unreachable: ...", or "-" before the first. */
function lastOutcome(d: DeliveryRow): string {
  const parts = [];
  if (d.lastStatusCode !== null && d.lastError !== `HTTP ${d.lastStatusCode}`) parts.push(`HTTP ${d.lastStatusCode}`);
  if (d.lastError) parts.push(d.lastError);
  return parts.join(": ") || "-";
}

const toSecond = (iso: string): string => iso.replace(/\.\d+Z$/, "Z");

function deliveriesText(rows: DeliveryRow[], id: number, limit: number): string {
  if (rows.length === 0) return `No webhook events for event type #${id} yet; bookings cause them once it has a webhook URL (npm run admin -- webhook ${id} URL).`;
  const text = table([
    ["TIME", "KIND", "RESERVATION", "STATUS", "ATTEMPTS", "LAST"],
    ...rows.map((d) => [toSecond(d.createdAt), d.kind, d.reservationUuid, d.status === "pending" && d.nextAttemptAt ? `pending, next ${toSecond(d.nextAttemptAt)}` : d.status, String(d.attempts), lastOutcome(d)]),
  ]);
  return rows.length === limit ? `${text}\n\nThe ${limit} most recent; --limit shows more.` : text;
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

/** A busy source as the admin API lists it. */
type BusySourceRow = import("../modules/calendars/service.ts").BusySourceView;
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
  if (!s) return `The sync is still running; see how it ended with: npm run admin -- calendars ${source.eventTypeId}`;
  if (!s.ok) return `Sync failed: ${s.error}\nThe busy times of the last good sync (if any) stay in use.`;
  return `Synced: ${s.downloaded} calendar object${s.downloaded === 1 ? "" : "s"} downloaded; busy times ${s.changed ? "changed" : "unchanged"}.`;
}

function sourceText(s: BusySourceRow): string {
  const status = (s.status === "never" ? "not synced yet" : s.status === "ok" ? `ok${s.stale ? " (stale)" : ""}` : `FAILING${s.stale ? " (stale)" : ""}`) + (s.syncing ? ", syncing now" : "");
  return [
    `#${s.id} ${s.kind === "caldav" ? "CalDAV" : "iCalendar feed"} ${s.url}`,
    `  user: ${s.username ?? "-"}   credentials: ${s.credentialsSet ? "set" : "none"}   fresh for ${s.freshnessMinutes} min`,
    ...(s.calendars.length > 0 ? [`  calendars: ${s.calendars.join(", ")}`] : []),
    ...(s.writeBookings ? [`  writes bookings into: ${s.writeCalendar}`] : []),
    `  status: ${status}   last sync: ${s.lastSuccessAt ?? "never"}   last attempt: ${s.lastAttemptAt ?? "never"}`,
    ...(s.lastError ? [`  error: ${s.lastError} (at ${s.lastFailureAt})`] : []),
    ...s.skippedObjects.map((o) => `  left out: ${o.href}: ${o.reason}`),
    `  ${s.objects} calendar object${s.objects === 1 ? "" : "s"}, ${s.busyIntervals} busy interval${s.busyIntervals === 1 ? "" : "s"}`,
  ].join("\n");
}
