import { html, nothing } from "lit";
import type { EventTypeConfiguration, Location } from "@booking/wire";
import type { CalendarEnvironment } from "../context.ts";
import { calendarFileUrl, googleCalendarUrl, outlookCalendarUrl } from "./ics.ts";
import { placeOf } from "../flow/draft.ts";
import type { DoneState, SlotFlow } from "../flow/flow.ts";
import type { PlainDate } from "../dates.ts";
import type { TextKey } from "../i18n/texts.ts";

/** A link from the API only when it is a web address, so no `javascript:` URL reaches an href. */
export function webUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** "Video call", "Phone call: +420 ..." — the place as a visitor reads it. */
export function locationText(location: Location | null, env: CalendarEnvironment): string {
  if (!location) return "";
  const kind = env.texts(`location.${location.type}` as TextKey);
  return location.value ? `${kind}: ${location.value}` : kind;
}

/** The host's avatar from the configuration: the image, else the name's initials; nothing without either. */
export function renderHost(config: EventTypeConfiguration, small = false) {
  const image = webUrl(config.profileImage);
  const name = config.hostName?.trim() ?? "";
  if (image) return html`<img class="avatar ${small ? "small" : ""}" part="avatar" src=${image} alt="">`;
  if (!name) return nothing;
  const initials = name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0])
    .join("")
    .toUpperCase();
  return html`<span class="avatar ${small ? "small" : ""}" part="avatar" aria-hidden="true">${initials}</span>`;
}

/** Title, host, description, duration and price of the event type, above every step. */
export function renderHeader(config: EventTypeConfiguration, env: CalendarEnvironment) {
  return html`<header class="header" part="header">
    ${renderHost(config)}
    <div>
      ${config.hostName ? html`<p class="muted host-name">${config.hostName}</p>` : nothing}
      <h2 class="title">${config.calendarTitle || config.title}</h2>
      ${config.description ? html`<p class="muted desc">${config.description}</p>` : nothing}
      <p class="muted">${env.texts("duration", { minutes: config.durationMinutes })}${config.payment ? html` · ${env.dates.money(config.payment.amount, config.payment.currency)}` : nothing}</p>
    </div>
  </header>${renderAway(config, env)}`;
}

/**
 * The host away (the earliest time off ahead, `configuration.away`): until when, whose times the
 * calendar offers meanwhile, and the organizer's note.
 */
export function renderAway(config: EventTypeConfiguration, env: CalendarEnvironment) {
  const away = config.away?.[0];
  if (!away) return nothing;
  const { texts, dates } = env;
  const date = dates.fullDate(away.lastDay);
  const said =
    Date.parse(away.start) <= Date.now()
      ? texts("awayUntil", { host: away.hostName, date })
      : texts("awayBetween", { host: away.hostName, from: dates.instantDate(away.start, config.timezone), date });
  return html`<div class="away" part="away-notice" role="note">
    <p>${said}${away.colleagueName ? ` ${texts("awayColleague", { colleague: away.colleagueName })}` : nothing}</p>
    ${away.note ? html`<p class="muted">${away.note}</p>` : nothing}
  </div>`;
}

/** What is being booked, beside the form: event, host, time, zone, place and price. */
export function renderChosen(flow: SlotFlow, env: CalendarEnvironment) {
  const { texts, dates, timezone } = env;
  const {
    slot,
    init: { configuration: config },
  } = flow;
  const location = flow.kind === "moving" ? flow.reservation.location : placeOf(flow.draft, config.locations);
  return html`<aside class="summary" part="summary">
    <p><strong>${config.title}</strong></p>
    ${config.hostName ? html`<p class="with-host">${renderHost(config, true)}<span><span class="visually-hidden">${texts("host")}: </span>${config.hostName}</span></p>` : nothing}
    <p>${dates.instantDate(slot.startIso8601, timezone)}</p>
    <p>${dates.time(slot.startIso8601, timezone)} – ${dates.time(slot.endIso8601, timezone)} · ${texts("duration", { minutes: config.durationMinutes })}</p>
    <p class="muted">${texts("timezone")}: ${dates.zoneName(timezone)}</p>
    ${location ? html`<p>${locationText(location, env)}</p>` : nothing}
    ${config.payment ? html`<p>${texts("price")}: ${dates.money(config.payment.amount, config.payment.currency)}</p>` : nothing}
  </aside>`;
}

/** The way one step back, `disabled` while there is none. */
export function renderBack(env: CalendarEnvironment, onBack: () => void, disabled = false) {
  return html`<button type="button" class="link" ?disabled=${disabled} @click=${onBack}>← ${env.texts("back")}</button>`;
}

/**
 * A month without free times, with the jump to `next`, the next free day (null: none ahead; undefined:
 * not known); with `said` "", only the jump (the times column before a day is chosen).
 */
export function renderEmptyMonth(
  env: CalendarEnvironment,
  next: PlainDate | null | undefined,
  onJump: (date: PlainDate) => void,
  said = env.texts("noTimesThisMonth"),
) {
  const { texts } = env;
  return html`<div class="empty-month" part="empty-month">
    ${said ? html`<p class="muted">${said}</p>` : nothing}
    ${
      next
        ? html`<button type="button" class="primary" part="next-available" @click=${() => onJump(next)}>${texts("nextAvailable", { date: env.dates.fullDate(next) })}</button>`
        : next === null
          ? html`<p class="muted">${texts("noTimesAhead")}</p>`
          : nothing
    }
  </div>`;
}

/** Grey blocks in the shape of the calendar while the event type loads; the status text is for screen readers. */
export function renderSkeleton(loading: string) {
  return html`<div class="skeleton" part="skeleton" role="status" aria-busy="true">
    <span class="visually-hidden">${loading}</span>
    <div class="bone" style="width:40%;height:1.4rem"></div>
    <div class="bone" style="width:65%"></div>
    <div class="bone-grid" aria-hidden="true">${Array.from({ length: 35 }, () => html`<div class="bone"></div>`)}</div>
  </div>`;
}

/** A large tick in a circle: the mark of a booking that went through. */
const successMark = html`<svg class="mark" part="success-mark" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
  <circle cx="24" cy="24" r="22" fill="var(--bc-success)"></circle>
  <path d="M14 24.5l7 7 13-14" fill="none" stroke="var(--bc-on-success)" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"></path>
</svg>`;

/** The confirmation screen of a booking made or moved (views/manage.ts says a cancellation): the time in the visitor's zone, the place or meeting link, a calendar file. */
export function renderDone(
  done: Extract<DoneState, { kind: "booked" | "rescheduled" }>,
  config: EventTypeConfiguration,
  env: CalendarEnvironment,
  reservationUuid?: string,
) {
  const { texts, dates, timezone } = env;
  // The other engineer's email flag, when the server sends it: without it, a booking with an email says one goes out.
  const emailed = config.emailConfirmation;
  const slot = done.slot;
  const meetLink = webUrl(done.result?.meetLink);
  const manageUrl = webUrl(done.result?.manageUrl);
  const place = locationText(done.location, env);
  const entry = {
    uid: done.result?.uuid ?? reservationUuid ?? slot.startIso8601,
    startIso: slot.startIso8601,
    endIso: slot.endIso8601,
    title: config.hostName ? `${config.title} (${config.hostName})` : config.title,
    description: [config.description, meetLink, manageUrl].filter(Boolean).join("\n"),
    location: meetLink ?? done.location?.value ?? place,
    url: meetLink,
  };
  const paid = done.kind === "booked" && config.payment ? dates.money(config.payment.amount, config.payment.currency) : "";
  return html`<div part="confirmation" class="done">
    ${successMark}
    <h3 tabindex="-1">${texts(done.kind === "booked" ? "confirmedTitle" : "rescheduledTitle")}</h3>
    <div class="summary" part="summary">
      <p><strong>${config.title}</strong></p>
      ${config.hostName ? html`<p class="with-host">${renderHost(config, true)}<span>${texts("host")}: ${config.hostName}</span></p>` : nothing}
      <p>${dates.instantDate(slot.startIso8601, timezone)}</p>
      <p>${dates.time(slot.startIso8601, timezone)} – ${dates.time(slot.endIso8601, timezone)} (${dates.zoneName(timezone)})</p>
      ${place ? html`<p>${place}</p>` : nothing}
      ${meetLink ? html`<p><a href=${meetLink} target="_blank" rel="noopener noreferrer">${texts("joinMeeting")}</a></p>` : nothing}
      ${paid ? html`<p part="amount-paid">${texts("amountPaid", { amount: paid })}</p>` : nothing}
    </div>
    ${done.email && done.kind === "booked" && emailed ? html`<p>${texts("confirmedText", { email: done.email })}</p>` : nothing}
    <h4>${texts("addToCalendar")}</h4>
    <div class="actions calendars" part="add-to-calendar">
      <a href=${googleCalendarUrl(entry)} target="_blank" rel="noopener noreferrer">${texts("addToGoogle")}</a>
      <a href=${outlookCalendarUrl(entry)} target="_blank" rel="noopener noreferrer">${texts("addToOutlook")}</a>
      <a href=${calendarFileUrl(entry)} download="booking.ics">${texts("downloadIcs")}</a>
    </div>
    ${manageUrl ? html`<div class="actions"><a href=${manageUrl} part="manage">${texts("manageBooking")}</a></div>` : nothing}
  </div>`;
}
