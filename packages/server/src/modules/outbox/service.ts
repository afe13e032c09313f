import type { DeliveryView, WebhookDeliveryView } from "@booking/wire";
import { DomainError } from "../../domain/errors.ts";
import { utc } from "../../lib/time.ts";
import type { OutboxDelivery, WebhookAttempt } from "../../store/outbox.ts";
import type { Store } from "../../store/store.ts";
import { existingEventType } from "../event-types/organizer.ts";

/** What the organizer sees of an event type's outbox: its recent deliveries of every channel, and a retry now. */
export class DeliveryAdmin {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /** The most recent webhook events with their delivery state and attempts, newest first. */
  async webhookDeliveries(id: number, limit: number): Promise<WebhookDeliveryView[]> {
    await existingEventType(this.store, id);
    return (await this.store.webhooks.recent(id, limit)).map(deliveryView);
  }

  /** The most recent outbox events of every channel (webhooks, emails), newest first, each with its `channel`. */
  async deliveries(id: number, limit: number): Promise<DeliveryView[]> {
    await existingEventType(this.store, id);
    return (await this.store.outbox.recent(id, limit)).map((d) => ({ channel: d.channel, ...deliveryView(d) }));
  }

  /** Makes one failed or waiting delivery due now (the worker's next pass tries it); 404 when it cannot be retried. */
  async retryDelivery(id: number, deliveryId: number): Promise<void> {
    await existingEventType(this.store, id);
    if (!(await this.store.outbox.retryNow(id, deliveryId, this.now()))) {
      throw new DomainError(
        "not_found",
        `No delivery ${deliveryId} of event type ${id} that can be retried: it was delivered, is being sent right now, or was withdrawn.`,
      );
    }
  }
}

/** An outbox event as the organizer sees it; `webhookId` is the message id (an email's Message-ID) and `url` where it goes (`mailto:` for an email). */
export function deliveryView(d: OutboxDelivery & { attemptLog: WebhookAttempt[] }): WebhookDeliveryView {
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
