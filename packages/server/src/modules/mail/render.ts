import { fill } from "@booking/wire/i18n";
import { bookingInvite, joinLink, meetingPlace, type InviteContext, type InviteLabels } from "../invites/ics.ts";
import { seriesInvite, type SeriesInvite } from "../invites/series.ts";
import type { WebhookKind } from "../../store/outbox.ts";
import { manageActionUrlOf } from "../../lib/links.ts";
import type { MailPayload, RenderedMail } from "./events.ts";
import { catalogOf, counted, durationText, spanText, type MailLocale } from "./language.ts";
import type { MailTexts } from "./locales/catalog.ts";
import { DEFAULT_ACCENT, messageHtml, messageText, type MessageContent } from "./template.ts";

const ENGLISH: MailLocale = { language: "en", hour12: null };

/** The subject word and the opening line of each role, by what happened. */
function headline(t: MailTexts, kind: WebhookKind): { subject: string; visitor: string; guest: string; organizer: string } {
  switch (kind) {
    case "reservation.created":
      return { subject: t.confirmed, visitor: t.visitorConfirmed, guest: t.guestConfirmed, organizer: t.organizerConfirmed };
    case "reservation.rescheduled":
      return { subject: t.moved, visitor: t.visitorMoved, guest: t.guestMoved, organizer: t.organizerMoved };
    default:
      return { subject: t.cancelled, visitor: t.visitorCancelled, guest: t.guestCancelled, organizer: t.organizerCancelled };
  }
}

/** The labels of an invite's description in a language. */
function inviteLabels(t: MailTexts): InviteLabels {
  return {
    join: t.join,
    where: t.where,
    manage: `${t.reschedule} / ${t.cancel}`,
    reason: t.reason,
    phone: (value) => fill(t.phone, { value }),
    guests: t.guests,
    hosts: t.host,
  };
}

/** An invite's title for its reader: the event type's title with the host's name for the visitor and guests, with the visitor's for the organizer. */
function inviteTitle(m: MailPayload, t: MailTexts): string {
  const r = m.reservation;
  const other = m.role === "organizer" ? `${r.firstname} ${r.lastname}`.trim() : m.organizer.name;
  return other ? fill(t.titleWith, { title: m.eventType.title, name: other }) : m.eventType.title;
}

/** How a series repeats, in words: "Every week, 8 times"; the dates cancelled since are left to the invite. */
function seriesText(locale: MailLocale, series: SeriesInvite): string {
  const t = catalogOf(locale.language);
  return `${series.rule.interval === "biweekly" ? t.everyTwoWeeks : t.everyWeek}, ${counted(locale.language, "times", series.rule.count)}`;
}

/**
 * Subject, HTML and plain text of one stored message in its language (see `mailLocale`), times in
 * its zone and clock; `reminder` makes it the reminder due that many minutes before the start.
 */
export function render(m: MailPayload, reminder?: { minutesBefore: number }): Pick<RenderedMail, "subject" | "text" | "html"> {
  const locale = m.locale ?? ENGLISH;
  const t = catalogOf(locale.language);
  const r = m.reservation;
  const name = `${r.firstname} ${r.lastname}`.trim();
  const who = name || r.email;
  const when = spanText(locale, m.zone, r.startMs, r.endMs);
  const said = headline(t, m.kind);
  const cancelled = m.kind === "reservation.cancelled";
  const subjectWord = reminder ? t.reminder : said.subject;
  // The organizer's subject names the visitor, by their address when they gave no name.
  const about = m.role === "organizer" ? fill(t.titleWith, { title: m.eventType.title, name: who }) : inviteTitle(m, t);
  const subject = `${subjectWord}: ${about}, ${when}`;
  const greeting = m.role === "visitor" && r.firstname ? fill(t.hello, { name: r.firstname }) : t.helloAnonymous;
  const opening = reminder ? fill(t.startsIn, { duration: durationText(locale.language, reminder.minutesBefore) }) : fill(said[m.role], { who });
  const place = meetingPlace(r, (value) => fill(t.phone, { value }));
  const rows: [string, string][] = [
    [t.what, m.eventType.title],
    [t.when, when],
  ];
  if (m.previous && !reminder) rows.push([t.before, spanText(locale, m.zone, m.previous.startMs, m.previous.endMs)]);
  if (r.series && !reminder) rows.push([t.repeats, seriesText(locale, r.series)]);
  const link = joinLink(r);
  // A link is a button, never shown as text: only a place that is no link (an address, a number) is a row.
  if (place && place !== link) rows.push([t.where, place]);
  if (m.organizer.name && m.role !== "organizer") rows.push([t.host, m.organizer.name]);
  if (m.role === "organizer" || m.role === "guest") rows.push(...(r.guests?.length ? [[t.guests, [r.email, ...r.guests].join(", ")] as [string, string]] : []));
  if (cancelled && r.cancelReason) rows.push([t.reason, r.cancelReason]);
  const buttons: MessageContent["buttons"] = [];
  if (!cancelled && link) buttons.push({ label: t.join, url: link });
  // Each button opens its own step of the manage link: the new times, or the question to cancel.
  if (!cancelled && m.role === "visitor" && m.manageUrl) {
    buttons.push(
      { label: t.reschedule, url: manageActionUrlOf(m.manageUrl, "reschedule") },
      { label: t.cancel, url: manageActionUrlOf(m.manageUrl, "cancel") },
    );
  }
  const closing = reminder
    ? m.role === "visitor" && m.manageUrl
      ? t.changeHint
      : t.seeYou
    : m.role === "organizer"
      ? t.organizerFile
      : cancelled
        ? t.inviteRemoves
        : t.inviteAdds;
  const content: MessageContent = {
    language: locale.language,
    brand: m.organizer.name ?? m.eventType.title,
    accent: m.accent ?? DEFAULT_ACCENT,
    greeting,
    lines: [opening],
    rows,
    buttons,
    closing,
  };
  return { subject, html: messageHtml(content), text: messageText(content) };
}

/**
 * The message of a stored email with its calendar entry: the visitor's and guests' copies invite
 * (REQUEST, CANCEL), the organizer's is a PUBLISH copy (see `bookingInvite`). Titles and labels in
 * the message's language.
 */
export function renderMail(stored: MailPayload): RenderedMail {
  // Payloads stored before the organizer's copy lost the visitor's link may still carry it.
  const m = stored.role === "visitor" ? stored : { ...stored, manageUrl: null };
  const t = catalogOf((m.locale ?? ENGLISH).language);
  const context: InviteContext = {
    copy: m.role === "organizer" ? "organizer" : "visitor",
    manageUrl: m.manageUrl,
    organizer: m.organizer,
    coHosts: m.coHosts,
    stampMs: m.stampMs,
    summary: inviteTitle(m, t),
    labels: inviteLabels(t),
  };
  // An occurrence of a series: one recurring entry for the whole series.
  const series = m.reservation.series;
  const invite = series ? seriesInvite(m.eventType, m.reservation, series, context) : bookingInvite(m.eventType, m.reservation, context);
  return { to: m.to, ...render(m), ...invite };
}
