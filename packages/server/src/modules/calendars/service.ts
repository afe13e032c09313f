import {
  BUSY_SOURCE_CREDENTIAL_MAX_LENGTH,
  BUSY_SOURCE_URL_MAX_LENGTH,
  MAX_CHOSEN_CALENDARS,
  MAX_FRESHNESS_MINUTES,
  type BusySourceCreate,
  type BusySourceTestAnswer,
  type BusySourceView,
  type SyncNowAnswer,
  type SyncOutcome as WireSyncOutcome,
  type WritableCalendar,
  type WriteBookingsBody,
} from "@booking/wire";
import { addError, DomainError, ValidationFailed } from "../../domain/errors.ts";
import { utc } from "../../lib/time.ts";
import type { BusySourceKind, BusySourceRecord, NewBusySource } from "../../store/busy.ts";
import type { HostRecord } from "../../store/hosts.ts";
import type { Store } from "../../store/store.ts";
import { webhookUrlProblem } from "../webhooks/address.ts";
import { discoverCalendars, fetchCalDav, fetchFeed, guardedFetch, type CalendarFetch } from "./fetch.ts";
import type { CalendarSync } from "./sync.ts";
import type { LogEntry } from "../../context.ts";
import { isHttpUrl } from "../../lib/links.ts";
import { redactUrls } from "../../lib/redact.ts";
import { beforeDeadline } from "../../lib/deadline.ts";

/** Most busy sources one host may have. */
export const MAX_SOURCES_PER_HOST = 10;
/** The same bound, by its earlier name (sources belonged to event types before hosts). */
export const MAX_SOURCES_PER_EVENT_TYPE = MAX_SOURCES_PER_HOST;
const MAX_URL_LENGTH = BUSY_SOURCE_URL_MAX_LENGTH;
const MAX_CREDENTIAL_LENGTH = BUSY_SOURCE_CREDENTIAL_MAX_LENGTH;

/**
 * How long "sync now" waits for the sync before answering that it goes on: within Bun's 10-second
 * idle timeout of a connection and well within a client's or proxy's patience, while a CalDAV sync
 * may take up to its two-minute deadline.
 */
export const SYNC_ANSWER_MS = 8_000;

// What the organizer sends is checked here, value by value: the body's keys are the wire's `BusySourceCreate`.
export type { BusySourceView, SyncNowAnswer } from "@booking/wire";
/** What the organizer sends to add a busy source, before it is checked. */
export type BusySourceInput = BusySourceCreate;
/** What the organizer sends to have bookings written into a calendar of a CalDAV source, before it is checked. */
export type WriteBookingsInput = WriteBookingsBody;

/**
 * The organizer's operations on busy sources, shared by the admin API, the CLI (through it) and the
 * assistant's tools: add (checked), list with sync status, remove, sync now.
 */
export class CalendarAdmin {
  /** Syncs asked for with "sync now" and not yet ended, by source. */
  private readonly syncing = new Map<number, Promise<unknown>>();

  constructor(
    private readonly store: Store,
    private readonly sync: CalendarSync,
    private readonly now: () => number,
    private readonly allowPrivateAddresses: boolean,
    private readonly fetchFn: CalendarFetch = guardedFetch(allowPrivateAddresses),
    private readonly log: (entry: LogEntry) => void = () => {},
    /** How long `syncNowWithin` waits for the sync before answering `syncing`. */
    private readonly answerWithinMs = SYNC_ANSWER_MS,
  ) {}

  /** The calendars of the event type's hosts. */
  async list(eventTypeId: number): Promise<BusySourceView[]> {
    const eventType = await this.eventType(eventTypeId);
    const views: BusySourceView[] = [];
    for (const h of eventType.hosts) views.push(...(await this.listOfHost(h.hostId, eventTypeId)));
    return views;
  }

  /** The host's calendars. */
  async listOfHost(hostId: number, eventTypeId?: number): Promise<BusySourceView[]> {
    const host = await this.host(hostId);
    const nowMs = this.now();
    const shownEventType = eventTypeId ?? (await this.store.hosts.eventTypeIds(hostId))[0] ?? null;
    return (await this.store.busy.list(hostId)).map((s) => this.viewOf(s, nowMs, host, shownEventType));
  }

  async get(sourceId: number): Promise<BusySourceView> {
    const source = await this.source(sourceId);
    const host = await this.store.hosts.byId(source.hostId);
    return this.viewOf(source, this.now(), host, (await this.store.hosts.eventTypeIds(source.hostId))[0] ?? null);
  }

  /**
   * Has the host's confirmed bookings (of every event type) written into a calendar of this CalDAV
   * source: the calendar asked for, which must be one the source's account has, or else the first one
   * found (among the chosen calendars when the source names some). Replaces the host's earlier
   * bookings calendar, if any; bookings from then on are written, earlier ones are not.
   */
  async writeBookings(sourceId: number, input: WriteBookingsInput): Promise<BusySourceView> {
    const source = await this.source(sourceId);
    const asked = input.calendar;
    if (source.kind !== "caldav")
      throw new ValidationFailed({ kind: ["Bookings can be written into a CalDAV calendar only; this source is an iCalendar feed."] });
    if (asked !== undefined && asked !== null && (typeof asked !== "string" || asked.length > MAX_URL_LENGTH || !isHttpUrl(asked, source.url))) {
      throw new ValidationFailed({ calendar: ["Expected a calendar URL (absolute, or a path on the source's server)."] });
    }
    const found = (await this.writableCalendars(source)).map((c) => c.url);
    let calendarUrl: string | undefined;
    if (typeof asked === "string") {
      const wanted = trailingSlash(new URL(asked, source.url).href);
      calendarUrl = found.find((c) => c === wanted);
      if (!calendarUrl) throw new ValidationFailed({ calendar: [`The account has no such calendar; it has: ${found.join(", ") || "none"}.`] });
    } else {
      const chosen = source.calendars.map(trailingSlash);
      calendarUrl = found.find((c) => chosen.includes(c)) ?? found[0];
      if (!calendarUrl) throw new ValidationFailed({ calendar: ["The account has no calendar with events to write into."] });
    }
    await this.setBookingsCalendar(source.hostId, { sourceId, calendarUrl });
    return this.get(sourceId);
  }

  /**
   * The calendars of a CalDAV source's account that bookings may be written into (every calendar
   * with events, not only those read for busy times), each with its name, and which one they are
   * written into now: what the console offers to choose from. Listed within the answer window;
   * a feed has none to write into (422 on `kind`).
   */
  async calendarsOf(sourceId: number): Promise<WritableCalendar[]> {
    const source = await this.source(sourceId);
    if (source.kind !== "caldav")
      throw new ValidationFailed({ kind: ["Bookings can be written into a CalDAV calendar only; this source is an iCalendar feed."] });
    const host = await this.store.hosts.byId(source.hostId);
    const writing = host?.bookingsCalendar?.sourceId === sourceId ? host.bookingsCalendar.calendarUrl : null;
    return (await this.writableCalendars(source)).map((c) => ({ ...c, writing: c.url === writing }));
  }

  /** Discovers the account's calendars with events (URLs with a trailing slash); 422 on `calendar` when they cannot be listed in time. */
  private async writableCalendars(source: BusySourceRecord): Promise<{ url: string; name: string }[]> {
    // The discovery runs inside the request: it must end within the answer window, as "sync now" does.
    const late = AbortSignal.timeout(this.answerWithinMs);
    const fetchFn: CalendarFetch = (url, init = {}) => this.fetchFn(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, late]) : late });
    try {
      // Every calendar of the account may be written into, not only those read for busy times.
      const found = await beforeDeadline(discoverCalendars({ ...source, calendars: [] }, fetchFn), late);
      return found.map((c) => {
        const url = trailingSlash(new URL(c.url, source.url).href);
        const name = typeof c.displayName === "string" && c.displayName.trim() !== "" ? c.displayName.trim() : url;
        return { url, name };
      });
    } catch (error) {
      if (late.aborted) {
        throw new ValidationFailed({
          calendar: [
            `The calendar server did not list the source's calendars within ${this.answerWithinMs / 1000} s; nothing was changed. Try again once it answers faster.`,
          ],
        });
      }
      throw new ValidationFailed({
        calendar: [`The source's calendars could not be listed: ${redactUrls(error instanceof Error ? error.message : String(error))}`],
      });
    }
  }

  /** Stops writing bookings into this source's calendar (nothing already written is removed). */
  async stopWritingBookings(sourceId: number): Promise<BusySourceView> {
    const source = await this.source(sourceId);
    const host = await this.host(source.hostId);
    if (host.bookingsCalendar?.sourceId === sourceId) await this.setBookingsCalendar(source.hostId, null);
    return this.get(sourceId);
  }

  /** Adds a calendar to the event type's host (its first host, for a team). */
  async add(eventTypeId: number, input: BusySourceInput): Promise<BusySourceView> {
    const eventType = await this.eventType(eventTypeId);
    const view = await this.addToHost(eventType.hosts[0]!.hostId, input);
    return { ...view, eventTypeId };
  }

  /** Adds a calendar to the host: its busy times block every event type of the host. */
  async addToHost(hostId: number, input: BusySourceInput): Promise<BusySourceView> {
    await this.host(hostId);
    const checked = this.check(input);
    if ((await this.store.busy.list(hostId)).length >= MAX_SOURCES_PER_HOST) {
      throw new ValidationFailed({ url: [`A host reads at most ${MAX_SOURCES_PER_HOST} calendars; remove one first.`] });
    }
    const record = await this.store.busy.add({ ...checked, hostId }, this.now());
    return this.get(record.id);
  }

  /**
   * Tries a calendar as `add` would store it, without storing anything: the URL and credentials
   * are checked, then its objects are fetched once (a CalDAV account's calendars discovered) within
   * SYNC_ANSWER_MS. Answers how many calendar objects it holds; a calendar that cannot be read is a
   * 422 on `url` with the reason (URLs in it without credentials or query), so a form can show it
   * where the URL was typed. For an event type, as its first host's calendar (see `add`).
   */
  async test(eventTypeId: number, input: BusySourceInput): Promise<BusySourceTestAnswer> {
    const eventType = await this.eventType(eventTypeId);
    return this.testForHost(eventType.hosts[0]!.hostId, input);
  }

  /** Tries a calendar as `addToHost` would store it, without storing anything (see `test`). */
  async testForHost(hostId: number, input: BusySourceInput): Promise<BusySourceTestAnswer> {
    await this.host(hostId);
    const checked = this.check(input);
    const source: BusySourceRecord = {
      ...checked,
      id: 0,
      hostId,
      syncState: {},
      lastAttemptAtMs: null,
      lastSuccessAtMs: null,
      lastFailureAtMs: null,
      lastError: null,
      failureCount: 0,
      skippedObjects: [],
      expandedUntilMs: null,
      objectCount: 0,
      intervalCount: 0,
      createdAtMs: this.now(),
    };
    const late = AbortSignal.timeout(this.answerWithinMs);
    const fetchFn: CalendarFetch = (url, init = {}) => this.fetchFn(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, late]) : late });
    try {
      const fetched = await beforeDeadline(source.kind === "caldav" ? fetchCalDav(source, [], fetchFn) : fetchFeed(source, [], fetchFn), late);
      return { ok: true, objects: fetched.upserts.length };
    } catch (error) {
      if (late.aborted) throw new ValidationFailed({ url: [`The calendar did not answer within ${this.answerWithinMs / 1000} s.`] });
      throw new ValidationFailed({ url: [`The calendar could not be read: ${redactUrls(error instanceof Error ? error.message : String(error))}`] });
    }
  }

  async remove(sourceId: number): Promise<void> {
    const source = await this.source(sourceId);
    const host = await this.store.hosts.byId(source.hostId);
    // No writes into a calendar whose credentials are gone: the host stops naming it first.
    if (host?.bookingsCalendar?.sourceId === sourceId) await this.setBookingsCalendar(source.hostId, null);
    if (!(await this.store.busy.remove(sourceId))) throw notFound(sourceId);
  }

  private async setBookingsCalendar(hostId: number, bookingsCalendar: { sourceId: number; calendarUrl: string } | null): Promise<void> {
    const updated = await this.store.hosts.update(hostId, { bookingsCalendar }, this.now());
    if (!updated) throw new DomainError("not_found", `No host with id ${hostId}.`);
  }

  /** Syncs the source now; answers what the sync did and the source as it then is, however long the sync takes. */
  async syncNow(sourceId: number): Promise<{ sync: WireSyncOutcome; source: BusySourceView }> {
    const outcome = await this.sync.syncSource(sourceId);
    if (!outcome) throw notFound(sourceId);
    const { sourceId: _id, ...sync } = outcome;
    return { sync, source: await this.get(sourceId) };
  }

  /**
   * Syncs the source now and answers within the answer window: what the sync did when it ended in
   * time, else `syncing` with the source as it is, while the sync goes on (the source's `syncing`
   * shows it, and its `lastAttemptAt` moves once it ends). For callers that must answer in time,
   * as an HTTP request must before its connection is closed.
   */
  async syncNowWithin(sourceId: number): Promise<SyncNowAnswer> {
    const run = this.syncNow(sourceId);
    const late = AbortSignal.timeout(this.answerWithinMs);
    const first = await beforeDeadline(run, late).catch((error: unknown) => {
      if (late.aborted && error === late.reason) return "late" as const;
      throw error;
    });
    if (first !== "late") return { state: "done", ...first };
    if (!this.syncing.has(sourceId)) {
      // Nobody awaits the sync any more: its failures are logged here, and the source records the outcome.
      const tracked = run
        .catch((error) => this.log({ level: "error", message: `the sync of calendar source ${sourceId} asked for with sync now failed`, error }))
        .finally(() => {
          if (this.syncing.get(sourceId) === tracked) this.syncing.delete(sourceId);
        });
      this.syncing.set(sourceId, tracked);
    } else run.catch(() => undefined);
    return { state: "syncing", sync: null, source: await this.get(sourceId) };
  }

  /** Checks an add request field by field: 422 listing every problem. */
  private check(input: BusySourceInput): Omit<NewBusySource, "hostId"> {
    const errors: Record<string, string[]> = {};
    const kind = input.kind;
    if (kind !== "caldav" && kind !== "ical") addError(errors, "kind", 'Expected "caldav" or "ical".');
    let url = "";
    if (typeof input.url !== "string" || input.url.length > MAX_URL_LENGTH)
      addError(errors, "url", `Expected an http(s) URL of at most ${MAX_URL_LENGTH} characters.`);
    else {
      // webcal:// is how calendar apps publish feeds; it is plain HTTP(S) underneath.
      url = input.url.replace(/^webcals?:\/\//i, (m) => (m.toLowerCase() === "webcals://" ? "https://" : "http://"));
      const problem = webhookUrlProblem(url, this.allowPrivateAddresses);
      if (problem)
        addError(
          errors,
          "url",
          problem
            .replace(
              "Credentials do not belong in a webhook URL; use the signature to authenticate.",
              "Send the user name and password as fields, not in the URL.",
            )
            .replace("Webhooks cannot go", "Calendars cannot be read from"),
        );
    }
    const text = (field: "username" | "password" | "token"): string | null => {
      const value = input[field];
      if (value === undefined || value === null || value === "") return null;
      if (typeof value !== "string" || value.length > MAX_CREDENTIAL_LENGTH || /[\r\n]/.test(value)) {
        addError(errors, field, `Expected text of at most ${MAX_CREDENTIAL_LENGTH} characters on one line.`);
        return null;
      }
      return value;
    };
    const username = text("username");
    const password = text("password");
    const token = text("token");
    if (password !== null && token !== null) addError(errors, "token", "Send a password or a token, not both.");
    if (password !== null && username === null) addError(errors, "username", "A password needs a user name.");
    if (username?.includes(":")) addError(errors, "username", "A user name cannot contain a colon.");
    let calendars: string[] = [];
    if (input.calendars !== undefined && input.calendars !== null) {
      if (kind === "ical") addError(errors, "calendars", "A feed is one calendar; calendars apply to CalDAV sources only.");
      else if (!Array.isArray(input.calendars) || input.calendars.length > MAX_CHOSEN_CALENDARS)
        addError(errors, "calendars", `Expected a list of at most ${MAX_CHOSEN_CALENDARS} calendar URLs.`);
      else {
        calendars = [];
        input.calendars.forEach((c, i) => {
          let ok = typeof c === "string" && c.length <= MAX_URL_LENGTH;
          if (ok) {
            try {
              ok = /^https?:$/.test(new URL(c as string, url || undefined).protocol);
            } catch {
              ok = false;
            }
          }
          if (!ok) addError(errors, `calendars.${i}`, "Expected a calendar URL (absolute, or a path on the source's server).");
          else calendars.push(new URL(c as string, url).href);
        });
      }
    }
    let freshnessMinutes: number | null = null;
    if (input.freshnessMinutes !== undefined && input.freshnessMinutes !== null) {
      const f = input.freshnessMinutes;
      if (typeof f !== "number" || !Number.isInteger(f) || f < 1 || f > MAX_FRESHNESS_MINUTES)
        addError(errors, "freshnessMinutes", `Expected whole minutes from 1 to ${MAX_FRESHNESS_MINUTES}.`);
      else freshnessMinutes = f;
    }
    ValidationFailed.check(errors);
    return { kind: kind as BusySourceKind, url, username, secret: password ?? token, calendars, freshnessMinutes };
  }

  private viewOf(s: BusySourceRecord, nowMs: number, host: Pick<HostRecord, "bookingsCalendar"> | null, eventTypeId: number | null): BusySourceView {
    const writing = host?.bookingsCalendar?.sourceId === s.id ? host.bookingsCalendar : null;
    const freshnessMinutes = this.sync.freshnessOf(s);
    // A successful sync clears the error: one kept means the latest attempt failed.
    const failing = s.lastError !== null;
    return {
      id: s.id,
      hostId: s.hostId,
      eventTypeId,
      kind: s.kind,
      url: s.url,
      username: s.username,
      credentialsSet: s.secret !== null,
      calendars: s.calendars,
      freshnessMinutes,
      status: s.lastAttemptAtMs === null ? "never" : failing ? "failing" : "ok",
      stale: s.lastSuccessAtMs === null || nowMs - s.lastSuccessAtMs > freshnessMinutes * 60_000,
      lastAttemptAt: s.lastAttemptAtMs === null ? null : utc(s.lastAttemptAtMs),
      lastSuccessAt: s.lastSuccessAtMs === null ? null : utc(s.lastSuccessAtMs),
      lastFailureAt: s.lastFailureAtMs === null ? null : utc(s.lastFailureAtMs),
      lastError: failing ? s.lastError : null,
      skippedObjects: s.skippedObjects,
      objects: s.objectCount,
      busyIntervals: s.intervalCount,
      syncing: this.syncing.has(s.id),
      writeBookings: writing !== null,
      writeCalendar: writing?.calendarUrl ?? null,
    };
  }

  private async eventType(id: number) {
    const et = await this.store.eventTypes.byId(id);
    if (!et) throw new DomainError("not_found", `No event type with id ${id}.`);
    return et;
  }

  private async host(id: number): Promise<HostRecord> {
    const host = await this.store.hosts.byId(id);
    if (!host) throw new DomainError("not_found", `No host with id ${id}.`);
    return host;
  }

  private async source(id: number): Promise<BusySourceRecord> {
    const s = await this.store.busy.byId(id);
    if (!s) throw notFound(id);
    return s;
  }
}

const trailingSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);

function notFound(id: number): DomainError {
  return new DomainError("not_found", `No busy source with id ${id}.`);
}
