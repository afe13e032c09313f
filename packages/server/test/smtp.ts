import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server (the `smtp-server` package) on loopback; what it receives is parsed with
// `mailparser`, as a mail client would.

/** A message the SMTP server accepted: its envelope and the parsed message. */
export interface Received {
  from: string;
  to: string[];
  mail: ParsedMail;
  /** The message as it came over the wire, headers and encoded parts. */
  raw: string;
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
 * A real SMTP server on loopback (no TLS, no auth). `refuse(n)` may answer the n-th message's DATA
 * with an SMTP error code instead of accepting it.
 */
export async function startSmtp(refuse: (n: number) => number | null = () => null, port = 0): Promise<Smtp> {
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
            received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), mail, raw: raw.toString("utf8") });
            callback();
          },
          (error) => callback(error),
        );
      });
    },
  });
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
