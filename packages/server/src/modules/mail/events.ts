import type { ServerConfig } from "../../config.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { OutboxChannel, OutboxEvent, WebhookKind } from "../../store/outbox.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { InviteEventType, InviteMethod, InviteReservation } from "../invites/ics.ts";
import { bookingHosts, coHostsOf, organizerCopies, organizerOf } from "../hosts/organizer.ts";
import { translationFor } from "../../domain/event-type.ts";
import { mailLocale, type MailLocale } from "./language.ts";
import { DEFAULT_ACCENT, emailColor } from "./template.ts";
import { outboxMessageId } from "../../lib/ids.ts";
import { seriesPicture } from "../../domain/series.ts";
import type { SeriesInvite } from "../invites/series.ts";

/** Whether and how confirmation emails are written to the outbox, from the server's configuration. */
export interface MailPolicy {
  /** Email events are written: SMTP is configured, or (development) each mail is logged instead of sent. */
  writes: boolean;
  /** Visitors are really emailed: SMTP is configured. */
  sends: boolean;
  /** The sender, `Name <address>` or an address; the invites' ORGANIZER when the event type has no organizer email. */
  from: string;
}

/** No confirmation emails at all. */
export const NO_MAIL: MailPolicy = { writes: false, sends: false, from: "bookings@localhost" };

/** The policy of a configuration: production without SMTP_URL writes no email events; development logs them. */
export function mailPolicy(config: Pick<ServerConfig, "mail" | "environment">): MailPolicy {
  const sends = config.mail.smtpUrl !== null;
  return { writes: sends || config.environment !== "production", sends, from: config.mail.from };
}

/**
 * An email as the outbox keeps it: what the change was, as it was then (never read again from the
 * reservation, which may have changed since), rendered into the message when it is sent (see
 * `render.ts`). Rendering is left to the worker so that the transaction of a booking stays short;
 * the same payload renders the same message on every try.
 */
export interface MailPayload {
  to: string;
  /** The visitor's message, a guest's (invited by the visitor), or the organizer's copy. */
  role: "visitor" | "guest" | "organizer";
  kind: WebhookKind;
  eventType: InviteEventType;
  /** With `series` when the booking is an occurrence of a series: the whole series as it stands (one recurring invite). */
  reservation: InviteReservation & { series?: SeriesInvite };
  /** The zone the message shows times in: the visitor's (for guests too), or the event type's for the organizer. */
  zone: string;
  previous: { startMs: number; endMs: number } | null;
  /** The visitor's manage link, in the visitor's message only (null in the others, and ignored there in older payloads). */
  manageUrl: string | null;
  /** The invite's ORGANIZER and the name the message is signed with (see `organizerOf`). */
  organizer: { email: string; name: string | null };
  /** The booking's other hosts, attendees of the invite beside the visitor (absent in payloads from before hosts). */
  coHosts?: { email: string; name: string | null }[];
  /** DTSTAMP of the invite: when the change happened. */
  stampMs: number;
  /** Language and clock (absent in payloads stored before messages had languages: English). */
  locale?: MailLocale;
  /** The event type's brand colour, `#rrggbb` (absent in older payloads: the default). */
  accent?: string;
}

/** A rendered email: subject, bodies and the calendar file with its iTIP method (see `bookingInvite`). */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  method: InviteMethod;
  ics: string;
}

/**
 * The confirmation emails a confirmed booking's change causes, to be written in the same
 * transaction as the change: one to the visitor, one to each guest (an invite like the visitor's,
 * without the manage link) and an organizer's copy to each host of the booking with an email
 * address and to the event type's organizer email (see `organizerCopies`), each with the booking's
 * calendar entry: REQUEST while it stands, CANCEL once cancelled, and for the organizer a PUBLISH
 * copy (see `bookingInvite`). The organizer's copy is the organizer's side of the booking (see
 * `InviteCopy`): in the event type's language and the host's zone (else the event type's),
 * without the visitor's manage link, its entry under the organizer's UID. None when the policy
 * writes no email.
 */
export function emailEvents(
  policy: MailPolicy,
  eventType: EventTypeRecord,
  kind: WebhookKind,
  r: ReservationRecord,
  nowMs: number,
  manageUrl: string | null,
  previous?: { startMs: number; endMs: number },
): OutboxEvent[] {
  if (!policy.writes) return [];
  const visitor = mailPayload(policy, eventType, kind, r, nowMs, manageUrl, previous ?? null);
  const messages: MailPayload[] = [visitor, ...r.guests.map((guest) => guestPayload(visitor, guest))];
  // The organizer's copies, in the event type's language: each host of the booking (in the host's
  // zone), and the event type's organizer email (in the event type's zone).
  const hostZones = new Map(bookingHosts(eventType, r).flatMap((h) => (h.email ? [[h.email.toLowerCase(), h.schedule?.timezone ?? h.timezone] as const] : [])));
  const organizerLocale = mailLocale(null, eventType.settings.locale?.preset);
  for (const to of organizerCopies(eventType, r)) {
    messages.push({
      ...visitor,
      to,
      role: "organizer",
      eventType: eventTypeTexts(eventType, null),
      zone: hostZones.get(to.toLowerCase()) ?? eventType.settings.timezone,
      manageUrl: null,
      locale: organizerLocale,
    });
  }
  return messages.map((m) => mailEvent("email", "mail", eventType, r, nowMs, m));
}

/** A guest's message made from the visitor's: to the guest, without the manage link. */
export function guestPayload<M extends MailPayload>(visitor: M, guest: string): M {
  return { ...visitor, to: guest, role: "guest", manageUrl: null };
}

/**
 * The visitor's message of a booking change as the outbox keeps it (the other copies and the
 * reminders are made from it): the booking as it stands now, in the language and clock the visitor
 * booked in (see `mailLocale`), times in the visitor's zone.
 */
export function mailPayload(
  policy: MailPolicy,
  eventType: EventTypeRecord,
  kind: WebhookKind,
  r: ReservationRecord,
  nowMs: number,
  manageUrl: string | null,
  previous: { startMs: number; endMs: number } | null,
): MailPayload {
  const organizer = organizerOf(eventType, r, senderOf(policy.from));
  return {
    to: r.email,
    role: "visitor",
    kind,
    eventType: eventTypeTexts(eventType, r.locale),
    reservation: {
      uuid: r.uuid,
      sequence: r.sequence,
      status: r.status,
      startMs: r.startMs,
      endMs: r.endMs,
      email: r.email,
      firstname: r.firstname,
      lastname: r.lastname,
      meetLink: r.meetLink,
      location: r.location,
      cancelReason: r.cancelReason ?? null,
      guests: r.guests,
      ...seriesOf(r),
    },
    zone: r.timezone ?? eventType.settings.timezone,
    previous: previous ? { startMs: previous.startMs, endMs: previous.endMs } : null,
    manageUrl,
    organizer,
    coHosts: coHostsOf(eventType, r, organizer),
    stampMs: nowMs,
    locale: mailLocale(r.locale, eventType.settings.locale?.preset),
    accent: emailColor(eventType.settings.theme?.colors?.primary) ?? DEFAULT_ACCENT,
  };
}

/** The series of an occurrence as its messages say it, with this change applied; nothing for a single booking. */
function seriesOf(r: ReservationRecord): { series?: SeriesInvite } {
  const picture = r.seriesId ? seriesPicture(r, r.seriesOthers ?? []) : null;
  return picture ? { series: { ...picture, id: r.seriesId! } } : {};
}

/**
 * The event type's title and description as a message in `tag` shows them: the organizer's
 * translation for the tag the visitor booked in (`de-AT-u-hc-h23` → `de-AT`, else `de`; see
 * `translationFor`), else for the event type's preset language, as the booking page does; what the
 * translation leaves out, in the event type's own words.
 */
export function eventTypeTexts(eventType: EventTypeRecord, tag: string | null | undefined): InviteEventType {
  const s = eventType.settings;
  const own = translationFor(s, tag?.split(/-[ux]-/i)[0]) ?? translationFor(s, s.locale?.preset);
  return { title: own?.title ?? s.title, description: own?.description ?? s.description };
}

/** The outbox row of one message to `m.to` on `channel`, sent no earlier than `notBeforeMs` when given. */
export function mailEvent(
  channel: OutboxChannel,
  idPrefix: string,
  eventType: EventTypeRecord,
  r: ReservationRecord,
  nowMs: number,
  m: MailPayload,
  notBeforeMs?: number,
): OutboxEvent {
  return {
    channel,
    eventTypeId: eventType.id,
    reservationUuid: r.uuid,
    kind: m.kind,
    msgId: outboxMessageId(idPrefix),
    url: `mailto:${m.to}`,
    payload: JSON.stringify(m),
    createdAtMs: nowMs,
    ...(notBeforeMs === undefined ? {} : { notBeforeMs }),
  };
}

/** The address and name of `Name <address>` or a bare address. */
export function senderOf(from: string): { email: string; name: string | null } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  return match ? { email: match[2]!.trim(), name: match[1]!.trim() || null } : { email: from.trim(), name: null };
}
