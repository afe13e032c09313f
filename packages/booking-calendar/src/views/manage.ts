/**
 * The screens of an existing booking, opened from its manage link (`reservation-uuid`): the booking
 * with what may still be done with it and until when, the question to cancel, and the move to
 * confirm. Only visitors with a manage link need them, so the script-tag file fetches them as a
 * part (`parts/manage.js`) while the booking loads; the npm module imports them as a chunk.
 */
import { html, nothing } from "lit";
import type { EventTypeConfiguration, Reservation } from "@booking/wire";
import { EMAIL_PATTERN, LIMITS } from "@booking/wire/limits";
import type { CalendarEnvironment } from "../context.ts";
import type { FlowOf } from "../flow/flow.ts";
import type { TextKey } from "../i18n/texts.ts";
import { locationText, renderBack, renderChosen, webUrl } from "./screens.ts";

/** What may be done with a booking now, and until when (epoch ms; null: no limit known). */
export interface ChangeRules {
  canMove: boolean;
  canCancel: boolean;
  moveUntil: number | null;
  cancelUntil: number | null;
}

/**
 * The event type's notices applied to `reservation` at `now`: a confirmed booking may be moved until
 * `rescheduleNoticeMinutes` and cancelled until `cancelNoticeMinutes` before its start, as the server
 * enforces. A configuration without the notices (an older server) leaves both open.
 */
export function changeRules(reservation: Reservation, config: EventTypeConfiguration, now: number): ChangeRules {
  const start = Date.parse(reservation.start);
  const until = (minutes: number | undefined) => (minutes === undefined ? null : start - minutes * 60_000);
  const moveUntil = until(config.rescheduleNoticeMinutes);
  const cancelUntil = until(config.cancelNoticeMinutes);
  const { status } = reservation;
  const open = (limit: number | null) => status !== "cancelled" && (status !== "confirmed" || limit === null || now <= limit);
  return { canMove: open(moveUntil), canCancel: open(cancelUntil), moveUntil, cancelUntil };
}

/** How the organizer is reached: a mail link for an address, a link for a web address, else the text. */
export function renderContact(contact: string) {
  const url = webUrl(contact);
  if (url) return html`<a href=${url} target="_blank" rel="noopener noreferrer" part="contact">${contact}</a>`;
  if (EMAIL_PATTERN.test(contact)) return html`<a href="mailto:${contact}" part="contact">${contact}</a>`;
  return html`<strong part="contact">${contact}</strong>`;
}

/** A text with `{contact}` in it, the contact rendered in its place (translations put it where their grammar wants). */
function withContact(env: CalendarEnvironment, key: TextKey, contact: string) {
  const [before, after = ""] = env.texts(key, { contact: "\u0000" }).split("\u0000");
  return html`${before}${renderContact(contact)}${after}`;
}

/** The date and time of `instant` in the visitor's zone, as the rules are told. */
function when(env: CalendarEnvironment, instant: number): string {
  return `${env.dates.instantDate(instant, env.timezone)}, ${env.dates.time(instant, env.timezone)}`;
}

/**
 * Until when the booking can be changed online, said before anything is tried; once a change is no
 * longer possible, since when and how to reach the organizer instead.
 */
export function renderRules(rules: ChangeRules, config: EventTypeConfiguration, env: CalendarEnvironment) {
  const { texts } = env;
  const { canMove, canCancel, moveUntil, cancelUntil } = rules;
  const lines: string[] = [];
  if (moveUntil !== null && moveUntil === cancelUntil) {
    lines.push(texts(canMove ? "changeUntil" : "changeEnded", { time: when(env, moveUntil) }));
  } else {
    if (moveUntil !== null) lines.push(texts(canMove ? "moveUntil" : "moveEnded", { time: when(env, moveUntil) }));
    if (cancelUntil !== null) lines.push(texts(canCancel ? "cancelUntil" : "cancelEnded", { time: when(env, cancelUntil) }));
  }
  if (lines.length === 0) return nothing;
  const closed = !canMove || !canCancel;
  const contact = config.contact?.trim();
  return html`<div class="notice" part="change-rules" role="note">
    ${lines.map((line) => html`<p style="margin:0.25rem 0">${line}</p>`)}
    ${closed ? html`<p style="margin:0.25rem 0">${contact ? withContact(env, "askOrganizer", contact) : texts("askOrganizerNoContact")}</p>` : nothing}
  </div>`;
}

/** The booking being managed: when, where, and its status. */
export function renderReservationSummary(reservation: Reservation, env: CalendarEnvironment, config: EventTypeConfiguration) {
  const { texts, dates, timezone } = env;
  return html`<div class="summary" part="summary">
    <h3 tabindex="-1">${texts("currentBooking")}</h3>
    <p><strong>${config.title}</strong></p>
    <p>${dates.instantDate(reservation.start, timezone)}, ${dates.time(reservation.start, timezone)} – ${dates.time(reservation.end, timezone)}</p>
    ${reservation.location ? html`<p>${locationText(reservation.location, env)}</p>` : nothing}
    <p class="muted">${texts("status", { status: texts(`status.${reservation.status}` as TextKey) })}</p>
  </div>`;
}

/** What the question to cancel a booking does: opens or closes it (null), keeps the reason typed, cancels (with `series`: this and every later date of its series); and booking afresh once cancelled. */
export interface CancelActions {
  ask(reason: string | null): void;
  cancel(series?: boolean): void;
  book(): void;
}

/** After a cancellation: a fresh booking of the same event type. */
export function renderBookAnother(env: CalendarEnvironment, onBook: () => void) {
  return html`<div class="actions center"><button type="button" class="primary" part="book-another" @click=${onBook}>${env.texts("bookAnother")}</button></div>`;
}

/** The booking was just cancelled: said so, with the way to book again. */
export function renderCancelled(env: CalendarEnvironment, onBook: () => void) {
  return html`<div class="state" part="confirmation">
    <h3 tabindex="-1">${env.texts("cancelledTitle")}</h3>
    <p>${env.texts("cancelledText")}</p>
  </div>${renderBookAnother(env, onBook)}`;
}

/** The button to cancel, which asks first with room for a reason (`reason` null: not asked yet); an occurrence of a series (`series`) may also end its series. */
export function renderCancel(env: CalendarEnvironment, reason: string | null, busy: boolean, { ask, cancel }: CancelActions, series = false) {
  const { texts } = env;
  if (reason === null) {
    return html`<div class="actions"><button type="button" part="cancel" @click=${() => ask("")}>${texts("cancelBooking")}</button></div>`;
  }
  return html`<div class="notice danger" role="group" aria-labelledby="cancel-question">
    <p id="cancel-question" style="margin:0 0 0.75rem">${texts("cancelQuestion")}</p>
    <label for="cancel-reason" class="field-label">${texts("cancelReason")}</label>
    <textarea id="cancel-reason" part="cancel-reason" maxlength=${LIMITS.textMaxLength} .value=${reason}
      @input=${(e: Event) => ask((e.target as HTMLTextAreaElement).value)}></textarea>
    <div class="actions">
      <button type="button" class="danger" part="cancel" ?disabled=${busy} @click=${() => cancel()}>${texts("confirmCancel")}</button>
      ${series ? html`<button type="button" class="danger" part="cancel end-series" ?disabled=${busy} @click=${() => cancel(true)}>${texts("endSeries")}</button>` : nothing}
      <button type="button" @click=${() => ask(null)}>${texts("keepBooking")}</button>
    </div>
  </div>`;
}

/**
 * The top of the manage screen: the booking, its rules, the cancel button while cancelling is open,
 * and the heading of the new times while moving is; `rules.canMove` tells the element whether to show
 * the calendar below. A cancelled booking says so, with the way to book again.
 */
export function renderManage(flow: FlowOf<"picking">, env: CalendarEnvironment, rules: ChangeRules, busy: boolean, cancel: CancelActions) {
  const {
    init: { configuration: config, reservation },
  } = flow;
  if (!reservation) return nothing;
  const summary = renderReservationSummary(reservation, env, config);
  if (reservation.status === "cancelled") return html`${summary}<p>${env.texts("alreadyCancelled")}</p>${renderBookAnother(env, cancel.book)}`;
  return html`${summary}${renderRules(rules, config, env)}
    ${rules.canCancel ? renderCancel(env, flow.cancelReason, busy, cancel, !!reservation.seriesId) : nothing}
    ${rules.canMove ? html`<h3 id="new-times" tabindex="-1">${env.texts("pickNewTime")}</h3>` : nothing}`;
}

/** The move to confirm: the new time beside the booking's place. */
export function renderMove(flow: FlowOf<"moving">, env: CalendarEnvironment, busy: boolean, onBack: () => void, onMove: () => void) {
  const { dates, timezone } = env;
  const start = flow.slot.startIso8601;
  return html`
    ${renderBack(env, onBack, busy)}
    <h3 tabindex="-1">${env.texts("moveTo", { time: `${dates.instantDate(start, timezone)} ${dates.time(start, timezone)}` })}</h3>
    ${renderChosen(flow, env)}
    <div class="actions"><button class="primary" type="button" part="submit" ?disabled=${busy} @click=${onMove}>${env.texts("confirmMove")}</button></div>`;
}
