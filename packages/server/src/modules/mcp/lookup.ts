import { DateTime } from "luxon";
import { isSlug } from "@booking/wire";
import { DomainError, ValidationFailed } from "../../domain/errors.ts";
import { canonicalZone } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import type { ReservationService } from "../reservations/service.ts";
import { offsetInstant } from "../../lib/time.ts";

/** How a tool names an event type: by id or by slug (or not at all when there is only one). */
export interface EventTypeChoice {
  eventTypeId?: number | undefined;
  slug?: string | undefined;
}

/**
 * Finds what the organizer's tools name: event types by id or slug, reservations by uuid (within
 * one event type when it is named, else among all), and time zones. What is not there is a
 * `not_found` with a message that says what to do; a malformed value is a `validation_failed`.
 */
export class Lookup {
  constructor(
    private readonly store: Store,
    private readonly reservations: ReservationService,
  ) {}

  /** The named event type; without a name, the only one there is. */
  async eventType(choice: EventTypeChoice): Promise<EventTypeRecord> {
    const { eventTypeId, slug } = choice;
    if (eventTypeId !== undefined) {
      const byId = await this.store.eventTypes.byId(eventTypeId);
      if (!byId) throw new DomainError("not_found", `No event type has the id ${eventTypeId}; list_event_types shows them.`);
      if (slug !== undefined && byId.slug !== slug.toLowerCase()) {
        throw new ValidationFailed({ slug: [`Event type #${eventTypeId} has the slug ${byId.slug ?? "(none)"}, not "${slug}"; give one of the two.`] });
      }
      return byId;
    }
    if (slug !== undefined) return this.bySlug(slug);
    const all = await this.store.eventTypes.list();
    if (all.length === 1) return all[0]!;
    if (all.length === 0) throw new DomainError("not_found", "There are no event types yet.");
    throw new ValidationFailed({
      eventTypeId: [`Name the event type with eventTypeId or slug; there are ${all.length}: ${all.map((e) => `#${e.id} ${e.settings.title}`).join(", ")}.`],
    });
  }

  /** The event type whose booking page is `/book/{slug}`. */
  async bySlug(slug: string): Promise<EventTypeRecord> {
    const wanted = slug.trim().toLowerCase();
    const found = isSlug(wanted) ? await this.store.eventTypes.bySlug(wanted) : null;
    if (found) return found;
    const known = (await this.store.eventTypes.list()).map((e) => e.slug).filter((s): s is string => s !== null);
    throw new DomainError(
      "not_found",
      `No event type has the slug "${slug}". ${known.length > 0 ? `Known slugs: ${known.join(", ")}.` : "No event type has a slug yet."}`,
    );
  }

  /** A reservation and its event type: within the named event type, else among all of them. */
  async reservation(uuid: string, choice: EventTypeChoice): Promise<{ eventType: EventTypeRecord; reservation: ReservationRecord }> {
    const named = choice.eventTypeId !== undefined || choice.slug !== undefined;
    const candidates = named ? [await this.eventType(choice)] : await this.store.eventTypes.list();
    for (const eventType of candidates) {
      const reservation = await this.reservations.find(eventType, uuid).catch((error) => {
        if (error instanceof DomainError && error.code === "not_found") return null;
        throw error;
      });
      if (reservation) return { eventType, reservation };
    }
    const where = named ? ` for event type #${candidates[0]!.id} "${candidates[0]!.settings.title}"` : "";
    throw new DomainError("not_found", `No reservation with the uuid "${uuid}" exists${where}; search_reservations finds reservations by name, email or date.`);
  }
}

/** The canonical IANA zone of `asked`, or `fallback` when none was asked; 422 on `timezone` for anything else. */
export function zoneOf(asked: string | undefined, fallback: string): string {
  if (asked === undefined) return fallback;
  const zone = canonicalZone(asked.trim());
  if (zone === null) throw new ValidationFailed({ timezone: [`"${asked}" is not an IANA time zone; use a name such as Europe/Prague or America/New_York.`] });
  return zone;
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:00(\.0{1,9})?)?$/;

/**
 * The instant a new start names: an ISO 8601 date-time with offset as is, or a local date-time read
 * in `zone`. A local time the clocks skip (spring forward) is refused rather than moved; one they
 * repeat (fall back) is the first of the two.
 */
export function startInstant(start: string, zone: string): number {
  const value = start.trim();
  const withOffset = offsetInstant(value);
  if (withOffset !== null) return withOffset;
  const local = LOCAL.exec(value);
  if (local) {
    const parsed = DateTime.fromISO(`${local[1]}T${local[2]}`, { zone });
    if (parsed.isValid && parsed.toFormat("yyyy-MM-dd'T'HH:mm") === `${local[1]}T${local[2]}`) return parsed.toMillis();
    if (parsed.isValid) throw new ValidationFailed({ start: [`${local[1]} ${local[2]} does not exist in ${zone}: the clocks skip it.`] });
  }
  throw new ValidationFailed({ start: [`"${start}" is not a date-time; use 2026-11-25T15:00 (read in ${zone}) or 2026-11-25T15:00:00+01:00.`] });
}

/** A real calendar date as YYYY-MM-DD, or 422 on `field`. */
export function calendarDate(value: string, field = "date"): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !DateTime.fromISO(value).isValid)
    throw new ValidationFailed({ [field]: [`"${value}" is not a calendar date; use YYYY-MM-DD.`] });
  return value;
}
