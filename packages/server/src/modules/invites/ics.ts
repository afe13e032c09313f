import { createHash } from "node:crypto";
import ICAL from "ical.js";
import type { EventTypeSettings } from "../../domain/event-type.ts";
import type { ReservationRecord } from "../../store/reservations.ts";

/** What a calendar entry shows of an event type. */
export type InviteEventType = Pick<EventTypeSettings, "title" | "description">;
/** What a calendar entry shows of a reservation (a stored record, or a snapshot of one; snapshots taken before cancel reasons were shown have none). */
export type InviteReservation = Pick<
  ReservationRecord,
  "uuid" | "sequence" | "status" | "startMs" | "endMs" | "email" | "firstname" | "lastname" | "meetLink" | "location" | "cancelReason"
> &
  Partial<Pick<ReservationRecord, "guests">>;

/** PRODID of every calendar the server writes. */
const PRODID = "-//Booking Calendar//Bookings//EN";
/** Right-hand side of every booking's UID: fixed, so a UID never changes with the server's address. */
const UID_DOMAIN = "booking-calendar";

/**
 * Whose copy of a booking an entry is. The visitor's (their invite emails) carries the reservation's
 * uuid as UID and their manage link. The organizer's (the organizer's email copy, the entry written
 * into their calendar, the booking feed) ends up in calendars that are shared, and the uuid with the
 * booking page's published link token cancels a booking: it carries neither, and a UID derived
 * from the uuid that cannot be turned back into it (`organizerBookingUid`).
 */
export type InviteCopy = "visitor" | "organizer";

/** What a booking's calendar entry needs besides the event type and the reservation. */
export interface InviteContext {
  /** Whose copy it is; see `InviteCopy`. */
  copy: InviteCopy;
  /** The visitor's reschedule and cancel link; null when the event type has no booking page. Left out of the organizer's copy. */
  manageUrl: string | null;
  /** Who the entry is from (ORGANIZER): the booking's host, else the event type's organizer email, else the sender's address. */
  organizer: { email: string; name?: string | null };
  /** The booking's other hosts (a collective booking's), each an ATTENDEE beside the visitor; none when absent. */
  coHosts?: { email: string; name?: string | null }[] | undefined;
  /** DTSTAMP: when this version of the entry was made. */
  stampMs: number;
  /** SUMMARY, when not the event type's title with the visitor's name (the organizer's copies). */
  summary?: string;
  /** The labels of DESCRIPTION's lines in the reader's language; English without. */
  labels?: InviteLabels;
}

/** The labels of an entry's DESCRIPTION lines. */
export interface InviteLabels {
  join: string;
  where: string;
  manage: string;
  reason: string;
  phone: (value: string) => string;
  /** The line naming the visitor and guests in a PUBLISH copy, which has no ATTENDEE. */
  guests?: string;
  /** The line naming the booking's other hosts in a PUBLISH copy. */
  hosts?: string;
}

const ENGLISH_LABELS: InviteLabels = {
  join: "Join",
  where: "Where",
  manage: "Reschedule or cancel",
  reason: "Reason for cancelling",
  phone: (value) => `Phone: ${value}`,
  guests: "Guests",
  hosts: "Hosts",
};

/** A booking's UID in the visitor's copy: the reservation's uuid, so every invite, update and cancel of it is the same entry. */
export function bookingUid(reservationUuid: string): string {
  return `${reservationUuid}@${UID_DOMAIN}`;
}

/** Fixed prefix of what `organizerBookingKey` hashes, so its digests are of no use for anything else. */
const ORGANIZER_KEY_LABEL = "booking-calendar organizer copy:";

/**
 * The name of a booking in the organizer's copies: SHA-256 of a fixed label and the reservation's
 * uuid, its first 160 bits in hex (40 characters, so the UID line needs no folding). The same for
 * every version of the booking on every channel (email copy, calendar write, feed), so updates
 * replace the entry; one-way, so the entry does not hand out the uuid.
 */
export function organizerBookingKey(reservationUuid: string): string {
  return createHash("sha256")
    .update(ORGANIZER_KEY_LABEL + reservationUuid.toLowerCase())
    .digest("hex")
    .slice(0, 40);
}

/** A booking's UID in the organizer's copies: `<organizerBookingKey>@booking-calendar`. */
export function organizerBookingUid(reservationUuid: string): string {
  return `${organizerBookingKey(reservationUuid)}@${UID_DOMAIN}`;
}

/** The UID of a booking in one copy of it: see `InviteCopy`. */
function bookingUidFor(copy: InviteCopy, reservationUuid: string): string {
  return copy === "visitor" ? bookingUid(reservationUuid) : organizerBookingUid(reservationUuid);
}

// Line breaks of any kind: CRLF, CR, LF, NEL, and the Unicode line and paragraph separators.
const LINE_BREAK = /\r\n|[\r\n\u0085\u2028\u2029]/g;
// Control characters other than TAB (C0, DEL, C1) that are no line break: RFC 5545 allows none in a value.
const OTHER_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;

/**
 * Text as an iCalendar TEXT value (RFC 5545 3.3.11) takes it, for every property a builder writes
 * from stored text: each line break of whatever kind (a carriage return alone included, which
 * ical.js writes as is and mail transports and calendar servers read as the end of the line)
 * becomes one LF, and other control characters are dropped. ical.js then escapes that LF as `\n`,
 * and backslash, semicolon and comma, so nothing a visitor typed can end a content line.
 */
export function icalText(value: string): string {
  return value.replace(LINE_BREAK, "\n").replace(OTHER_CONTROL, "");
}

/**
 * Text as an iCalendar parameter value (RFC 5545 3.2, such as CN) takes it: a parameter has no
 * escapes for line breaks or DQUOTE, so line breaks and control characters become spaces and a
 * double quote a single one. A semicolon, allowed inside quotes but where parsers in use (node-ical
 * among them) split parameters regardless, becomes a comma. ical.js quotes the value when it holds
 * `,` or `:`.
 */
function icalParameter(value: string): string {
  return value.replace(LINE_BREAK, " ").replace(OTHER_CONTROL, "").replace(/\t/g, " ").replaceAll('"', "'").replaceAll(";", ",");
}

/** Where the meeting is, as text: the meeting link, the address, the number to call (`phone` words it), or the link. */
export function meetingPlace(r: Pick<InviteReservation, "meetLink" | "location">, phone: (value: string) => string = ENGLISH_LABELS.phone): string | null {
  if (r.meetLink) return r.meetLink;
  const value = r.location?.value?.trim();
  if (!value) return null;
  return r.location?.type === "phone" ? phone(value) : value;
}

/** The link to join the meeting at, when it has one: the generated meeting link or the organizer's link. */
export function joinLink(r: Pick<InviteReservation, "meetLink" | "location">): string | null {
  if (r.meetLink) return r.meetLink;
  const value = r.location?.value?.trim();
  return r.location?.type === "link" && value && /^https?:\/\//i.test(value) ? value : null;
}

/**
 * A URI value (URL, ORGANIZER, ATTENDEE) as iCalendar writes it: a URI has no escapes in iCalendar,
 * so control characters, spaces and line separators are percent-encoded and can end no line.
 */
function icalUri(value: string): string {
  return value.replace(/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/g, (c) => encodeURIComponent(c));
}

/**
 * A booking as an iCalendar VEVENT (from the event type's settings and the reservation): UID from
 * the reservation (the same for every version; see `InviteCopy` for whose copy carries which),
 * SEQUENCE from the reservation (raised by each reschedule and cancel), DTSTART/DTEND in UTC,
 * SUMMARY (the context's, else the event type's title with the visitor's name), DESCRIPTION with the
 * meeting place, (the visitor's copy) manage link and (once cancelled) the reason the visitor gave,
 * in the context's labels, LOCATION, URL, ORGANIZER, the visitor and each guest as ATTENDEE (left
 * out of the organizer's PUBLISH email copy, see `bookingInvite`),
 * STATUS CONFIRMED or CANCELLED. Every text passes through
 * `icalText`, `icalParameter` or `icalUri`. Without a METHOD: for invites (see `inviteCalendar`),
 * a calendar writer or a feed of bookings alike.
 */
export function bookingEvent(eventType: InviteEventType, r: InviteReservation, context: InviteContext): ICAL.Component {
  const event = new ICAL.Component("vevent");
  const manageUrl = context.copy === "visitor" ? context.manageUrl : null;
  event.addPropertyWithValue("uid", bookingUidFor(context.copy, r.uuid));
  event.addPropertyWithValue("sequence", r.sequence);
  event.addPropertyWithValue("dtstamp", utcTime(context.stampMs));
  event.addPropertyWithValue("dtstart", utcTime(r.startMs));
  event.addPropertyWithValue("dtend", utcTime(r.endMs));
  const visitor = `${r.firstname} ${r.lastname}`.trim();
  setText(event, "summary", context.summary ?? (visitor ? `${eventType.title} with ${visitor}` : eventType.title));
  const labels = context.labels ?? ENGLISH_LABELS;
  const place = meetingPlace(r, labels.phone);
  const link = joinLink(r);
  const description = [
    eventType.description.trim(),
    link ? `${labels.join}: ${link}` : place ? `${labels.where}: ${place}` : "",
    manageUrl ? `${labels.manage}: ${manageUrl}` : "",
    r.status === "cancelled" && r.cancelReason ? `${labels.reason}: ${r.cancelReason}` : "",
  ].filter((line) => line !== "");
  if (description.length > 0) setText(event, "description", description.join("\n\n"));
  if (place) setText(event, "location", place);
  const url = link ?? manageUrl;
  if (url) event.addPropertyWithValue("url", icalUri(url));
  const organizer = event.addPropertyWithValue("organizer", icalUri(`mailto:${context.organizer.email}`));
  if (context.organizer.name) organizer.setParameter("cn", icalParameter(context.organizer.name));
  const attendee = event.addPropertyWithValue("attendee", icalUri(`mailto:${r.email}`));
  if (visitor) attendee.setParameter("cn", icalParameter(visitor));
  attendee.setParameter("role", "REQ-PARTICIPANT");
  attendee.setParameter("partstat", r.status === "cancelled" ? "DECLINED" : "ACCEPTED");
  for (const host of context.coHosts ?? []) {
    const coHost = event.addPropertyWithValue("attendee", icalUri(`mailto:${host.email}`));
    if (host.name) coHost.setParameter("cn", icalParameter(host.name));
    coHost.setParameter("role", "REQ-PARTICIPANT");
    coHost.setParameter("partstat", r.status === "cancelled" ? "DECLINED" : "ACCEPTED");
  }
  for (const guest of r.guests ?? []) {
    const invited = event.addPropertyWithValue("attendee", icalUri(`mailto:${guest}`));
    invited.setParameter("role", "REQ-PARTICIPANT");
    invited.setParameter("partstat", "NEEDS-ACTION");
  }
  event.addPropertyWithValue("status", r.status === "cancelled" ? "CANCELLED" : "CONFIRMED");
  event.addPropertyWithValue("transp", "OPAQUE");
  return event;
}

/**
 * Sets (adds or replaces) a TEXT property of a component to `icalText(value)`: the one way builders
 * write text. ical.js escapes the properties it knows as TEXT; an extension property it does not
 * know (X-WR-CALNAME) it writes as given, so that one is escaped here (RFC 5545 3.3.11).
 */
export function setText(component: ICAL.Component, name: string, value: string): void {
  const text = icalText(value);
  const knownAsText = ICAL.design.icalendar.property[name.toLowerCase()]?.defaultType === "text";
  component.updatePropertyWithValue(name, knownAsText ? text : text.replace(/[\\;,\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`)));
}

/** The iTIP method (RFC 5546) of a calendar sent by email: REQUEST and CANCEL invite, PUBLISH only informs. */
export type InviteMethod = "REQUEST" | "CANCEL" | "PUBLISH";

/**
 * A VCALENDAR of the given events as text (CRLF lines, folded at 75 octets). With a `method`
 * (iTIP, RFC 5546) it is an invite: REQUEST to add or update the entry, CANCEL to remove it; or,
 * PUBLISH, a copy of the entry that asks nothing of its reader.
 */
export function inviteCalendar(events: ICAL.Component[], method?: InviteMethod): string {
  const calendar = new ICAL.Component("vcalendar");
  calendar.addPropertyWithValue("prodid", PRODID);
  calendar.addPropertyWithValue("version", "2.0");
  calendar.addPropertyWithValue("calscale", "GREGORIAN");
  if (method) calendar.addPropertyWithValue("method", method);
  for (const event of events) calendar.addSubcomponent(event);
  return `${calendar.toString()}\r\n`;
}

/**
 * The invite of one booking change: REQUEST while it stands, CANCEL once cancelled. The organizer's
 * copy is PUBLISH (with STATUS CANCELLED once cancelled): the organizer is not invited to their own
 * meeting, the entry only goes into their calendar.
 */
export function bookingInvite(eventType: InviteEventType, r: InviteReservation, context: InviteContext): { method: InviteMethod; ics: string } {
  const method = context.copy === "organizer" ? "PUBLISH" : r.status === "cancelled" ? "CANCEL" : "REQUEST";
  const event = bookingEvent(eventType, r, context);
  if (method === "PUBLISH") publishedCopy(event, r, context);
  return { method, ics: inviteCalendar([event], method) };
}

/**
 * A PUBLISH copy carries no ATTENDEE (RFC 5546 3.2.1): a client would read one as an invitation to
 * answer. Who takes part is named in DESCRIPTION instead: the visitor and guests, and the other hosts.
 */
export function publishedCopy(event: ICAL.Component, r: InviteReservation, context: InviteContext): void {
  event.removeAllProperties("attendee");
  const labels = { ...ENGLISH_LABELS, ...context.labels };
  const visitor = `${r.firstname} ${r.lastname}`.trim();
  const named = (email: string, name?: string | null) => (name ? `${name} <${email}>` : email);
  const lines = [
    `${labels.guests}: ${[named(r.email, visitor), ...(r.guests ?? [])].join(", ")}`,
    ...(context.coHosts?.length ? [`${labels.hosts}: ${context.coHosts.map((h) => named(h.email, h.name)).join(", ")}`] : []),
  ];
  const before = event.getFirstPropertyValue("description");
  setText(event, "description", [...(before ? [String(before)] : []), ...lines].join("\n\n"));
}

function utcTime(ms: number): ICAL.Time {
  // Whole seconds: iCalendar has no finer unit.
  return ICAL.Time.fromJSDate(new Date(Math.floor(ms / 1000) * 1000), true);
}
