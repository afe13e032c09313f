import { reminderMinutesOf } from "../../domain/event-type.ts";
import type { EventTypeRecord, OutboxEvent, ReservationRecord, WebhookKind } from "../../store/types.ts";
import { guestPayload, mailEvent, mailPayload, type MailPayload, type MailPolicy, type RenderedMail } from "./events.ts";
import { render } from "./render.ts";

/**
 * A reminder as the outbox keeps it: the message of a confirmation (times, place, manage link) as
 * the booking stood when the reminder was scheduled, and how long before the start it is due. The
 * worker checks the booking still stands at that time before it sends (see `staleReminder`).
 */
export interface ReminderPayload extends MailPayload {
  reminder: { minutesBefore: number };
}

/**
 * The reminder emails of a confirmed booking as it now stands, to be written in the same
 * transaction as its creation or reschedule (which withdraws the earlier ones; see
 * `OutboxEvent.notBeforeMs`): for each of the event type's offsets, one to the visitor (with the
 * manage link) and one to each guest (without it), not to be sent before the start less the offset.
 * Offsets already past (a booking made 30 minutes ahead has no day-before reminder) are left out,
 * as is everything for a booking not confirmed, a cancellation, or a policy that writes no email.
 */
export function reminderEvents(
  policy: MailPolicy,
  eventType: EventTypeRecord,
  kind: WebhookKind,
  r: ReservationRecord,
  nowMs: number,
  manageUrl: string | null,
): OutboxEvent[] {
  if (!policy.writes || kind === "reservation.cancelled" || r.status !== "confirmed") return [];
  const visitor = mailPayload(policy, eventType, kind, r, nowMs, manageUrl, null);
  const events: OutboxEvent[] = [];
  // Earliest due first: one reservation's events on a channel go out in the order they were written.
  for (const minutesBefore of reminderMinutesOf(eventType.settings).sort((a, b) => b - a)) {
    const dueMs = r.startMs - minutesBefore * 60_000;
    if (dueMs <= nowMs) continue;
    const messages: ReminderPayload[] = [
      { ...visitor, reminder: { minutesBefore } },
      // A guest is greeted without the visitor's name and gets no manage link (it is the visitor's to use).
      ...r.guests.map((guest) => ({ ...guestPayload(visitor, guest), reminder: { minutesBefore } })),
    ];
    for (const m of messages) events.push(mailEvent("reminder", "remind", eventType, r, nowMs, m, dueMs));
  }
  return events;
}

/**
 * Why a reminder must not go out now, or null when it may: the booking is gone, no longer
 * confirmed, moved since the reminder was written, or already begun. Checked at send time, so a
 * reminder leased in the instant a reschedule or cancel withdrew it is not sent stale.
 */
export function staleReminder(m: ReminderPayload, current: ReservationRecord | null, nowMs: number): string | null {
  if (!current) return "the booking no longer exists";
  if (current.status !== "confirmed") return `the booking is ${current.status}`;
  if (current.startMs !== m.reservation.startMs) return "the booking has moved";
  if (nowMs >= current.startMs) return "the meeting has begun";
  return null;
}

/** The message of a stored reminder: the confirmation's texts with a reminder's headline, without an invite (the calendar has it already). */
export function renderReminder(m: ReminderPayload): Omit<RenderedMail, "method" | "ics"> {
  // Guests' reminders stored before guests had a role of their own: the visitor's, without the name and link.
  const message: MailPayload = m.role === "visitor" && m.to !== m.reservation.email ? { ...m, role: "guest", manageUrl: null } : m;
  return { to: m.to, ...render(message, m.reminder) };
}
