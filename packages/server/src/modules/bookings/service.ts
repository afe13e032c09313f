import { DateTime } from "luxon";
import type { AdminBookingDetail, AdminBookingPage, AdminBookingView, OrganizerReservationView } from "@booking/wire";
import type { Static } from "@sinclair/typebox";
import { addError, DomainError, ValidationFailed } from "../../domain/errors.ts";
import { statusAt } from "../../domain/reservation.ts";
import { isUuid } from "../../lib/ids.ts";
import { manageUrlOf } from "../../lib/links.ts";
import { canonicalZone, utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { existingEventType } from "../event-types/organizer.ts";
import { deliveryView } from "../outbox/service.ts";
import type { ReservationListQuery as ReservationListQuerySchema, ReservationSearchQuery as ReservationSearchQuerySchema } from "./model.ts";

/**
 * The organizer's bookings: an event type's in a date range, every event type's a page at a time,
 * and one with its deliveries. Shared by the admin API and the assistant.
 */
export class BookingAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** The reservations of a date range (days in `timezone`, default the event type's), as the organizer's list shows them. */
  async reservations(id: number, query: ReservationListQuery): Promise<OrganizerReservationView[]> {
    const { zone, rows } = await this.reservationRecords(id, query);
    return rows.map(({ record, status }) => reservationView(record, status, zone));
  }

  /**
   * The reservation records of a date range with their status derived from time (at most 5000),
   * and the zone the days were read in. 422 for unknown zones, malformed dates or ranges over 366 days.
   */
  async reservationRecords(
    id: number,
    query: ReservationListQuery,
  ): Promise<{ eventType: EventTypeRecord; zone: string; rows: { record: ReservationRecord; status: ReservationRecord["status"] }[] }> {
    const eventType = await this.existing(id);
    const errors: Record<string, string[]> = {};
    const asked = canonicalZone(query.timezone ?? eventType.settings.timezone);
    if (asked === null) addError(errors, "timezone", "Unknown IANA timezone.");
    const zone = asked ?? "UTC";
    const from = DateTime.fromISO(query.from, { zone });
    const until = DateTime.fromISO(query.until, { zone });
    if (!from.isValid) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
    if (!until.isValid) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
    if (from.isValid && until.isValid && until < from) addError(errors, "until", "Must not be before from.");
    if (from.isValid && until.isValid && until.diff(from, "days").days > 366) addError(errors, "until", "The range spans at most 366 days.");
    ValidationFailed.check(errors);
    const nowMs = this.now();
    // Time moves stored statuses on (held to expired to cancelled) before any sweep writes it down,
    // so read every stored status that can have become the asked one, then filter on the derived one.
    const rows = await this.store.reservations.list(id, {
      fromMs: from.startOf("day").toMillis(),
      untilMs: until.plus({ days: 1 }).startOf("day").toMillis(),
      ...(query.status ? { statuses: STORED_AS[query.status] } : {}),
      limit: 5000,
    });
    return {
      eventType,
      zone,
      rows: rows.map((record) => ({ record, status: statusAt(record, nowMs) })).filter(({ status }) => query.status === undefined || status === query.status),
    };
  }

  /**
   * One page of the organizer's bookings across event types, filtered by event type, status, days
   * (UTC, or `timezone`), upcoming or past (`when`, from the server's clock) and a part of the name or email; paged by the opaque `cursor` the page
   * before answered as `next` (null on the last page). Every page costs the same however deep.
   * A status filter is applied to the status time has made of each row, so a page may hold fewer
   * than `limit` rows and still have a next one.
   */
  async searchReservations(query: ReservationSearchQuery, origin: string): Promise<AdminBookingPage> {
    const errors: Record<string, string[]> = {};
    const zone = canonicalZone(query.timezone ?? "UTC");
    if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
    const from = query.from === undefined ? null : DateTime.fromISO(query.from, { zone: zone ?? "UTC" });
    const until = query.until === undefined ? null : DateTime.fromISO(query.until, { zone: zone ?? "UTC" });
    if (from && !from.isValid) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
    if (until && !until.isValid) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
    if (from?.isValid && until?.isValid && until < from) addError(errors, "until", "Must not be before from.");
    const after = query.cursor === undefined ? undefined : cursorOf(query.cursor);
    if (after === null) addError(errors, "cursor", "Not a cursor this list answered; start from the first page.");
    const text = query.q?.trim();
    if (text !== undefined && /[\u0000-\u001f\u007f]/.test(text)) addError(errors, "q", "Search text is one line of visible text.");
    ValidationFailed.check(errors);
    const limit = query.limit ?? 50;
    const nowMs = this.now();
    // Upcoming: starting from now on; past: started before now. Either narrows the days asked for.
    let fromMs = from?.isValid ? from.startOf("day").toMillis() : undefined;
    let untilMs = until?.isValid ? until.plus({ days: 1 }).startOf("day").toMillis() : undefined;
    if (query.when === "upcoming") fromMs = Math.max(fromMs ?? nowMs, nowMs);
    if (query.when === "past") untilMs = Math.min(untilMs ?? nowMs, nowMs);
    const eventTypes = new Map((await this.store.eventTypes.list()).map((et) => [et.id, et]));
    const rows = await this.store.reservations.search({
      ...(query.eventTypeId === undefined ? {} : { eventTypeIds: [query.eventTypeId] }),
      ...(query.hostId === undefined ? {} : { hostId: query.hostId }),
      ...(fromMs === undefined ? {} : { fromMs }),
      ...(untilMs === undefined ? {} : { untilMs }),
      ...(query.status ? { statuses: STORED_AS[query.status] } : {}),
      ...(text ? { text } : {}),
      ...(after ? { after } : {}),
      // The past reads back from now: the most recent first, unless asked otherwise.
      order: query.order ?? (query.when === "past" ? "desc" : "asc"),
      limit,
    });
    const items = rows
      .map((record) => ({ record, status: statusAt(record, nowMs) }))
      .filter(({ status }) => query.status === undefined || status === query.status)
      .map(({ record, status }): AdminBookingView => {
        const eventType = eventTypes.get(record.eventTypeId);
        return {
          eventTypeId: record.eventTypeId,
          eventTypeTitle: eventType?.settings.title ?? "",
          manageUrl: eventType ? manageUrlOf(origin, eventType.slug, record.uuid) : null,
          ...reservationView(record, status, zone ?? "UTC"),
        };
      });
    const last = rows.at(-1);
    return { items, next: rows.length === limit && last ? cursorFor(last) : null };
  }

  /** One reservation of the event type as the organizer's list shows it, with its manage link and its deliveries of every channel. */
  async reservation(id: number, uuid: string, origin: string): Promise<AdminBookingDetail> {
    const eventType = await this.existing(id);
    const record = isUuid(uuid) ? await this.store.reservations.byUuid(id, uuid.toLowerCase()) : null;
    if (!record) throw new DomainError("not_found", `No reservation ${uuid.slice(0, 40)} of event type ${id}.`);
    const deliveries = (await this.store.outbox.recent(id, 500))
      .filter((d) => d.reservationUuid === record.uuid)
      .map((d) => ({ channel: d.channel, ...deliveryView(d) }));
    return {
      eventTypeId: id,
      eventTypeTitle: eventType.settings.title,
      manageUrl: manageUrlOf(origin, eventType.slug, record.uuid),
      ...reservationView(record, statusAt(record, this.now()), eventType.settings.timezone),
      deliveries,
    };
  }

  private existing(id: number): Promise<EventTypeRecord> {
    return existingEventType(this.store, id);
  }
}

/** Query of the organizer's list across event types (see `searchReservations`). */
export type ReservationSearchQuery = Static<typeof ReservationSearchQuerySchema>;

/** The opaque cursor after a row: its start and uuid. */
function cursorFor(r: ReservationRecord): string {
  return Buffer.from(`${r.startMs}:${r.uuid}`).toString("base64url");
}

/** The start and uuid a cursor stands for, or null when it is none this list made. */
function cursorOf(cursor: string): { startMs: number; uuid: string } | null {
  const match = /^(-?\d{1,16}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? { startMs: Number(match[1]), uuid: match[2]! } : null;
}

/** A reservation as the organizer's lists show it, times in `zone` and in UTC. */
function reservationView(r: ReservationRecord, status: ReservationRecord["status"], zone: string): OrganizerReservationView {
  return {
    uuid: r.uuid,
    status,
    start: isoIn(r.startMs, zone),
    end: isoIn(r.endMs, zone),
    startIso8601: utc(r.startMs),
    endIso8601: utc(r.endMs),
    heldUntil: r.heldUntilMs === null ? null : utc(r.heldUntilMs),
    email: r.email,
    firstname: r.firstname,
    lastname: r.lastname,
    phone: r.phone,
    timezone: r.timezone,
    location: r.location,
    guests: r.guests,
    customFields: r.customFields,
    // What happened to the money: a hold's payment succeeded, or was refunded because its seat was gone.
    payment: r.payment && {
      status: r.payment.status,
      amount: r.payment.amount,
      currency: r.payment.currency,
      paymentIntentId: r.payment.intentId,
      refundId: r.payment.refundId ?? null,
    },
    createdAt: utc(r.createdAtMs),
    // Why the visitor cancelled, when they said (DELETE /reservations/{uuid} with a reason).
    cancelReason: r.cancelReason ?? null,
    seriesId: r.seriesId ?? null,
  };
}

/** An instant with the offset of `zone` (a zone luxon cannot use, which canonical zones never are, falls back to UTC). */
function isoIn(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? utc(ms);
}

/** Filter of the organizer's reservation list: whole days from `from` to `until` in `timezone` (default the event type's zone). */
export type ReservationListQuery = Static<typeof ReservationListQuerySchema>;

/** Stored statuses a reservation can have while its status, derived from time, is the key. */
const STORED_AS: Record<ReservationRecord["status"], ReservationRecord["status"][]> = {
  held: ["held"],
  confirmed: ["confirmed"],
  expired: ["held", "expired"],
  cancelled: ["held", "expired", "cancelled"],
};
