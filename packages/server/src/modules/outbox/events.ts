import type { EventTypeRecord } from "../../store/event-types.ts";
import type { OutboxEvent, WebhookKind } from "../../store/outbox.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import { emailEvents, type MailPolicy } from "../mail/events.ts";
import { reminderEvents } from "../mail/reminders.ts";
import { webhookEvents } from "../webhooks/events.ts";
import { calendarEvents } from "../calendars/writer.ts";

/**
 * Every outbox event a confirmed booking's change causes, on every channel, to be written in the
 * same transaction as the change: the organizer's webhook (when the event type has a URL) and the
 * confirmation emails with their invites (when the mail policy writes them), and the write into
 * the organizer's CalDAV calendar (when the event type names one), and the reminders due before
 * the booking's start (withdrawn by the next change; see `reminderEvents`). Services announce
 * changes through this one function, so a channel added here reaches every path a change takes.
 */
export function outboxEvents(
  mail: MailPolicy,
  eventType: EventTypeRecord,
  kind: WebhookKind,
  r: ReservationRecord,
  nowMs: number,
  manageUrl: string | null,
  previous?: { startMs: number; endMs: number },
): OutboxEvent[] {
  return [
    ...webhookEvents(eventType, kind, r, nowMs, manageUrl, previous),
    ...emailEvents(mail, eventType, kind, r, nowMs, manageUrl, previous),
    ...calendarEvents(mail, eventType, kind, r, nowMs),
    ...reminderEvents(mail, eventType, kind, r, nowMs, manageUrl),
  ];
}
