import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { SMTPPoolOptions, SMTPPoolSentMessageInfo } from "nodemailer/lib/smtp-pool";

/**
 * Sending over SMTP (RFC 5321) with nodemailer's pooled SMTP transport: up to `connections` open
 * connections, each greeted once (EHLO, STARTTLS, AUTH), over which messages go one after another,
 * each message's envelope pipelined when the server offers PIPELINING. The message is written by the
 * caller (see `mimeMessage`) and carried as is. A 4xx answer is temporary and a 5xx one permanent
 * (`SmtpError.code`); a connection or TLS that fails, or a message that takes too long, is `code: null`.
 */

/** How many connections to keep, for how long, and how long a message may take. */
export interface SmtpLimits {
  /** Open connections at most. */
  connections: number;
  /** A connection unused this long is closed (QUIT). */
  idleMs: number;
  /** Longest wait for the TCP (and TLS) connection, and then for the greeting (and STARTTLS). */
  connectMs: number;
  /** Longest a message may take, its wait for a connection included; and longest a connection may stay silent. */
  messageMs: number;
}

/** The envelope of one message: the sender and its recipients. */
export interface Envelope {
  from: string;
  to: string[];
}

/** A message accepted for at least one recipient: the server's last answer, and who it refused. */
export interface SmtpSent {
  code: number;
  response: string;
  accepted: string[];
  rejected: string[];
}

/** An SMTP server's refusal (`code`, 4xx or 5xx) or, with `code: null`, a connection that failed. */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = "SmtpError";
  }
}

/**
 * The pool options of an `smtp://` or `smtps://` URL: `smtps://` speaks TLS from the first byte (port
 * 465), `smtp://` (port 587) upgrades with STARTTLS when the server offers it, and must with
 * `?tls=require`, never with `?tls=ignore`; a user and password sign in with AUTH, which a server
 * that offers none then refuses. Certificates are checked against the system's authorities and `ca`
 * (a private relay's own), for the URL's host name.
 */
export function smtpPoolOptions(smtpUrl: string, limits: SmtpLimits, ca?: string | Buffer): SMTPPoolOptions {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const tlsMode = url.searchParams.get("tls");
  return {
    pool: true,
    maxConnections: limits.connections,
    // A connection sends for as long as it stays open, greeted once.
    maxMessages: Number.POSITIVE_INFINITY,
    // A connection the server dropped before any of the message went out sends it again once over a
    // new one; a message under way when its connection drops fails (the outbox tries it again).
    maxRequeues: 1,
    idleTimeout: limits.idleMs,
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: tlsMode === "require",
    ignoreTLS: tlsMode === "ignore",
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }, forceAuth: true } : {}),
    connectionTimeout: limits.connectMs,
    greetingTimeout: limits.connectMs,
    socketTimeout: limits.messageMs,
    ...(ca ? { tls: { ca } } : {}),
  };
}

/**
 * A pool of SMTP connections (nodemailer's pooled transport) that sends raw messages with their
 * envelope. Closing it ends its connections; a message sent after that opens a new pool.
 */
export class SmtpTransport {
  private pool: Mail<SMTPPoolSentMessageInfo, SMTPPoolOptions> | null = null;
  /** nodemailer's options, from the URL and the limits (see `smtpPoolOptions`). */
  readonly options: SMTPPoolOptions;

  constructor(
    smtpUrl: string,
    private readonly limits: SmtpLimits,
    ca?: string | Buffer,
  ) {
    this.options = smtpPoolOptions(smtpUrl, limits, ca);
  }

  /** Sends one message written out in full (headers and body, CRLF line ends) to the envelope's recipients. */
  async send(envelope: Envelope, raw: string): Promise<SmtpSent> {
    this.pool ??= nodemailer.createTransport(this.options);
    try {
      const info = await this.pool.sendMail({ envelope: { from: envelope.from, to: envelope.to }, raw, signal: AbortSignal.timeout(this.limits.messageMs) });
      const code = Number(/^\d{3}/.exec(info.response)?.[0] ?? 250);
      return { code, response: info.response, accepted: info.accepted.map(String), rejected: info.rejected.map(String) };
    } catch (cause) {
      throw smtpErrorOf(cause);
    }
  }

  /** Closes the pool's idle connections at once and the busy ones once their message is through. */
  close(): void {
    this.pool?.close();
    this.pool = null;
  }
}

/** nodemailer's error as an SmtpError: the server's answer and the command it answered, or a failed connection. */
function smtpErrorOf(cause: unknown): SmtpError {
  const error = cause as { code?: string; responseCode?: number; response?: string; command?: string; message?: string; name?: string };
  if (error?.name === "AbortError") return new SmtpError("timed out sending to the SMTP server", null);
  const message = error?.message ?? String(cause);
  // A TLS upgrade refused or failed (or STARTTLS required and not offered) is the connection failing, not the message.
  if (typeof error?.responseCode === "number" && error.code !== "ETLS") {
    return new SmtpError(`${error.command ?? "SMTP"}: ${(error.response ?? String(error.responseCode)).replace(/\r?\n/g, " ")}`, error.responseCode);
  }
  return new SmtpError(message, null);
}
