/** The commands that set an event type's webhook, rotate its secret and list its deliveries. */
import { UsageError } from "./args.ts";
import { table, type CommandGroup, type EventTypeView } from "./command.ts";

/** Webhooks: webhook, webhook-secret, deliveries. */
export const webhookCommands: CommandGroup = {
  usage: `  webhook <id> URL|none              Set the webhook URL or remove it;
                                       setting it again resumes an endpoint that answered 410 Gone
  webhook-secret <id>                Issue a new webhook signing secret (shown this once); receivers must switch to it
  deliveries <id> [--limit N]        Recent webhook events, newest first, with their delivery state`,
  commands: {
    webhook: {
      ids: 1,
      flags: [],
      value: "a webhook URL (or none)",
      async run({ id, args, api, out }) {
        const url = args[1]!;
        const before = await api<EventTypeView>("GET", `/admin/event-types/${id}`);
        const et = await api<EventTypeView>("PATCH", `/admin/event-types/${id}`, { webhookUrl: url === "none" ? null : url });
        out(et, () => webhookSetText(et, before));
      },
    },
    "webhook-secret": {
      ids: 1,
      flags: [],
      async run({ id, api, out }) {
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
      },
    },
    deliveries: {
      ids: 1,
      flags: ["limit"],
      async run({ id, flags, api, out }) {
        const limit = flags.limit ?? "50";
        if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 500)
          throw new UsageError(`--limit takes a whole number from 1 to 500, got "${limit}".`);
        const rows = await api<DeliveryRow[]>("GET", `/admin/event-types/${id}/webhook-deliveries?limit=${Number(limit)}`);
        out(rows, () => deliveriesText(rows, Number(id), Number(limit)));
      },
    },
  },
};

/** The webhook's lines of `show`: its URL, whether the receiver stopped it, and where its secret was shown. */
export function webhookLines(et: EventTypeView): string[] {
  return [
    `Webhook:       ${et.webhookUrl ?? "none"}`,
    ...(et.webhookDisabledAt ? [`               disabled since ${et.webhookDisabledAt}: the receiver answered 410 Gone; set the URL again to resume`] : []),
    "               signed with the secret shown at creation or by webhook-secret (which issues a new one)",
  ];
}

/** What `webhook` did, and how receivers verify its requests when a URL is set. */
function webhookSetText(et: EventTypeView, before: EventTypeView): string {
  if (et.webhookUrl === null) return `Event type #${et.id} has no webhook URL now: no webhook events are sent.`;
  const lines = [`Event type #${et.id} sends its webhook events to ${et.webhookUrl}.`];
  if (before.webhookDisabledAt) lines.push(`It had stopped at ${before.webhookDisabledAt} after the receiver answered 410 Gone; events are sent again.`);
  lines.push(
    "",
    "Receivers verify the webhook-id, webhook-timestamp and webhook-signature headers of each request with the",
    "event type's signing secret (the Standard Webhooks scheme), e.g. with the standardwebhooks package:",
    "new Webhook(secret).verify(body, headers). The secret was shown when the event type was created; it is never",
    `shown again. Without it, issue a new one with: npm run admin -- webhook-secret ${et.id}`,
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
  if (rows.length === 0)
    return `No webhook events for event type #${id} yet; bookings cause them once it has a webhook URL (npm run admin -- webhook ${id} URL).`;
  const text = table([
    ["TIME", "KIND", "RESERVATION", "STATUS", "ATTEMPTS", "LAST"],
    ...rows.map((d) => [
      toSecond(d.createdAt),
      d.kind,
      d.reservationUuid,
      d.status === "pending" && d.nextAttemptAt ? `pending, next ${toSecond(d.nextAttemptAt)}` : d.status,
      String(d.attempts),
      lastOutcome(d),
    ]),
  ]);
  return rows.length === limit ? `${text}\n\nThe ${limit} most recent; --limit shows more.` : text;
}
