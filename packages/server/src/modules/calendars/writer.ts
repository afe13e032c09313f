import type { Clock } from "../../clock.ts";
import type { LogEntry } from "../../context.ts";
import type { BusySourceRecord } from "../../store/busy.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { OutboxDelivery, OutboxEvent, WebhookKind } from "../../store/outbox.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { bookingEvent, inviteCalendar, organizerBookingKey } from "../invites/ics.ts";
import { senderOf, type MailPolicy } from "../mail/events.ts";
import { OutboxWorker, type Deliverer, type DeliveryOutcome } from "../outbox/worker.ts";
import { authHeaders, boundedText, guardedFetch, type CalendarFetch } from "./fetch.ts";
import { bookingHosts, coHostsOf, organizerOf } from "../hosts/organizer.ts";
import { outboxMessageId } from "../../lib/ids.ts";

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
  /**
   * Where the booking's entry was written before entries were named by `organizerBookingKey`
   * (`<calendar>/<reservation uuid>.ics`): deleted after the write, so a booking written then and
   * moved or cancelled now leaves no second entry behind. Only on reschedules and cancels.
   */
  legacyUrl?: string;
}

/**
 * The calendar object a booking is written to: `<calendar>/<organizerBookingKey>.ics`, the same for
 * every version of it. Named like its UID, not by the reservation's uuid, which anyone reading the
 * calendar would otherwise learn (and with the booking page's link token cancel the booking).
 */
export function bookingObjectUrl(calendarUrl: string, reservationUuid: string): string {
  return objectUrl(calendarUrl, organizerBookingKey(reservationUuid));
}

function objectUrl(calendarUrl: string, name: string): string {
  return new URL(`${encodeURIComponent(name)}.ics`, calendarUrl.endsWith("/") ? calendarUrl : `${calendarUrl}/`).href;
}

/**
 * The write into the organizer's calendar a confirmed booking's change causes, to be written in the
 * same transaction as the change: created and rescheduled PUT the entry (the organizer's copy of the
 * booking, without the visitor's manage link; the same object, SEQUENCE from the reservation, so a
 * move raises it), cancelled DELETEs it. None when the event type names no bookings calendar.
 */
export function calendarEvents(mail: MailPolicy, eventType: EventTypeRecord, kind: WebhookKind, r: ReservationRecord, nowMs: number): OutboxEvent[] {
  // Each host of the booking with a bookings calendar gets the entry (a collective booking, every host's).
  const targets = bookingHosts(eventType, r).flatMap((h) => (h.bookingsCalendar ? [h.bookingsCalendar] : []));
  if (targets.length === 0) return [];
  const cancelled = kind === "reservation.cancelled";
  const organizer = organizerOf(eventType, r, senderOf(mail.from));
  const ics = cancelled
    ? null
    : inviteCalendar([
        bookingEvent({ title: eventType.settings.title, description: eventType.settings.description }, r, {
          copy: "organizer",
          manageUrl: null,
          organizer,
          coHosts: coHostsOf(eventType, r, organizer),
          stampMs: nowMs,
        }),
      ]);
  return targets.map((target) => {
    const payload: CalendarWritePayload = {
      sourceId: target.sourceId,
      method: cancelled ? "DELETE" : "PUT",
      ics,
      ...(kind === "reservation.created" ? {} : { legacyUrl: objectUrl(target.calendarUrl, r.uuid) }),
    };
    return {
      channel: "caldav" as const,
      eventTypeId: eventType.id,
      reservationUuid: r.uuid,
      kind,
      msgId: outboxMessageId("cal"),
      url: bookingObjectUrl(target.calendarUrl, r.uuid),
      payload: JSON.stringify(payload),
      createdAtMs: nowMs,
    };
  });
}

/** HTTP answers after which another try may succeed: a changed precondition, a timeout, too many requests, the server's own errors. */
function retryable(status: number): boolean {
  return status === 408 || status === 412 || status === 425 || status === 429 || status >= 500;
}

/**
 * Delivers the caldav channel of the outbox: PUTs a booking's VCALENDAR to its object in the
 * organizer's calendar, or DELETEs it, with the busy source's credentials, through the address
 * guard the calendar sync uses; a write with a `legacyUrl` then DELETEs the booking's entry under its
 * old name. A DELETE of an object already gone (404, 410) is done; 412, 5xx
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
    let outcome = await this.send(source, d.url, write.method, write.ics);
    // The entry under its old name goes once the new one is in place; a failure tries both again (a PUT repeats harmlessly).
    if (outcome.error === null && write.legacyUrl && write.legacyUrl !== d.url) {
      const legacy = await this.send(source, write.legacyUrl, "DELETE", null);
      if (legacy.error !== null) outcome = { ...legacy, error: `removing the entry written under its old name: ${legacy.error}` };
    }
    return { ...outcome, durationMs: Math.round(performance.now() - began) };
  }

  /** One PUT or DELETE of an object; a DELETE of an object already gone is done. */
  private async send(source: BusySourceRecord, url: string, method: "PUT" | "DELETE", ics: string | null): Promise<Omit<DeliveryOutcome, "durationMs">> {
    const headers: Record<string, string> = { ...authHeaders(source) };
    if (method === "PUT") headers["content-type"] = "text/calendar; charset=utf-8";
    let response: Response;
    try {
      response = await this.fetchFn(url, { method, headers, ...(ics === null ? {} : { body: ics }) });
      // The answer's text is of no use; read a little of it so the connection is freed (past that, closed).
      await boundedText(response, MAX_WRITE_ANSWER_BYTES).catch(() => undefined);
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      // The address guard refusing is final: the same address is refused on every try.
      return { statusCode: null, error: `unreachable: ${message}`, final: message.startsWith("refused:") };
    }
    const status = response.status;
    if (status >= 200 && status < 300) return { statusCode: status, error: null };
    if (method === "DELETE" && (status === 404 || status === 410)) return { statusCode: status, error: null };
    const reason =
      status === 401 || status === 403
        ? `the calendar refused the credentials (HTTP ${status}); check the busy source's user name and password`
        : `the calendar answered HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`;
    return { statusCode: status, error: reason, final: !retryable(status) };
  }
}

/** The outbox worker of the caldav channel. */
export class CalendarWriteWorker extends OutboxWorker {
  constructor(
    store: Store,
    clock: Clock,
    options: { allowPrivateAddresses: boolean },
    log: (entry: LogEntry) => void,
    fetchFn: CalendarFetch = guardedFetch(options.allowPrivateAddresses),
  ) {
    super(store, clock, new CalendarWriteDeliverer(store, fetchFn), log);
  }
}
