import type { Clock } from "../../clock.ts";
import type { LogEntry } from "../../context.ts";
import type { EventTypeRecord, OutboxDelivery, OutboxEvent, ReservationRecord, Store, WebhookKind } from "../../store/types.ts";
import { bookingEvent, inviteCalendar } from "../invites/ics.ts";
import { senderOf, type MailPolicy } from "../mail/events.ts";
import { OutboxWorker, type Deliverer, type DeliveryOutcome } from "../outbox/worker.ts";
import { authHeaders, boundedText, guardedFetch, type CalendarFetch } from "./fetch.ts";

/** Most of a calendar's answer to a write that is read: it is thrown away, and a server may send any amount. */
const MAX_WRITE_ANSWER_BYTES = 64 * 1024;

/** A write to the organizer's calendar as the outbox keeps it: rendered when the change happened. */
export interface CalendarWritePayload {
  /** The busy source whose credentials the write uses. */
  sourceId: number;
  /** PUT the entry (a new or moved booking) or DELETE it (a cancelled one). */
  method: "PUT" | "DELETE";
  /** The VCALENDAR to PUT (one VEVENT, no METHOD); null for a DELETE. */
  ics: string | null;
}

/** The calendar object a booking is written to: `<calendar>/<reservation uuid>.ics`, the same for every version of it. */
export function bookingObjectUrl(calendarUrl: string, reservationUuid: string): string {
  return new URL(`${encodeURIComponent(reservationUuid)}.ics`, calendarUrl.endsWith("/") ? calendarUrl : `${calendarUrl}/`).href;
}

/**
 * The write into the organizer's calendar a confirmed booking's change causes, to be written in the
 * same transaction as the change: created and rescheduled PUT the entry (the same object, SEQUENCE
 * from the reservation, so a move raises it), cancelled DELETEs it. None when the event type names
 * no bookings calendar.
 */
export function calendarEvents(
  mail: MailPolicy,
  eventType: EventTypeRecord,
  kind: WebhookKind,
  r: ReservationRecord,
  nowMs: number,
  manageUrl: string | null,
): OutboxEvent[] {
  const target = eventType.settings.bookingsCalendar;
  if (!target) return [];
  const organizerEmail = eventType.settings.organizerEmail ?? null;
  const cancelled = kind === "reservation.cancelled";
  const payload: CalendarWritePayload = {
    sourceId: target.sourceId,
    method: cancelled ? "DELETE" : "PUT",
    ics: cancelled
      ? null
      : inviteCalendar([
          bookingEvent({ title: eventType.settings.title, description: eventType.settings.description }, r, {
            manageUrl,
            organizer: organizerEmail ? { email: organizerEmail, name: null } : senderOf(mail.from),
            stampMs: nowMs,
          }),
        ]),
  };
  return [
    {
      channel: "caldav",
      eventTypeId: eventType.id,
      reservationUuid: r.uuid,
      kind,
      msgId: `cal_${crypto.randomUUID().replaceAll("-", "")}`,
      url: bookingObjectUrl(target.calendarUrl, r.uuid),
      payload: JSON.stringify(payload),
      createdAtMs: nowMs,
    },
  ];
}

/** HTTP answers after which another try may succeed: a changed precondition, a timeout, too many requests, the server's own errors. */
function retryable(status: number): boolean {
  return status === 408 || status === 412 || status === 425 || status === 429 || status >= 500;
}

/**
 * Delivers the caldav channel of the outbox: PUTs a booking's VCALENDAR to its object in the
 * organizer's calendar, or DELETEs it, with the busy source's credentials, through the address
 * guard the calendar sync uses. A DELETE of an object already gone (404, 410) is done; 412, 5xx
 * and network failures are tried again by the outbox's backoff; 401 and 403 (and other refusals)
 * fail at once with the reason, shown in the admin's deliveries.
 */
export class CalendarWriteDeliverer implements Deliverer {
  readonly channel = "caldav";

  constructor(
    private readonly store: Store,
    private readonly fetchFn: CalendarFetch,
  ) {}

  async deliver(d: OutboxDelivery): Promise<DeliveryOutcome> {
    const write = JSON.parse(d.payload) as CalendarWritePayload;
    const source = await this.store.busy.byId(write.sourceId);
    if (!source) return { statusCode: null, error: "the calendar source was removed; nothing to write to", durationMs: 0, final: true };
    const began = performance.now();
    const headers: Record<string, string> = { ...authHeaders(source) };
    if (write.method === "PUT") headers["content-type"] = "text/calendar; charset=utf-8";
    let response: Response;
    try {
      response = await this.fetchFn(d.url, { method: write.method, headers, ...(write.ics === null ? {} : { body: write.ics }) });
      // The answer's text is of no use; read a little of it so the connection is freed (past that, closed).
      await boundedText(response, MAX_WRITE_ANSWER_BYTES).catch(() => undefined);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      // The address guard refusing is final: the same address is refused on every try.
      return { statusCode: null, error: `unreachable: ${message}`, durationMs: Math.round(performance.now() - began), final: message.startsWith("refused:") };
    }
    const durationMs = Math.round(performance.now() - began);
    const status = response.status;
    if (status >= 200 && status < 300) return { statusCode: status, error: null, durationMs };
    if (write.method === "DELETE" && (status === 404 || status === 410)) return { statusCode: status, error: null, durationMs };
    const reason =
      status === 401 || status === 403
        ? `the calendar refused the credentials (HTTP ${status}); check the busy source's user name and password`
        : `the calendar answered HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`;
    return { statusCode: status, error: reason, durationMs, final: !retryable(status) };
  }
}

/** The outbox worker of the caldav channel. */
export class CalendarWriteWorker extends OutboxWorker {
  constructor(store: Store, clock: Clock, options: { allowPrivateAddresses: boolean }, log: (entry: LogEntry) => void, fetchFn: CalendarFetch = guardedFetch(options.allowPrivateAddresses)) {
    super(store, clock, new CalendarWriteDeliverer(store, fetchFn), log);
  }
}
