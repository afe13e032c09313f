import ICAL from "ical.js";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { FEED_TOKEN_PREFIX } from "../../lib/tokens.ts";
import { senderOf } from "../mail/events.ts";
import { setText } from "../invites/ics.ts";
import { bookingVEvent } from "./vevent.ts";
import { organizerOf } from "../hosts/organizer.ts";

/** How far back the feed reaches: bookings that ended longer ago are left out. */
export const FEED_PAST_DAYS = 90;

/** The most bookings one feed answers, earliest first, so one feed cannot grow without bound. */
export const FEED_MAX_BOOKINGS = 5_000;

const DAY_MS = 86_400_000;
/** The latest instant a Date can hold: the feed has no end in the future. */
const END_OF_TIME_MS = 8.64e15;
const TOKEN_SHAPE = new RegExp(`^${FEED_TOKEN_PREFIX}[A-Za-z0-9_-]{32,100}$`);

/** The absolute URL of an event type's private booking feed. */
export function feedUrlOf(origin: string, feedToken: string): string {
  return `${origin}/feeds/${feedToken}.ics`;
}

/** An answer that carries a feed token, with the feed's absolute URL on `origin` beside it as `feedUrl`. */
export function feedAddressed<T extends { feedToken: string }>(origin: string, answer: T): T & { feedUrl: string } {
  return { ...answer, feedUrl: feedUrlOf(origin, answer.feedToken) };
}

/** A feed's text and the strong ETag of exactly that text. */
export interface BookingFeed {
  body: string;
  etag: string;
}

/**
 * The private iCalendar feeds of confirmed bookings, for a calendar app: an event type's (the
 * organizer's: every booking of the event type, whichever host has it) and a host's (every booking
 * of that host, of any event type, and no other host's). One VEVENT per confirmed reservation that
 * ended at most FEED_PAST_DAYS ago. Held, expired and cancelled reservations are not in it, so a
 * cancelled booking leaves the calendar at its next refresh, and a booking moved to another host
 * leaves the first host's feed.
 */
export class BookingFeedService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** The server's sender (`Name <address>`): the entries' ORGANIZER when the event type has no organizer email. */
    private readonly from: string,
  ) {}

  /** The feed whose secret is `feedToken` (an event type's or a host's), or null when nothing has it. */
  async feed(feedToken: string): Promise<BookingFeed | null> {
    if (!TOKEN_SHAPE.test(feedToken)) return null;
    const query = { fromMs: this.now() - FEED_PAST_DAYS * DAY_MS, untilMs: END_OF_TIME_MS, statuses: ["confirmed" as const], limit: FEED_MAX_BOOKINGS };
    const eventType = await this.store.eventTypes.byFeedToken(feedToken);
    if (eventType)
      return this.render(
        `Bookings: ${eventType.settings.title}`,
        await this.store.reservations.list(eventType.id, query),
        new Map([[eventType.id, eventType]]),
      );
    const host = await this.store.hosts.byFeedToken(feedToken);
    if (!host) return null;
    const reservations = await this.store.hosts.reservations(host.id, query);
    const eventTypes = new Map<number, EventTypeRecord>();
    for (const id of new Set(reservations.map((r) => r.eventTypeId))) {
      const record = await this.store.eventTypes.byId(id);
      if (record) eventTypes.set(id, record);
    }
    return this.render(`Bookings: ${host.name}`, reservations, eventTypes);
  }

  private render(name: string, reservations: ReservationRecord[], eventTypes: ReadonlyMap<number, EventTypeRecord>): BookingFeed {
    const calendar = feedCalendar(name);
    const sender = senderOf(this.from);
    for (const reservation of reservations) {
      const eventType = eventTypes.get(reservation.eventTypeId);
      if (eventType) calendar.addSubcomponent(bookingVEvent(reservation, eventType, organizerOf(eventType, reservation, sender)));
    }
    const body = `${calendar.toString()}\r\n`;
    return { body, etag: `"${new Bun.CryptoHasher("sha256").update(body).digest("base64url")}"` };
  }
}

function feedCalendar(name: string): ICAL.Component {
  const calendar = new ICAL.Component("vcalendar");
  calendar.addPropertyWithValue("version", "2.0");
  calendar.addPropertyWithValue("prodid", "-//Booking Calendar//Booking feed//EN");
  calendar.addPropertyWithValue("calscale", "GREGORIAN");
  calendar.addPropertyWithValue("method", "PUBLISH");
  setText(calendar, "x-wr-calname", name);
  // How often calendar apps should look again (RFC 7986, and the older name Outlook reads).
  calendar.addProperty(refreshInterval("refresh-interval"));
  calendar.addPropertyWithValue("x-published-ttl", "PT15M");
  return calendar;
}

function refreshInterval(name: string): ICAL.Property {
  const property = new ICAL.Property(name);
  property.setParameter("value", "DURATION");
  property.setValue(ICAL.Duration.fromString("PT15M"));
  return property;
}

/** Whether an If-None-Match header names this ETag (or any, `*`); weak forms match too (RFC 9110 weak comparison). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const candidate = tag.trim().replace(/^W\//, "");
    return candidate === "*" || candidate === etag;
  });
}
