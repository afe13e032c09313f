import ICAL from "ical.js";
import type { EventTypeRecord, ReservationRecord } from "../../store/types.ts";

/**
 * The VEVENT of one confirmed booking as the organizer's calendar shows it. Kept apart from the feed
 * so that the booking invitations' builder can take its place: the feed needs only this function.
 * Every value comes from the stored records (DTSTAMP is the booking's last change, not the time of
 * the request), so an unchanged booking gives the same text and the feed's ETag stays put.
 */
export function bookingVEvent(reservation: ReservationRecord, eventType: EventTypeRecord): ICAL.Component {
  const vevent = new ICAL.Component("vevent");
  vevent.addPropertyWithValue("uid", reservation.uuid);
  vevent.addPropertyWithValue("dtstamp", utcTime(reservation.updatedAtMs));
  vevent.addPropertyWithValue("created", utcTime(reservation.createdAtMs));
  vevent.addPropertyWithValue("last-modified", utcTime(reservation.updatedAtMs));
  vevent.addPropertyWithValue("dtstart", utcTime(reservation.startMs));
  vevent.addPropertyWithValue("dtend", utcTime(reservation.endMs));
  vevent.addPropertyWithValue("summary", `${eventType.settings.title}: ${visitorName(reservation)}`);
  const location = locationText(reservation);
  if (location) vevent.addPropertyWithValue("location", location);
  vevent.addPropertyWithValue("description", descriptionText(reservation, eventType));
  vevent.addPropertyWithValue("status", "CONFIRMED");
  vevent.addPropertyWithValue("transp", "OPAQUE");
  return vevent;
}

function utcTime(ms: number): ICAL.Time {
  return ICAL.Time.fromJSDate(new Date(ms), true);
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
  lines.push(`Reservation: ${r.uuid}`);
  return lines.join("\n");
}
