import { DateTime } from "luxon";
import type { CustomField, EventTypeConfiguration, InitData, Reservation } from "@booking/wire";
import type { ServerConfig } from "../../config.ts";
import { mergeTagOf, type EventTypeSettings } from "../../domain/event-type.ts";
import { statusAt } from "../../domain/reservation.ts";
import { horizonEnd } from "../../domain/slots.ts";
import { DomainError } from "../../domain/errors.ts";
import { awayNotices } from "../time-off/service.ts";
import { TimedCache } from "../../lib/timed-cache.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import type { TimeSlotService } from "../time-slots/service.ts";
import { bookingUrlOf } from "../../lib/links.ts";
import { readableOnDark } from "../../lib/contrast.ts";
import { STRIPE_JS_STANDIN_PATH, usesStripeStandin } from "../../lib/stripe-js.ts";

const SCAN_DAYS = 7;

/** Builds the event type's public configuration and the init answer of the booking calendar. */
export class EventTypeService {
  private readonly configurations = new TimedCache<EventTypeConfiguration>(1000);

  constructor(
    private readonly store: Store,
    private readonly slots: TimeSlotService,
    private readonly config: ServerConfig,
  ) {}

  /**
   * The public configuration, with the booking page's address on `origin`. Cached per revision
   * until the next instant at which `min` or `closestBookableDay` could move by time alone (a local
   * midnight, the notice crossing one, a slot or a hold running out).
   */
  async configuration(eventType: EventTypeRecord, nowMs: number, origin: string): Promise<EventTypeConfiguration> {
    // The origin may differ per request (no BOOKING_PUBLIC_URL), so the link is added to the cached part.
    const configuration = await this.cachedConfiguration(eventType, nowMs);
    // Payments that go to the local Stripe stand-in need its Stripe.js stand-in, which the element
    // then loads by itself from this server, whatever site it is embedded on.
    const payment =
      configuration.payment && usesStripeStandin(this.config)
        ? { ...configuration.payment, stripeJsUrl: `${origin.replace(/\/$/, "")}${STRIPE_JS_STANDIN_PATH}` }
        : configuration.payment;
    return {
      ...configuration,
      payment,
      bookingUrl: bookingUrlOf(origin, eventType.slug),
      // The success screen promises an email only when one will really be sent.
      emailConfirmation: this.config.mail.smtpUrl !== null,
    };
  }

  private async cachedConfiguration(eventType: EventTypeRecord, nowMs: number): Promise<EventTypeConfiguration> {
    const key = String(eventType.id);
    const cached = this.configurations.get(key, eventType.revision, nowMs);
    if (cached) return cached;
    const s = eventType.settings;
    const noticeMs = s.minNoticeMinutes * 60_000;
    const today = DateTime.fromMillis(nowMs, { zone: s.timezone }).startOf("day");
    const firstDay = DateTime.fromMillis(nowMs + noticeMs, { zone: s.timezone }).startOf("day");
    const [closest, away] = await Promise.all([
      eventType.disabled ? { day: -1, validUntilMs: Number.POSITIVE_INFINITY } : this.closestBookableDay(eventType, today, nowMs),
      awayNotices(this.store, eventType, nowMs),
    ]);
    const validUntilMs = Math.min(
      today.plus({ days: 1 }).toMillis(),
      firstDay.plus({ days: 1 }).toMillis() - noticeMs,
      closest.validUntilMs,
      away.validUntilMs,
    );
    const configuration = this.build(eventType, daysBetween(today, firstDay), closest.day);
    if (away.notices.length > 0) configuration.away = away.notices;
    this.configurations.set(key, eventType.revision, validUntilMs, configuration);
    return configuration;
  }

  private build(eventType: EventTypeRecord, min: number, closestBookableDay: number): EventTypeConfiguration {
    const s = eventType.settings;
    return {
      min,
      max: s.horizonDays,
      closestBookableDay,
      locale: { ...s.locale, texts: { ...s.locale.texts } },
      theme: { ...s.theme, colors: themeColors(s.theme.colors) },
      // The event type's own picture and name when it sets them, else its hosts' (docs/hosts.md).
      profileImage: s.profileImage || hostsAvatar(eventType),
      externalBooking: s.externalBooking,
      compact: s.compact,
      calendarTitle: s.calendarTitle,
      // Event types saved before the setting existed have no key: read as not set.
      hostName: s.hostName ?? hostsName(eventType),
      // The element says up front until when a booking can be changed online, and past that whom to
      // ask: the organizer's contact, else their email, else the first host with an email.
      rescheduleNoticeMinutes: s.rescheduleNoticeMinutes,
      cancelNoticeMinutes: s.cancelNoticeMinutes,
      contact: s.contact ?? s.organizerEmail ?? hostsEmail(eventType),
      title: s.title,
      description: s.description,
      durationMinutes: s.durationMinutes,
      timezone: s.timezone,
      seats: s.seats,
      holdMinutes: s.holdMinutes,
      // A series of a paid event type is not offered yet (one payment per reservation).
      recurrence: s.payment ? null : (s.recurrence ?? null),
      locations: s.locations.map((l) => ({ type: l.type, value: l.value, ...(l.label ? { label: l.label } : {}) })),
      ...(s.translations && Object.keys(s.translations).length > 0 ? { translations: structuredClone(s.translations) } : {}),
      payment: s.payment && {
        amount: s.payment.amount,
        currency: s.payment.currency,
        provider: "stripe",
        publishableKey: this.config.stripe.publishableKey,
        providerAccountId: s.payment.providerAccountId,
      },
    };
  }

  async init(eventType: EventTypeRecord, reservationUuid: string | undefined, nowMs: number, origin: string): Promise<InitData> {
    const data: InitData = {
      disabled: eventType.disabled,
      configuration: await this.configuration(eventType, nowMs, origin),
      customFields: customFieldsOf(eventType.settings),
    };
    if (reservationUuid !== undefined) {
      const reservation = await this.store.reservations.byUuid(eventType.id, reservationUuid.toLowerCase());
      if (!reservation) throw new DomainError("not_found", "No reservation with this uuid exists for this event type.");
      data.reservation = presentReservation(reservation, eventType.settings, nowMs);
    }
    return data;
  }

  /** Days from today to the first day with a free slot, scanning a week at a time; -1 if none. */
  private async closestBookableDay(eventType: EventTypeRecord, today: DateTime, nowMs: number): Promise<{ day: number; validUntilMs: number }> {
    const end = horizonEnd(eventType.settings, nowMs);
    let found = -1;
    let validUntilMs = Number.POSITIVE_INFINITY;
    for (let chunk = today; chunk.toMillis() < end && found < 0; chunk = chunk.plus({ days: SCAN_DAYS })) {
      const answer = await this.slots.freeSlots(eventType, chunk.toMillis(), Math.min(end, chunk.plus({ days: SCAN_DAYS }).toMillis()), nowMs);
      validUntilMs = Math.min(validUntilMs, answer.validUntilMs);
      const first = answer.slots[0];
      if (first) found = daysBetween(today, DateTime.fromMillis(first.startMs, { zone: eventType.settings.timezone }).startOf("day"));
    }
    return { day: found, validUntilMs };
  }
}

/** Whole calendar days between two local days (a DST day is still one day); counted on their dates, no zone involved. */
function daysBetween(from: DateTime, to: DateTime): number {
  return Math.round((Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / 86_400_000);
}

/** Custom fields as the calendar renders them, in their `order`. */
export function customFieldsOf(settings: EventTypeSettings): CustomField[] {
  return [...settings.customFields]
    .sort((a, b) => a.order - b.order)
    .map((f) => ({
      uuid: f.uuid,
      label: f.label,
      name: f.name,
      mergeTag: mergeTagOf(f.name),
      type: f.type,
      order: f.order,
      required: f.required,
      ...(f.options ? { options: [...f.options] } : {}),
      ...(f.placeholder ? { placeholder: f.placeholder } : {}),
      ...(f.showIf ? { showIf: structuredClone(f.showIf) } : {}),
    }));
}

/** The reservation of init's reschedule mode, times shown in the visitor's zone when known. */
export function presentReservation(r: ReservationRecord, settings: EventTypeSettings, nowMs: number): Reservation {
  const zone = r.timezone ?? settings.timezone;
  const iso = (ms: number) => DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true })!;
  return {
    uuid: r.uuid,
    email: r.email,
    firstname: r.firstname,
    lastname: r.lastname,
    status: statusAt(r, nowMs),
    start: iso(r.startMs),
    end: iso(r.endMs),
    location: r.location,
    ...(r.seriesId ? { seriesId: r.seriesId } : {}),
  };
}

/**
 * The organizer's colours, with `primaryDark`: the brand colour as the dark palette shows it, made
 * lighter where it would read poorly on the dark background (WCAG AA, 4.5:1), so dark mode keeps the
 * brand instead of falling back to the calendar's own blue.
 */
function themeColors(colors: Record<string, string>): Record<string, string> {
  const primaryDark = colors.primary ? readableOnDark(colors.primary) : null;
  return primaryDark ? { ...colors, primaryDark } : { ...colors };
}

/** The avatar a booker shows for the event type's hosts: the first host's that has one. */
function hostsAvatar(eventType: EventTypeRecord): string {
  return eventType.hosts.find((h) => h.avatarUrl)?.avatarUrl ?? "";
}

/** The address of the event type's first host with one (in the hosts' order); null when none has one. */
function hostsEmail(eventType: EventTypeRecord): string | null {
  return eventType.hosts.find((h) => h.email)?.email ?? null;
}

/** The name a booker shows for the event type's hosts: one host's name, or a team's names joined; null when none is named. */
function hostsName(eventType: EventTypeRecord): string | null {
  const names = eventType.hosts.map((h) => h.name).filter((n) => n !== "");
  if (names.length === 0) return null;
  return names.length === 1 ? names[0]! : names.join(eventType.assignment === "round-robin" ? " or " : " & ");
}
