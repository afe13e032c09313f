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

const stamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

// RFC 5545 text: backslash, semicolon, comma and line breaks escaped.
const text = (value: string) => value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

// Content lines are folded at 75 octets; counting UTF-16 units keeps well inside for most text.
function fold(line: string): string {
  const parts: string[] = [];
  for (let i = 0; i < line.length; i += 60) parts.push(line.slice(i, i + 60));
  return parts.join("\r\n ");
}

/** An iCalendar file (RFC 5545) for the booking, as a data URL an `<a download>` can offer. */
export function calendarFileUrl(entry: CalendarEntry, now = Date.now()): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//booking-calendar//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${entry.uid}@booking-calendar`,
    `DTSTAMP:${stamp(new Date(now).toISOString())}`,
    `DTSTART:${stamp(entry.startIso)}`,
    `DTEND:${stamp(entry.endIso)}`,
    `SUMMARY:${text(entry.title)}`,
    ...(entry.description ? [`DESCRIPTION:${text(entry.description)}`] : []),
    ...(entry.location ? [`LOCATION:${text(entry.location)}`] : []),
    ...(entry.url ? [`URL:${entry.url}`] : []),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `data:text/calendar;charset=utf-8,${encodeURIComponent(lines.map(fold).join("\r\n") + "\r\n")}`;
}

/** "Add to Google Calendar": Google's event template link, times in UTC. */
export function googleCalendarUrl(entry: CalendarEntry): string {
  const query = new URLSearchParams({ action: "TEMPLATE", text: entry.title, dates: `${stamp(entry.startIso)}/${stamp(entry.endIso)}`, details: entry.description, location: entry.location });
  return `https://calendar.google.com/calendar/render?${query}`;
}

/** "Add to Outlook": Outlook on the web's compose-event link, times as UTC ISO instants. */
export function outlookCalendarUrl(entry: CalendarEntry): string {
  const iso = (value: string) => new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
  const query = new URLSearchParams({ path: "/calendar/action/compose", rru: "addevent", subject: entry.title, startdt: iso(entry.startIso), enddt: iso(entry.endIso), body: entry.description, location: entry.location });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${query}`;
}
