import { Webhook } from "standardwebhooks";
import type { Clock } from "../../clock.ts";
import type { LogEntry } from "../../context.ts";
import type { Store, WebhookAttempt, WebhookDelivery } from "../../store/types.ts";
import { pinnedRequest, resolveTarget, type Target } from "./address.ts";

/** Waits between attempts (decisions.md): the 8th failed attempt gives up. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const TIMEOUT_MS = 15_000;
/** A lease outlives the timeout, so a worker that died mid-delivery frees its events for another. */
const LEASE_MS = 60_000;
/** Deliveries one worker has under way at once, not counting the first of an event type that has none under way. */
const MAX_IN_FLIGHT = 64;
/**
 * Deliveries one worker has under way at once, all counted: the room kept for event types with
 * nothing under way, so receivers that hang (each for the 15 s timeout) hold back the webhooks of
 * other event types only once this many deliveries hang.
 */
const MAX_IN_FLIGHT_TOTAL = 256;
/** Leases one event type holds at once (see `claimDue` for how exact that is across workers): a receiver that hangs takes this many slots, never all. */
const PER_EVENT_TYPE = 2;
const MAX_RESPONSE_BYTES = 4096;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
const DNS_TIMEOUT_MS = 5_000;
/** Connection errors after which the next address of the name is tried: nothing was sent. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ConnectionRefused", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/** Rejects when `promise` has not settled within `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, Bun.sleep(ms).then(() => Promise.reject(new Error(`no answer within ${ms / 1000} s`)))]);
}

/**
 * Delivers the webhook outbox: at least once, signed per Standard Webhooks with the event type's
 * `whsec_` secret, 15 s timeout, no redirects followed, at most 4 KiB of a response read. Failures
 * back off as decided (honouring `Retry-After` on 429 and 503); a 410 stops the endpoint. Events of
 * one reservation go out in order. Every attempt goes to the event type's webhook URL of the moment
 * (a retry follows a changed URL), connecting to the addresses its host resolved to when they were
 * checked. Deliveries run side by side: a receiver that hangs holds at most two delivery slots,
 * and an event type with nothing under way gets a slot of its own while fewer than
 * MAX_IN_FLIGHT_TOTAL deliveries are under way, so other event types' webhooks do not wait on it.
 * Runs in every server process; the store's leases keep two workers from holding the same attempt.
 */
export class WebhookWorker {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Claims one at a time, so the count of deliveries under way is right when the next claim is sized. */
  private claiming: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  /** Claims asked of the store and not yet answered: a tick while one hangs (a pool exhausted) adds no other. */
  private claimsPending = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: {
      allowPrivateAddresses: boolean;
      /** Certificate authorities (PEM) that https receivers' certificates are checked against instead of the system's: for tests and receivers under a private CA. */
      ca?: string;
    },
    private readonly log: (entry: LogEntry) => void,
  ) {}

  /**
   * Claims what is due now (as many as there are free delivery slots), delivers it and waits for
   * these deliveries; answers how many attempts were made. Passes may overlap: one waiting on a slow
   * receiver does not keep the next from claiming and delivering other events.
   */
  async runOnce(): Promise<number> {
    this.claimsPending++;
    const claim = this.claiming.then(() => this.claim()).finally(() => this.claimsPending--);
    this.claiming = claim.catch(() => undefined);
    const started = await claim;
    // allSettled: one failed bookkeeping write must not let `stop()` return while others still send.
    const results = await Promise.allSettled(started);
    for (const r of results) if (r.status === "rejected") this.log({ level: "error", message: "webhook delivery bookkeeping failed", error: r.reason });
    return started.length;
  }

  start(everyMs = 1000): void {
    this.timer ??= setInterval(() => {
      if (this.claimsPending > 0) return;
      this.runOnce().catch((error) => this.log({ level: "error", message: "webhook delivery pass failed", error }));
    }, everyMs);
  }

  /** Stops polling and waits for the attempts under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.claiming;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Leases due events and starts their deliveries in two steps: first one event of each event type
   * that has none leased (the room kept for them), then more, up to PER_EVENT_TYPE per event type,
   * for the free slots.
   */
  private async claim(): Promise<Promise<void>[]> {
    const now = this.clock.now();
    const room = MAX_IN_FLIGHT_TOTAL - this.inFlight.size;
    const started = room > 0 ? this.deliverAll(await this.store.webhooks.claimDue(now, LEASE_MS, room, 1)) : [];
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0) return started;
    try {
      started.push(...this.deliverAll(await this.store.webhooks.claimDue(now, LEASE_MS, free, PER_EVENT_TYPE)));
    } catch (error) {
      // The deliveries of the first step are under way: the pass answers for them, and the next claims again.
      if (started.length === 0) throw error;
      this.log({ level: "error", message: "webhook claim failed", error });
    }
    return started;
  }

  /** Starts the deliveries of leased events, counted in flight until each is recorded. */
  private deliverAll(due: WebhookDelivery[]): Promise<void>[] {
    return due.map((d) => {
      const delivery = this.deliver(d).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
      return delivery;
    });
  }

  private async deliver(d: WebhookDelivery): Promise<void> {
    const eventType = await this.store.eventTypes.byId(d.eventTypeId);
    const startedAt = this.clock.now();
    const attempt = { attempt: d.attempts, atMs: startedAt };
    if (!eventType) return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: "event type deleted", durationMs: 0 }, { status: "failed" });
    // The URL of the moment: a retry queued before the organizer changed it goes to the new one.
    const url = eventType.settings.webhookUrl;
    if (url === null) {
      return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: "not sent: the event type no longer has a webhook URL", durationMs: 0 }, { status: "failed" });
    }
    if (eventType.webhookDisabledAtMs !== null) {
      // The endpoint answered 410 to an earlier event: its queued events stop with it.
      return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: "endpoint stopped after a 410 Gone", durationMs: 0 }, { status: "failed", url });
    }

    let target: Target;
    try {
      target = await withTimeout(resolveTarget(url, this.options.allowPrivateAddresses), DNS_TIMEOUT_MS);
    } catch (error) {
      // A name that does not resolve now may resolve later: an ordinary failed attempt, retried.
      return this.retryOrGiveUp(d, { ...attempt, statusCode: null, error: `unresolvable: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 }, null, url);
    }
    if ("refused" in target) {
      return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: `refused: ${url} points to ${target.refused}`, durationMs: 0 }, { status: "failed", url });
    }

    // Receivers check the signature's timestamp against their own clock, so it is the real time.
    const sentAt = new Date();
    const signature = new Webhook(eventType.webhookSecret).sign(d.msgId, sentAt, d.payload);
    let statusCode: number | null = null;
    let error: string | null = null;
    let retryAfterMs: number | null = null;
    const began = performance.now();
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    try {
      const response = await post(url, target.addresses, this.options.ca, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "booking-calendar-webhooks/1",
          "webhook-id": d.msgId,
          "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
          "webhook-signature": signature,
        },
        body: d.payload,
        redirect: "manual",
        signal,
      });
      statusCode = response.status;
      await drain(response);
      if (statusCode >= 300 && statusCode < 400) error = `redirect to ${response.headers.get("location") ?? "?"} not followed`;
      else if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
      if (statusCode === 429 || statusCode === 503) retryAfterMs = retryAfter(response.headers.get("retry-after"), Date.now());
    } catch (cause) {
      error = cause instanceof Error && cause.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s` : `unreachable: ${cause instanceof Error ? cause.message : String(cause)}`;
    }
    const record = { ...attempt, statusCode, error, durationMs: Math.round(performance.now() - began) };
    const now = this.clock.now();

    if (error === null) return this.store.webhooks.recordAttempt(d.id, record, { status: "delivered", url });
    if (statusCode === 410) {
      // The receiver says the endpoint is gone for good: stop writing events until the URL is set
      // again; unless the organizer has meanwhile set another URL, which the 410 says nothing about.
      const current = await this.store.eventTypes.byId(d.eventTypeId);
      if (current?.settings.webhookUrl === url) {
        await this.store.eventTypes.update(d.eventTypeId, { webhookDisabledAtMs: now }, new Date(now).toISOString());
        this.log({ level: "warn", message: `webhook endpoint ${url} answered 410; disabled for event type ${d.eventTypeId}` });
      }
      return this.store.webhooks.recordAttempt(d.id, record, { status: "failed", url });
    }
    return this.retryOrGiveUp(d, record, retryAfterMs, url);
  }

  /** Schedules the next attempt by the backoff (or a later `Retry-After`), or marks the event failed after the last. */
  private retryOrGiveUp(d: WebhookDelivery, record: WebhookAttempt, retryAfterMs: number | null, url: string): Promise<void> {
    const delay = RETRY_DELAYS_MS[d.attempts - 1];
    if (delay === undefined) {
      this.log({ level: "warn", message: `webhook ${d.msgId} to ${url} failed after ${d.attempts} attempts: ${record.error}` });
      return this.store.webhooks.recordAttempt(d.id, record, { status: "failed", url });
    }
    return this.store.webhooks.recordAttempt(d.id, record, { status: "pending", nextAttemptAtMs: this.clock.now() + Math.max(delay, retryAfterMs ?? 0), url });
  }
}

/**
 * POSTs to `url` through the first of its checked addresses that takes the connection: the socket
 * goes to that address, while the `Host` header and TLS (SNI and the certificate check) keep the name.
 */
async function post(url: string, addresses: string[], ca: string | undefined, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  for (const [i, address] of addresses.entries()) {
    const pinned = pinnedRequest(url, address);
    try {
      return await fetch(pinned.url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), host: pinned.host },
        ...(pinned.serverName ? { tls: { serverName: pinned.serverName, ...(ca ? { ca } : {}) } } : {}),
      });
    } catch (cause) {
      const code = (cause as { code?: unknown } | null)?.code;
      if (i === addresses.length - 1 || typeof code !== "string" || !NOT_CONNECTED.has(code) || init.signal.aborted) throw cause;
    }
  }
  throw new Error("no address");
}

/** Stops reading a response once 4 KiB have come (one more network chunk at most) and lets the rest go, so a chatty receiver cannot hold memory. */
async function drain(response: Response): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let read = 0;
  while (read < MAX_RESPONSE_BYTES) {
    const { value, done } = await reader.read();
    if (done) return;
    read += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

/** `Retry-After` as seconds or an HTTP date, in ms from now, bounded to a day; null when absent or unreadable. */
export function retryAfter(header: string | null, nowMs: number): number | null {
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Date.parse(header) - nowMs;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, MAX_RETRY_AFTER_MS) : null;
}
