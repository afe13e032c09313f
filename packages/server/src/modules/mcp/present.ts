import { DateTime } from "luxon";
import { WEEKDAYS, type TimeRange, type Weekday } from "@booking/wire";
import { reminderMinutesOf } from "../../domain/event-type.ts";
import { statusAt } from "../../domain/reservation.ts";
import type { Slot } from "../../domain/slots.ts";
import { utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import { bookingUrlOf, manageUrlOf } from "../../lib/links.ts";
import type { AvailabilityView, EventTypeDetail, EventTypeRef, EventTypeSummary, ReservationView, SlotView } from "./model.ts";

// How the assistant server shows event types, slots and reservations: structured views for programs
// and short lines for people, every time in the zone that was asked for.

/** An instant as ISO 8601 with the offset of `zone`. */
export const isoIn = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true })!;

/** "Tue 24 Nov 2026" in `zone`. */
export const dayText = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).setLocale("en").toFormat("ccc d LLL yyyy");

/** "15:00" in `zone`. */
export const timeText = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).toFormat("HH:mm");

/** "Tue 24 Nov 2026, 15:00–15:30" in `zone` (the end's date added when it is another day). */
export function spanText(startMs: number, endMs: number, zone: string): string {
  const endDay = dayText(endMs, zone);
  return `${dayText(startMs, zone)}, ${timeText(startMs, zone)}–${endDay === dayText(startMs, zone) ? "" : `${endDay}, `}${timeText(endMs, zone)}`;
}

/** "€50.00": an amount in the currency's smallest unit, formatted. */
export function priceText(price: { amount: number; currency: string }): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: price.currency.toUpperCase() });
  return format.format(price.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** The few facts that name an event type in a result. */
export const refOf = (et: EventTypeRecord): EventTypeRef => ({ id: et.id, title: et.settings.title, slug: et.slug });

/** An event type as the list shows it. */
export function summaryOf(et: EventTypeRecord, origin: string): EventTypeSummary {
  const s = et.settings;
  return {
    ...refOf(et),
    bookingUrl: bookingUrlOf(origin, et.slug),
    disabled: et.disabled,
    timezone: s.timezone,
    durationMinutes: s.durationMinutes,
    seats: s.seats,
    price: s.payment && { amount: s.payment.amount, currency: s.payment.currency },
    hosts: et.hosts.map((h) => ({ hostId: h.hostId, name: h.name })),
    assignment: et.assignment,
  };
}

/** An event type with the settings that decide what can be booked. */
export function detailOf(et: EventTypeRecord, origin: string): EventTypeDetail {
  const s = et.settings;
  return {
    ...summaryOf(et, origin),
    description: s.description,
    slotIntervalMinutes: s.slotIntervalMinutes,
    holdMinutes: s.holdMinutes,
    bufferBeforeMinutes: s.bufferBeforeMinutes,
    bufferAfterMinutes: s.bufferAfterMinutes,
    minNoticeMinutes: s.minNoticeMinutes,
    horizonDays: s.horizonDays,
    rescheduleNoticeMinutes: s.rescheduleNoticeMinutes,
    cancelNoticeMinutes: s.cancelNoticeMinutes,
    reminderMinutes: reminderMinutesOf(s),
    locations: s.locations.map((l) => ({ type: l.type, value: l.value })),
    customFields: [...s.customFields]
      .sort((a, b) => a.order - b.order)
      .map((f) => ({ name: f.name, label: f.label, type: f.type, required: f.required, ...(f.showIf ? { showIf: structuredClone(f.showIf) } : {}) })),
    availability: availabilityOf(et),
    recurrence: s.recurrence ?? null,
  };
}

/** Weekly hours (every weekday, closed ones empty) and date overrides in date order. */
export function availabilityOf(et: EventTypeRecord): AvailabilityView {
  const a = et.settings.availability;
  return {
    timezone: et.settings.timezone,
    weekly: Object.fromEntries(WEEKDAYS.map((d) => [d, (a.weekly[d] ?? []).map((r) => ({ ...r }))])) as Record<Weekday, TimeRange[]>,
    overrides: [...a.overrides]
      .sort((x, y) => x.date.localeCompare(y.date))
      .map((o) => ({ date: o.date, ranges: o.ranges.map((r) => ({ ...r })), closed: o.ranges.length === 0 })),
  };
}

/** "09:00–12:00, 13:00–17:00", or "closed". */
export const rangesText = (ranges: TimeRange[]): string => (ranges.length === 0 ? "closed" : ranges.map((r) => `${r.start}–${r.end}`).join(", "));

/** Weekly hours and overrides as lines. */
export function availabilityText(view: AvailabilityView): string {
  const lines = [`Opening hours (${view.timezone}):`, ...WEEKDAYS.map((d) => `  ${d[0]!.toUpperCase()}${d.slice(1, 3)}: ${rangesText(view.weekly[d])}`)];
  lines.push(view.overrides.length === 0 ? "No date overrides." : "Date overrides:", ...view.overrides.map((o) => `  ${o.date}: ${rangesText(o.ranges)}`));
  return lines.join("\n");
}

/** A free slot in `zone`. */
export function slotOf(slot: Slot, zone: string): SlotView {
  const start = isoIn(slot.startMs, zone);
  return {
    start,
    end: isoIn(slot.endMs, zone),
    startUtc: utc(slot.startMs),
    endUtc: utc(slot.endMs),
    date: start.slice(0, 10),
    time: start.slice(11, 16),
    freeSeats: slot.freeSeats,
    seats: slot.seats,
  };
}

/** Slots grouped by day: "Tue 24 Nov 2026: 09:00, 09:30". */
export function slotsText(slots: Slot[], zone: string): string {
  const days = new Map<string, string[]>();
  for (const slot of slots) {
    const day = dayText(slot.startMs, zone);
    const times = days.get(day) ?? [];
    times.push(timeText(slot.startMs, zone) + (slot.seats > 1 ? ` (${slot.freeSeats}/${slot.seats} free)` : ""));
    days.set(day, times);
  }
  return [...days].map(([day, times]) => `  ${day}: ${times.join(", ")}`).join("\n");
}

/** A reservation with its times in `zone`, its status as of `nowMs`, and the visitor's manage link. */
export function reservationOf(r: ReservationRecord, et: EventTypeRecord, zone: string, origin: string, nowMs: number): ReservationView {
  const fields = new Map(et.settings.customFields.map((f) => [f.uuid, f]));
  const name = `${r.firstname} ${r.lastname}`.trim();
  return {
    uuid: r.uuid,
    status: statusAt(r, nowMs),
    eventType: refOf(et),
    start: isoIn(r.startMs, zone),
    end: isoIn(r.endMs, zone),
    startUtc: utc(r.startMs),
    endUtc: utc(r.endMs),
    timezone: zone,
    visitorTimezone: r.timezone,
    name: name === "" ? null : name,
    firstname: r.firstname,
    lastname: r.lastname,
    email: r.email,
    phone: r.phone,
    guests: [...r.guests],
    location: r.location && { type: r.location.type, value: r.location.value ?? null },
    customFields: r.customFields.map((v) => ({
      uuid: v.uuid,
      name: fields.get(v.uuid)?.name ?? null,
      label: fields.get(v.uuid)?.label ?? null,
      value: v.value ?? null,
    })),
    meetLink: r.meetLink,
    manageUrl: manageUrlOf(origin, et.slug, r.uuid),
    heldUntil: r.heldUntilMs === null ? null : utc(r.heldUntilMs),
    payment: r.payment && { status: r.payment.status, amount: r.payment.amount, currency: r.payment.currency },
    createdAt: utc(r.createdAtMs),
    confirmedAt: r.confirmedAtMs === null ? null : utc(r.confirmedAtMs),
    cancelledAt: r.cancelledAtMs === null ? null : utc(r.cancelledAtMs),
  };
}

/** "Tue 24 Nov 2026, 15:00–15:30 (Europe/Prague), Intro call with Ada Lovelace <ada@example.com>, confirmed". */
export function reservationLine(view: ReservationView): string {
  const who = view.name ? `${view.name} <${view.email}>` : view.email;
  return `${spanText(Date.parse(view.startUtc), Date.parse(view.endUtc), view.timezone)} (${view.timezone}), ${view.eventType.title} with ${who}, ${view.status} [${view.uuid}]`;
}
