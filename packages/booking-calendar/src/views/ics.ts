/** What goes into a calendar file for one booking. */
export interface CalendarEntry {
  uid: string;
  startIso: string;
  endIso: string;
  title: string;
  description: string;
  location: string;
  url: string | null;
}

const stamp = (instant: string | number) => new Date(instant).toISOString().replace(/[-:]|\.\d{3}/g, "");

/**
 * A TEXT value as RFC 5545 (3.3.11) writes it: backslash, semicolon and comma escaped, every kind
 * of line break (CRLF, CR alone, LF, NEL, the line and paragraph separators) written as `\n`, other
 * control characters but TAB dropped; what the server's invites write (`icalText`). No line break a
 * visitor or organizer typed can end a content line.
 */
const text = (value: string) =>
  value
    .replace(/[\\;,]/g, "\\$&")
    .replace(/\r\n?|[\n\x85\u2028\u2029]/g, "\\n")
    .replace(/[\0-\b\v-\x1f\x7f-\x9f]/g, "");

/** A URI value (URL): it has no escapes, so control characters, spaces and line separators are percent-encoded. */
const uri = (value: string) => value.replace(/[\0- \x7f-\x9f\u2028\u2029]/g, encodeURIComponent);

/** A content line folded at 75 octets (the leading space of a continuation counts), never inside a character. */
function fold(line: string): string {
  let folded = "";
  let octets = 0;
  for (const char of line) {
    const size = new TextEncoder().encode(char).length;
    if ((octets += size) > 75) {
      folded += "\r\n ";
      octets = size + 1;
    }
    folded += char;
  }
  return folded;
}

/** An iCalendar file (RFC 5545; the calendar scale is the default, Gregorian) for the booking, as a data URL an `<a download>` can offer. */
export function calendarFileUrl(entry: CalendarEntry, now = Date.now()): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-calendar//EN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${entry.uid}@booking-calendar`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(entry.startIso)}`,
    `DTEND:${stamp(entry.endIso)}`,
    `SUMMARY:${text(entry.title)}`,
    `DESCRIPTION:${text(entry.description)}`,
    `LOCATION:${text(entry.location)}`,
    `URL:${uri(entry.url ?? "")}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  // Properties without a value (no description, place or link) are left out.
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(
    `${lines
      .filter((line) => !line.endsWith(":"))
      .map(fold)
      .join("\r\n")}\r\n`,
  )}`;
}

/** "Add to Google Calendar": Google's event template link, times in UTC. */
export function googleCalendarUrl(entry: CalendarEntry): string {
  const query = new URLSearchParams({
    action: "TEMPLATE",
    text: entry.title,
    dates: `${stamp(entry.startIso)}/${stamp(entry.endIso)}`,
    details: entry.description,
    location: entry.location,
  });
  return `https://calendar.google.com/calendar/render?${query}`;
}

/** "Add to Outlook": Outlook on the web's compose-event link, times as UTC ISO instants. */
export function outlookCalendarUrl(entry: CalendarEntry): string {
  const iso = (value: string) => new Date(value).toISOString().replace(/\.\d{3}/, "");
  const query = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: entry.title,
    startdt: iso(entry.startIso),
    enddt: iso(entry.endIso),
    body: entry.description,
    location: entry.location,
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${query}`;
}
