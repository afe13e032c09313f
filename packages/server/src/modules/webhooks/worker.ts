import { Webhook } from "standardwebhooks";
import type { Clock } from "../../clock.ts";
import type { LogEntry } from "../../context.ts";
import type { Store, WebhookAttempt, WebhookDelivery } from "../../store/types.ts";
import { refusedAddress } from "./address.ts";

/** Waits between attempts (decisions.md): the 8th failed attempt gives up. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const TIMEOUT_MS = 15_000;
/** A lease outlives the timeout, so a worker that died mid-delivery frees its events for another. */
const LEASE_MS = 60_000;
const BATCH = 10;
const MAX_RESPONSE_BYTES = 4096;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
const DNS_TIMEOUT_MS = 5_000;

/** Rejects when `promise` has not settled within `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, Bun.sleep(ms).then(() => Promise.reject(new Error(`no answer within ${ms / 1000} s`)))]);
}

/**
 * Delivers the webhook outbox: at least once, signed per Standard Webhooks with the event type's
 * `whsec_` secret, 15 s timeout, no redirects followed, at most 4 KiB of a response read. Failures
 * back off as decided (honouring `Retry-After` on 429 and 503); a 410 stops the endpoint. Events of
 * one reservation go out in order. Runs in every server process; the store's leases keep two
 * workers from holding the same attempt.
 */
export class WebhookWorker {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: { allowPrivateAddresses: boolean },
    private readonly log: (entry: LogEntry) => void,
  ) {}

  /** Delivers what is due now; answers how many attempts were made. Runs one pass at a time. */
  runOnce(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  start(everyMs = 1000): void {
    this.timer ??= setInterval(() => {
      this.runOnce().catch((error) => this.log({ level: "error", message: "webhook delivery pass failed", error }));
    }, everyMs);
  }

  /** Stops polling and waits for the attempts under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<number> {
    const due = await this.store.webhooks.claimDue(this.clock.now(), LEASE_MS, BATCH);
    // allSettled: one failed bookkeeping write must not let `stop()` return while others still send.
    const results = await Promise.allSettled(due.map((d) => this.deliver(d)));
    for (const r of results) if (r.status === "rejected") this.log({ level: "error", message: "webhook delivery bookkeeping failed", error: r.reason });
    return due.length;
  }

  private async deliver(d: WebhookDelivery): Promise<void> {
    const eventType = await this.store.eventTypes.byId(d.eventTypeId);
    const startedAt = this.clock.now();
    const attempt = { attempt: d.attempts, atMs: startedAt };
    if (!eventType) return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: "event type deleted", durationMs: 0 }, { status: "failed" });
    if (eventType.webhookDisabledAtMs !== null && eventType.settings.webhookUrl === d.url) {
      // The endpoint answered 410 to an earlier event: its queued events stop with it.
      return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: "endpoint stopped after a 410 Gone", durationMs: 0 }, { status: "failed" });
    }

    if (!this.options.allowPrivateAddresses) {
      let refused: string | null;
      try {
        refused = await withTimeout(refusedAddress(d.url), DNS_TIMEOUT_MS);
      } catch (error) {
        // A name that does not resolve now may resolve later: an ordinary failed attempt, retried.
        return this.retryOrGiveUp(d, { ...attempt, statusCode: null, error: `unresolvable: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 }, null);
      }
      if (refused) {
        return this.store.webhooks.recordAttempt(d.id, { ...attempt, statusCode: null, error: `refused: ${d.url} points to ${refused}`, durationMs: 0 }, { status: "failed" });
      }
    }

    // Receivers check the signature's timestamp against their own clock, so it is the real time.
    const sentAt = new Date();
    const signature = new Webhook(eventType.webhookSecret).sign(d.msgId, sentAt, d.payload);
    let statusCode: number | null = null;
    let error: string | null = null;
    let retryAfterMs: number | null = null;
    const began = performance.now();
    try {
      const response = await fetch(d.url, {
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
        signal: AbortSignal.timeout(TIMEOUT_MS),
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

    if (error === null) return this.store.webhooks.recordAttempt(d.id, record, { status: "delivered" });
    if (statusCode === 410) {
      // The receiver says the endpoint is gone for good: stop writing events until the URL is set
      // again; unless the organizer has meanwhile set another URL, which the 410 says nothing about.
      const current = await this.store.eventTypes.byId(d.eventTypeId);
      if (current?.settings.webhookUrl === d.url) {
        await this.store.eventTypes.update(d.eventTypeId, { webhookDisabledAtMs: now }, new Date(now).toISOString());
        this.log({ level: "warn", message: `webhook endpoint ${d.url} answered 410; disabled for event type ${d.eventTypeId}` });
      }
      return this.store.webhooks.recordAttempt(d.id, record, { status: "failed" });
    }
    return this.retryOrGiveUp(d, record, retryAfterMs);
  }

  /** Schedules the next attempt by the backoff (or a later `Retry-After`), or marks the event failed after the last. */
  private retryOrGiveUp(d: WebhookDelivery, record: WebhookAttempt, retryAfterMs: number | null): Promise<void> {
    const delay = RETRY_DELAYS_MS[d.attempts - 1];
    if (delay === undefined) {
      this.log({ level: "warn", message: `webhook ${d.msgId} to ${d.url} failed after ${d.attempts} attempts: ${record.error}` });
      return this.store.webhooks.recordAttempt(d.id, record, { status: "failed" });
    }
    return this.store.webhooks.recordAttempt(d.id, record, { status: "pending", nextAttemptAtMs: this.clock.now() + Math.max(delay, retryAfterMs ?? 0) });
  }
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
