import { EXPIRED_GRACE_MS, paidHold } from "../domain/reservation.ts";
import type { BusySourceRecord, ConsoleSessionRecord, EventTypeChange, EventTypeHost, EventTypeHostInfo, EventTypeRecord, HostBusyInterval, HostRecord, HostView, OutboxDelivery, OutboxEvent, ReservationRecord, ScheduleRecord, SeatClaim, SkippedObject } from "./types.ts";
import type { BusyInterval } from "../domain/slots.ts";
import { SecretKeyError, type SecretBox, type SecretPurpose } from "../lib/secrets.ts";

// Rows as both engines return them (PostgreSQL with bigints read as numbers), and their records.

/** Idempotency keys are kept for a day, like the hold grace; the sweep deletes older ones. */
export const IDEMPOTENCY_TTL_MS = EXPIRED_GRACE_MS;
/** A keyed request that registered and then vanished (a crash) frees its key after this long. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

/** A `reservations` row. */
export interface ReservationRow {
  uuid: string;
  event_type_id: number;
  host_ids: string;
  status: ReservationRecord["status"];
  start_ms: number;
  end_ms: number;
  held_until_ms: number | null;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  timezone: string | null;
  locale: string | null;
  location: string | null;
  guests: string;
  custom_fields: string;
  meet_link: string | null;
  ics_sequence: number;
  payment: string | null;
  payment_intent_id: string | null;
  confirmed_at_ms: number | null;
  cancelled_at_ms: number | null;
  cancel_reason: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A `webhook_events` row. */
export interface WebhookRow {
  id: number;
  channel: OutboxDelivery["channel"];
  event_type_id: number;
  reservation_uuid: string;
  kind: OutboxEvent["kind"];
  msg_id: string;
  url: string;
  payload: string;
  status: OutboxDelivery["status"];
  attempts: number;
  next_attempt_at_ms: number;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at_ms: number | null;
  created_at_ms: number;
}

/** A reservation record from its row; JSON columns are text in both engines. */
export const toReservation = (r: ReservationRow): ReservationRecord => ({
  uuid: r.uuid,
  eventTypeId: r.event_type_id,
  hostIds: hostIdsOf(r.host_ids),
  status: r.status,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  phone: r.phone,
  timezone: r.timezone,
  // Only when the booking named one: records made before (and without) it read as they always did.
  ...(r.locale == null ? {} : { locale: r.locale }),
  location: r.location === null ? null : JSON.parse(r.location),
  guests: JSON.parse(r.guests),
  customFields: JSON.parse(r.custom_fields),
  meetLink: r.meet_link,
  sequence: r.ics_sequence,
  payment: r.payment === null ? null : JSON.parse(r.payment),
  confirmedAtMs: r.confirmed_at_ms,
  cancelledAtMs: r.cancelled_at_ms,
  cancelReason: r.cancel_reason,
  createdAtMs: r.created_at_ms,
  updatedAtMs: r.updated_at_ms,
});

/** The host ids of a reservation row's JSON text; the text of one host is parsed without JSON.parse. */
export function hostIdsOf(text: string | null | undefined): number[] {
  if (!text || text === "[]") return [];
  const one = /^\[(\d+)\]$/.exec(text);
  return one ? [Number(one[1])] : (JSON.parse(text) as (number | string)[]).map(Number);
}

/** A reservation's column values, named as the SQLite statements bind them: the inverse of `toReservation`. */
export const reservationColumns = (r: ReservationRecord) => ({
  uuid: r.uuid,
  eventTypeId: r.eventTypeId,
  hostIds: JSON.stringify(r.hostIds),
  status: r.status,
  startMs: r.startMs,
  endMs: r.endMs,
  heldUntilMs: r.heldUntilMs,
  email: r.email,
  firstname: r.firstname,
  lastname: r.lastname,
  phone: r.phone,
  timezone: r.timezone,
  locale: r.locale ?? null,
  location: r.location === null ? null : JSON.stringify(r.location),
  guests: JSON.stringify(r.guests),
  customFields: JSON.stringify(r.customFields),
  meetLink: r.meetLink,
  sequence: r.sequence,
  payment: r.payment === null ? null : JSON.stringify(r.payment),
  paymentIntentId: r.payment?.intentId ?? null,
  confirmedAtMs: r.confirmedAtMs,
  cancelledAtMs: r.cancelledAtMs,
  cancelReason: r.cancelReason ?? null,
  createdAtMs: r.createdAtMs,
  updatedAtMs: r.updatedAtMs,
});

/**
 * Whether saving `after` over the stored `before` moves seats (status, times or hold), which slot
 * lists and configuration depend on; a payment note does not. Without a stored row, nothing moved.
 */
export const movesSeats = (before: Pick<ReservationRow, "status" | "start_ms" | "end_ms" | "held_until_ms" | "payment"> | null | undefined, after: ReservationRecord): boolean =>
  before != null &&
  (before.status !== after.status || before.start_ms !== after.startMs || before.end_ms !== after.endMs || before.held_until_ms !== after.heldUntilMs ||
    // A payment that starts or stops keeping a hold's seat (a processing one that failed) moves it.
    paidHold({ status: before.status, startMs: before.start_ms, heldUntilMs: before.held_until_ms, payment: before.payment === null ? null : JSON.parse(before.payment) }) !== paidHold(after));

/** An outbox event with its delivery state, from its row. */
export const toDelivery = (r: WebhookRow): OutboxDelivery => ({
  id: r.id,
  channel: r.channel,
  eventTypeId: r.event_type_id,
  reservationUuid: r.reservation_uuid,
  kind: r.kind,
  msgId: r.msg_id,
  url: r.url,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAtMs: r.next_attempt_at_ms,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
  deliveredAtMs: r.delivered_at_ms,
  createdAtMs: r.created_at_ms,
});

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
  type Entry = [number | string, number, number | string | null, string, string | null, string, string | null, unknown, string | null, unknown, number | string | undefined];
  const list = JSON.parse(text) as Entry[];
  const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
  return list.map(([hostId, priority, scheduleId, name, email, timezone, avatarUrl, bookingsCalendar, scheduleZone, availability, revision]) => ({
    hostId: Number(hostId),
    priority: Number(priority),
    scheduleId: scheduleId === null ? null : Number(scheduleId),
    name,
    email,
    timezone,
    avatarUrl,
    bookingsCalendar: json<EventTypeHostInfo["bookingsCalendar"]>(bookingsCalendar),
    schedule: scheduleId === null || scheduleZone === null ? null : { timezone: scheduleZone, availability: json<ScheduleRecord["availability"]>(availability)! },
    ...(revision === undefined || revision === null ? {} : { revision: Number(revision) }),
  }));
}

/**
 * An event type record from its row, its settings parsed from their JSON text and its webhook secret
 * opened, unless `reuse` holds them as they were parsed or opened from the same text before.
 */
export const toEventType = (r: EventTypeRow, secrets: SecretBox, reuse: Partial<Pick<EventTypeRecord, "settings" | "webhookSecret">> = {}): EventTypeRecord => ({
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

/** The instant a seat claim is judged at: its clock read now (inside the write transaction), or the instant it gave. */
export const claimInstant = (claim: SeatClaim): number => (typeof claim.nowMs === "function" ? claim.nowMs() : claim.nowMs);

/** A `busy_sources` row with its counts. */
export interface BusySourceRow {
  id: number;
  host_id: number;
  kind: BusySourceRecord["kind"];
  url: string;
  username: string | null;
  secret: string | null;
  calendars: string;
  freshness_minutes: number | null;
  sync_state: string;
  last_attempt_at_ms: number | null;
  last_success_at_ms: number | null;
  last_failure_at_ms: number | null;
  last_error: string | null;
  failure_count: number;
  skipped_objects: string;
  expanded_until_ms: number | null;
  created_at_ms: number;
  object_count: number;
  interval_count: number;
}

/** The columns of a busy source with its object and interval counts, for `SELECT ... FROM busy_sources s`. */
export const BUSY_SOURCE_COLUMNS = `s.*, (SELECT count(*) FROM busy_objects o WHERE o.source_id = s.id) AS object_count,
  (SELECT count(*) FROM busy_intervals i WHERE i.source_id = s.id) AS interval_count`;

/** A busy source record from its row, its password or token opened. */
export function toBusySource(row: BusySourceRow, secrets: SecretBox): BusySourceRecord {
  return {
    id: Number(row.id),
    hostId: Number(row.host_id),
    kind: row.kind,
    url: row.url,
    username: row.username,
    secret: row.secret === null ? null : openedSecret(secrets, row.secret, SEALED_COLUMNS[1], Number(row.id)),
    calendars: JSON.parse(row.calendars) as string[],
    freshnessMinutes: row.freshness_minutes,
    syncState: JSON.parse(row.sync_state) as Record<string, string>,
    lastAttemptAtMs: row.last_attempt_at_ms,
    lastSuccessAtMs: row.last_success_at_ms,
    lastFailureAtMs: row.last_failure_at_ms,
    lastError: row.last_error,
    failureCount: Number(row.failure_count),
    skippedObjects: JSON.parse(row.skipped_objects) as SkippedObject[],
    expandedUntilMs: row.expanded_until_ms,
    objectCount: Number(row.object_count),
    intervalCount: Number(row.interval_count),
    createdAtMs: row.created_at_ms,
  };
}

/** Intervals merged where they meet or overlap, by start: what is kept and compared. */
export function mergedIntervals(intervals: readonly BusyInterval[]): BusyInterval[] {
  const sorted = intervals.filter((i) => i.endMs > i.startMs).sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const out: BusyInterval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.startMs <= last.endMs) last.endMs = Math.max(last.endMs, i.endMs);
    else out.push({ startMs: i.startMs, endMs: i.endMs });
  }
  return out;
}

/** Whether two merged interval lists are the same. */
export function sameIntervals(a: readonly BusyInterval[], b: readonly BusyInterval[]): boolean {
  return a.length === b.length && a.every((x, i) => x.startMs === b[i]!.startMs && x.endMs === b[i]!.endMs);
}

/** The columns holding sealed secrets, with what each secret is for and how an error names its row. */
export const SEALED_COLUMNS = [
  { table: "event_types", column: "webhook_secret", purpose: "webhook", what: (id: number) => `the webhook signing secret of event type #${id}` },
  { table: "busy_sources", column: "secret", purpose: "calendar", what: (id: number) => `the password or token of calendar source #${id}` },
] as const satisfies readonly { table: string; column: string; purpose: SecretPurpose; what: (id: number) => string }[];
type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** A stored secret opened. */
const openedSecret = (secrets: SecretBox, stored: string, column: SealedColumn, id: number): string => namingTheRow(column, id, () => secrets.open(stored, column.purpose));

/** Runs `work` on a row's secret; a secret that no key given opens is named by its row. */
function namingTheRow<T>(column: SealedColumn, id: number, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof SecretKeyError ? new SecretKeyError(`Cannot read ${column.what(id)}: ${error.message}.`) : error;
  }
}

/**
 * What the start of a store rewrites in one sealed column: the rows whose secret is plain (stored
 * before encryption) or sealed with an older key, with the value to store instead. A secret that
 * none of the keys opens stops the start, naming the row and the key it needs.
 */
export function resealedRows(rows: { id: number | string; value: string }[], column: SealedColumn, secrets: SecretBox): { id: number; was: string; value: string }[] {
  const changes: { id: number; was: string; value: string }[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    const value = namingTheRow(column, id, () => secrets.resealed(row.value, column.purpose));
    if (value !== null) changes.push({ id, was: row.value, value });
  }
  return changes;
}

/**
 * The webhook signing secret column after an update: the stored sealed text as it is unless the
 * change gives a new secret (sealing afresh would change the text, and make every instance's cache
 * of the opened secret read it again).
 */
export function sealedWebhookSecret(secrets: SecretBox, current: Pick<EventTypeRow, "webhook_secret">, change: Pick<EventTypeChange, "webhookSecret">): string {
  return change.webhookSecret === undefined ? current.webhook_secret : secrets.seal(change.webhookSecret, "webhook");
}

/** A row of `console_sessions`. */
export interface ConsoleSessionRow {
  id: string;
  token_hash: string;
  role: string;
  host_id: number | null;
  method: string;
  key_fingerprint: string;
  created_at_ms: number;
  expires_at_ms: number;
  last_seen_at_ms: number;
  revoked_at_ms: number | null;
  address: string;
  user_agent: string;
}

/** The console session of a `console_sessions` row. */
export function toConsoleSession(r: ConsoleSessionRow): ConsoleSessionRecord {
  return {
    id: r.id,
    tokenHash: r.token_hash,
    role: r.role as ConsoleSessionRecord["role"],
    hostId: r.host_id,
    method: r.method === "link" ? "link" : "key",
    keyFingerprint: r.key_fingerprint,
    createdAtMs: r.created_at_ms,
    expiresAtMs: r.expires_at_ms,
    lastSeenAtMs: r.last_seen_at_ms,
    revokedAtMs: r.revoked_at_ms,
    address: r.address,
    userAgent: r.user_agent,
  };
}

/** A `hosts` row (`is_default` is 0/1 in SQLite, a boolean in PostgreSQL; bigints read as numbers). */
export interface HostRow {
  id: number;
  name: string;
  email: string | null;
  timezone: string;
  avatar_url: string | null;
  is_default: number | boolean;
  bookings_calendar: string | null;
  feed_token: string;
  revision: number;
  created_at_ms: number;
  updated_at_ms: number;
}

export const toHost = (r: HostRow): HostRecord => ({
  id: Number(r.id),
  name: r.name,
  email: r.email,
  timezone: r.timezone,
  avatarUrl: r.avatar_url,
  isDefault: r.is_default === true || r.is_default === 1,
  bookingsCalendar: r.bookings_calendar === null ? null : JSON.parse(r.bookings_calendar),
  feedToken: r.feed_token,
  revision: Number(r.revision),
  createdAtMs: Number(r.created_at_ms),
  updatedAtMs: Number(r.updated_at_ms),
});

/** A `schedules` row. */
export interface ScheduleRow {
  id: number;
  host_id: number;
  name: string;
  timezone: string;
  availability: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export const toSchedule = (r: ScheduleRow): ScheduleRecord => ({
  id: Number(r.id),
  hostId: Number(r.host_id),
  name: r.name,
  timezone: r.timezone,
  availability: JSON.parse(r.availability),
  createdAtMs: Number(r.created_at_ms),
  updatedAtMs: Number(r.updated_at_ms),
});

/**
 * The hosts a new event type is stored with: those given, or the default host. Priorities and
 * schedules default to 0 and none.
 */
export function hostsOrDefault(hosts: EventTypeHost[] | undefined, defaultHostId: number): EventTypeHost[] {
  return hosts && hosts.length > 0 ? hosts : [{ hostId: defaultHostId, priority: 0, scheduleId: null }];
}

/** Per-host views of a claim: each candidate host's busy intervals and when it was last booked. */
export function hostViews(hostIds: readonly number[], busy: readonly HostBusyInterval[], lastBooked: ReadonlyMap<number, number>): HostView[] {
  return hostIds.map((hostId) => ({
    hostId,
    busy: busy.filter((b) => b.hostId === hostId).map((b) => ({ startMs: b.startMs, endMs: b.endMs })),
    lastBookedAtMs: lastBooked.get(hostId) ?? null,
  }));
}

/**
 * The hosts a claim writes: those the decision chose (which must be among the claim's candidates,
 * whose time was read and locked), or every candidate when it chose none.
 */
export function claimedHosts(record: ReservationRecord, candidates: readonly number[]): number[] {
  const chosen = record.hostIds && record.hostIds.length > 0 ? record.hostIds : [...candidates];
  if (chosen.some((id) => !candidates.includes(id))) throw new Error("a claim wrote a reservation for a host whose time it did not lock");
  return chosen;
}

