import type { EventTypeHostInfo, EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";

/**
 * The hosts a booking is with, as the event type names them: those its reservation records (in its
 * order), else (a reservation stored before hosts, or whose hosts left the event type) the event
 * type's first host.
 */
export function bookingHosts(eventType: Pick<EventTypeRecord, "hosts">, r: Pick<ReservationRecord, "hostIds">): EventTypeHostInfo[] {
  const found = r.hostIds.map((id) => eventType.hosts.find((h) => h.hostId === id)).filter((h) => h !== undefined);
  if (found.length > 0) return found;
  return eventType.hosts.slice(0, 1);
}

/**
 * Who a booking's invites and emails name as organizer (ORGANIZER, and the name messages and
 * invite titles carry): its first host with an email address, else the event type's organizer
 * email, else `fallback` (the server's sender). The name is that host's, else the event type's host
 * name, else the booking's first host's; never the sender's (the server's name, not a person's).
 * The one place that answers it: mail, invites, the feed and the calendar writer use it.
 */
export function organizerOf(
  eventType: Pick<EventTypeRecord, "hosts" | "settings">,
  r: Pick<ReservationRecord, "hostIds">,
  fallback: { email: string },
): { email: string; name: string | null } {
  const hosts = bookingHosts(eventType, r);
  const host = hosts.find((h) => h.email);
  const hostName = eventType.settings.hostName?.trim() || null;
  if (host?.email) return { email: host.email, name: host.name || hostName };
  return { email: eventType.settings.organizerEmail ?? fallback.email, name: hostName ?? (hosts[0]?.name || null) };
}

/**
 * Where the organizer's copies of a booking's emails go: every host of the booking with an email
 * address, and the event type's organizer email when it is none of them.
 */
export function organizerCopies(eventType: Pick<EventTypeRecord, "hosts" | "settings">, r: Pick<ReservationRecord, "hostIds">): string[] {
  const addresses = bookingHosts(eventType, r).flatMap((h) => (h.email ? [h.email] : []));
  const organizerEmail = eventType.settings.organizerEmail ?? null;
  if (organizerEmail && !addresses.some((a) => a.toLowerCase() === organizerEmail.toLowerCase())) addresses.push(organizerEmail);
  return [...new Set(addresses)];
}

/** The booking's hosts with an email address other than `organizer`: the other attendees of its invites. */
export function coHostsOf(
  eventType: Pick<EventTypeRecord, "hosts">,
  r: Pick<ReservationRecord, "hostIds">,
  organizer: { email: string },
): { email: string; name: string | null }[] {
  return bookingHosts(eventType, r).flatMap((h) =>
    h.email && h.email.toLowerCase() !== organizer.email.toLowerCase() ? [{ email: h.email, name: h.name || null }] : [],
  );
}
