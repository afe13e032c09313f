import { reminderMinutesOf } from "../../domain/event-type.ts";
import { outboxMessageId } from "../../lib/ids.ts";
import type { AttemptFollowUps, OutboxDelivery, OutboxEvent, WebhookKind } from "../../store/outbox.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import { guestPayload, mailEvent, mailPayload, type MailPayload, type MailPolicy, type RenderedMail } from "./events.ts";
import { render } from "./render.ts";

/**
 * A reminder as the outbox keeps it: the message of a confirmation (times, place, manage link) as
 * the booking stood when the reminder was scheduled, and how long before the start it is due. The
 * worker checks the booking still stands at that time before it sends (see `staleReminder`).
 */
export interface ReminderPayload extends MailPayload {
  reminder: { minutesBefore: number };
  /**
   * The booking's other reminders, still to be written: the guests' of this one and everyone's of
   * the later offsets (see `reminderFollowUps`). Only on the first reminder of a booking.
   */
  rest?: { guests: string[]; laterMinutes: number[] };
}

/**
 * The reminder emails of a confirmed booking as it now stands, to be written in the same
 * transaction as its creation or reschedule (which withdraws the earlier ones; see
 * `OutboxEvent.notBeforeMs`): for each of the event type's offsets, one to the visitor (with the
 * manage link) and one to each guest (without it), not to be sent before the start less the offset.
 * Only the first of them is written here, the visitor's earliest, carrying the rest; the reminder
 * worker writes the rest when it takes that one (see `reminderFollowUps`), so a booking adds one
 * reminder row to its transaction, not one per offset and recipient.
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
  // Earliest due first: one reservation's events on a channel go out in the order they were written.
  const offsets = reminderMinutesOf(eventType.settings)
    .sort((a, b) => b - a)
    .filter((minutesBefore) => r.startMs - minutesBefore * 60_000 > nowMs);
  const [first, ...laterMinutes] = offsets;
  if (first === undefined) return [];
  const visitor = mailPayload(policy, eventType, kind, r, nowMs, manageUrl, null);
  const head: ReminderPayload = {
    ...visitor,
    reminder: { minutesBefore: first },
    ...(r.guests.length > 0 || laterMinutes.length > 0 ? { rest: { guests: r.guests, laterMinutes } } : {}),
  };
  return [mailEvent("reminder", "remind", eventType, r, nowMs, head, r.startMs - first * 60_000)];
}

/**
 * The rest of a booking's reminders, written when the worker takes its first one (`d`, payload `m`)
 * with that attempt's record, whatever the attempt's outcome: the guests' reminders of the same
 * offset, due now, and for each later offset the visitor's and the guests', due at the start less
 * the offset; with them the first reminder's payload loses its `rest`, so they are written once.
 * None while the booking no longer stands (its change wrote reminders of its own, or none).
 */
export function reminderFollowUps(d: OutboxDelivery, m: ReminderPayload, nowMs: number): AttemptFollowUps | undefined {
  if (!m.rest) return undefined;
  const { rest, ...first } = m;
  const visitor: ReminderPayload = first;
  const event = (p: ReminderPayload, notBeforeMs: number): OutboxEvent => ({
    channel: "reminder",
    eventTypeId: d.eventTypeId,
    reservationUuid: d.reservationUuid,
    kind: d.kind,
    msgId: outboxMessageId("remind"),
    url: `mailto:${p.to}`,
    payload: JSON.stringify(p),
    createdAtMs: nowMs,
    notBeforeMs,
  });
  const events: OutboxEvent[] = [];
  for (const minutesBefore of [m.reminder.minutesBefore, ...rest.laterMinutes]) {
    const dueMs = Math.max(nowMs, m.reservation.startMs - minutesBefore * 60_000);
    const messages: ReminderPayload[] = [
      ...(minutesBefore === m.reminder.minutesBefore ? [] : [{ ...visitor, reminder: { minutesBefore } }]),
      // A guest is greeted without the visitor's name and gets no manage link (it is the visitor's to use).
      ...rest.guests.map((guest) => ({ ...guestPayload(visitor, guest), reminder: { minutesBefore } })),
    ];
    for (const p of messages) events.push(event(p, dueMs));
  }
  return { events, payload: JSON.stringify(visitor) };
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
