import { DateTime, IANAZone } from "luxon";
import { LIMITS, type TimeSlot, type TimeSlotsQuery } from "@booking/wire";
import { slotsBetween, type Slot } from "../../domain/slots.ts";
import { addError, ValidationFailed } from "../../http/errors.ts";
import { PreparedJson } from "../../http/envelope.ts";
import { TimedCache } from "../../lib/timed-cache.ts";
import type { Store, EventTypeRecord } from "../../store/types.ts";

const DAY_MS = 86_400_000;
// Reservations reach at most a day plus both buffers (each at most a day) past their start.
const BUSY_MARGIN_MS = 3 * DAY_MS;

/** Slots of a window together with the instant until which they stay true if nothing is booked. */
export interface SlotsAnswer {
  slots: Slot[];
  validUntilMs: number;
}

/** A checked `GET /time-slots` query: whole days in `zone`, as an instant range. */
export interface SlotWindow {
  zone: string;
  from: string;
  until: string;
  fromMs: number;
  untilMs: number;
}

/** Reads and checks the query; 422 with per-field messages on anything off. */
export function slotWindow(query: TimeSlotsQuery, defaultZone: string): SlotWindow {
  const errors: Record<string, string[]> = {};
  const zone = query.timezone ?? defaultZone;
  if (query.timezone !== undefined && !isZone(query.timezone)) addError(errors, "timezone", "Unknown IANA timezone.");
  const okZone = isZone(zone) ? zone : defaultZone;
  const from = calendarDay(query.from, okZone);
  const until = calendarDay(query.until, okZone);
  if (!from) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
  if (!until) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
  if (from && until) {
    const days = Math.round(until.diff(from, "days").days) + 1;
    if (days < 1) addError(errors, "until", "Must not be before from.");
    else if (days > LIMITS.maxSlotRangeDays) addError(errors, "until", `The range spans at most ${LIMITS.maxSlotRangeDays} days.`);
  }
  ValidationFailed.check(errors);
  return { zone: okZone, from: query.from, until: query.until, fromMs: from!.toMillis(), untilMs: until!.plus({ days: 1 }).startOf("day").toMillis() };
}

/** True for an IANA zone name luxon can compute with. */
export function isZone(name: string): boolean {
  return name.length <= 64 && IANAZone.isValidZone(name);
}

function calendarDay(value: string, zone: string): DateTime | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = DateTime.fromISO(value, { zone });
  return day.isValid ? day.startOf("day") : null;
}

/**
 * Computes free slots and serves `GET /time-slots`. Answers are cached per event type revision
 * (bumped by every booking and settings change, also from other processes) and only until the
 * earliest instant at which time alone would change them.
 */
export class TimeSlotService {
  private readonly pages = new TimedCache<PreparedJson>(1000);

  constructor(private readonly store: Store) {}

  /** Free and partly booked slots whose start lies in [fromMs, untilMs). */
  async freeSlots(eventType: EventTypeRecord, fromMs: number, untilMs: number, nowMs: number): Promise<SlotsAnswer> {
    const s = eventType.settings;
    const holders = await this.store.reservations.seatHolders(eventType.id, fromMs - BUSY_MARGIN_MS, untilMs + BUSY_MARGIN_MS, nowMs);
    const slots = slotsBetween(s, fromMs, untilMs, holders, nowMs).filter((slot) => slot.freeSeats > 0);
    let validUntilMs = DateTime.fromMillis(nowMs, { zone: s.timezone }).startOf("day").plus({ days: 1 }).toMillis();
    if (slots[0]) validUntilMs = Math.min(validUntilMs, slots[0].startMs - s.minNoticeMinutes * 60_000 + 1);
    for (const h of holders) if (h.heldUntilMs !== null && h.heldUntilMs > nowMs) validUntilMs = Math.min(validUntilMs, h.heldUntilMs);
    return { slots, validUntilMs };
  }

  /** The whole `GET /time-slots` body for a checked window. */
  async page(eventType: EventTypeRecord, window: SlotWindow, nowMs: number): Promise<PreparedJson> {
    const key = `${eventType.id}|${window.from}|${window.until}|${window.zone}`;
    const cached = this.pages.get(key, eventType.revision, nowMs);
    if (cached) return cached;
    const { slots, validUntilMs } = await this.freeSlots(eventType, window.fromMs, window.untilMs, nowMs);
    const body = new PreparedJson(JSON.stringify({ success: true, data: slots.map((slot) => this.present(eventType, slot, window.zone)) }));
    this.pages.set(key, eventType.revision, validUntilMs, body);
    return body;
  }

  private present(eventType: EventTypeRecord, slot: Slot, zone: string): TimeSlot {
    const start = DateTime.fromMillis(slot.startMs, { zone });
    const end = DateTime.fromMillis(slot.endMs, { zone });
    const seated = slot.seats > 1;
    return {
      date: start.toISODate()!,
      dateIso8601: utc(start.startOf("day").toMillis()),
      readable_start: start.toFormat("HH:mm"),
      start: start.toISO({ suppressMilliseconds: true })!,
      startIso8601: utc(slot.startMs),
      readable_end: end.toFormat("HH:mm"),
      end: end.toISO({ suppressMilliseconds: true })!,
      endIso8601: utc(slot.endMs),
      seats: slot.seats,
      available_seats: slot.freeSeats,
      booked: slot.freeSeats < slot.seats,
      calendar_id: eventType.id,
      title: eventType.settings.title,
      readable_type: seated ? `Group, ${slot.seats} seats` : "One-on-one",
      type: seated ? "seated" : "single",
    };
  }
}

/** An instant as UTC ISO 8601 without milliseconds. */
export const utc = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
