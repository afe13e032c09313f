import ICAL from "ical.js";
import type { EventTypeSettings } from "../../domain/event-type.ts";
import type { ReservationRecord } from "../../store/types.ts";

/** What a calendar entry shows of an event type. */
export type InviteEventType = Pick<EventTypeSettings, "title" | "description">;
/** What a calendar entry shows of a reservation (a stored record, or a snapshot of one). */
export type InviteReservation = Pick<ReservationRecord, "uuid" | "sequence" | "status" | "startMs" | "endMs" | "email" | "firstname" | "lastname" | "meetLink" | "location">;

/** PRODID of every calendar the server writes. */
const PRODID = "-//Booking Calendar//Bookings//EN";
/** Right-hand side of every booking's UID: fixed, so a UID never changes with the server's address. */
const UID_DOMAIN = "booking-calendar";

/** What a booking's calendar entry needs besides the event type and the reservation. */
export interface InviteContext {
  /** The visitor's reschedule and cancel link; null when the event type has no booking page. */
  manageUrl: string | null;
  /** Who the entry is from (ORGANIZER): the event type's organizer email, else the sender's address. */
  organizer: { email: string; name?: string | null };
  /** DTSTAMP: when this version of the entry was made. */
  stampMs: number;
}

/** A booking's UID: the reservation's uuid, so every invite, update and cancel of it is the same entry. */
export function bookingUid(reservationUuid: string): string {
  return `${reservationUuid}@${UID_DOMAIN}`;
}

/** Where the meeting is, as text: the meeting link, the address, the number to call, or the link. */
export function meetingPlace(r: Pick<InviteReservation, "meetLink" | "location">): string | null {
  if (r.meetLink) return r.meetLink;
  const value = r.location?.value?.trim();
  if (!value) return null;
  return r.location?.type === "phone" ? `Phone: ${value}` : value;
}

/** The link to join the meeting at, when it has one: the generated meeting link or the organizer's link. */
function joinLink(r: Pick<InviteReservation, "meetLink" | "location">): string | null {
  if (r.meetLink) return r.meetLink;
  const value = r.location?.value?.trim();
  return r.location?.type === "link" && value && /^https?:\/\//i.test(value) ? value : null;
}

/**
 * A booking as an iCalendar VEVENT (from the event type's settings and the reservation): UID from the reservation (the same for every version),
 * SEQUENCE from the reservation (raised by each reschedule and cancel), DTSTART/DTEND in UTC,
 * SUMMARY, DESCRIPTION with the meeting place and manage link, LOCATION, URL, ORGANIZER and the
 * visitor as ATTENDEE, STATUS CONFIRMED or CANCELLED. Without a METHOD: for invites (see
 * `inviteCalendar`), a calendar writer or a feed of bookings alike.
 */
export function bookingEvent(eventType: InviteEventType, r: InviteReservation, context: InviteContext): ICAL.Component {
  const event = new ICAL.Component("vevent");
  event.addPropertyWithValue("uid", bookingUid(r.uuid));
  event.addPropertyWithValue("sequence", r.sequence);
  event.addPropertyWithValue("dtstamp", utcTime(context.stampMs));
  event.addPropertyWithValue("dtstart", utcTime(r.startMs));
  event.addPropertyWithValue("dtend", utcTime(r.endMs));
  const visitor = `${r.firstname} ${r.lastname}`.trim();
  event.addPropertyWithValue("summary", visitor ? `${eventType.title} with ${visitor}` : eventType.title);
  const place = meetingPlace(r);
  const link = joinLink(r);
  const description = [
    eventType.description.trim(),
    link ? `Join: ${link}` : place ? `Where: ${place}` : "",
    context.manageUrl ? `Reschedule or cancel: ${context.manageUrl}` : "",
  ].filter((line) => line !== "");
  if (description.length > 0) event.addPropertyWithValue("description", description.join("\n\n"));
  if (place) event.addPropertyWithValue("location", place);
  const url = link ?? context.manageUrl;
  if (url) event.addPropertyWithValue("url", url);
  const organizer = event.addPropertyWithValue("organizer", `mailto:${context.organizer.email}`);
  if (context.organizer.name) organizer.setParameter("cn", context.organizer.name);
  const attendee = event.addPropertyWithValue("attendee", `mailto:${r.email}`);
  if (visitor) attendee.setParameter("cn", visitor);
  attendee.setParameter("role", "REQ-PARTICIPANT");
  attendee.setParameter("partstat", r.status === "cancelled" ? "DECLINED" : "ACCEPTED");
  event.addPropertyWithValue("status", r.status === "cancelled" ? "CANCELLED" : "CONFIRMED");
  event.addPropertyWithValue("transp", "OPAQUE");
  return event;
}

/**
 * A VCALENDAR of the given events as text (CRLF lines, folded at 75 octets). With a `method`
 * (iTIP, RFC 5546) it is an invite: REQUEST to add or update the entry, CANCEL to remove it.
 */
export function inviteCalendar(events: ICAL.Component[], method?: "REQUEST" | "CANCEL"): string {
  const calendar = new ICAL.Component("vcalendar");
  calendar.addPropertyWithValue("prodid", PRODID);
  calendar.addPropertyWithValue("version", "2.0");
  calendar.addPropertyWithValue("calscale", "GREGORIAN");
  if (method) calendar.addPropertyWithValue("method", method);
  for (const event of events) calendar.addSubcomponent(event);
  return `${calendar.toString()}\r\n`;
}

/** The invite of one booking change: REQUEST while it stands, CANCEL once cancelled. */
export function bookingInvite(eventType: InviteEventType, r: InviteReservation, context: InviteContext): { method: "REQUEST" | "CANCEL"; ics: string } {
  const method = r.status === "cancelled" ? "CANCEL" : "REQUEST";
  return { method, ics: inviteCalendar([bookingEvent(eventType, r, context)], method) };
}

function utcTime(ms: number): ICAL.Time {
  // Whole seconds: iCalendar has no finer unit.
  return ICAL.Time.fromJSDate(new Date(Math.floor(ms / 1000) * 1000), true);
}
