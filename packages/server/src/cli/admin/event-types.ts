/** The commands that make, show, change and delete event types, and issue their tokens. */
import { readFileSync } from "node:fs";
import type { EventTypePatch } from "@booking/wire";
import { bookingUrlOf, embedSnippet } from "../../lib/links.ts";
import { UsageError, type Flags } from "./args.ts";
import { table, type Command, type CommandGroup, type EventTypeView } from "./command.ts";
import { rangesText, weeklyText } from "./hours.ts";
import { webhookLines } from "./webhooks.ts";

/** The settings create and update take, as flags. */
const SETTINGS = [
  "title",
  "description",
  "timezone",
  "duration",
  "interval",
  "seats",
  "hold",
  "notice",
  "horizon",
  "price",
  "currency",
  "account",
  "webhook",
  "reminders",
  "slug",
  "language",
  "host",
  "assignment",
  "file",
];
const NUMBER_FLAGS = {
  duration: "durationMinutes",
  interval: "slotIntervalMinutes",
  seats: "seats",
  hold: "holdMinutes",
  notice: "minNoticeMinutes",
  horizon: "horizonDays",
} as const;

/** The settings part of the usage text (create and update). */
export const SETTINGS_USAGE = `Settings (create and update):
  --title T --description T --timezone Zone --duration MIN --interval MIN --seats N
  --hold MIN --notice MIN --horizon DAYS --webhook URL|none
  --reminders MIN,MIN|none           reminder emails this many minutes before the start (default 1440,60)
  --slug S|none                      booking page name: the page is <server>/book/S (none removes it)
  --language TAG|browser             the calendar's language, such as de or pt-BR; browser (the default of
                                     new event types) speaks each visitor's browser language
  --price 50.00 --currency eur --account acct_x   card payment (--price none removes it)
  --host ID[:PRIORITY][@SCHEDULE] ...  whose time it books, one --host per host (replaces the list;
                                       default: the default host); PRIORITY ranks round robin
                                       (higher first), SCHEDULE is one of the host's schedules
                                       (default: the event type's own hours)
  --assignment collective|round-robin  with several hosts: every host at once, or one free host by turns
  --file settings.json               a JSON body of settings; flags given win over its keys`;

/** disable and enable: the event type stops or resumes taking bookings. */
const switchBookings: Command["run"] = async ({ name, id, api, out }) => {
  const et = await api<EventTypeView>("POST", `/admin/event-types/${id}/${name}`);
  out(et, () => `Event type #${et.id} "${et.title}" is ${et.disabled ? "disabled: it takes no bookings" : "enabled: it takes bookings"}.`);
};

/** Event types: list, show, create, update, disable, enable, delete, token, feed-token. */
export const eventTypeCommands: CommandGroup = {
  usage: `  list                               List event types
  show <id>                          Show one event type's settings
  create --title T [settings]        Create an event type and print its tokens (shown once)
  update <id> [settings]             Change only the settings given
  disable <id> | enable <id>         Stop or resume taking bookings
  delete <id>                        Delete an event type with its reservations
  token <id> [--override]            Issue a new API token (or override token); the old one stops working
  feed-token <id>                    Issue a new address for the private booking feed; the old one stops working`,
  commands: {
    list: {
      ids: 0,
      flags: [],
      async run({ api, out }) {
        const all = await api<EventTypeView[]>("GET", "/admin/event-types");
        out(all, () => listText(all));
      },
    },
    show: {
      ids: 1,
      flags: [],
      async run({ id, api, out }) {
        const et = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        out(et, () => showText(et, api.base));
      },
    },
    create: {
      ids: 0,
      flags: SETTINGS,
      async run({ flags, api, out }) {
        const body = await settingsBody(flags, null);
        if (typeof body.title !== "string") throw new UsageError("create needs --title (or a title in --file).");
        const et = await api<EventTypeView & { token: string; overrideToken: string; webhookSecret: string }>("POST", "/admin/event-types", body);
        out(
          et,
          () =>
            `Created event type #${et.id} "${et.title}"${et.disabled ? " (disabled)" : ""}.${pageText(et, api.base)}\n\n${tokensText(et)}\n\n${embedText(api.base, et.linkToken)}`,
        );
      },
    },
    update: {
      ids: 1,
      flags: SETTINGS,
      async run({ id, flags, api, out }) {
        const current = flags.price || flags.currency || flags.account ? () => api<EventTypeView>("GET", `/admin/event-types/${id}`) : null;
        const patch = await settingsBody(flags, current);
        if (Object.keys(patch).length === 0) throw new UsageError("update needs at least one setting flag or --file.");
        const et = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, patch);
        out(et, () => `Updated event type #${et.id}.\n\n${showText(et, api.base)}`);
      },
    },
    disable: { ids: 1, flags: [], run: switchBookings },
    enable: { ids: 1, flags: [], run: switchBookings },
    delete: {
      ids: 1,
      flags: [],
      async run({ id, api, out }) {
        await api<undefined>("DELETE", `/admin/event-types/${id}`);
        out({ id: Number(id), deleted: true }, () => `Deleted event type #${id} with its reservations.`);
      },
    },
    token: {
      ids: 1,
      flags: ["override"],
      async run({ id, flags, api, out }) {
        const issued = await api<{ id: number; token?: string; overrideToken?: string; linkToken?: string }>("POST", `/admin/event-types/${id}/token`, {
          kind: flags.override ? "override" : "api",
        });
        out(
          issued,
          () =>
            `New ${flags.override ? "override token" : "API token"} for event type #${id}; the previous one no longer works.\n\n${tokensText(issued)}${issued.linkToken ? `\n\n${embedText(api.base, issued.linkToken)}` : ""}`,
        );
      },
    },
    "feed-token": {
      ids: 1,
      flags: [],
      async run({ id, api, out }) {
        const issued = await api<{ id: number; feedToken: string; feedUrl: string }>("POST", `/admin/event-types/${id}/feed-token`);
        out(issued, () => `New booking feed address for event type #${id}; the previous one no longer works.\n\nBooking feed:  ${issued.feedUrl}`);
      },
    },
  },
};

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
  if (flags.reminders !== undefined) {
    if (flags.reminders === "none") body.reminderMinutes = [];
    else if (/^\d{1,6}(,\d{1,6})*$/.test(flags.reminders)) body.reminderMinutes = flags.reminders.split(",").map(Number);
    else throw new UsageError(`--reminders takes minutes before the start, comma-separated (such as 1440,60), or none; got "${flags.reminders}".`);
  }
  if (flags.slug !== undefined) body.slug = flags.slug === "none" ? null : flags.slug;
  if (flags.language !== undefined) {
    // The server merges `locale` one level deep: the other locale settings stay.
    const preset = flags.language === "browser" ? "" : flags.language;
    if (!/^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)?$/.test(preset))
      throw new UsageError(`--language takes a language tag such as de or pt-BR, or browser; got "${flags.language}".`);
    body.locale = { ...(body.locale as object | undefined), preset };
  }
  if (flags.host !== undefined) body.hosts = flags.host.map(hostOf);
  if (flags.assignment !== undefined) {
    if (flags.assignment !== "collective" && flags.assignment !== "round-robin")
      throw new UsageError(`--assignment is collective or round-robin, got "${flags.assignment}".`);
    body.assignment = flags.assignment;
  }
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

/** When a conditional field is asked, for the settings text: ", when plan is Business or Team". */
function conditionText(showIf: EventTypeView["customFields"][number]["showIf"]): string {
  if (!showIf) return "";
  if ("equals" in showIf) return `, when ${showIf.field} is ${showIf.equals.join(" or ")}`;
  return "checked" in showIf ? `, when ${showIf.field} is checked` : `, when ${showIf.field} is answered`;
}

/** "7", "7:10" or "7:10@3" (host 7, priority 10, schedule 3) as a host of the event type. */
function hostOf(raw: string): { hostId: number; priority?: number; scheduleId?: number } {
  const match = /^(\d{1,12})(?::(\d{1,4}))?(?:@(\d{1,12}))?$/.exec(raw.trim());
  if (!match) throw new UsageError(`--host takes a host id, optionally :priority and @schedule-id (such as 7, 7:10 or 7:10@3); got "${raw}".`);
  return {
    hostId: Number(match[1]),
    ...(match[2] === undefined ? {} : { priority: Number(match[2]) }),
    ...(match[3] === undefined ? {} : { scheduleId: Number(match[3]) }),
  };
}

/** The hosts line of an event type: who, with what priority and schedule, and how a team books. */
function hostsText(et: EventTypeView): string {
  const hosts = et.hosts
    .map(
      (h) =>
        `${h.name} (#${h.hostId}${et.hosts.length > 1 && et.assignment === "round-robin" ? `, priority ${h.priority}` : ""}${h.scheduleId === null ? "" : `, schedule #${h.scheduleId}`})`,
    )
    .join(", ");
  if (et.hosts.length < 2) return `Host:          ${hosts}`;
  return `Hosts:         ${hosts}; ${et.assignment === "round-robin" ? "round robin: one free host per booking" : "collective: every host at each booking"}`;
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
  if (!match || (match[2]?.length ?? 0) > digits)
    throw new UsageError(`--price takes an amount such as ${digits ? `50.${"0".repeat(digits)}` : "5000"} in ${currency.toUpperCase()}, got "${price}".`);
  return Number(match[1]! + (match[2] ?? "").padEnd(digits, "0"));
}

function priceText(p: NonNullable<EventTypeView["payment"]>): string {
  const digits = currencyDigits(p.currency);
  return `${(p.amount / 10 ** digits).toFixed(digits)} ${p.currency.toUpperCase()}`;
}

/** 1440 -> "1 day", 90 -> "90 min": the largest whole unit. */
function minutesText(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} day${minutes === 1440 ? "" : "s"}`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}

function listText(all: EventTypeView[]): string {
  if (all.length === 0) return 'No event types yet. Create one with: npm run admin -- create --title "Intro call"';
  return table([
    ["ID", "TITLE", "TIMEZONE", "DURATION", "PRICE", "STATE"],
    ...all.map((et) => [
      String(et.id),
      et.title,
      et.timezone,
      `${et.durationMinutes} min`,
      et.payment ? priceText(et.payment) : "free",
      et.disabled ? "disabled" : "enabled",
    ]),
  ]);
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
    `Language:      ${et.locale.preset || "the visitor's browser"}${et.translations && Object.keys(et.translations).length > 0 ? `; organizer texts also in ${Object.keys(et.translations).join(", ")}` : ""}`,
    hostsText(et),
    `Meetings:      ${et.durationMinutes} min, a slot every ${et.slotIntervalMinutes} min, ${et.seats} seat${et.seats === 1 ? "" : "s"}, held ${et.holdMinutes} min while booking`,
    `Booking:       at least ${et.minNoticeMinutes} min ahead, up to ${et.horizonDays} days ahead`,
    `Payment:       ${et.payment ? `${priceText(et.payment)} to ${et.payment.providerAccountId}` : "free"}`,
    `Reminders:     ${et.reminderMinutes.length === 0 ? "none" : `${et.reminderMinutes.map(minutesText).join(", ")} before the start`}`,
    ...webhookLines(et),
    `Locations:     ${et.locations.map((l) => (l.value ? `${l.type} (${l.value})` : l.type)).join(", ")}`,
    `Custom fields: ${et.customFields.length === 0 ? "none" : et.customFields.map((f) => `${f.name} (${f.type}${f.required ? ", required" : ""}${conditionText(f.showIf)})`).join(", ")}`,
    weeklyText(et),
  ];
  if (et.availability.overrides.length > 0) {
    lines.push("Date overrides:", ...et.availability.overrides.map((o) => `  ${o.date} ${rangesText(o.ranges)}`));
  }
  lines.push(`Created ${et.createdAt}, updated ${et.updatedAt}`, "", embedText(base, et.linkToken));
  return lines.join("\n");
}

function tokensText(t: { token?: string; overrideToken?: string; linkToken?: string; webhookSecret?: string }): string {
  const lines = [];
  if (t.token) lines.push(`  API token:      ${t.token} (for servers: never put it in a page)`);
  if (t.overrideToken) lines.push(`  Override token: ${t.overrideToken}`);
  if (t.webhookSecret) lines.push(`  Webhook signing secret: ${t.webhookSecret}`);
  lines.push("", "Copy them now: they are shown only once, as the server keeps only their hashes (and the signing secret encrypted).");
  if (t.linkToken) lines.push(`The link token, which pages and the element carry, is now ${t.linkToken} (public by design; show shows it again).`);
  return lines.join("\n");
}

/** The HTML that embeds the calendar on a site, with the link token (every visitor has their own rate limit budget with it). */
function embedText(base: string, linkToken: string): string {
  return `Embed on a site (with the public link token; the API token stays on servers):\n${embedSnippet(base, linkToken).replace(/^/gm, "  ")}`;
}
