import { html, nothing } from "lit";
import type { EventTypeConfiguration, Location, Reservation, ReservationResult, TimeSlot } from "@booking/wire";
import type { CalendarEnvironment } from "./context.ts";
import { calendarFileUrl } from "./ics.ts";
import type { TextKey } from "./texts.ts";

/** What the last screen shows: a new booking, a moved one, or a cancelled one. */
export interface DoneState {
  kind: "booked" | "rescheduled" | "cancelled";
  slot: TimeSlot | null;
  result: (ReservationResult & { manageUrl?: string | null }) | null;
  email: string;
  location: Location | null;
}

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

/** The booking being rescheduled: when, where, and its status. */
export function renderReservationSummary(reservation: Reservation, env: CalendarEnvironment, config: EventTypeConfiguration) {
  const { texts, dates, timezone } = env;
  return html`<div class="summary" part="summary">
    <h3>${texts("currentBooking")}</h3>
    <p><strong>${config.title}</strong></p>
    <p>${dates.instantDate(reservation.start, timezone)}, ${dates.time(reservation.start, timezone)} – ${dates.time(reservation.end, timezone)}</p>
    ${reservation.location ? html`<p>${locationText(reservation.location, env)}</p>` : nothing}
    <p class="muted">${texts("status", { status: texts(`status.${reservation.status}` as TextKey) })}</p>
  </div>`;
}

/** The confirmation screen: the time in the visitor's zone, the place or meeting link, a calendar file. */
export function renderDone(done: DoneState, config: EventTypeConfiguration, env: CalendarEnvironment, reservationUuid?: string) {
  const { texts, dates, timezone } = env;
  if (done.kind === "cancelled") {
    return html`<div class="state" part="confirmation">
      <h3 tabindex="-1">${texts("cancelledTitle")}</h3>
      <p>${texts("cancelledText")}</p>
    </div>`;
  }
  const slot = done.slot!;
  const meetLink = webUrl(done.result?.meetLink);
  const manageUrl = webUrl(done.result?.manageUrl);
  const place = locationText(done.location, env);
  const file = calendarFileUrl({
    uid: done.result?.uuid ?? reservationUuid ?? slot.startIso8601,
    startIso: slot.startIso8601,
    endIso: slot.endIso8601,
    title: config.title,
    description: [config.description, meetLink, manageUrl].filter(Boolean).join("\n"),
    location: meetLink ?? done.location?.value ?? place,
    url: meetLink,
  });
  return html`<div part="confirmation">
    <h3 tabindex="-1">${texts(done.kind === "booked" ? "confirmedTitle" : "rescheduledTitle")}</h3>
    <div class="summary" part="summary">
      <p><strong>${config.title}</strong></p>
      <p>${dates.instantDate(slot.startIso8601, timezone)}</p>
      <p>${dates.time(slot.startIso8601, timezone)} – ${dates.time(slot.endIso8601, timezone)} (${timezone.replace(/_/g, " ")})</p>
      ${place ? html`<p>${place}</p>` : nothing}
      ${meetLink ? html`<p><a href=${meetLink} target="_blank" rel="noopener noreferrer">${texts("joinMeeting")}</a></p>` : nothing}
    </div>
    ${config.emailConfirmation && done.email && done.kind === "booked" ? html`<p>${texts("confirmedText", { email: done.email })}</p>` : nothing}
    <div class="actions">
      <a href=${file} download="booking.ics" part="add-to-calendar">${texts("addToCalendar")}</a>
      ${manageUrl ? html`<a href=${manageUrl} part="manage">${texts("manageBooking")}</a>` : nothing}
    </div>
  </div>`;
}
