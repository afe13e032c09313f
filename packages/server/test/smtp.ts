import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

// A real SMTP server (the `smtp-server` package) on loopback; what it receives is parsed with
// `mailparser`, as a mail client would.

/** A message the SMTP server accepted: its envelope and the parsed message. */
export interface Received {
  from: string;
  to: string[];
  mail: ParsedMail;
  /** The message as it came over the wire, headers and encoded parts. */
  raw: string;
  /** It came over TLS (smtps or STARTTLS). */
  secure: boolean;
  /** The user the sender signed in as (AUTH), if it did. */
  user: string | undefined;
}

/** A running SMTP server and what it accepted. */
export interface Smtp {
  port: number;
  url: string;
  /** Messages accepted, in order. */
  received: Received[];
  /** DATA commands answered, accepted or refused. */
  tries: number;
  stop(): Promise<void>;
}

/**
 * A real SMTP server on loopback (no TLS, no auth unless `options` turn them on). `refuse(n)` may
 * answer the n-th message's DATA with an SMTP error code instead of accepting it. `options` add to
 * or override smtp-server's (TLS keys, AUTH, PIPELINING, refusals of senders or recipients).
 */
export async function startSmtp(refuse: (n: number) => number | null = () => null, port = 0, options: Partial<SMTPServerOptions> = {}): Promise<Smtp> {
  const state = { tries: 0 };
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // Senders keep connections open (a pooled transport); stopping ends them soon instead of waiting for their QUIT.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        state.tries++;
        const code = refuse(state.tries);
        if (code !== null) {
          const error = Object.assign(new Error(code >= 500 ? "mailbox unavailable" : "try again later"), { responseCode: code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (mail) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              mail,
              raw: raw.toString("utf8"),
              secure: session.secure,
              user: session.user as string | undefined,
            });
            callback();
          },
          (error) => callback(error),
        );
      });
    },
    ...options,
  });
  // A sender that gives up on a connection (a certificate it does not trust, a dropped link) is the
  // sender's failure, which a test reads from the sender; the server only reports it.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const bound = (server.server.address() as AddressInfo).port;
  const smtp: Smtp = {
    port: bound,
    url: `smtp://127.0.0.1:${bound}?tls=ignore`,
    received,
    get tries() {
      return state.tries;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return smtp;
}
