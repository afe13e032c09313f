import { DateTime } from "luxon";
import type { ServerConfig } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { EventTypeRecord, OutboxChannel, OutboxEvent, ReservationRecord, WebhookKind } from "../../store/types.ts";
import { bookingInvite, meetingPlace, type InviteEventType, type InviteReservation } from "../invites/ics.ts";
import { bookingHosts, coHostsOf, organizerCopies, organizerOf } from "../hosts/organizer.ts";

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
 * reservation, which may have changed since), rendered into the message when it is sent. Rendering
 * is left to the worker so that the transaction of a booking stays short; the same payload renders
 * the same message on every try.
 */
export interface MailPayload {
  to: string;
  /** The visitor's message, or the organizer's copy. */
  role: "visitor" | "organizer";
  kind: WebhookKind;
  eventType: InviteEventType;
  reservation: InviteReservation;
  /** The zone the message shows times in: the visitor's, or the event type's for the organizer. */
  zone: string;
  previous: { startMs: number; endMs: number } | null;
  /** The visitor's manage link, in the visitor's message only (null in the organizer's copy, and ignored there in older payloads). */
  manageUrl: string | null;
  organizer: { email: string; name: string | null };
  /** The booking's other hosts, attendees of the invite beside the visitor (absent in payloads from before hosts). */
  coHosts?: { email: string; name: string | null }[];
  /** DTSTAMP of the invite: when the change happened. */
  stampMs: number;
}

/** A rendered email: subject, bodies and the calendar invite with its iTIP method. */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  method: "REQUEST" | "CANCEL";
  ics: string;
}

/**
 * The confirmation emails a confirmed booking's change causes, to be written in the same
 * transaction as the change: one to the visitor and, when the event type has an organizer email,
 * a copy to the organizer, each to carry the booking's calendar invite (REQUEST while it stands,
 * CANCEL once cancelled). The organizer's copy is the organizer's side of the booking (see
 * `InviteCopy`): without the visitor's manage link, its invite under the organizer's UID. None when
 * the policy writes no email.
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
  const messages: MailPayload[] = [visitor];
  // The organizer's copies: each host of the booking (in the host's zone), and the event type's organizer email.
  const hostZones = new Map(bookingHosts(eventType, r).flatMap((h) => (h.email ? [[h.email.toLowerCase(), h.schedule?.timezone ?? h.timezone] as const] : [])));
  for (const to of organizerCopies(eventType, r)) {
    messages.push({ ...visitor, to, role: "organizer", zone: hostZones.get(to.toLowerCase()) ?? eventType.settings.timezone, manageUrl: null });
  }
  return messages.map((m) => mailEvent("email", "mail", eventType, r, nowMs, m));
}

/**
 * The visitor's message of a booking change as the outbox keeps it (the organizer's copy and the
 * reminders are made from it): the booking as it stands now, times in the visitor's zone.
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
    eventType: { title: eventType.settings.title, description: eventType.settings.description },
    reservation: {
      uuid: r.uuid, sequence: r.sequence, status: r.status, startMs: r.startMs, endMs: r.endMs, email: r.email,
      firstname: r.firstname, lastname: r.lastname, meetLink: r.meetLink, location: r.location, cancelReason: r.cancelReason ?? null,
    },
    zone: r.timezone ?? eventType.settings.timezone,
    previous: previous ? { startMs: previous.startMs, endMs: previous.endMs } : null,
    manageUrl,
    organizer,
    coHosts: coHostsOf(eventType, r, organizer),
    stampMs: nowMs,
  };
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
    msgId: `${idPrefix}_${crypto.randomUUID().replaceAll("-", "")}`,
    url: `mailto:${m.to}`,
    payload: JSON.stringify(m),
    createdAtMs: nowMs,
    ...(notBeforeMs === undefined ? {} : { notBeforeMs }),
  };
}

/** The message of a stored email: texts in English, times in its zone, with the booking's invite (the visitor's or the organizer's copy). */
export function renderMail(stored: MailPayload): RenderedMail {
  // Payloads stored before the organizer's copy lost the visitor's link may still carry it.
  const m = stored.role === "organizer" ? { ...stored, manageUrl: null } : stored;
  const invite = bookingInvite(m.eventType, m.reservation, { copy: m.role, manageUrl: m.manageUrl, organizer: m.organizer, coHosts: m.coHosts, stampMs: m.stampMs });
  return { to: m.to, ...render(m), ...invite };
}

/** The address and name of `Name <address>` or a bare address. */
export function senderOf(from: string): { email: string; name: string | null } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  return match ? { email: match[2]!.trim(), name: match[1]!.trim() || null } : { email: from.trim(), name: null };
}

/** What a message says it is about: its subject's first word, the visitor's opening line, the organizer's. */
export interface Headline {
  subject: string;
  visitor: string;
  organizer: (who: string) => string;
}

const HEADLINES: Record<WebhookKind, Headline> = {
  "reservation.created": { subject: "Confirmed", visitor: "your booking is confirmed.", organizer: (who) => `New booking by ${who}.` },
  "reservation.rescheduled": { subject: "Moved", visitor: "your booking has moved to a new time.", organizer: (who) => `${who} moved their booking.` },
  "reservation.cancelled": { subject: "Cancelled", visitor: "your booking is cancelled.", organizer: (who) => `The booking of ${who} is cancelled.` },
};

/**
 * Subject, plain text and HTML of one message; `about` and `closing` replace the headline of its
 * kind and the line about the attached invite (a reminder has its own, and no invite).
 */
export function render(m: MailPayload, about?: { headline: Headline; closing: string }): Pick<RenderedMail, "subject" | "text" | "html"> {
  const { role: to, kind, reservation: r, manageUrl, previous, zone } = m;
  const title = m.eventType.title;
  const name = `${r.firstname} ${r.lastname}`.trim();
  const who = name ? `${name} <${r.email}>` : r.email;
  const when = span(r.startMs, r.endMs, zone);
  const headline = about?.headline ?? HEADLINES[kind];
  const subject = to === "visitor" ? `${headline.subject}: ${title}, ${when}` : `${headline.subject}: ${title} with ${name || r.email}, ${when}`;
  const opening = to === "visitor" ? `Hello${r.firstname ? ` ${r.firstname}` : ""},\n\n${headline.visitor}` : headline.organizer(who);
  const place = meetingPlace(r);
  const rows: [string, string][] = [["What", title], ["When", when]];
  if (previous) rows.push(["Before", span(previous.startMs, previous.endMs, zone)]);
  if (place) rows.push(["Where", place]);
  if (manageUrl && kind !== "reservation.cancelled") rows.push(["Reschedule or cancel", manageUrl]);
  if (kind === "reservation.cancelled" && r.cancelReason) rows.push(["Reason", r.cancelReason]);
  const closing = about?.closing ?? (kind === "reservation.cancelled" ? "The attached invite removes it from your calendar." : "The attached invite adds it to your calendar.");
  const text = `${opening}\n\n${rows.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${closing}\n`;
  const cell = (v: string) => (/^https?:\/\//.test(v) ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v));
  const html =
    `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">` +
    opening
      .split("\n\n")
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join("") +
    `<table>${rows.map(([k, v]) => `<tr><th align="left" style="padding-right: 1em">${escapeHtml(k)}</th><td>${cell(v)}</td></tr>`).join("")}</table>` +
    `<p>${escapeHtml(closing)}</p></body></html>`;
  return { subject, text, html };
}

/** A meeting's time in a zone: `Wednesday 2 December 2026, 10:00–10:30 (Europe/Prague)`. */
function span(startMs: number, endMs: number, zone: string): string {
  const start = DateTime.fromMillis(startMs, { zone }).setLocale("en-GB");
  const end = DateTime.fromMillis(endMs, { zone }).setLocale("en-GB");
  const endText = start.hasSame(end, "day") ? end.toFormat("HH:mm") : end.toFormat("cccc d LLLL yyyy, HH:mm");
  return `${start.toFormat("cccc d LLLL yyyy, HH:mm")}–${endText} (${zone})`;
}
