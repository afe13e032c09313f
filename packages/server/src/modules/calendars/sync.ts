import type { LogEntry } from "../../context.ts";
import type { BusySource } from "../../domain/busy.ts";
import type { BusyInterval } from "../../domain/slots.ts";
import type { BusyObject, BusySourceRecord, Store } from "../../store/types.ts";
import { bookingUid } from "../invites/ics.ts";
import { fetchCalDav, fetchFeed, guardedFetch, type CalendarFetch } from "./fetch.ts";

/** The window and zone busy intervals are expanded in (see expand.ts). */
export interface ExpansionWindow {
  fromMs: number;
  untilMs: number;
}

/** Expands one VCALENDAR text into busy intervals meeting the window; floating and all-day times in `floatingZone`. */
export type ExpandCalendar = (ics: string, window: ExpansionWindow, floatingZone: string) => BusyInterval[];

const DAY_MS = 86_400_000;
/** How often the background worker looks for sources due. */
export const SYNC_POLL_MS = 30_000;

/** What one sync of a source did. */
export interface SyncOutcome {
  sourceId: number;
  ok: boolean;
  /** Whether the busy intervals changed (and cached slot pages with them). */
  changed: boolean;
  /** Calendar objects downloaded: only new and changed ones on an incremental sync. */
  downloaded: number;
  error: string | null;
}

/** The busy source of the server: the store's busy intervals, which seat claims read again in their own transaction. */
export function storeBusySource(store: Store): BusySource {
  return { busyBetween: (eventTypeId, fromMs, untilMs) => store.busy.between(eventTypeId, fromMs, untilMs), checkedInClaim: true };
}

/**
 * Syncs the organizer's calendars into the store: fetches what changed (CalDAV ctag and ETags, a
 * feed's ETag and Last-Modified), expands the objects into busy intervals over the booking horizon
 * in the event type's zone, and writes objects, state and intervals in one transaction (the event
 * type's revision moves when the intervals do, so cached slot pages are recomputed). A source that
 * fails keeps its last good data and records the error; nothing of a failed sync is written.
 */
export class CalendarSync {
  private readonly running = new Map<number, Promise<SyncOutcome>>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private pass: Promise<unknown> | null = null;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly options: { freshnessMinutes: number; allowPrivateAddresses: boolean },
    private readonly expand: ExpandCalendar,
    private readonly log: (entry: LogEntry) => void = () => {},
    private readonly fetchFn: CalendarFetch = guardedFetch(options.allowPrivateAddresses),
  ) {}

  /** Minutes a sync of the source stays fresh. */
  freshnessOf(source: BusySourceRecord): number {
    return source.freshnessMinutes ?? this.options.freshnessMinutes;
  }

  /** Whether the source is due for a sync at `nowMs`: never tried, or its last attempt is older than its freshness. */
  isDue(source: BusySourceRecord, nowMs: number): boolean {
    return source.lastAttemptAtMs === null || nowMs - source.lastAttemptAtMs >= this.freshnessOf(source) * 60_000;
  }

  /** Syncs one source now (joining a sync of it already under way); null when the source is unknown. */
  async syncSource(id: number): Promise<SyncOutcome | null> {
    const under = this.running.get(id);
    if (under) return under;
    const source = await this.store.busy.byId(id);
    if (!source) return null;
    const run = this.run(source).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  /** Syncs every source that is due, one after another; answers what each did. */
  async syncDue(): Promise<SyncOutcome[]> {
    const nowMs = this.now();
    const outcomes: SyncOutcome[] = [];
    for (const source of await this.store.busy.list()) {
      if (!this.isDue(source, nowMs)) continue;
      const outcome = await this.syncSource(source.id);
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
  }

  /** Starts the background worker: a pass over due sources every SYNC_POLL_MS, one pass at a time. */
  start(pollMs = SYNC_POLL_MS): void {
    if (this.timer) return;
    const tick = () => {
      if (this.pass) return;
      this.pass = this.syncDue()
        .catch((error) => this.log({ level: "error", message: "the calendar sync pass failed", error }))
        .finally(() => (this.pass = null));
    };
    tick();
    this.timer = setInterval(tick, pollMs);
  }

  /** Stops the worker and waits for a pass under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pass;
    await Promise.allSettled([...this.running.values()]);
  }

  /**
   * The hrefs of objects that are only this event type's own bookings (each UID a booking UID of
   * one of its reservations); a booking of another event type in the same calendar still blocks.
   */
  private async ownBookings(eventTypeId: number, objects: readonly BusyObject[]): Promise<Set<string>> {
    const own = new Set<string>();
    for (const object of objects) {
      const uuids = bookingUuidsOf(object.ics);
      if (uuids === null) continue;
      let all = true;
      for (const uuid of uuids) if (!(await this.store.reservations.byUuid(eventTypeId, uuid))) all = false;
      if (all) own.add(object.href);
    }
    return own;
  }

  private async run(source: BusySourceRecord): Promise<SyncOutcome> {
    const atMs = this.now();
    try {
      const eventType = await this.store.eventTypes.byId(source.eventTypeId);
      if (!eventType) throw new Error("the event type is gone");
      // ETags only: the stored texts are read back just when the intervals must be expanded again.
      const stored = await this.store.busy.objectTags(source.id);
      const changes = source.kind === "caldav" ? await fetchCalDav(source, stored, this.fetchFn) : await fetchFeed(source, stored, this.fetchFn);
      const zone = eventType.settings.timezone;
      // From a day back (a meeting under way still blocks its buffers) to a day past the horizon.
      const window = { fromMs: atMs - DAY_MS, untilMs: atMs + (eventType.settings.horizonDays + 2) * DAY_MS };
      const objectsChanged = changes.upserts.length > 0 || changes.deletes.length > 0;
      const windowMoved = source.expandedUntilMs === null || Math.abs(source.expandedUntilMs - window.untilMs) >= DAY_MS / 2 || source.syncState.zone !== zone;
      let intervals: BusyInterval[] | null = null;
      if (objectsChanged || windowMoved) {
        intervals = [];
        const objects = merged(await this.store.busy.objects(source.id), changes.upserts, changes.deletes);
        const own = await this.ownBookings(source.eventTypeId, objects);
        for (const object of objects) {
          // The event type's own bookings, written into this calendar, hold their seats already: as
          // busy times they would close their own slots (a 3-seat slot after its first booking).
          if (own.has(object.href)) continue;
          try {
            for (const i of this.expand(object.ics, window, zone)) intervals.push(i);
          } catch (error) {
            throw new Error(`cannot read ${object.href}: ${messageOf(error)}`);
          }
        }
      }
      const changed = await this.store.busy.recordSync(source.id, {
        atMs,
        syncState: { ...changes.syncState, zone },
        upserts: changes.upserts,
        deletes: changes.deletes,
        intervals,
        expandedUntilMs: intervals === null ? null : window.untilMs,
      });
      return { sourceId: source.id, ok: true, changed, downloaded: changes.downloaded, error: null };
    } catch (error) {
      const message = messageOf(error).slice(0, 500);
      this.log({ level: "warn", message: `calendar source ${source.id} (event type ${source.eventTypeId}) failed to sync; its last good data stays: ${message}` });
      await this.store.busy.recordFailure(source.id, atMs, message).catch((e) => this.log({ level: "error", message: "recording a calendar sync failure failed", error: e }));
      return { sourceId: source.id, ok: false, changed: false, downloaded: 0, error: message };
    }
  }
}

/**
 * The UIDs of bookings in a calendar object: `<reservation uuid>@booking-calendar` (invites/ics.ts
 * `bookingUid`), read from the unfolded text; null for an object holding any other event.
 */
export function bookingUuidsOf(ics: string): string[] | null {
  const uids = [...ics.replace(/\r?\n[ \t]/g, "").matchAll(/^UID[;:](?:[^\r\n:]*:)?([^\r\n]*?)\r?$/gim)].map((m) => m[1]!.trim());
  if (uids.length === 0) return null;
  const uuids: string[] = [];
  for (const uid of uids) {
    const match = BOOKING_UID.exec(uid);
    if (!match) return null;
    uuids.push(match[1]!.toLowerCase());
  }
  return uuids;
}

const BOOKING_UID = new RegExp(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})${bookingUid("").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "i");

/** The stored objects with a sync's changes applied. */
function merged(stored: readonly BusyObject[], upserts: readonly BusyObject[], deletes: readonly string[]): BusyObject[] {
  const byHref = new Map(stored.map((o) => [o.href, o]));
  for (const href of deletes) byHref.delete(href);
  for (const o of upserts) byHref.set(o.href, o);
  return [...byHref.values()];
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error && error.cause.message !== error.message ? `${error.message} (${error.cause.message})` : error.message;
  return String(error);
}
