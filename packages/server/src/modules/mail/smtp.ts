import net from "node:net";
import os from "node:os";
import tls from "node:tls";

/**
 * The SMTP client the mail deliverer sends with (RFC 5321): a pool of persistent connections, each
 * greeted once (EHLO, STARTTLS, AUTH), over which messages go one after another. With PIPELINING
 * (RFC 2920) a message is two writes: MAIL FROM, every RCPT TO and DATA together, then the
 * dot-stuffed message and its terminator; without it each command waits for its answer. A 4xx
 * answer is temporary and a 5xx one permanent (`SmtpError.code`); a connection that fails or times
 * out is `code: null`.
 */

/** How to reach the SMTP server and how many connections to keep. */
export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the first byte (`smtps://`, port 465). */
  secure: boolean;
  /** `opportunistic`: STARTTLS when the server offers it; `require`: refuse to send without it; `ignore`: never. */
  starttls: "opportunistic" | "require" | "ignore";
  auth?: { user: string; pass: string };
  /** Open connections at most. */
  connections: number;
  /** A connection unused this long is closed (QUIT). */
  idleMs: number;
  /** Longest wait for each of: the TCP (and TLS) connection, the greeting with EHLO, STARTTLS and AUTH, and one message's exchange. */
  timeoutMs: number;
  /** The name given in EHLO; the machine's name when it has a dot in it, else the local address. */
  name?: string;
  /** Certificates to trust besides the system's (a private relay's own CA). */
  ca?: string | Buffer;
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
  rejected: { address: string; code: number; response: string }[];
}

/** An SMTP server's refusal (`code`, 4xx or 5xx) or, with `code: null`, a connection that failed. */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    /** Nothing of the message reached the server: sending it again on another connection duplicates nothing. */
    readonly untouched = false,
  ) {
    super(message);
    this.name = "SmtpError";
  }
}

/** The options of an `smtp://` or `smtps://` URL (`?tls=ignore`, `?tls=require`; user and password for AUTH). */
export function smtpOptionsOf(smtpUrl: string, defaults: Pick<SmtpOptions, "connections" | "idleMs" | "timeoutMs">): SmtpOptions {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const tlsMode = url.searchParams.get("tls");
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    starttls: tlsMode === "ignore" ? "ignore" : tlsMode === "require" ? "require" : "opportunistic",
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    ...defaults,
  };
}

/** One answer of the server: its code and its lines of text (without the code). */
interface Reply {
  code: number;
  text: string;
}

/** One open, greeted connection to the SMTP server; sends one message at a time. */
class SmtpConnection {
  private socket: net.Socket;
  private buffer = "";
  private lines: string[] = [];
  private readonly replies: Reply[] = [];
  /** Answers awaited, in order. Unbounded here: the greeting and each message's exchange have a timeout of their own, which closes the connection. */
  private readonly waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
  private failure: SmtpError | null = null;
  private extensions = new Map<string, string>();
  /** The pool's idle timer while the connection waits for a message. */
  idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Messages sent over it (0 for a connection just opened). */
  used = 0;

  private constructor(
    private readonly options: SmtpOptions,
    socket: net.Socket,
  ) {
    this.socket = socket;
    this.listen(socket);
  }

  get closed(): boolean {
    return this.failure !== null;
  }

  /** Connects, reads the greeting, and says EHLO, STARTTLS and AUTH as the server and the options ask. */
  static async open(options: SmtpOptions): Promise<SmtpConnection> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const onError = (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new SmtpError(`cannot connect to ${options.host}:${options.port}: ${error.message}`, null, true));
      };
      const timer = setTimeout(() => onError(new Error("timed out")), options.timeoutMs);
      const socket: net.Socket = options.secure
        ? tls.connect({ host: options.host, port: options.port, servername: net.isIP(options.host) ? undefined : options.host, ...(options.ca ? { ca: options.ca } : {}) }, () => done())
        : net.connect({ host: options.host, port: options.port }, () => done());
      const done = () => {
        clearTimeout(timer);
        socket.off("error", onError);
        resolve(socket);
      };
      socket.once("error", onError);
    });
    socket.setNoDelay(true);
    const connection = new SmtpConnection(options, socket);
    const timer = setTimeout(() => connection.destroy(new SmtpError("timed out greeting the SMTP server", null)), options.timeoutMs);
    try {
      await connection.greet();
      clearTimeout(timer);
    } catch (error) {
      clearTimeout(timer);
      connection.destroy(error instanceof SmtpError ? error : new SmtpError(String(error), null));
      throw error instanceof SmtpError ? new SmtpError(error.message, error.code, true) : error;
    }
    return connection;
  }

  private listen(socket: net.Socket): void {
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", (error: Error) => this.destroy(new SmtpError(`connection to the SMTP server failed: ${error.message}`, null)));
    socket.on("close", () => this.destroy(new SmtpError("the SMTP server closed the connection", null)));
  }

  private async greet(): Promise<void> {
    expect(await this.reply(), [220], "greeting");
    await this.hello();
    const offersTls = this.extensions.has("STARTTLS");
    if (!this.options.secure && this.options.starttls !== "ignore" && offersTls) {
      expect(await this.command("STARTTLS"), [220], "STARTTLS");
      await this.upgrade();
      await this.hello();
    } else if (!this.options.secure && this.options.starttls === "require") {
      throw new SmtpError("the SMTP server does not offer STARTTLS, which SMTP_URL requires (?tls=require)", null);
    }
    if (this.options.auth) await this.authenticate(this.options.auth);
  }

  /** EHLO, or HELO from a server that knows no EHLO; keeps the extensions it names. */
  private async hello(): Promise<void> {
    const host = os.hostname();
    const name = this.options.name ?? (host.includes(".") ? host : `[${this.socket.localAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1"}]`);
    const ehlo = await this.command(`EHLO ${name}`);
    this.extensions = new Map();
    if (ehlo.code === 250) {
      for (const line of ehlo.text.split("\n").slice(1)) {
        const [keyword, ...rest] = line.trim().split(/\s+/);
        if (keyword) this.extensions.set(keyword.toUpperCase(), rest.join(" ").toUpperCase());
      }
      return;
    }
    expect(await this.command(`HELO ${name}`), [250], "HELO");
  }

  /** TLS over the connection after STARTTLS: answers are read from the TLS socket from then on. */
  private async upgrade(): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners("data");
    plain.removeAllListeners("error");
    plain.removeAllListeners("close");
    const secured = await new Promise<net.Socket>((resolve, reject) => {
      const timer = setTimeout(() => reject(new SmtpError("TLS handshake timed out", null)), this.options.timeoutMs);
      const socket = tls.connect({ socket: plain, servername: net.isIP(this.options.host) ? undefined : this.options.host, ...(this.options.ca ? { ca: this.options.ca } : {}) }, () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(new SmtpError(`TLS with the SMTP server failed: ${error.message}`, null));
      });
    });
    secured.removeAllListeners("error");
    this.socket = secured;
    this.listen(secured);
  }

  /** AUTH PLAIN, or LOGIN when the server offers only that. */
  private async authenticate(auth: { user: string; pass: string }): Promise<void> {
    const mechanisms = (this.extensions.get("AUTH") ?? "").split(" ");
    const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
    if (mechanisms.includes("PLAIN") || !mechanisms.includes("LOGIN")) {
      expect(await this.command(`AUTH PLAIN ${b64(`\0${auth.user}\0${auth.pass}`)}`), [235], "AUTH PLAIN");
      return;
    }
    expect(await this.command("AUTH LOGIN"), [334], "AUTH LOGIN");
    expect(await this.command(b64(auth.user)), [334], "AUTH LOGIN");
    expect(await this.command(b64(auth.pass)), [235], "AUTH LOGIN");
  }

  /** The server offers PIPELINING: a message's envelope goes in one write, and may follow the message before it in that one's last write. */
  get pipelining(): boolean {
    return this.extensions.has("PIPELINING");
  }

  /** A message's MAIL FROM and RCPT TO commands on this connection; a 553 SmtpError when the server cannot take its addresses. */
  private commandsOf(envelope: Envelope, eightBitText: boolean): { mail: string; rcpts: string[] } {
    const utf8 = [envelope.from, ...envelope.to].some((a) => /[^\x00-\x7f]/.test(a));
    if (utf8 && !this.extensions.has("SMTPUTF8")) throw new SmtpError("553 the SMTP server does not accept addresses beyond ASCII (no SMTPUTF8)", 553, true);
    const eightBit = eightBitText && this.extensions.has("8BITMIME");
    return { mail: `MAIL FROM:<${envelope.from}>${eightBit ? " BODY=8BITMIME" : ""}${utf8 ? " SMTPUTF8" : ""}`, rcpts: envelope.to.map((to) => `RCPT TO:<${to}>`) };
  }

  /**
   * The pipelined envelope of a message (MAIL FROM, every RCPT TO and DATA), to be written after the
   * message under way ends; null when the connection cannot pipeline it (no PIPELINING, or addresses
   * the server cannot take, which `send` then refuses on its own).
   */
  envelopeAhead(envelope: Envelope, eightBitText: boolean): string | null {
    if (!this.pipelining || this.closed) return null;
    try {
      const { mail, rcpts } = this.commandsOf(envelope, eightBitText);
      return `${mail}\r\n${rcpts.join("\r\n")}\r\nDATA\r\n`;
    } catch {
      return null;
    }
  }

  /**
   * Sends one message: the envelope (pipelined when the server offers it) and, when a recipient is
   * accepted, the message dot-stuffed and terminated in one write. Leaves the connection ready for
   * the next message (RSET after a refusal). With PIPELINING the next message's envelope may ride
   * in that last write (RFC 2920 allows message content first in a group of commands): `next`
   * answers it (from `envelopeAhead`) when a message waits for this connection, and that message's
   * `send` is then given `envelopeWritten`, reading the answers to it without writing it again. The
   * server answers in order, so this message reads its end before the next reads its envelope's.
   */
  async send(
    envelope: Envelope,
    raw: string,
    options: { eightBitText: boolean; envelopeWritten?: boolean; next?: (connection: SmtpConnection) => string | null },
  ): Promise<SmtpSent> {
    this.used++;
    const { mail, rcpts } = this.commandsOf(envelope, options.eightBitText);
    let mailReply: Reply;
    const rcptReplies: Reply[] = [];
    let dataReply: Reply | null = null;
    if (this.pipelining) {
      if (!options.envelopeWritten) this.write(`${mail}\r\n${rcpts.join("\r\n")}\r\nDATA\r\n`);
      mailReply = await this.reply(true);
      for (let i = 0; i < rcpts.length; i++) rcptReplies.push(await this.reply());
      dataReply = await this.reply();
    } else {
      mailReply = await this.command(mail, true);
      if (mailReply.code === 250) {
        for (const rcpt of rcpts) rcptReplies.push(await this.command(rcpt));
        if (rcptReplies.some((r) => r.code === 250 || r.code === 251)) dataReply = await this.command("DATA");
      }
    }
    const accepted: string[] = [];
    const rejected: SmtpSent["rejected"] = [];
    rcptReplies.forEach((r, i) => (r.code === 250 || r.code === 251 ? accepted.push(envelope.to[i]!) : rejected.push({ address: envelope.to[i]!, code: r.code, response: `${r.code} ${r.text}` })));
    if (dataReply?.code === 354 && (mailReply.code !== 250 || accepted.length === 0)) {
      // Told to go on although the sender or every recipient was refused: end the empty message (RFC 2920, 3.1).
      await this.command(".");
    }
    if (mailReply.code !== 250) {
      await this.reset();
      throw refusal("MAIL FROM", mailReply);
    }
    if (accepted.length === 0) {
      await this.reset();
      // A recipient refused only for now makes the whole message worth another try.
      const worst = rejected.find((r) => r.code < 500) ?? rejected[0];
      throw new SmtpError(`RCPT TO: ${worst ? worst.response : "no recipient"}`, worst ? worst.code : 554);
    }
    if (!dataReply || dataReply.code !== 354) {
      await this.reset();
      throw refusal("DATA", dataReply ?? { code: 554, text: "no answer" });
    }
    const ahead = options.next?.(this) ?? null;
    this.write(ahead ? `${dotStuffed(raw)}.\r\n${ahead}` : `${dotStuffed(raw)}.\r\n`);
    const end = await this.reply();
    if (end.code !== 250) throw refusal("message", end);
    return { code: end.code, response: `${end.code} ${end.text.replace(/\n/g, " ")}`, accepted, rejected };
  }

  /** RSET after a refused envelope, so the next message starts clean; a connection that fails here is closed. */
  private async reset(): Promise<void> {
    const reply = await this.command("RSET").catch(() => null);
    if (reply?.code !== 250) this.destroy(new SmtpError("RSET refused", null));
  }

  /** QUIT, then closes the socket whatever the answer. */
  quit(): void {
    if (this.closed) return;
    this.write("QUIT\r\n");
    const socket = this.socket;
    this.failure = new SmtpError("the connection was closed (QUIT)", null);
    this.rejectAll(this.failure);
    setTimeout(() => socket.destroy(), 1_000).unref?.();
    socket.end();
  }

  destroy(error: SmtpError): void {
    if (this.failure) return;
    this.failure = error;
    this.socket.destroy();
    this.rejectAll(error);
  }

  private rejectAll(error: SmtpError): void {
    for (const w of this.waiting.splice(0)) {
      w.reject(error);
    }
  }

  private write(text: string): void {
    if (this.failure) throw this.failure;
    this.socket.write(text);
  }

  private async command(line: string, first = false): Promise<Reply> {
    this.write(`${line}\r\n`);
    return this.reply(first);
  }

  /** The next answer; `first` marks the first of a message's exchange, so a connection found dead there touched nothing. */
  private reply(first = false): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    const failure = this.failure;
    if (failure) return Promise.reject(first ? new SmtpError(failure.message, null, true) : failure);
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.push({ resolve, reject: first ? (e) => reject(e instanceof SmtpError && e.code === null ? new SmtpError(e.message, null, true) : e) : reject });
    });
  }

  /** Splits what arrived into answers (`250-...` lines continue one, `250 ...` ends it). */
  private read(chunk: Buffer): void {
    this.buffer += chunk.toString("utf8");
    let end: number;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, "");
      this.buffer = this.buffer.slice(end + 1);
      this.lines.push(line.slice(4));
      if (line.length >= 3 && line[3] !== "-") {
        const reply = { code: Number(line.slice(0, 3)) || 0, text: this.lines.join("\n") };
        this.lines = [];
        const waiter = this.waiting.shift();
        if (waiter) {
          waiter.resolve(reply);
        } else if (reply.code === 421) {
          // The server is closing an idle connection.
          this.destroy(new SmtpError(`SMTP ${reply.code} ${reply.text}`, null));
        } else {
          this.replies.push(reply);
        }
      }
    }
  }
}

/**
 * Up to `connections` open connections to one SMTP server, messages taking whichever is free (a
 * new one while fewer are open, else waiting their turn). A connection the server closed is
 * dropped and a new one opened for the next message; a message that found its connection dead
 * before the server saw any of it is sent once more over a fresh one.
 */
export class SmtpPool {
  private readonly idle: SmtpConnection[] = [];
  private readonly queue: Waiter[] = [];
  /** The message whose envelope a connection wrote after the message under way on it: handed that connection once this one ends. */
  private readonly ahead = new Map<SmtpConnection, Waiter>();
  private open = 0;

  constructor(readonly options: SmtpOptions) {}

  async send(envelope: Envelope, raw: string): Promise<SmtpSent> {
    // Read once per message, not per connection it is written on (it spans the whole message).
    const eightBitText = isEightBit(raw);
    for (let attempt = 0; ; attempt++) {
      const { connection, envelopeWritten } = await this.acquire(envelope, eightBitText);
      const timer = setTimeout(() => connection.destroy(new SmtpError("timed out sending to the SMTP server", null)), this.options.timeoutMs);
      try {
        const sent = await connection.send(envelope, raw, { eightBitText, envelopeWritten, next: (c) => this.takeAhead(c) });
        clearTimeout(timer);
        this.release(connection);
        return sent;
      } catch (error) {
        clearTimeout(timer);
        this.release(connection);
        const reused = connection.used > 1;
        if (attempt === 0 && reused && error instanceof SmtpError && error.untouched && error.code === null) continue;
        throw error;
      }
    }
  }

  /** Closes every connection (QUIT); a message sent after it opens new ones. */
  close(): void {
    for (const c of this.idle.splice(0)) {
      if (c.idleTimer) clearTimeout(c.idleTimer);
      this.open--;
      c.quit();
    }
  }

  private async acquire(envelope: Envelope, eightBitText: boolean): Promise<{ connection: SmtpConnection; envelopeWritten: boolean }> {
    for (;;) {
      const idle = this.idle.pop();
      if (idle) {
        if (idle.idleTimer) clearTimeout(idle.idleTimer);
        idle.idleTimer = null;
        if (!idle.closed) return { connection: idle, envelopeWritten: false };
        this.open--;
        continue;
      }
      if (this.open < this.options.connections) {
        this.open++;
        try {
          return { connection: await SmtpConnection.open(this.options), envelopeWritten: false };
        } catch (error) {
          this.open--;
          this.wakeOne(null);
          throw error;
        }
      }
      const handed = await new Promise<Handed | null>((resolve) => this.queue.push({ envelope, eightBitText, resolve }));
      if (handed) return handed;
    }
  }

  /**
   * The envelope of the longest waiting message, written on `connection` after the message under
   * way there ends, so one write carries the end of one message and the start of the next; that
   * message is handed the connection when this one is released. Null when none waits or the
   * connection cannot pipeline it.
   */
  private takeAhead(connection: SmtpConnection): string | null {
    const waiter = this.queue[0];
    if (!waiter) return null;
    const commands = connection.envelopeAhead(waiter.envelope, waiter.eightBitText);
    if (commands === null) return null;
    this.queue.shift();
    this.ahead.set(connection, waiter);
    return commands;
  }

  private release(connection: SmtpConnection): void {
    const ahead = this.ahead.get(connection);
    if (ahead) this.ahead.delete(connection);
    if (connection.closed) {
      this.open--;
      // The message whose envelope went ahead on it tries again like any other (nothing of it was delivered).
      ahead?.resolve(null);
      this.wakeOne(null);
      return;
    }
    if (ahead) {
      ahead.resolve({ connection, envelopeWritten: true });
      return;
    }
    if (this.wakeOne(connection)) return;
    connection.idleTimer = setTimeout(() => {
      const at = this.idle.indexOf(connection);
      if (at < 0) return;
      this.idle.splice(at, 1);
      this.open--;
      connection.quit();
    }, this.options.idleMs);
    connection.idleTimer.unref?.();
    this.idle.push(connection);
  }

  /** Hands a connection (or, with null, a free place for one) to the longest waiting message. */
  private wakeOne(connection: SmtpConnection | null): boolean {
    const waiter = this.queue.shift();
    if (!waiter) return false;
    waiter.resolve(connection && { connection, envelopeWritten: false });
    return true;
  }
}

/** A connection handed to a message, and whether its envelope was already written on it (see `SmtpPool.takeAhead`). */
interface Handed {
  connection: SmtpConnection;
  envelopeWritten: boolean;
}

/** A message waiting for a connection: handed one, or null for a free place to open one (or to look again). */
interface Waiter {
  envelope: Envelope;
  /** The message has bytes beyond ASCII (BODY=8BITMIME where the server offers it). */
  eightBitText: boolean;
  resolve: (handed: Handed | null) => void;
}

/** Text with bytes beyond ASCII. */
function isEightBit(text: string): boolean {
  return /[^\x00-\x7f]/.test(text);
}

/** The message as DATA carries it: CRLF line ends, a line beginning with "." given another, ending in CRLF. */
export function dotStuffed(raw: string): string {
  let text = /(^|[^\r])\n/.test(raw) ? raw.replace(/\r?\n/g, "\r\n") : raw;
  text = text.replace(/(^|\r\n)\./g, "$1..");
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}

function expect(reply: Reply, codes: number[], what: string): void {
  if (!codes.includes(reply.code)) throw refusal(what, reply);
}

function refusal(what: string, reply: Reply): SmtpError {
  return new SmtpError(`${what}: ${reply.code} ${reply.text.replace(/\n/g, " ")}`, reply.code);
}
