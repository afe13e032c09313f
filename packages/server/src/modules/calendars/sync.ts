import type { SyncOutcome as WireSyncOutcome } from "@booking/wire";
import type { LogEntry } from "../../context.ts";
import type { BusySource } from "../../domain/busy.ts";
import type { BusyInterval } from "../../domain/slots.ts";
import type { BusyObject, BusySourceRecord, SkippedObject } from "../../store/busy.ts";
import type { Store } from "../../store/store.ts";
import type { CalendarExpander, ObjectsExpansion } from "./expansion.ts";
import { fetchCalDav, fetchFeed, guardedFetch, type CalendarFetch } from "./fetch.ts";
import { redactUrl, redactUrls } from "../../lib/redact.ts";
import { beforeDeadline } from "../../lib/deadline.ts";
import { messageOf } from "../../lib/error-message.ts";
import { ownBookings } from "./own-bookings.ts";

/** The window and zone busy intervals are expanded in (see expand.ts). */
export interface ExpansionWindow {
  fromMs: number;
  untilMs: number;
}

/**
 * Expands one VCALENDAR text into busy intervals meeting the window (floating and all-day times in
 * `floatingZone`), a step at a time: the iterator pauses after each event and returns the intervals,
 * so the sync can keep its deadline and let requests in between steps of a big calendar. Run on the
 * thread that answers requests, so only where the calendars are trusted (tests); the server expands
 * on worker threads (ExpansionWorkers), since one step (a zone's rules) can be unbounded work.
 */
export type ExpandCalendar = (ics: string, window: ExpansionWindow, floatingZone: string) => Iterator<void, BusyInterval[]>;

const DAY_MS = 86_400_000;
/** How often the background worker looks for sources due. */
export const SYNC_POLL_MS = 30_000;
/**
 * Longest one sync of a source may take, all its requests together (a CalDAV sync makes several,
 * each allowed 30 s): past it the sync fails, keeping the last good data, and frees its place.
 */
export const SYNC_DEADLINE_MS = 120_000;
/** Longest a source that keeps failing waits between attempts: each failure in a row doubles its wait, from its freshness up to this. */
export const MAX_RETRY_WAIT_MS = 6 * 3_600_000;

/** What one sync of a source did (the wire's `SyncOutcome`), and which source it was. */
export type SyncOutcome = WireSyncOutcome & { sourceId: number };

/**
 * The busy source of the server: the store's busy intervals. They are the hosts' (every event type of
 * a host reads them), so slot lists read them with the hosts' other bookings (`store.hosts.busy`) and
 * seat claims read them again in their own transaction; this source adds nothing besides.
 */
export function storeBusySource(_store: Store): BusySource {
  return { busyBetween: () => Promise.resolve([]), checkedInClaim: true };
}

/**
 * Longest stretch of expansion between two turns of the event loop, in ms: expansion is CPU work
 * that no timer can interrupt, so a big calendar lets the requests waiting in this often.
 */
const EXPANSION_SLICE_MS = 10;

/** Syncs one process runs at once from its passes over due sources (a sync asked for by the organizer starts at once). */
const MAX_SYNCS = 16;
/**
 * Syncs of one host's sources a pass runs at once: calendars that hang (each until its deadline)
 * hold this many of the MAX_SYNCS, never all, so other hosts' syncs go on.
 */
const PER_HOST = 2;

/** A source waiting for a free sync, with those waiting for its outcome. */
interface QueuedSync {
  hostId: number;
  waiters: ((outcome: SyncOutcome | null) => void)[];
}

/**
 * Syncs the organizer's calendars into the store: fetches what changed (CalDAV ctag and ETags, a
 * feed's ETag and Last-Modified), expands the objects into busy intervals over the booking horizon
 * in the event type's zone, and writes objects, state and intervals in one transaction (the event
 * type's revision moves when the intervals do, so cached slot pages are recomputed). A source that
 * fails keeps its last good data and records the error; nothing of a failed sync is written.
 *
 * Sources sync side by side, like the outbox's deliveries: a pass queues the sources that are due,
 * at most MAX_SYNCS run at once and at most PER_EVENT_TYPE of one event type, a source is never
 * synced twice at once (a second request joins the sync under way or queued), and passes do not
 * wait for each other, so a calendar that hangs delays no other source.
 */
export class CalendarSync {
  private readonly running = new Map<number, Promise<SyncOutcome | null>>();
  /** Event types of the syncs under way that a pass started, by source id: what PER_EVENT_TYPE counts. */
  private readonly passSyncs = new Map<number, number>();
  /** Sources due and not yet started, oldest attempt first. */
  private readonly queue = new Map<number, QueuedSync>();
  private timer: ReturnType<typeof setInterval> | null = null;
  /** The listing of due sources under way: a tick while one hangs (a store that does not answer) adds no other. */
  private listing: Promise<unknown> | null = null;
  private stopped = false;
  /** Aborted by stop(): the syncs under way end at their next request or object rather than at their deadline. */
  private stopping = new AbortController();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly options: { freshnessMinutes: number; allowPrivateAddresses: boolean; syncDeadlineMs?: number },
    /** The server's ExpansionWorkers; a step-wise ExpandCalendar runs on this thread instead. Closed by stop(). */
    private readonly expand: ExpandCalendar | CalendarExpander,
    private readonly log: (entry: LogEntry) => void = () => {},
    private readonly fetchFn: CalendarFetch = guardedFetch(options.allowPrivateAddresses),
  ) {}

  /** Minutes a sync of the source stays fresh. */
  freshnessOf(source: BusySourceRecord): number {
    return source.freshnessMinutes ?? this.options.freshnessMinutes;
  }

  /**
   * Whether the source is due for a sync at `nowMs`: never tried, or its last attempt is older than
   * its freshness, doubled for each failure in a row after the first up to MAX_RETRY_WAIT_MS (or the
   * freshness, when longer): a calendar that keeps failing, past its limits or unreachable, is not
   * retried at every pass nor at every start.
   */
  isDue(source: BusySourceRecord, nowMs: number): boolean {
    if (source.lastAttemptAtMs === null) return true;
    const freshMs = this.freshnessOf(source) * 60_000;
    const waitMs = Math.max(freshMs, Math.min(freshMs * 2 ** Math.min(Math.max(source.failureCount - 1, 0), 30), MAX_RETRY_WAIT_MS));
    return nowMs - source.lastAttemptAtMs >= waitMs;
  }

  /**
   * Syncs one source now, whatever syncs are under way (joining a sync of it already under way); null
   * when the source is unknown. A joined sync that did not sync it (a pass's, which skips a source
   * synced meanwhile, or one whose store read failed) is followed by the organizer's own, whose store
   * errors reach the caller rather than passing for an unknown source.
   */
  async syncSource(id: number): Promise<SyncOutcome | null> {
    for (;;) {
      const under = this.running.get(id);
      if (!under) return this.begin(id, null);
      const outcome = await under;
      if (outcome) return outcome;
    }
  }

  /** Syncs every source that is due, side by side within the bounds; answers what each did once all are done. */
  async syncDue(): Promise<SyncOutcome[]> {
    const outcomes = await Promise.all(await this.queueDue());
    return outcomes.filter((o): o is SyncOutcome => o !== null);
  }

  /** Starts the background worker: every SYNC_POLL_MS, the sources due are queued (see the class). */
  start(pollMs = SYNC_POLL_MS): void {
    if (this.timer) return;
    this.stopped = false;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    const tick = () => {
      if (this.listing) return;
      this.listing = this.queueDue()
        .catch((error) => this.log({ level: "error", message: "the calendar sync pass failed", error }))
        .finally(() => (this.listing = null));
    };
    tick();
    this.timer = setInterval(tick, pollMs);
  }

  /**
   * Stops the worker: drops the sources still queued and ends the syncs under way, which write
   * nothing and record nothing (their sources are due again at the next start), so a shutdown never
   * waits for a slow calendar's deadline.
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    this.stopping.abort(new Error("the server is stopping"));
    await this.listing;
    for (const queued of this.queue.values()) for (const answer of queued.waiters) answer(null);
    this.queue.clear();
    await Promise.allSettled([...this.running.values()]);
    if (typeof this.expand !== "function") await this.expand.close();
  }

  /** Queues every source that is due (or joins its sync under way); answers the outcome of each. */
  private async queueDue(): Promise<Promise<SyncOutcome | null>[]> {
    const nowMs = this.now();
    const due = (await this.store.busy.list()).filter((s) => this.isDue(s, nowMs));
    // The longest waiting first: never tried, then the oldest attempt.
    due.sort((a, b) => (a.lastAttemptAtMs ?? Number.NEGATIVE_INFINITY) - (b.lastAttemptAtMs ?? Number.NEGATIVE_INFINITY));
    const outcomes = due.map((source) => this.enqueue(source));
    this.startQueued();
    return outcomes;
  }

  private enqueue(source: BusySourceRecord): Promise<SyncOutcome | null> {
    const under = this.running.get(source.id);
    if (under) return under;
    if (this.stopped) return Promise.resolve(null);
    return new Promise((resolve) => {
      const queued = this.queue.get(source.id);
      if (queued) queued.waiters.push(resolve);
      else this.queue.set(source.id, { hostId: source.hostId, waiters: [resolve] });
    });
  }

  /** Starts queued syncs while there is room, skipping hosts that have their share under way. */
  private startQueued(): void {
    if (this.stopped) return;
    for (const [id, queued] of this.queue) {
      if (this.running.size >= MAX_SYNCS) return;
      let ofHost = 0;
      for (const hostId of this.passSyncs.values()) if (hostId === queued.hostId) ofHost++;
      if (ofHost >= PER_HOST) continue;
      this.queue.delete(id);
      // An organizer's sync of it may be under way: it is joined, and it takes no slot of a pass.
      const run = this.running.get(id) ?? this.begin(id, queued.hostId);
      for (const answer of queued.waiters) void run.then(answer);
    }
  }

  /**
   * Starts a sync of the source, read afresh (it may have changed or gone while queued). A pass's
   * sync (`hostId` given) skips a source synced meanwhile; the organizer's sync always runs, and
   * a store read that fails rejects its answer (those joining it, and passes, get null and a log line).
   */
  private begin(id: number, hostId: number | null): Promise<SyncOutcome | null> {
    if (hostId !== null) this.passSyncs.set(id, hostId);
    const work = (async () => {
      const source = await this.store.busy.byId(id);
      if (!source || (hostId !== null && !this.isDue(source, this.now()))) return null;
      return this.run(source);
    })();
    const run = work
      .catch((error) => {
        this.log({ level: "error", message: `reading calendar source ${id} to sync it failed`, error });
        return null;
      })
      .finally(() => {
        this.running.delete(id);
        this.passSyncs.delete(id);
        this.startQueued();
      });
    this.running.set(id, run);
    return hostId === null ? work : run;
  }

  /** The zone and horizon a host's calendars are expanded in: the host's zone, the longest horizon of its event types. */
  private async hostWindow(hostId: number): Promise<{ zone: string; horizonDays: number }> {
    const host = await this.store.hosts.byId(hostId);
    if (!host) throw new Error("the host is gone");
    let horizonDays = 0;
    for (const id of await this.store.hosts.eventTypeIds(hostId))
      horizonDays = Math.max(horizonDays, (await this.store.eventTypes.byId(id))?.settings.horizonDays ?? 0);
    return { zone: host.timezone, horizonDays: horizonDays || 60 };
  }

  private async run(source: BusySourceRecord): Promise<SyncOutcome> {
    const atMs = this.now();
    const deadlineMs = this.options.syncDeadlineMs ?? SYNC_DEADLINE_MS;
    // Real time, not the injected clock: it bounds how long the process works on one calendar.
    const deadlineAt = performance.now() + deadlineMs;
    const timedOut = () => performance.now() >= deadlineAt;
    const stopping = this.stopping.signal;
    const deadline = AbortSignal.any([AbortSignal.timeout(deadlineMs), stopping]);
    /** Throws once the deadline has passed or the server stops; timers cannot fire during CPU work, the clock is read instead. */
    const checkTime = () => {
      deadline.throwIfAborted();
      if (timedOut()) throw new Error("deadline passed");
    };
    // Every request of the sync, its DNS lookups included, ends once the deadline passes.
    const fetchFn: CalendarFetch = (input, init = {}) =>
      this.fetchFn(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
    try {
      const { zone, horizonDays } = await this.hostWindow(source.hostId);
      // ETags only: the stored texts are read back just when the intervals must be expanded again.
      const stored = await this.store.busy.objectTags(source.id);
      const changes = await beforeDeadline(source.kind === "caldav" ? fetchCalDav(source, stored, fetchFn) : fetchFeed(source, stored, fetchFn), deadline);
      // From a day back (a meeting under way still blocks its buffers) to a day past the horizon.
      const window = { fromMs: atMs - DAY_MS, untilMs: atMs + (horizonDays + 2) * DAY_MS };
      const objectsChanged = changes.upserts.length > 0 || changes.deletes.length > 0;
      const windowMoved = source.expandedUntilMs === null || Math.abs(source.expandedUntilMs - window.untilMs) >= DAY_MS / 2 || source.syncState.zone !== zone;
      let intervals: BusyInterval[] | null = null;
      let skippedObjects: SkippedObject[] | null = null;
      if (objectsChanged || windowMoved) {
        const objects = merged(await this.store.busy.objects(source.id), changes.upserts, changes.deletes);
        const own = await ownBookings(this.store, source.hostId, objects);
        // The host's own bookings, written into this calendar, hold their seats already: as busy
        // times they would close their own slots (a 3-seat slot after its first booking).
        const others = objects.filter((o) => !own.has(o.href));
        const expansion =
          typeof this.expand === "function"
            ? await expandHere(this.expand, others, window, zone, checkTime)
            : await this.expand.expandObjects(others, window, zone, deadline);
        // An object that cannot be read is left out and named in the status; when none can be, the
        // sync fails as a whole, keeping the last good data (a feed that now serves an error page).
        const first = expansion.errors[0];
        if (first && expansion.errors.length === others.length) throw new Error(`cannot read ${first.href}: ${first.reason}`);
        intervals = expansion.intervals;
        // Shown in the source's status: a feed's object is named by the feed's URL, whose query may hold its token.
        skippedObjects = expansion.errors.map((e) => ({ href: redactUrl(e.href), reason: redactUrls(e.reason) }));
      }
      // A sync past its deadline writes nothing: its source shows the failure, as any other.
      checkTime();
      const changed = await this.store.busy.recordSync(source.id, {
        atMs,
        syncState: { ...changes.syncState, zone },
        upserts: changes.upserts,
        deletes: changes.deletes,
        intervals,
        skippedObjects,
        expandedUntilMs: intervals === null ? null : window.untilMs,
      });
      return { sourceId: source.id, ok: true, changed, downloaded: changes.downloaded, error: null };
    } catch (error) {
      if (stopping.aborted) {
        // Cut short by shutdown, not the calendar's fault: nothing recorded, so it is due again at the next start.
        return { sourceId: source.id, ok: false, changed: false, downloaded: 0, error: "the server stopped before the sync completed" };
      }
      // The message is stored, answered and logged: URLs in it lose their user name, password and query.
      const message = (
        deadline.aborted || timedOut()
          ? `no complete sync within ${deadlineMs / 1000} s (a calendar answered too slowly); given up`
          : redactUrls(messageOf(error))
      ).slice(0, 500);
      this.log({ level: "warn", message: `calendar source ${source.id} (host ${source.hostId}) failed to sync; its last good data stays: ${message}` });
      await this.store.busy
        .recordFailure(source.id, atMs, message)
        .catch((e) => this.log({ level: "error", message: "recording a calendar sync failure failed", error: e }));
      return { sourceId: source.id, ok: false, changed: false, downloaded: 0, error: message };
    }
  }
}

/**
 * Expands the objects on this thread a step at a time, letting the requests waiting in every
 * EXPANSION_SLICE_MS and checking the deadline (`checkTime` throws once it passed) between steps;
 * an object that cannot be read is left out with its reason.
 */
async function expandHere(
  expand: ExpandCalendar,
  objects: readonly BusyObject[],
  window: ExpansionWindow,
  zone: string,
  checkTime: () => void,
): Promise<ObjectsExpansion> {
  const intervals: BusyInterval[] = [];
  const errors: SkippedObject[] = [];
  let sliceStart = performance.now();
  const pause = async () => {
    checkTime();
    if (performance.now() - sliceStart < EXPANSION_SLICE_MS) return;
    await nextTurn();
    checkTime();
    sliceStart = performance.now();
  };
  for (const object of objects) {
    await pause();
    try {
      const steps = expand(object.ics, window, zone);
      for (;;) {
        const step = steps.next();
        if (step.done) {
          for (const i of step.value) intervals.push(i);
          break;
        }
        await pause();
      }
    } catch (error) {
      checkTime();
      errors.push({ href: object.href, reason: messageOf(error) });
    }
  }
  return { intervals, errors };
}

/** Resolves on a later turn of the event loop, after the I/O and timers waiting now. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The stored objects with a sync's changes applied. */
function merged(stored: readonly BusyObject[], upserts: readonly BusyObject[], deletes: readonly string[]): BusyObject[] {
  const byHref = new Map(stored.map((o) => [o.href, o]));
  for (const href of deletes) byHref.delete(href);
  for (const o of upserts) byHref.set(o.href, o);
  return [...byHref.values()];
}
