import { DateTime } from "luxon";
import type { AppContext } from "../../context.ts";
import { statusAt } from "../../domain/reservation.ts";
import { horizonEnd, type Slot } from "../../domain/slots.ts";
import { DomainError, ValidationFailed } from "../../domain/errors.ts";
import { utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { Services } from "../../services.ts";
import { slotWindow } from "../time-slots/service.ts";
import { sendsWebhooks } from "../webhooks/events.ts";
import { startInstant, zoneOf, type Lookup } from "./lookup.ts";
import type { ToolArgs, ToolOutput } from "./model.ts";
import { detailOf, isoIn, priceText, refOf, reservationLine, reservationOf, slotOf, slotsText, spanText, summaryOf } from "./present.ts";

/** What a tool answers: structured content for programs and a short text for people. */
export interface ToolAnswer<T> {
  data: T;
  text: string;
}

export type { ToolArgs } from "./model.ts";

const WEEK_MS = 7 * 86_400_000;

/**
 * The organizer's tools on event types, booking links, free slots and reservations, behind the
 * assistant server. Every change goes through the same services as the HTTP API (the reservation
 * service for seats, notice and the webhook outbox), acting as the organizer: like the override
 * token, that lifts the visitor's reschedule and cancel notice, never opening hours, seats or the past.
 */
export class OrganizerTools {
  constructor(
    private readonly ctx: AppContext,
    private readonly services: Services,
    /** Public origin of the booking and manage links in answers and webhooks. */
    private readonly origin: string,
    private readonly lookup: Lookup,
  ) {}

  async listEventTypes(): Promise<ToolAnswer<ToolOutput<"list_event_types">>> {
    const eventTypes = (await this.ctx.store.eventTypes.list()).map((et) => summaryOf(et, this.origin));
    const lines = eventTypes.map(
      (et) =>
        `#${et.id} ${et.title}: ${et.durationMinutes} min, ${et.timezone}${et.price ? `, ${priceText(et.price)}` : ", free"}${et.disabled ? ", disabled" : ""}, ${et.bookingUrl ?? "no booking link (no slug)"}; ` +
        (et.hosts.length > 1
          ? `${et.assignment === "round-robin" ? "round robin" : "collective"} of ${et.hosts.map((h) => h.name).join(", ")}`
          : `host ${et.hosts[0]?.name || `#${et.hosts[0]?.hostId}`}`),
    );
    return {
      data: { eventTypes },
      text:
        eventTypes.length === 0
          ? "There are no event types yet."
          : `${eventTypes.length} event type${eventTypes.length === 1 ? "" : "s"}:\n${lines.join("\n")}`,
    };
  }

  async resolveBookingLink(args: ToolArgs<"resolve_booking_link">): Promise<ToolAnswer<ToolOutput<"resolve_booking_link">>> {
    const link = parseLink(args.link);
    const eventType = await this.lookup.bySlug(link.slug);
    const zone = zoneOf(args.timezone, eventType.settings.timezone);
    const nowMs = this.ctx.clock.now();
    let reservation = null;
    if (link.reservation !== null) {
      const found = await this.lookup.reservation(link.reservation, { eventTypeId: eventType.id });
      reservation = reservationOf(found.reservation, eventType, zone, this.origin, nowMs);
    }
    const slots = await this.nextFreeSlots(eventType, args.slotCount ?? 5, nowMs);
    const detail = detailOf(eventType, this.origin);
    const lines = [
      `${detail.bookingUrl} is the booking page of event type #${eventType.id} "${detail.title}": ${detail.durationMinutes} min, ${detail.seats} seat${detail.seats === 1 ? "" : "s"}, ${detail.timezone}${detail.price ? `, ${priceText(detail.price)}` : ", free"}.`,
      eventType.disabled
        ? "It is disabled: visitors cannot book it."
        : slots.length === 0
          ? "No free slots within the booking horizon."
          : `Next free slots (${zone}):\n${slotsText(slots, zone)}`,
    ];
    if (reservation) lines.push(`The link is the manage link of: ${reservationLine(reservation)}`);
    return { data: { eventType: detail, timezone: zone, nextFreeSlots: slots.map((s) => slotOf(s, zone)), reservation }, text: lines.join("\n") };
  }

  async findFreeSlots(args: ToolArgs<"find_free_slots">): Promise<ToolAnswer<ToolOutput<"find_free_slots">>> {
    const eventType = await this.lookup.eventType(args);
    const zone = zoneOf(args.timezone, eventType.settings.timezone);
    const window = slotWindow({ from: args.from, until: args.until, timezone: zone }, eventType.settings.timezone);
    const nowMs = this.ctx.clock.now();
    const { slots: all } = await this.services.slots.freeSlots(eventType, window.fromMs, window.untilMs, nowMs, {
      ignoreNoticeAndHorizon: args.includeShortNotice === true,
    });
    const limit = args.limit ?? 200;
    const slots = all.slice(0, limit);
    const head = `${all.length} free slot${all.length === 1 ? "" : "s"} for "${eventType.settings.title}" from ${args.from} to ${args.until} (${zone})`;
    const text = [
      `${head}${all.length > limit ? `, the first ${limit} shown` : ""}${all.length === 0 ? "." : ":"}`,
      ...(slots.length > 0 ? [slotsText(slots, zone)] : []),
      ...(eventType.disabled ? ["The event type is disabled: visitors cannot book; the organizer can still move reservations."] : []),
    ].join("\n");
    return {
      data: {
        eventType: refOf(eventType),
        timezone: zone,
        from: args.from,
        until: args.until,
        disabled: eventType.disabled,
        slots: slots.map((s) => slotOf(s, zone)),
        truncated: all.length > limit,
      },
      text,
    };
  }

  async searchReservations(args: ToolArgs<"search_reservations">): Promise<ToolAnswer<ToolOutput<"search_reservations">>> {
    const named = args.eventTypeId !== undefined || args.slug !== undefined;
    const eventTypes = named ? [await this.lookup.eventType(args)] : await this.ctx.store.eventTypes.list();
    const asked = args.timezone === undefined ? null : zoneOf(args.timezone, "UTC");
    const nowMs = this.ctx.clock.now();
    const rangeZone = asked ?? eventTypes[0]?.settings.timezone ?? "UTC";
    const from = args.from ?? DateTime.fromMillis(nowMs, { zone: rangeZone }).toISODate()!;
    const until = args.until ?? DateTime.fromISO(from, { zone: rangeZone }).plus({ days: 365 }).toISODate() ?? from;
    const email = args.email?.trim().toLowerCase();
    const words = fold(args.name ?? "")
      .split(/\s+/)
      .filter(Boolean);

    const found = [];
    for (const eventType of eventTypes) {
      const { rows } = await this.services.bookings.reservationRecords(eventType.id, {
        from,
        until,
        timezone: asked ?? eventType.settings.timezone,
        ...(args.status ? { status: args.status } : {}),
      });
      for (const { record } of rows) {
        if (email && !record.email.toLowerCase().includes(email)) continue;
        const name = fold(`${record.firstname} ${record.lastname}`);
        if (!words.every((w) => name.includes(w))) continue;
        found.push({ record, eventType });
      }
    }
    found.sort((a, b) => a.record.startMs - b.record.startMs || a.record.uuid.localeCompare(b.record.uuid));
    const limit = args.limit ?? 25;
    const reservations = found
      .slice(0, limit)
      .map(({ record, eventType }) => reservationOf(record, eventType, asked ?? eventType.settings.timezone, this.origin, nowMs));
    const text =
      found.length === 0
        ? `No reservations match between ${from} and ${until}.`
        : [
            `${found.length} reservation${found.length === 1 ? "" : "s"} between ${from} and ${until}${found.length > limit ? `, the first ${limit} shown` : ""}:`,
            ...reservations.map((r) => `  ${reservationLine(r)}`),
          ].join("\n");
    return { data: { timezone: asked, from, until, total: found.length, truncated: found.length > limit, reservations }, text };
  }

  async getReservation(args: ToolArgs<"get_reservation">): Promise<ToolAnswer<ToolOutput<"get_reservation">>> {
    const { eventType, reservation } = await this.lookup.reservation(args.uuid, args);
    const view = reservationOf(reservation, eventType, zoneOf(args.timezone, eventType.settings.timezone), this.origin, this.ctx.clock.now());
    const extra = [
      view.phone && `phone ${view.phone}`,
      view.location && `location ${view.location.type}${view.location.value ? ` (${view.location.value})` : ""}`,
      view.meetLink && `meeting link ${view.meetLink}`,
    ].filter(Boolean);
    return { data: { reservation: view }, text: `${reservationLine(view)}${extra.length > 0 ? `; ${extra.join(", ")}` : ""}.` };
  }

  async rescheduleReservation(args: ToolArgs<"reschedule_reservation">): Promise<ToolAnswer<ToolOutput<"reschedule_reservation">>> {
    const { eventType, reservation: before } = await this.lookup.reservation(args.uuid, args);
    const zone = zoneOf(args.timezone, eventType.settings.timezone);
    const startMs = startInstant(args.start, zone);
    const endMs = startMs + eventType.settings.durationMinutes * 60_000;
    const nowMs = this.ctx.clock.now();
    const status = statusAt(before, nowMs);
    const changed = startMs !== before.startMs;
    if (changed || status === "cancelled" || status === "expired") {
      // The visitor's own zone stays theirs: the organizer's time is given as an instant.
      await this.services.reservations.reschedule(eventType, before.uuid, { start: utc(startMs), end: utc(endMs) }, { origin: this.origin, organizer: true });
    }
    const after = await this.services.reservations.find(eventType, before.uuid);
    const view = reservationOf(after, eventType, zone, this.origin, nowMs);
    const webhookQueued = changed && status === "confirmed" && sendsWebhooks(eventType);
    const who = view.name ?? view.email;
    const text = changed
      ? `Moved ${who}'s "${eventType.settings.title}" from ${spanText(before.startMs, before.endMs, zone)} to ${spanText(after.startMs, after.endMs, zone)} (${zone}).` +
        (webhookQueued ? " The reservation.rescheduled webhook is queued." : "") +
        (view.manageUrl ? ` The visitor's link: ${view.manageUrl}` : "")
      : `${who}'s "${eventType.settings.title}" already starts at ${spanText(before.startMs, before.endMs, zone)} (${zone}); nothing changed.`;
    return { data: { reservation: view, previousStart: isoIn(before.startMs, zone), previousEnd: isoIn(before.endMs, zone), changed, webhookQueued }, text };
  }

  async cancelReservation(args: ToolArgs<"cancel_reservation">): Promise<ToolAnswer<ToolOutput<"cancel_reservation">>> {
    const { eventType, reservation: before } = await this.lookup.reservation(args.uuid, args);
    const zone = zoneOf(args.timezone, eventType.settings.timezone);
    const nowMs = this.ctx.clock.now();
    const status = statusAt(before, nowMs);
    await this.services.reservations.cancel(eventType, before.uuid, undefined, { origin: this.origin, organizer: true });
    const view = reservationOf(await this.services.reservations.find(eventType, before.uuid), eventType, zone, this.origin, nowMs);
    const webhookQueued = status === "confirmed" && sendsWebhooks(eventType);
    const text =
      status === "cancelled"
        ? `${reservationLine(view)}: it was already cancelled; nothing changed.`
        : `Cancelled: ${reservationLine(view)}. The seat is free again.${webhookQueued ? " The reservation.cancelled webhook is queued." : ""}`;
    return { data: { reservation: view, alreadyCancelled: status === "cancelled", webhookQueued }, text };
  }

  /** The first `count` free slots from now to the horizon, a week at a time. */
  private async nextFreeSlots(eventType: EventTypeRecord, count: number, nowMs: number): Promise<Slot[]> {
    if (eventType.disabled || count === 0) return [];
    const end = horizonEnd(eventType.settings, nowMs);
    const found: Slot[] = [];
    for (let from = nowMs; from < end && found.length < count; from += WEEK_MS) {
      found.push(...(await this.services.slots.freeSlots(eventType, from, Math.min(end, from + WEEK_MS), nowMs)).slots);
    }
    return found.slice(0, count);
  }
}

/** Text folded for matching: no accents, lower case. */
const fold = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The slug and `?reservation=` of a booking link, its path (`/book/intro-call`), or a bare slug. */
function parseLink(link: string): { slug: string; reservation: string | null } {
  const value = link.trim();
  if (/^[a-z0-9-]+$/i.test(value)) return { slug: value, reservation: null };
  let url: URL;
  try {
    url = /^https?:\/\//i.test(value) ? new URL(value) : new URL(value.startsWith("/") ? value : `/${value}`, "http://link.invalid");
  } catch {
    throw new ValidationFailed({ link: [`"${link}" is neither a booking link nor a slug.`] });
  }
  const match = /^\/book\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) throw new ValidationFailed({ link: [`"${link}" is not a booking link: expected https://<server>/book/<slug>.`] });
  let slug: string;
  try {
    slug = decodeURIComponent(match[1]!);
  } catch {
    throw new DomainError("not_found", `No event type has the slug "${match[1]}".`);
  }
  return { slug, reservation: url.searchParams.get("reservation") };
}
