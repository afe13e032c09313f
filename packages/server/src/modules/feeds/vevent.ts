import ICAL from "ical.js";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import { bookingEvent, setText } from "../invites/ics.ts";

/**
 * The VEVENT of one confirmed booking as the organizer's calendar shows it: the invites' builder
 * (`bookingEvent`'s organizer copy: the same UID, SEQUENCE, times, ORGANIZER and ATTENDEE as the
 * organizer's email copy and the calendar writer), with the organizer's own summary and the details
 * the visitor gave in the description, and CREATED and LAST-MODIFIED. Nothing in it names the
 * reservation's uuid: whoever the feed is shared with must not be able to cancel bookings. Every value comes from the stored records
 * (DTSTAMP is the booking's last change, not the time of the request), so an unchanged booking
 * gives the same text and the feed's ETag stays put.
 */
export function bookingVEvent(reservation: ReservationRecord, eventType: EventTypeRecord, organizer: { email: string; name?: string | null }): ICAL.Component {
  const vevent = bookingEvent({ title: eventType.settings.title, description: eventType.settings.description }, reservation, {
    copy: "organizer",
    manageUrl: null,
    organizer,
    stampMs: reservation.updatedAtMs,
  });
  vevent.addPropertyWithValue("created", utcTime(reservation.createdAtMs));
  vevent.addPropertyWithValue("last-modified", utcTime(reservation.updatedAtMs));
  setText(vevent, "summary", `${eventType.settings.title}: ${visitorName(reservation)}`);
  setText(vevent, "description", descriptionText(reservation, eventType));
  const location = locationText(reservation);
  if (location) setText(vevent, "location", location);
  return vevent;
}

function utcTime(ms: number): ICAL.Time {
  return ICAL.Time.fromJSDate(new Date(Math.floor(ms / 1000) * 1000), true);
}

/** The visitor's name, or the address they booked with when they gave none. */
function visitorName(r: ReservationRecord): string {
  return `${r.firstname} ${r.lastname}`.trim() || r.email;
}

/** Where the meeting is: the generated meeting link, else the chosen location's value, else its kind. */
function locationText(r: ReservationRecord): string | null {
  if (r.meetLink) return r.meetLink;
  if (!r.location) return null;
  return r.location.value || LOCATION_LABELS[r.location.type] || r.location.type;
}

const LOCATION_LABELS: Record<string, string> = { "video-meet": "Video meeting", phone: "Phone call", address: "In person", link: "Online" };

function descriptionText(r: ReservationRecord, eventType: EventTypeRecord): string {
  const lines = [`Booked by ${visitorName(r)} <${r.email}>`];
  if (r.phone) lines.push(`Phone: ${r.phone}`);
  if (r.guests.length > 0) lines.push(`Guests: ${r.guests.join(", ")}`);
  const labels = new Map(eventType.settings.customFields.map((f) => [f.uuid, f.label]));
  for (const answer of r.customFields) {
    const label = labels.get(answer.uuid);
    if (label === undefined || answer.value === undefined || answer.value === null || answer.value === "") continue;
    lines.push(`${label}: ${Array.isArray(answer.value) ? answer.value.join(", ") : String(answer.value)}`);
  }
  if (r.timezone) lines.push(`Visitor's time zone: ${r.timezone}`);
  return lines.join("\n");
}
