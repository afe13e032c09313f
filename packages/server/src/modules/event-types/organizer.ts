import {
  limitsView,
  type CreatedEventType,
  type EventTypeCreate,
  type EventTypePatch,
  type EventTypeView,
  type IssuedTokens,
  type RotatedFeedToken,
  type RotatedWebhookSecret,
} from "@booking/wire";
import { DEFAULT_SETTINGS, reminderMinutesOf } from "../../domain/event-type.ts";
import { addError, DomainError, ValidationFailed } from "../../domain/errors.ts";
import { FEED_TOKEN_PREFIX, hashToken, LINK_TOKEN_PREFIX, newToken, newWebhookSecret } from "../../lib/tokens.ts";
import { utc } from "../../lib/time.ts";
import { SlugTakenError } from "../../store/errors.ts";
import type { EventTypeHost, EventTypeRecord } from "../../store/event-types.ts";
import type { Store } from "../../store/store.ts";
import { resolveSettings } from "./settings.ts";

export type { EventTypeView, IssuedTokens } from "@booking/wire";

/**
 * The organizer's operations on event types: create, read, change, delete, stop and resume them,
 * and issue their tokens and secrets. Shared by the admin API, the command line and the assistant.
 */
export class EventTypeAdmin {
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
  existing(id: number): Promise<EventTypeRecord> {
    return existingEventType(this.store, id);
  }
}

/** The stored event type, or the 404 for an id no event type has: what every organizer route under an event type starts from. */
export async function existingEventType(store: Store, id: number): Promise<EventTypeRecord> {
  const record = await store.eventTypes.byId(id);
  if (!record) throw notFound(id);
  return record;
}

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

/** An event type as the organizer's API shows it: its settings and state, never its token hashes or webhook secret. */
function viewOf(r: EventTypeRecord): EventTypeView {
  return {
    id: r.id,
    ...r.settings,
    limits: limitsView(r.settings.limits),
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
