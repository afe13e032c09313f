import type { Clock } from "../../clock.ts";
import type { ServerConfig } from "../../config.ts";
import type { LogEntry } from "../../context.ts";
import type { OutboxDelivery } from "../../store/outbox.ts";
import type { Store } from "../../store/store.ts";
import { MAX_IN_FLIGHT, OutboxWorker, type Deliverer, type DeliveryOutcome } from "../outbox/worker.ts";
import { EmailDeliverer, smtpTransport } from "./deliverer.ts";
import { reminderFollowUps, renderReminder, staleReminder, type ReminderPayload } from "./reminders.ts";

/**
 * Sends the reminder channel of the outbox, each reminder once it is due (its `notBeforeMs`), as an
 * email like the confirmations (SMTP_URL, or logged without it). Before sending it reads the
 * reservation again: a reminder whose booking was cancelled, moved or has begun fails at once with
 * the reason, never sent. Across instances the outbox's lease gives each reminder one sender. A
 * booking's first reminder brings the rest of its reminders, written with its record.
 */
export class ReminderDeliverer implements Deliverer {
  readonly channel = "reminder";
  /** Like confirmations, reminders of every event type go to the one SMTP server. */
  readonly perEventType = MAX_IN_FLIGHT;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly email: EmailDeliverer,
  ) {}

  async deliver(d: OutboxDelivery): Promise<DeliveryOutcome> {
    const reminder = JSON.parse(d.payload) as ReminderPayload;
    const nowMs = this.clock.now();
    const stale = staleReminder(reminder, await this.store.reservations.byUuid(d.eventTypeId, d.reservationUuid), nowMs);
    if (stale) return { statusCode: null, error: `not sent: ${stale}`, durationMs: 0, final: true };
    // The booking's other reminders are written with this attempt's record (see `reminderFollowUps`).
    const followUps = reminderFollowUps(d, reminder, nowMs);
    return { ...(await this.email.send(renderReminder(reminder), d.msgId)), ...(followUps ? { followUps } : {}) };
  }
}

/** The outbox worker of the reminder channel. */
export class ReminderWorker extends OutboxWorker {
  private readonly email: EmailDeliverer;

  constructor(store: Store, clock: Clock, config: Pick<ServerConfig, "mail">, log: (entry: LogEntry) => void) {
    const email = new EmailDeliverer(smtpTransport(config), config.mail.from, log);
    super(store, clock, new ReminderDeliverer(store, clock, email), log);
    this.email = email;
  }

  /** Stops like every outbox worker, then closes the SMTP connections. */
  override async stop(): Promise<void> {
    await super.stop();
    this.email.close();
  }
}
