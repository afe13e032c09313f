import { DateTime } from "luxon";
import {
  THEME_COLOR_KEYS,
  type AdminBookingDetail,
  type AdminBookingPage,
  type AdminBookingView,
  type CreatedEventType,
  type DeliveryView,
  type EventTypeCreate,
  type EventTypePatch,
  type EventTypeView,
  type IssuedTokens,
  type OrganizerReservationView,
  type RotatedFeedToken,
  type RotatedWebhookSecret,
  type WebhookDeliveryView,
} from "@booking/wire";
import { DEFAULT_SETTINGS, reminderMinutesOf, type CustomFieldDefinition, type EventTypeSettings } from "../../domain/event-type.ts";
import { checkAvailability } from "../../domain/availability.ts";
import { addError, DomainError, ValidationFailed } from "../../domain/errors.ts";
import { FEED_TOKEN_PREFIX, hashToken, LINK_TOKEN_PREFIX, newToken, newWebhookSecret } from "../../lib/tokens.ts";
import { SlugTakenError } from "../../store/errors.ts";
import type { EventTypeHost, EventTypeRecord } from "../../store/event-types.ts";
import type { OutboxDelivery, WebhookAttempt } from "../../store/outbox.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { statusAt } from "../../domain/reservation.ts";
import { canonicalZone, utc } from "../../lib/time.ts";
import { webhookUrlProblem } from "../webhooks/address.ts";
import type { Static } from "@sinclair/typebox";
import type { ReservationListQuery as ReservationListQuerySchema, ReservationSearchQuery as ReservationSearchQuerySchema } from "./model.ts";
import { isHttpUrl, manageUrlOf } from "../../lib/links.ts";
import { isUuid } from "../../lib/ids.ts";

export type { EventTypeView, IssuedTokens } from "@booking/wire";

const CSS_LENGTH = /^(0|\d{1,4}(\.\d{1,3})?(px|rem|em|%))$/;
// Colours reach the calendar's style sheet; allow colour syntax, never a way out of the declaration.
const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}|(rgb|rgba|hsl|hsla|oklch|oklab|lab|lch|color)\([0-9a-zA-Z.,%/ +-]{1,80}\))$/;

/** Organizer operations on event types, shared by the admin API and (later) other organizer channels. */
export class AdminService {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly options: { allowPrivateWebhooks: boolean } = { allowPrivateWebhooks: true },
  ) {}

  async list(): Promise<EventTypeView[]> {
    return (await this.store.eventTypes.list()).map(viewOf);
  }

  async get(id: number): Promise<EventTypeView> {
    return viewOf(await this.existing(id));
  }

  /** Creates an event type; the answer carries its API and override tokens and its `whsec_` webhook signing secret, shown this once. */
  async create(input: EventTypeCreate): Promise<CreatedEventType> {
    const { disabled, slug, hosts: hostInput, assignment, ...changes } = input;
    const settings = resolveSettings({ ...DEFAULT_SETTINGS, title: input.title }, changes, this.options.allowPrivateWebhooks);
    // Without hosts named, the event type belongs to the default host (a one-person install).
    const hosts = hostInput === undefined ? undefined : await this.checkHosts(hostInput);
    const token = newToken("bk_");
    const overrideToken = newToken("bko_");
    const record = await slugUnique(() =>
      this.store.eventTypes.create(
        {
          disabled: disabled ?? false,
          tokenHash: hashToken(token),
          overrideTokenHash: hashToken(overrideToken),
          slug: slug ?? null,
          linkToken: newToken(LINK_TOKEN_PREFIX),
          feedToken: newToken(FEED_TOKEN_PREFIX),
          settings,
          webhookSecret: newWebhookSecret(),
          ...(hosts ? { hosts } : {}),
          ...(assignment ? { assignment } : {}),
        },
        new Date(this.now()).toISOString(),
      ),
    );
    return { ...viewOf(record), token, overrideToken, webhookSecret: record.webhookSecret };
  }

  async update(id: number, patch: EventTypePatch): Promise<EventTypeView> {
    return viewOf(await this.updateRecord(id, patch));
  }

  /** Applies a patch checked as the admin API checks it; the stored record as it now is. */
  async updateRecord(id: number, patch: EventTypePatch): Promise<EventTypeRecord> {
    const current = await this.existing(id);
    const { disabled, slug, hosts: hostInput, assignment, ...changes } = patch;
    const settings = resolveSettings(current.settings, changes, this.options.allowPrivateWebhooks);
    const hosts = hostInput === undefined ? undefined : await this.checkHosts(hostInput);
    const updated = await slugUnique(() =>
      this.store.eventTypes.update(
        id,
        {
          settings,
          ...(disabled === undefined ? {} : { disabled }),
          ...(slug === undefined ? {} : { slug }),
          ...(hosts === undefined ? {} : { hosts }),
          ...(assignment === undefined ? {} : { assignment }),
          // Setting the URL again (even to the same one) resumes an endpoint that answered 410.
          ...(changes.webhookUrl !== undefined ? { webhookDisabledAtMs: null } : {}),
        },
        new Date(this.now()).toISOString(),
      ),
    );
    if (!updated) throw notFound(id);
    return updated;
  }

  async setDisabled(id: number, disabled: boolean): Promise<EventTypeView> {
    await this.existing(id);
    const updated = await this.store.eventTypes.update(id, { disabled }, new Date(this.now()).toISOString());
    if (!updated) throw notFound(id);
    return viewOf(updated);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.store.eventTypes.delete(id))) throw notFound(id);
  }

  /** Issues a new webhook signing secret, shown this once; events signed from now on use it. */
  async rotateWebhookSecret(id: number): Promise<RotatedWebhookSecret> {
    await this.existing(id);
    const webhookSecret = newWebhookSecret();
    await this.store.eventTypes.update(id, { webhookSecret }, new Date(this.now()).toISOString());
    return { id, webhookSecret };
  }

  /** The most recent webhook events with their delivery state and attempts, newest first. */
  async webhookDeliveries(id: number, limit: number): Promise<WebhookDeliveryView[]> {
    await this.existing(id);
    return (await this.store.webhooks.recent(id, limit)).map(deliveryView);
  }

  /** The most recent outbox events of every channel (webhooks, emails), newest first, each with its `channel`. */
  async deliveries(id: number, limit: number): Promise<DeliveryView[]> {
    await this.existing(id);
    return (await this.store.outbox.recent(id, limit)).map((d) => ({ channel: d.channel, ...deliveryView(d) }));
  }

  /**
   * Issues a new API token (or override token); the old one stops working at once. A new API token
   * comes with a new link token, so one regeneration revokes every credential a page or client got.
   */
  async regenerateToken(id: number, kind: "api" | "override"): Promise<IssuedTokens> {
    await this.existing(id);
    const token = newToken(kind === "api" ? "bk_" : "bko_");
    if (kind === "override") {
      await this.store.eventTypes.update(id, { overrideTokenHash: hashToken(token) }, new Date(this.now()).toISOString());
      return { id, overrideToken: token };
    }
    const linkToken = newToken(LINK_TOKEN_PREFIX);
    await this.store.eventTypes.update(id, { tokenHash: hashToken(token), linkToken }, new Date(this.now()).toISOString());
    return { id, token, linkToken };
  }

  /** Issues a new secret for the event type's booking feed; the feed's old address stops working at once. */
  async rotateFeedToken(id: number): Promise<RotatedFeedToken> {
    await this.existing(id);
    const feedToken = newToken(FEED_TOKEN_PREFIX);
    const updated = await this.store.eventTypes.update(id, { feedToken }, new Date(this.now()).toISOString());
    if (!updated) throw notFound(id);
    return { id, feedToken };
  }

  /** The reservations of a date range (days in `timezone`, default the event type's), as the organizer's list shows them. */
  async reservations(id: number, query: ReservationListQuery): Promise<OrganizerReservationView[]> {
    const { zone, rows } = await this.reservationRecords(id, query);
    return rows.map(({ record, status }) => reservationView(record, status, zone));
  }

  /**
   * The reservation records of a date range with their status derived from time (at most 5000),
   * and the zone the days were read in. 422 for unknown zones, malformed dates or ranges over 366 days.
   */
  async reservationRecords(id: number, query: ReservationListQuery): Promise<{ eventType: EventTypeRecord; zone: string; rows: { record: ReservationRecord; status: ReservationRecord["status"] }[] }> {
    const eventType = await this.existing(id);
    const errors: Record<string, string[]> = {};
    const asked = canonicalZone(query.timezone ?? eventType.settings.timezone);
    if (asked === null) addError(errors, "timezone", "Unknown IANA timezone.");
    const zone = asked ?? "UTC";
    const from = DateTime.fromISO(query.from, { zone });
    const until = DateTime.fromISO(query.until, { zone });
    if (!from.isValid) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
    if (!until.isValid) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
    if (from.isValid && until.isValid && until < from) addError(errors, "until", "Must not be before from.");
    if (from.isValid && until.isValid && until.diff(from, "days").days > 366) addError(errors, "until", "The range spans at most 366 days.");
    ValidationFailed.check(errors);
    const nowMs = this.now();
    // Time moves stored statuses on (held to expired to cancelled) before any sweep writes it down,
    // so read every stored status that can have become the asked one, then filter on the derived one.
    const rows = await this.store.reservations.list(id, {
      fromMs: from.startOf("day").toMillis(),
      untilMs: until.plus({ days: 1 }).startOf("day").toMillis(),
      ...(query.status ? { statuses: STORED_AS[query.status] } : {}),
      limit: 5000,
    });
    return {
      eventType,
      zone,
      rows: rows.map((record) => ({ record, status: statusAt(record, nowMs) })).filter(({ status }) => query.status === undefined || status === query.status),
    };
  }

  /**
   * One page of the organizer's bookings across event types, filtered by event type, status, days
   * (UTC, or `timezone`), upcoming or past (`when`, from the server's clock) and a part of the name or email; paged by the opaque `cursor` the page
   * before answered as `next` (null on the last page). Every page costs the same however deep.
   * A status filter is applied to the status time has made of each row, so a page may hold fewer
   * than `limit` rows and still have a next one.
   */
  async searchReservations(query: ReservationSearchQuery, origin: string): Promise<AdminBookingPage> {
    const errors: Record<string, string[]> = {};
    const zone = canonicalZone(query.timezone ?? "UTC");
    if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
    const from = query.from === undefined ? null : DateTime.fromISO(query.from, { zone: zone ?? "UTC" });
    const until = query.until === undefined ? null : DateTime.fromISO(query.until, { zone: zone ?? "UTC" });
    if (from && !from.isValid) addError(errors, "from", "Expected a calendar date, YYYY-MM-DD.");
    if (until && !until.isValid) addError(errors, "until", "Expected a calendar date, YYYY-MM-DD.");
    if (from?.isValid && until?.isValid && until < from) addError(errors, "until", "Must not be before from.");
    const after = query.cursor === undefined ? undefined : cursorOf(query.cursor);
    if (after === null) addError(errors, "cursor", "Not a cursor this list answered; start from the first page.");
    const text = query.q?.trim();
    if (text !== undefined && /[\u0000-\u001f\u007f]/.test(text)) addError(errors, "q", "Search text is one line of visible text.");
    ValidationFailed.check(errors);
    const limit = query.limit ?? 50;
    const nowMs = this.now();
    // Upcoming: starting from now on; past: started before now. Either narrows the days asked for.
    let fromMs = from?.isValid ? from.startOf("day").toMillis() : undefined;
    let untilMs = until?.isValid ? until.plus({ days: 1 }).startOf("day").toMillis() : undefined;
    if (query.when === "upcoming") fromMs = Math.max(fromMs ?? nowMs, nowMs);
    if (query.when === "past") untilMs = Math.min(untilMs ?? nowMs, nowMs);
    const eventTypes = new Map((await this.store.eventTypes.list()).map((et) => [et.id, et]));
    const rows = await this.store.reservations.search({
      ...(query.eventTypeId === undefined ? {} : { eventTypeIds: [query.eventTypeId] }),
      ...(query.hostId === undefined ? {} : { hostId: query.hostId }),
      ...(fromMs === undefined ? {} : { fromMs }),
      ...(untilMs === undefined ? {} : { untilMs }),
      ...(query.status ? { statuses: STORED_AS[query.status] } : {}),
      ...(text ? { text } : {}),
      ...(after ? { after } : {}),
      // The past reads back from now: the most recent first, unless asked otherwise.
      order: query.order ?? (query.when === "past" ? "desc" : "asc"),
      limit,
    });
    const items = rows
      .map((record) => ({ record, status: statusAt(record, nowMs) }))
      .filter(({ status }) => query.status === undefined || status === query.status)
      .map(({ record, status }): AdminBookingView => {
        const eventType = eventTypes.get(record.eventTypeId);
        return {
          eventTypeId: record.eventTypeId,
          eventTypeTitle: eventType?.settings.title ?? "",
          manageUrl: eventType ? manageUrlOf(origin, eventType.slug, record.uuid) : null,
          ...reservationView(record, status, zone ?? "UTC"),
        };
      });
    const last = rows.at(-1);
    return { items, next: rows.length === limit && last ? cursorFor(last) : null };
  }

  /** One reservation of the event type as the organizer's list shows it, with its manage link and its deliveries of every channel. */
  async reservation(id: number, uuid: string, origin: string): Promise<AdminBookingDetail> {
    const eventType = await this.existing(id);
    const record = isUuid(uuid) ? await this.store.reservations.byUuid(id, uuid.toLowerCase()) : null;
    if (!record) throw new DomainError("not_found", `No reservation ${uuid.slice(0, 40)} of event type ${id}.`);
    const deliveries = (await this.store.outbox.recent(id, 500)).filter((d) => d.reservationUuid === record.uuid).map((d) => ({ channel: d.channel, ...deliveryView(d) }));
    return {
      eventTypeId: id,
      eventTypeTitle: eventType.settings.title,
      manageUrl: manageUrlOf(origin, eventType.slug, record.uuid),
      ...reservationView(record, statusAt(record, this.now()), eventType.settings.timezone),
      deliveries,
    };
  }

  /** Makes one failed or waiting delivery due now (the worker's next pass tries it); 404 when it cannot be retried. */
  async retryDelivery(id: number, deliveryId: number): Promise<void> {
    await this.existing(id);
    if (!(await this.store.outbox.retryNow(id, deliveryId, this.now()))) {
      throw new DomainError("not_found", `No delivery ${deliveryId} of event type ${id} that can be retried: it was delivered, is being sent right now, or was withdrawn.`);
    }
  }

  /** Checks the hosts an event type is given: known, each once, each schedule one of its host's. 422 naming every problem. */
  private async checkHosts(input: NonNullable<EventTypePatch["hosts"]>): Promise<EventTypeHost[]> {
    const errors: Record<string, string[]> = {};
    const seen = new Set<number>();
    const known = new Map((await this.store.hosts.byIds(input.map((h) => h.hostId))).map((h) => [h.id, h]));
    const hosts: EventTypeHost[] = [];
    for (const [i, h] of input.entries()) {
      if (!known.has(h.hostId)) addError(errors, `hosts.${i}.hostId`, `No host with id ${h.hostId}.`);
      if (seen.has(h.hostId)) addError(errors, `hosts.${i}.hostId`, "Each host may appear once.");
      seen.add(h.hostId);
      const scheduleId = h.scheduleId ?? null;
      if (scheduleId !== null) {
        const schedule = await this.store.schedules.byId(scheduleId);
        if (!schedule || schedule.hostId !== h.hostId) addError(errors, `hosts.${i}.scheduleId`, `Host ${h.hostId} has no schedule with id ${scheduleId}.`);
      }
      hosts.push({ hostId: h.hostId, priority: h.priority ?? 0, scheduleId });
    }
    ValidationFailed.check(errors);
    return hosts;
  }

  /** The stored event type, or the JSON 404 for an id no event type has. */
  async existing(id: number): Promise<EventTypeRecord> {
    const record = await this.store.eventTypes.byId(id);
    if (!record) throw notFound(id);
    return record;
  }
}

/** Query of the organizer's list across event types (see `searchReservations`). */
export type ReservationSearchQuery = Static<typeof ReservationSearchQuerySchema>;

/** The opaque cursor after a row: its start and uuid. */
function cursorFor(r: ReservationRecord): string {
  return Buffer.from(`${r.startMs}:${r.uuid}`).toString("base64url");
}

/** The start and uuid a cursor stands for, or null when it is none this list made. */
function cursorOf(cursor: string): { startMs: number; uuid: string } | null {
  const match = /^(-?\d{1,16}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? { startMs: Number(match[1]), uuid: match[2]! } : null;
}

/** A reservation as the organizer's lists show it, times in `zone` and in UTC. */
function reservationView(r: ReservationRecord, status: ReservationRecord["status"], zone: string): OrganizerReservationView {
  return {
    uuid: r.uuid,
    status,
    start: isoIn(r.startMs, zone),
    end: isoIn(r.endMs, zone),
    startIso8601: utc(r.startMs),
    endIso8601: utc(r.endMs),
    heldUntil: r.heldUntilMs === null ? null : utc(r.heldUntilMs),
    email: r.email,
    firstname: r.firstname,
    lastname: r.lastname,
    phone: r.phone,
    timezone: r.timezone,
    location: r.location,
    guests: r.guests,
    customFields: r.customFields,
    // What happened to the money: a hold's payment succeeded, or was refunded because its seat was gone.
    payment: r.payment && { status: r.payment.status, amount: r.payment.amount, currency: r.payment.currency, paymentIntentId: r.payment.intentId, refundId: r.payment.refundId ?? null },
    createdAt: utc(r.createdAtMs),
    // Why the visitor cancelled, when they said (DELETE /reservations/{uuid} with a reason).
    cancelReason: r.cancelReason ?? null,
  };
}

/** An instant with the offset of `zone` (a zone luxon cannot use, which canonical zones never are, falls back to UTC). */
function isoIn(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? utc(ms);
}

/** Filter of the organizer's reservation list: whole days from `from` to `until` in `timezone` (default the event type's zone). */
export type ReservationListQuery = Static<typeof ReservationListQuerySchema>;

/** Stored statuses a reservation can have while its status, derived from time, is the key. */
const STORED_AS: Record<ReservationRecord["status"], ReservationRecord["status"][]> = {
  held: ["held"],
  confirmed: ["confirmed"],
  expired: ["held", "expired"],
  cancelled: ["held", "expired", "cancelled"],
};

const notFound = (id: number) => new DomainError("not_found", `No event type with id ${id}.`);

/** Runs a write that sets a slug; a slug another event type has is a 422 on `slug`. */
async function slugUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof SlugTakenError) throw new ValidationFailed({ slug: [`"${error.slug}" is the slug of another event type; choose another.`] });
    throw error;
  }
}

/** An outbox event as the organizer sees it; `webhookId` is the message id (an email's Message-ID) and `url` where it goes (`mailto:` for an email). */
function deliveryView(d: OutboxDelivery & { attemptLog: WebhookAttempt[] }): WebhookDeliveryView {
  return {
    id: d.id,
    webhookId: d.msgId,
    kind: d.kind,
    reservationUuid: d.reservationUuid,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === "pending" ? utc(d.nextAttemptAtMs) : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: d.deliveredAtMs === null ? null : utc(d.deliveredAtMs),
    createdAt: utc(d.createdAtMs),
    attemptLog: d.attemptLog.map((a) => ({ attempt: a.attempt, at: utc(a.atMs), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
  };
}

function viewOf(r: EventTypeRecord): EventTypeView {
  return {
    id: r.id,
    ...r.settings,
    // The calendar bookings are written into is the host's (a collective team's first host's).
    bookingsCalendar: r.hosts[0]?.bookingsCalendar ?? null,
    hosts: r.hosts.map((h) => ({ hostId: h.hostId, name: h.name, priority: h.priority, scheduleId: h.scheduleId })),
    assignment: r.assignment,
    reminderMinutes: reminderMinutesOf(r.settings),
    slug: r.slug,
    linkToken: r.linkToken,
    feedToken: r.feedToken,
    disabled: r.disabled,
    webhookDisabledAt: r.webhookDisabledAtMs === null ? null : utc(r.webhookDisabledAtMs),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/**
 * Applies a checked change to settings. Top-level keys replace, except `locale` and `theme`, which
 * merge one level deep so a change of `theme.mode` keeps the colours. Rules a schema cannot say
 * (real zones and dates, ordered ranges, unique names) are checked here, all at once.
 */
export function resolveSettings(base: EventTypeSettings, change: Omit<EventTypePatch, "disabled" | "slug">, allowPrivateWebhooks = true): EventTypeSettings {
  const errors: Record<string, string[]> = {};
  const next: EventTypeSettings = {
    ...base,
    ...stripUndefined(change),
    locale: { ...base.locale, ...stripUndefined(change.locale ?? {}) },
    theme: { ...base.theme, ...stripUndefined(change.theme ?? {}) },
    availability: change.availability ? { weekly: { ...change.availability.weekly }, overrides: change.availability.overrides ?? [] } : base.availability,
    locations: change.locations ? change.locations.map((l) => ({ type: l.type, value: l.value ?? null, ...(l.label ? { label: l.label } : {}) })) : base.locations,
    customFields: change.customFields ? resolveCustomFields(change.customFields, errors) : base.customFields,
    payment: change.payment === undefined ? base.payment : change.payment && { ...change.payment, currency: change.payment.currency.toLowerCase() },
  };

  const zone = canonicalZone(next.timezone);
  if (zone === null) addError(errors, "timezone", "Unknown IANA timezone.");
  else next.timezone = zone;
  checkAvailability(next.availability, errors);
  if (new Set(next.locations.map((l) => l.type)).size !== next.locations.length) addError(errors, "locations", "Each location type may appear once.");
  if (next.locations.length === 0) addError(errors, "locations", "Enable at least one location.");
  next.translations = checkTranslations(next, change.translations !== undefined, errors);
  const webhookProblem = next.webhookUrl === null ? null : webhookUrlProblem(next.webhookUrl, allowPrivateWebhooks);
  if (webhookProblem) addError(errors, "webhookUrl", webhookProblem);
  if (next.profileImage !== null && next.profileImage !== "" && !isHttpUrl(next.profileImage)) addError(errors, "profileImage", "Expected an http(s) URL.");
  if (next.reminderMinutes) {
    // Latest reminder last, whatever order they were given in; one offset twice would send twice.
    if (new Set(next.reminderMinutes).size !== next.reminderMinutes.length) addError(errors, "reminderMinutes", "Each reminder offset may appear once.");
    next.reminderMinutes = [...next.reminderMinutes].sort((a, b) => b - a);
  }
  if (typeof next.hostName === "string") {
    // A name is one line of visible text: surrounding space is dropped, blank or control characters refused.
    next.hostName = next.hostName.trim();
    if (next.hostName === "" || /[\u0000-\u001f\u007f]/.test(next.hostName)) addError(errors, "hostName", "Expected a name: visible text on one line, or null.");
  }
  if (typeof next.contact === "string") {
    // One line of visible text (an address, a link or a sentence); surrounding space is dropped.
    next.contact = next.contact.trim();
    if (next.contact === "" || /[\u0000-\u001f\u007f]/.test(next.contact)) addError(errors, "contact", "Expected an email address, a web address or one line of text, or null.");
  }
  try {
    // Empty leaves the language to the visitor's browser.
    if (next.locale.preset !== "") Intl.getCanonicalLocales(next.locale.preset);
  } catch {
    addError(errors, "locale.preset", "Expected a BCP 47 language tag such as en or de-AT.");
  }
  if (!CSS_LENGTH.test(next.theme.borderRadius)) addError(errors, "theme.borderRadius", "Expected a CSS length such as 8px or 0.5rem.");
  for (const [key, value] of Object.entries(next.theme.colors)) {
    if (!(THEME_COLOR_KEYS as readonly string[]).includes(key)) addError(errors, `theme.colors.${key}`, `Unknown colour key; use ${THEME_COLOR_KEYS.join(", ")}.`);
    else if (!CSS_COLOR.test(value)) addError(errors, `theme.colors.${key}`, "Expected a CSS colour such as #2563eb or rgb(37 99 235).");
  }
  ValidationFailed.check(errors);
  return next;
}

function resolveCustomFields(fields: NonNullable<EventTypePatch["customFields"]>, errors: Record<string, string[]>): CustomFieldDefinition[] {
  const names = new Set<string>();
  const uuids = new Set<string>();
  return fields.map((f, i) => {
    const uuid = f.uuid?.toLowerCase() ?? crypto.randomUUID();
    if (names.has(f.name)) addError(errors, `customFields.${i}.name`, "Field names must be unique.");
    if (uuids.has(uuid)) addError(errors, `customFields.${i}.uuid`, "Field uuids must be unique.");
    names.add(f.name);
    uuids.add(uuid);
    const choice = f.type === "select" || f.type === "multiselect";
    if (choice && (!f.options || f.options.length === 0)) addError(errors, `customFields.${i}.options`, "A select field needs options.");
    if (!choice && f.options) addError(errors, `customFields.${i}.options`, "Only select and multiselect fields take options.");
    const field: CustomFieldDefinition = { uuid, label: f.label, name: f.name, type: f.type, required: f.required ?? false, order: f.order ?? i };
    if (f.options) field.options = [...f.options];
    if (f.placeholder) field.placeholder = f.placeholder;
    return field;
  });
}

/**
 * The organizer's texts per language must name the event type's own fields and places, with one
 * label per option. Given in this change, a mismatch is refused; kept from before, the entries of
 * fields or places this change removed are dropped (and an option list that no longer fits), so
 * removing a field never needs its translations removed first.
 */
function checkTranslations(next: EventTypeSettings, given: boolean, errors: Record<string, string[]>): EventTypeSettings["translations"] {
  const all = next.translations;
  if (!all || Object.keys(all).length === 0) return undefined;
  const fields = new Map(next.customFields.map((f) => [f.name, f]));
  const places = new Set<string>(next.locations.map((l) => l.type));
  const kept: NonNullable<EventTypeSettings["translations"]> = {};
  for (const [tag, texts] of Object.entries(all)) {
    try {
      Intl.getCanonicalLocales(tag);
    } catch {
      addError(errors, `translations.${tag}`, "Expected a BCP 47 language tag such as de or pt-BR.");
    }
    const entry = { ...texts };
    if (texts.customFields) {
      const customFields: NonNullable<typeof texts.customFields> = {};
      for (const [name, field] of Object.entries(texts.customFields)) {
        const own = fields.get(name);
        const path = `translations.${tag}.customFields.${name}`;
        if (!own) {
          if (given) addError(errors, path, "No custom field has this name.");
          continue;
        }
        const fits = field.options === undefined || field.options.length === (own.options?.length ?? 0);
        if (!fits && given) addError(errors, `${path}.options`, `Expected ${own.options?.length ?? 0} option labels, one per option of the field, in its order.`);
        const { options, ...rest } = field;
        customFields[name] = fits && options ? { ...rest, options } : rest;
      }
      entry.customFields = customFields;
    }
    if (texts.locations) {
      const locations: Record<string, string> = {};
      for (const [type, label] of Object.entries(texts.locations)) {
        if (places.has(type)) locations[type] = label;
        else if (given) addError(errors, `translations.${tag}.locations.${type}`, "The event type offers no location of this type.");
      }
      entry.locations = locations;
    }
    kept[tag] = entry;
  }
  return kept;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
