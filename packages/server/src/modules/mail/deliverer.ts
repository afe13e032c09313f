import type { Clock } from "../../clock.ts";
import type { ServerConfig } from "../../config.ts";
import type { LogEntry } from "../../context.ts";
import type { OutboxDelivery } from "../../store/outbox.ts";
import type { Store } from "../../store/store.ts";
import { MAX_IN_FLIGHT, OutboxWorker, type Deliverer, type DeliveryOutcome } from "../outbox/worker.ts";
import { senderOf, type MailPayload, type RenderedMail } from "./events.ts";
import { mimeMessage } from "./mime.ts";
import { renderMail } from "./render.ts";
import { SmtpError, SmtpTransport } from "./smtp-transport.ts";

/** One message's whole SMTP exchange, connection included, must finish within this (below the outbox lease). */
const TIMEOUT_MS = 30_000;
/** SMTP connections a transport keeps open and sends over, one message after another (see `smtpTransport`). */
const POOLED_CONNECTIONS = 8;
/** A pooled connection unused this long is closed (QUIT), before the server's own idle timeout or the socket timeout ends it. */
const IDLE_CLOSE_MS = 10_000;

/**
 * Sends the email channel of the outbox through SMTP (`SmtpTransport`): the stored email rendered, with
 * its invite as a `text/calendar; method=...` part, from MAIL_FROM, with the event's id as Message-ID
 * (so a retry after a lost answer is the same message). A 5xx answer is final; a 4xx answer or a
 * connection that fails is tried again by the outbox's backoff. Without an SMTP transport (no
 * SMTP_URL, development) each mail is logged, one line saying where it would go, and counts as
 * delivered.
 */
export class EmailDeliverer implements Deliverer {
  readonly channel = "email";
  /** Every event type's mail goes to the one SMTP server: a burst of one event type's bookings may use all of a worker's slots. */
  readonly perEventType = MAX_IN_FLIGHT;

  /** The envelope's sender: MAIL_FROM's address, read once. */
  private readonly sender: string;

  constructor(
    private readonly transport: SmtpTransport | null,
    private readonly from: string,
    private readonly log: (entry: LogEntry) => void,
  ) {
    this.sender = senderOf(from).email;
  }

  async deliver(d: OutboxDelivery): Promise<DeliveryOutcome> {
    return this.send(renderMail(JSON.parse(d.payload) as MailPayload), d.msgId);
  }

  /** Closes the transport's SMTP connections (once their message is through); a message sent after it opens new ones. */
  close(): void {
    this.transport?.close();
  }

  /** One attempt at sending a rendered message (with its invite, when it has one) under the outbox event's message id. */
  async send(mail: Omit<RenderedMail, "method" | "ics"> & Partial<Pick<RenderedMail, "method" | "ics">>, msgId: string): Promise<DeliveryOutcome> {
    if (!this.transport) {
      this.log({
        level: "info",
        message: `mail not sent (no SMTP_URL): would go to ${mail.to}: "${mail.subject}"${mail.method ? ` with a ${mail.method} invite` : ""}`,
      });
      return { statusCode: null, error: null, durationMs: 0 };
    }
    const began = performance.now();
    try {
      // The message written out here in one pass (see `mimeMessage`); the transport carries it as is.
      const raw = mimeMessage({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `${msgId}@booking-calendar`,
        dateMs: Date.now(),
        ...(mail.method && mail.ics ? { calendar: { method: mail.method, ics: mail.ics } } : {}),
      });
      const sent = await this.transport.send({ from: this.sender, to: [mail.to] }, raw);
      return { statusCode: sent.code, error: null, durationMs: Math.round(performance.now() - began) };
    } catch (cause) {
      const statusCode = cause instanceof SmtpError ? cause.code : null;
      const message = cause instanceof Error ? cause.message : String(cause);
      return {
        statusCode,
        error: statusCode === null ? `unreachable: ${message}` : `SMTP ${message}`,
        durationMs: Math.round(performance.now() - began),
        // The server refused for good (no such mailbox, rejected); a 4xx or no answer may pass later.
        final: statusCode !== null && statusCode >= 500,
      };
    }
  }
}

/**
 * The SMTP transport of SMTP_URL (nodemailer's pooled SMTP transport), or none without it. Pooled:
 * messages go one after another over up to POOLED_CONNECTIONS open connections instead of a
 * connection each (TCP, greeting, EHLO, STARTTLS and AUTH once per connection, not per message),
 * each message's envelope pipelined when the server offers it; a connection the server closes is
 * opened again for the next message.
 */
export function smtpTransport(config: Pick<ServerConfig, "mail">): SmtpTransport | null {
  if (!config.mail.smtpUrl) return null;
  return new SmtpTransport(config.mail.smtpUrl, { connections: POOLED_CONNECTIONS, idleMs: IDLE_CLOSE_MS, connectMs: TIMEOUT_MS / 3, messageMs: TIMEOUT_MS });
}

/** The outbox worker of the email channel. */
export class EmailWorker extends OutboxWorker {
  private readonly email: EmailDeliverer;

  constructor(store: Store, clock: Clock, config: Pick<ServerConfig, "mail">, log: (entry: LogEntry) => void) {
    const email = new EmailDeliverer(smtpTransport(config), config.mail.from, log);
    super(store, clock, email, log);
    this.email = email;
  }

  /** Stops like every outbox worker, then closes the SMTP connections. */
  override async stop(): Promise<void> {
    await super.stop();
    this.email.close();
  }
}
