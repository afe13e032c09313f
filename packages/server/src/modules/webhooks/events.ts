import { utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { OutboxEvent, WebhookKind } from "../../store/outbox.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import { bookingHosts } from "../hosts/organizer.ts";
import { outboxMessageId } from "../../lib/ids.ts";

/**
 * The webhook events a reservation change causes, ready to be written in the same transaction as
 * the change: none when the event type has no webhook URL or its receiver asked to stop (410).
 * Payload as decisions.md fixes it: `{ type, timestamp, data: { reservation fields, eventType } }`;
 * `manageUrl` is the visitor's reschedule and cancel link (null when the event type has no booking page).
 */
export function webhookEvents(
  eventType: EventTypeRecord,
  kind: WebhookKind,
  r: ReservationRecord,
  nowMs: number,
  manageUrl: string | null,
  previous?: { startMs: number; endMs: number },
): OutboxEvent[] {
  const url = eventType.settings.webhookUrl;
  if (!url || !sendsWebhooks(eventType)) return [];
  const fields = new Map(eventType.settings.customFields.map((f) => [f.uuid, f]));
  const data = {
    uuid: r.uuid,
    status: r.status,
    start: utc(r.startMs),
    end: utc(r.endMs),
    ...(previous ? { previousStart: utc(previous.startMs), previousEnd: utc(previous.endMs) } : {}),
    timezone: r.timezone,
    email: r.email,
    firstname: r.firstname,
    lastname: r.lastname,
    phone: r.phone,
    location: r.location,
    guests: r.guests,
    customFields: r.customFields.map((v) => ({
      uuid: v.uuid,
      name: fields.get(v.uuid)?.name ?? null,
      label: fields.get(v.uuid)?.label ?? null,
      value: v.value,
    })),
    meetLink: r.meetLink,
    manageUrl,
    payment: r.payment && {
      status: r.payment.status,
      amount: r.payment.amount,
      currency: r.payment.currency,
      paymentIntentId: r.payment.intentId,
      ...(r.payment.refundId ? { refundId: r.payment.refundId } : {}),
    },
    createdAt: utc(r.createdAtMs),
    confirmedAt: r.confirmedAtMs === null ? null : utc(r.confirmedAtMs),
    cancelledAt: r.cancelledAtMs === null ? null : utc(r.cancelledAtMs),
    ...(kind === "reservation.cancelled" ? { cancelReason: r.cancelReason ?? null } : {}),
    // An occurrence of a series (recurring bookings): its series, the same in every occurrence's events.
    ...(r.seriesId ? { seriesId: r.seriesId } : {}),
    eventType: { id: eventType.id, title: eventType.settings.title },
    // Who the booking is with: the host assigned (round robin) or every host (collective).
    hosts: bookingHosts(eventType, r).map((h) => ({ id: h.hostId, name: h.name, email: h.email })),
  };
  return [
    {
      eventTypeId: eventType.id,
      reservationUuid: r.uuid,
      kind,
      msgId: outboxMessageId("msg"),
      url,
      payload: JSON.stringify({ type: kind, timestamp: utc(nowMs), data }),
      createdAtMs: nowMs,
    },
  ];
}

/** Whether changes of this event type's reservations are announced: it has a webhook URL its receiver has not stopped (410). */
export function sendsWebhooks(eventType: EventTypeRecord): boolean {
  return Boolean(eventType.settings.webhookUrl) && eventType.webhookDisabledAtMs === null;
}
