import { Webhook } from "standardwebhooks";
import type { Clock } from "../../clock.ts";
import type { LogEntry } from "../../context.ts";
import { redactUrl } from "../../lib/redact.ts";
import type { OutboxDelivery } from "../../store/outbox.ts";
import type { Store } from "../../store/store.ts";
import { OutboxWorker, type Deliverer, type DeliveryOutcome } from "../outbox/worker.ts";
import { pinnedRequest, resolveTarget, type Target } from "./address.ts";

export { RETRY_DELAYS_MS } from "../outbox/worker.ts";
const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 4096;
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** Connection errors after which the next address of the name is tried: nothing was sent. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ConnectionRefused", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/**
 * Delivers the webhook channel of the outbox (through OutboxWorker's leases, order and backoff):
 * signed per Standard Webhooks with the event type's `whsec_` secret, 15 s timeout, no redirects
 * followed, at most 4 KiB of a response read. Failures back off as decided (honouring `Retry-After`
 * on 429 and 503); a 410 stops the endpoint. Every attempt goes to the event type's webhook URL of
 * the moment (a retry follows a changed URL), connecting to the addresses its host resolved to when
 * they were checked.
 */
export class WebhookDeliverer implements Deliverer {
  readonly channel = "webhook";

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

  async deliver(d: OutboxDelivery): Promise<DeliveryOutcome> {
    const eventType = await this.store.eventTypes.byId(d.eventTypeId);
    if (!eventType) return { statusCode: null, error: "event type deleted", durationMs: 0, final: true };
    // The URL of the moment: a retry queued before the organizer changed it goes to the new one.
    const url = eventType.settings.webhookUrl;
    if (url === null) return { statusCode: null, error: "not sent: the event type no longer has a webhook URL", durationMs: 0, final: true };
    if (eventType.webhookDisabledAtMs !== null) {
      // The endpoint answered 410 to an earlier event: its queued events stop with it.
      return { statusCode: null, error: "endpoint stopped after a 410 Gone", durationMs: 0, final: true, url };
    }

    let target: Target;
    try {
      target = await resolveTarget(url, this.options.allowPrivateAddresses);
    } catch (error) {
      // A name that does not resolve now may resolve later: an ordinary failed attempt, retried.
      return { statusCode: null, error: `unresolvable: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0, url };
    }
    if ("refused" in target) return { statusCode: null, error: `refused: ${url} points to ${target.refused}`, durationMs: 0, final: true, url };

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
      error =
        cause instanceof Error && cause.name === "TimeoutError"
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : `unreachable: ${cause instanceof Error ? cause.message : String(cause)}`;
    }
    const outcome: DeliveryOutcome = { statusCode, error, durationMs: Math.round(performance.now() - began), url, retryAfterMs };
    if (statusCode === 410) {
      // The receiver says the endpoint is gone for good: stop writing events until the URL is set
      // again; unless the organizer has meanwhile set another URL, which the 410 says nothing about.
      const now = this.clock.now();
      const current = await this.store.eventTypes.byId(d.eventTypeId);
      if (current?.settings.webhookUrl === url) {
        await this.store.eventTypes.update(d.eventTypeId, { webhookDisabledAtMs: now }, new Date(now).toISOString());
        this.log({ level: "warn", message: `webhook endpoint ${redactUrl(url)} answered 410; disabled for event type ${d.eventTypeId}` });
      }
      return { ...outcome, final: true };
    }
    return outcome;
  }
}

/** The outbox worker of the webhook channel (see OutboxWorker and WebhookDeliverer). */
export class WebhookWorker extends OutboxWorker {
  constructor(store: Store, clock: Clock, options: ConstructorParameters<typeof WebhookDeliverer>[2], log: (entry: LogEntry) => void) {
    super(store, clock, new WebhookDeliverer(store, clock, options, log), log);
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
