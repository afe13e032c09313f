import type { EventTypeChange, EventTypeHost, EventTypeHostInfo, EventTypeRecord } from "../event-types.ts";
import type { ScheduleRecord } from "../hosts.ts";
import { limitsOf } from "./hosts.ts";
import { openedSecret, SEALED_COLUMNS } from "../secrets.ts";
import type { SecretBox } from "../../lib/secrets.ts";

// `event_types` rows as both engines return them (PostgreSQL with bigints read as numbers), and their records.

/** An `event_types` row (`disabled` is 0/1 in SQLite, a boolean in PostgreSQL). */
export interface EventTypeRow {
  id: number;
  revision: number;
  disabled: number | boolean;
  token_hash: string;
  override_token_hash: string;
  slug: string | null;
  link_token: string;
  feed_token: string;
  settings: string;
  webhook_secret: string;
  webhook_disabled_at_ms: number | null;
  created_at: string;
  updated_at: string;
  assignment: EventTypeRecord["assignment"];
  /** The event type's hosts as JSON `[[hostId, priority, scheduleId], ...]` in their order (see `EVENT_TYPE_HOSTS_JSON`). */
  hosts_json: string | null;
}

/**
 * An event type's hosts from `hosts_json`: per host `[hostId, priority, scheduleId, name, email,
 * timezone, avatarUrl, bookingsCalendar, scheduleTimezone, scheduleAvailability, hostRevision]`,
 * bookingsCalendar and the schedule's JSON values (or null).
 */
export function eventTypeHostsOf(text: string | null | undefined): EventTypeHostInfo[] {
  if (!text) return [];
  type Entry = [
    number | string,
    number,
    number | string | null,
    string,
    string | null,
    string,
    string | null,
    unknown,
    string | null,
    unknown,
    number | string | undefined,
    unknown,
  ];
  const list = JSON.parse(text) as Entry[];
  const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
  return list.map(([hostId, priority, scheduleId, name, email, timezone, avatarUrl, bookingsCalendar, scheduleZone, availability, revision, limits]) => ({
    hostId: Number(hostId),
    priority: Number(priority),
    scheduleId: scheduleId === null ? null : Number(scheduleId),
    name,
    email,
    timezone,
    avatarUrl,
    bookingsCalendar: json<EventTypeHostInfo["bookingsCalendar"]>(bookingsCalendar),
    schedule:
      scheduleId === null || scheduleZone === null ? null : { timezone: scheduleZone, availability: json<ScheduleRecord["availability"]>(availability)! },
    limits: limitsOf(limits),
    ...(revision === undefined || revision === null ? {} : { revision: Number(revision) }),
  }));
}

/**
 * An event type record from its row, its settings parsed from their JSON text and its webhook secret
 * opened, unless `reuse` holds them as they were parsed or opened from the same text before.
 */
export const toEventType = (
  r: EventTypeRow,
  secrets: SecretBox,
  reuse: Partial<Pick<EventTypeRecord, "settings" | "webhookSecret">> = {},
): EventTypeRecord => ({
  id: r.id,
  revision: r.revision,
  hosts: eventTypeHostsOf(r.hosts_json),
  assignment: r.assignment,
  disabled: r.disabled === true || r.disabled === 1,
  tokenHash: r.token_hash,
  overrideTokenHash: r.override_token_hash,
  slug: r.slug,
  linkToken: r.link_token,
  feedToken: r.feed_token,
  settings: reuse.settings ?? JSON.parse(r.settings),
  webhookSecret: reuse.webhookSecret ?? openedSecret(secrets, r.webhook_secret, SEALED_COLUMNS[0], r.id),
  webhookDisabledAtMs: r.webhook_disabled_at_ms,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * An engine's cache of parsed event types. Parsing the settings JSON dominates a token lookup, so a
 * record is reused while its revision holds; and since a booking bumps the revision but leaves the
 * settings text alone, the parsed settings object (and what is memoized on it) survives bookings,
 * as does the opened webhook secret.
 */
export class ParsedEventTypes {
  private readonly parsed = new Map<number, EventTypeRecord>();
  private readonly settingsText = new Map<number, string>();
  private readonly sealedSecret = new Map<number, string>();
  /** The content revision each cached record was parsed at, where the engine gives one (see `rebased`). */
  private readonly contentRevision = new Map<number, number>();

  constructor(private readonly secrets: SecretBox) {}

  /** The current record of an event type, if the cache holds this revision of it. */
  current(id: number, revision: number): EventTypeRecord | undefined {
    const hit = this.parsed.get(id);
    return hit && hit.revision === revision ? hit : undefined;
  }

  /**
   * The cached record at a new `revision` with its hosts at `hostRevisions` (in their order), when
   * it was parsed at the same `contentRevision`: a revision that moved without the content (a
   * booking) renews only the revisions; the rest, down to each host's schedule object, is kept.
   */
  rebased(id: number, contentRevision: number, revision: number, hostRevisions: readonly number[]): EventTypeRecord | undefined {
    const hit = this.parsed.get(id);
    if (!hit || this.contentRevision.get(id) !== contentRevision || hit.hosts.length !== hostRevisions.length) return undefined;
    const record: EventTypeRecord = { ...hit, revision, hosts: hit.hosts.map((h, i) => ({ ...h, revision: hostRevisions[i]! })) };
    this.parsed.set(id, record);
    return record;
  }

  /** The record last cached of an event type, whatever its revision. */
  latest(id: number): EventTypeRecord | undefined {
    return this.parsed.get(id);
  }

  /**
   * The cached record renewed by claims' revision bumps, when nothing else changed: each bump of a
   * host's booking revision adds one to that host's revision and to the event type's (for each time
   * the host is listed), each of the event type's own adds one to it. Its content stays as parsed.
   */
  bumped(id: number, bumps: { hosts: readonly number[]; eventTypes: readonly number[] }): void {
    const hit = this.parsed.get(id);
    if (!hit) return;
    let revision = hit.revision;
    for (const eventTypeId of bumps.eventTypes) if (eventTypeId === id) revision++;
    let hostsChanged = false;
    const hosts = hit.hosts.map((h) => {
      let n = 0;
      for (const hostId of bumps.hosts) if (hostId === h.hostId) n++;
      if (n === 0) return h;
      revision += n;
      hostsChanged = true;
      return h.revision === undefined ? h : { ...h, revision: h.revision + n };
    });
    if (revision !== hit.revision) this.parsed.set(id, { ...hit, revision, hosts: hostsChanged ? hosts : hit.hosts });
  }

  /** The record of a row, reusing what is still valid of the cached one; `contentRevision` lets `rebased` renew it later. */
  of(row: EventTypeRow | null | undefined, contentRevision?: number): EventTypeRecord | null {
    if (!row) return null;
    if (contentRevision === undefined) this.contentRevision.delete(row.id);
    else this.contentRevision.set(row.id, contentRevision);
    const hit = this.current(row.id, row.revision);
    if (hit) return hit;
    const previous = this.parsed.get(row.id);
    const record = toEventType(row, this.secrets, {
      ...(previous !== undefined && this.settingsText.get(row.id) === row.settings ? { settings: previous.settings } : {}),
      ...(previous !== undefined && this.sealedSecret.get(row.id) === row.webhook_secret ? { webhookSecret: previous.webhookSecret } : {}),
    });
    this.settingsText.set(row.id, row.settings);
    this.sealedSecret.set(row.id, row.webhook_secret);
    this.parsed.set(row.id, record);
    return record;
  }

  forget(id: number): void {
    this.parsed.delete(id);
    this.contentRevision.delete(id);
    this.settingsText.delete(id);
    this.sealedSecret.delete(id);
  }
}

/**
 * The webhook signing secret column after an update: the stored sealed text as it is unless the
 * change gives a new secret (sealing afresh would change the text, and make every instance's cache
 * of the opened secret read it again).
 */
export function sealedWebhookSecret(secrets: SecretBox, current: Pick<EventTypeRow, "webhook_secret">, change: Pick<EventTypeChange, "webhookSecret">): string {
  return change.webhookSecret === undefined ? current.webhook_secret : secrets.seal(change.webhookSecret, "webhook");
}

/**
 * The hosts a new event type is stored with: those given, or the default host. Priorities and
 * schedules default to 0 and none.
 */
export function hostsOrDefault(hosts: EventTypeHost[] | undefined, defaultHostId: number): EventTypeHost[] {
  return hosts && hosts.length > 0 ? hosts : [{ hostId: defaultHostId, priority: 0, scheduleId: null }];
}
