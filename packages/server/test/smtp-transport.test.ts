import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SMTPServerOptions } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmailDeliverer, smtpTransport } from "../src/modules/mail/deliverer.ts";
import { SmtpError, smtpPoolOptions, SmtpTransport, type SmtpLimits } from "../src/modules/mail/smtp-transport.ts";
import { startSmtp, type Smtp } from "./smtp.ts";
import { waitFor } from "./utils.ts";

// The product's SMTP transport (nodemailer's pooled SMTP transport, configured from SMTP_URL)
// against a real SMTP server (test/smtp.ts, the `smtp-server` package) on loopback, with
// PIPELINING, AUTH and STARTTLS (a self-signed certificate made with openssl) as each test
// configures it. A TCP relay between them records both directions in order, so a test can tell
// whether commands waited for their answers and how many connections were greeted, and can cut
// every connection at once.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let certDir = "";
let key = "";
let cert = "";
beforeAll(() => {
  certDir = mkdtempSync(join(tmpdir(), "smtp-cert-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      join(certDir, "key.pem"),
      "-out",
      join(certDir, "cert.pem"),
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  key = readFileSync(join(certDir, "key.pem"), "utf8");
  cert = readFileSync(join(certDir, "cert.pem"), "utf8");
});
afterAll(() => rmSync(certDir, { recursive: true, force: true }));

/** A real SMTP server (test/smtp.ts) with `options` over its defaults (no TLS, no auth), stopped after the test. */
async function server(options: Partial<SMTPServerOptions> = {}, refuse: (n: number) => number | null = () => null): Promise<Smtp> {
  const smtp = await startSmtp(refuse, 0, options);
  cleanups.push(() => smtp.stop());
  return smtp;
}

/** A TCP relay to `port` recording what passes, in order; `cut()` ends every connection through it. */
async function relay(port: number) {
  const log: { dir: "c" | "s"; text: string }[] = [];
  const sockets = new Set<net.Socket>();
  const front = net.createServer((client) => {
    const back = net.connect(port, "127.0.0.1");
    sockets.add(client).add(back);
    client.on("data", (d) => {
      log.push({ dir: "c", text: d.toString("utf8") });
      back.write(d);
    });
    back.on("data", (d) => {
      log.push({ dir: "s", text: d.toString("utf8") });
      client.write(d);
    });
    const end = () => {
      client.destroy();
      back.destroy();
    };
    client.on("close", end).on("error", end);
    back.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", () => resolve()));
  cleanups.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => front.close(() => resolve()));
  });
  return {
    port: (front.address() as AddressInfo).port,
    log,
    /** Everything the client sent, as one text. */
    sent: () =>
      log
        .filter((l) => l.dir === "c")
        .map((l) => l.text)
        .join(""),
    /** Connections greeted (EHLO sent, a second one after STARTTLS not seen through TLS). */
    greetings: () =>
      (
        log
          .filter((l) => l.dir === "c")
          .map((l) => l.text)
          .join("")
          .match(/^EHLO /gm) ?? []
      ).length,
    /** Connections open through the relay now. */
    open: () => [...sockets].filter((s) => !s.destroyed).length / 2,
    cut: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}

const LIMITS: SmtpLimits = { connections: 2, idleMs: 5_000, connectMs: 5_000, messageMs: 10_000 };

/** The product's transport to `port` as SMTP_URL would name it (`query` for `?tls=...`, `user` for AUTH), closed after the test. */
function transport(
  port: number,
  options: { scheme?: "smtp" | "smtps"; query?: string; user?: string; limits?: Partial<SmtpLimits>; ca?: string } = {},
): SmtpTransport {
  const url = `${options.scheme ?? "smtp"}://${options.user ? `${options.user}@` : ""}127.0.0.1:${port}${options.query ?? "?tls=ignore"}`;
  const t = new SmtpTransport(url, { ...LIMITS, ...options.limits }, options.ca);
  cleanups.push(() => t.close());
  return t;
}

function message(n: number, body = `Message ${n}.`): string {
  return `From: bookings@example.test\r\nTo: ada@example.test\r\nSubject: Message ${n}\r\nMessage-ID: <m${n}@example.test>\r\n\r\n${body}\r\n`;
}

const envelope = { from: "bookings@example.test", to: ["ada@example.test"] };

/** The SmtpError a send failed with (or the test fails). */
async function refusal(sending: Promise<unknown>): Promise<SmtpError> {
  const error = await sending.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmtpError);
  return error as SmtpError;
}

describe("the SMTP transport", () => {
  it("sends the message as written and pipelines MAIL FROM, every RCPT TO and DATA when the server offers PIPELINING", async () => {
    const smtp = await server();
    const wire = await relay(smtp.port);
    const sent = await transport(wire.port).send({ from: envelope.from, to: ["ada@example.test", "grace@example.test"] }, message(1));
    expect(sent.code).toBe(250);
    expect(sent.accepted).toEqual(["ada@example.test", "grace@example.test"]);
    expect(smtp.received.map((m) => [m.from, m.to])).toEqual([[envelope.from, ["ada@example.test", "grace@example.test"]]]);
    // Byte for byte what the caller wrote: no header added or rewritten.
    expect(smtp.received[0]!.raw).toBe(message(1));
    // DATA went out before the server had answered MAIL FROM: the commands did not wait for their answers.
    const afterEhlo = wire.log.slice(wire.log.findIndex((l) => l.dir === "c" && l.text.startsWith("EHLO")) + 2);
    const dataAt = afterEhlo.findIndex((l) => l.dir === "c" && l.text.includes("DATA\r\n"));
    const mailAnswerAt = afterEhlo.findIndex((l) => l.dir === "s" && l.text.startsWith("250"));
    expect(wire.sent()).toContain("MAIL FROM:<bookings@example.test>");
    expect(dataAt).toBeGreaterThanOrEqual(0);
    expect(dataAt).toBeLessThan(mailAnswerAt);
  });

  it("waits for each answer from a server without PIPELINING, and sends one message after another over one connection greeted once", async () => {
    const smtp = await server({ hidePIPELINING: true });
    const wire = await relay(smtp.port);
    const t = transport(wire.port);
    await t.send(envelope, message(1));
    await t.send(envelope, message(2));
    expect(smtp.received.map((m) => m.raw)).toEqual([message(1), message(2)]);
    expect(wire.sent()).toContain("RCPT TO:<ada@example.test>\r\n");
    expect(wire.greetings()).toBe(1);
  });

  it("sends many messages side by side over the pool's few connections", async () => {
    const smtp = await server();
    const wire = await relay(smtp.port);
    const t = transport(wire.port, { limits: { connections: 3 } });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => t.send(envelope, message(i))));
    expect(results.every((r) => r.code === 250)).toBe(true);
    expect(smtp.received.map((m) => m.raw).sort()).toEqual(Array.from({ length: 30 }, (_, i) => message(i)).sort());
    expect(wire.greetings()).toBe(3);
  });

  it("sends lines beginning with a dot, 8-bit text and long lines intact", async () => {
    const smtp = await server();
    const body = [".", "..", ".hidden", "a line", "Žluťoučký kůň úpěl ďábelské ódy — 日本語", "x".repeat(2_000), "."].join("\r\n");
    const raw = message(1, body);
    await transport(smtp.port).send(envelope, raw);
    expect(smtp.received[0]!.raw).toBe(raw);
  });

  it("sends to addresses beyond ASCII with SMTPUTF8", async () => {
    const smtp = await server();
    await transport(smtp.port).send({ from: envelope.from, to: ["jürgen@exämple.de"] }, message(1));
    expect(smtp.received[0]!.to).toEqual(["jürgen@exämple.de"]);
  });

  it("sends to the recipients the server accepts, says which it refused, and fails with the temporary code when none is accepted", async () => {
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("busy")) return callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
        if (address.address.startsWith("nobody")) return callback(Object.assign(new Error("no such mailbox"), { responseCode: 550 }));
        callback();
      },
    });
    const wire = await relay(smtp.port);
    const t = transport(wire.port, { limits: { connections: 1 } });
    const sent = await t.send({ from: envelope.from, to: ["ada@example.test", "busy@example.test", "nobody@example.test"] }, message(1));
    expect(sent.accepted).toEqual(["ada@example.test"]);
    expect(sent.rejected).toEqual(["busy@example.test", "nobody@example.test"]);
    expect(smtp.received.map((m) => m.to)).toEqual([["ada@example.test"]]);

    const permanent = await refusal(t.send({ from: envelope.from, to: ["nobody@example.test"] }, message(2)));
    expect(permanent.code).toBe(550);
    expect(permanent.message).toMatch(/^RCPT TO: 550 /);
    expect((await refusal(t.send({ from: envelope.from, to: ["nobody@example.test", "busy@example.test"] }, message(3)))).code).toBe(451);
    // The connection is clean again after the refusals (RSET): the next message goes through on it.
    await t.send(envelope, message(4));
    expect(smtp.received.map((m) => m.raw)).toEqual([message(1), message(4)]);
    expect(wire.greetings()).toBe(1);
  });

  it("fails a message whose sender is refused with the server's code, and sends the next over the same connection", async () => {
    const smtp = await server({
      onMailFrom(address, _session, callback) {
        if (address.address.startsWith("blocked")) return callback(Object.assign(new Error("sender rejected"), { responseCode: 553 }));
        callback();
      },
    });
    const wire = await relay(smtp.port);
    const t = transport(wire.port, { limits: { connections: 1 } });
    expect((await refusal(t.send({ from: "blocked@example.test", to: ["ada@example.test"] }, message(1)))).code).toBe(553);
    expect((await t.send(envelope, message(2))).code).toBe(250);
    expect(smtp.received.map((m) => m.raw)).toEqual([message(2)]);
    expect(wire.greetings()).toBe(1);
  });

  it("reports the server's answer to the message itself, 4xx or 5xx, and keeps the connection", async () => {
    const smtp = await server({}, (n) => (n === 1 ? 452 : n === 2 ? 554 : null));
    const wire = await relay(smtp.port);
    const t = transport(wire.port, { limits: { connections: 1 } });
    expect((await refusal(t.send(envelope, message(1)))).code).toBe(452);
    expect((await refusal(t.send(envelope, message(2)))).code).toBe(554);
    expect((await t.send(envelope, message(3))).code).toBe(250);
    expect(smtp.received.map((m) => m.raw)).toEqual([message(3)]);
    expect(wire.greetings()).toBe(1);
  });

  it("signs in with AUTH PLAIN, or LOGIN when the server offers only that, and fails with the server's code on a wrong password", async () => {
    for (const methods of [["PLAIN", "LOGIN"], ["LOGIN"]]) {
      const seen: string[] = [];
      const smtp = await server({
        disabledCommands: ["STARTTLS"],
        authOptional: false,
        allowInsecureAuth: true,
        authMethods: methods,
        onAuth(auth, _session, callback) {
          seen.push(auth.method);
          if (auth.username === "bookings" && auth.password === "s3cret:pass") return callback(null, { user: auth.username });
          callback(Object.assign(new Error("invalid credentials"), { responseCode: 535 }));
        },
      });
      await transport(smtp.port, { user: "bookings:s3cret%3Apass" }).send(envelope, message(1));
      expect(smtp.received.map((m) => m.user)).toEqual(["bookings"]);
      expect((await refusal(transport(smtp.port, { user: "bookings:wrong" }).send(envelope, message(2)))).code).toBe(535);
      expect(smtp.received).toHaveLength(1);
      expect(seen).toEqual([methods[0], methods[0]]);
    }
  });

  it("refuses to send without signing in when SMTP_URL has credentials and the server offers no AUTH", async () => {
    const smtp = await server();
    const error = await refusal(transport(smtp.port, { user: "bookings:x" }).send(envelope, message(1)));
    expect(error.code).toBeGreaterThanOrEqual(500);
    expect(smtp.received).toHaveLength(0);
  });

  it("takes the credentials, TLS mode and port from SMTP_URL", () => {
    expect(smtpPoolOptions("smtp://us%40er:p%3Ass@mail.example.com?tls=require", LIMITS)).toMatchObject({
      pool: true,
      host: "mail.example.com",
      port: 587,
      secure: false,
      requireTLS: true,
      ignoreTLS: false,
      auth: { user: "us@er", pass: "p:ss" },
    });
    expect(smtpPoolOptions("smtps://mail.example.com", LIMITS)).toMatchObject({ port: 465, secure: true, requireTLS: false, ignoreTLS: false });
    expect(smtpPoolOptions("smtp://127.0.0.1:2525?tls=ignore", LIMITS)).toMatchObject({ host: "127.0.0.1", port: 2525, ignoreTLS: true });
    expect(smtpPoolOptions("smtp://[::1]:2525", LIMITS)).toMatchObject({ host: "::1", port: 2525, ignoreTLS: false });
    expect(smtpPoolOptions("smtp://127.0.0.1:2525", LIMITS).auth).toBeUndefined();
    // Certificates are checked unless nodemailer is told otherwise, which SMTP_URL cannot.
    expect(smtpPoolOptions("smtps://mail.example.com?tls=ignore&rejectUnauthorized=false", LIMITS).tls?.rejectUnauthorized).toBeUndefined();
  });

  it("upgrades to TLS with STARTTLS when offered, signs in over it, and refuses to send without it when required", async () => {
    const smtp = await server({ disabledCommands: [], key, cert, authOptional: false, onAuth: (auth, _s, cb) => cb(null, { user: auth.username }) });
    const wire = await relay(smtp.port);
    await transport(wire.port, { query: "", ca: cert, user: "bookings:x" }).send(envelope, message(1));
    expect(smtp.received.map((m) => [m.secure, m.user])).toEqual([[true, "bookings"]]);
    expect(wire.sent()).toContain("STARTTLS\r\n");
    // The credentials went over TLS only.
    expect(wire.sent()).not.toContain("AUTH");

    // A certificate the transport does not trust is refused: the connection failed, nothing was sent.
    const untrusted = await refusal(transport(smtp.port, { query: "?tls=require" }).send(envelope, message(2)));
    expect(untrusted.code).toBeNull();

    const plain = await server();
    const required = await refusal(transport(plain.port, { query: "?tls=require" }).send(envelope, message(3)));
    expect(required.code).toBeNull();
    expect(required.message).toMatch(/STARTTLS/);
    expect(plain.received).toHaveLength(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("speaks TLS from the first byte to an smtps server, checking its certificate", async () => {
    const smtp = await server({ secure: true, key, cert });
    await transport(smtp.port, { scheme: "smtps", query: "", ca: cert }).send(envelope, message(1));
    expect(smtp.received.map((m) => m.secure)).toEqual([true]);
    expect((await refusal(transport(smtp.port, { scheme: "smtps", query: "" }).send(envelope, message(2)))).code).toBeNull();
    expect(smtp.received).toHaveLength(1);
  });

  it("fails the message under way when the connection drops, and sends the next over a new one", async () => {
    let wire: Awaited<ReturnType<typeof relay>> | null = null;
    // Drops every connection before answering the third message.
    const smtp = await server({}, (n) => {
      if (n === 3) wire!.cut();
      return null;
    });
    wire = await relay(smtp.port);
    const t = transport(wire.port, { limits: { connections: 1 } });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => t.send(envelope, message(i))));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect(((results[2] as PromiseRejectedResult).reason as SmtpError).code).toBeNull();
    expect(wire.greetings()).toBe(2);

    // An idle connection the server closed is noticed and replaced: the message still goes.
    wire.cut();
    await new Promise((r) => setTimeout(r, 50));
    expect((await t.send(envelope, message(9))).code).toBe(250);
    expect(wire.greetings()).toBe(3);
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const port = (silent.address() as AddressInfo).port;
    const began = Date.now();
    const error = await refusal(transport(port, { limits: { connectMs: 300, messageMs: 600 } }).send(envelope, message(1)));
    expect(error.code).toBeNull();
    expect(Date.now() - began).toBeLessThan(3_000);
  });

  it("gives up on a message the server answers too slowly, whatever answers came before", async () => {
    // Answers everything but the end of the message, which it never answers.
    const smtp = await server();
    const stalling = net.createServer((client) => {
      const back = net.connect(smtp.port, "127.0.0.1");
      client.pipe(back);
      back.on("data", (d: Buffer) => {
        if (!/^250 .*queued/im.test(d.toString("utf8"))) client.write(d);
      });
      client.on("error", () => back.destroy()).on("close", () => back.destroy());
      back.on("error", () => client.destroy());
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => stalling.close(() => resolve())));
    const began = Date.now();
    const error = await refusal(transport((stalling.address() as AddressInfo).port, { limits: { messageMs: 800 } }).send(envelope, message(1)));
    expect(error.code).toBeNull();
    expect(error.message).toMatch(/timed out/);
    expect(Date.now() - began).toBeLessThan(3_000);
  });

  it("closes its connections when closed, and opens a new one for a message sent after", async () => {
    const smtp = await server();
    const wire = await relay(smtp.port);
    const t = transport(wire.port);
    await t.send(envelope, message(1));
    expect(wire.open()).toBe(1);
    t.close();
    await waitFor(() => wire.open() === 0, 2_000, "the connection closed");
    await t.send(envelope, message(2));
    expect(smtp.received).toHaveLength(2);
    expect(wire.greetings()).toBe(2);
  });
});

describe("the email deliverer over SMTP", () => {
  it("has the outbox retry a recipient refused for now, a message refused for now and a server unreachable, and give up on a refusal for good", async () => {
    const smtp = await server(
      {
        onRcptTo(address, _session, callback) {
          if (address.address.startsWith("busy")) return callback(Object.assign(new Error("mailbox busy"), { responseCode: 450 }));
          if (address.address.startsWith("nobody")) return callback(Object.assign(new Error("no such mailbox"), { responseCode: 550 }));
          callback();
        },
      },
      (n) => (n === 1 ? 451 : null),
    );
    const from = "Bookings <bookings@example.test>";
    const deliverer = new EmailDeliverer(smtpTransport({ mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}?tls=ignore`, from } }), from, () => undefined);
    cleanups.push(() => deliverer.close());
    const mail = (to: string) => ({ to, subject: "Confirmed", text: "See you.", html: "<p>See you.</p>" });
    const busy = await deliverer.send(mail("busy@example.test"), "msg_busy");
    expect([busy.statusCode, busy.final, busy.error]).toEqual([450, false, expect.stringMatching(/^SMTP RCPT TO: 450 /)]);
    const nobody = await deliverer.send(mail("nobody@example.test"), "msg_nobody");
    expect([nobody.statusCode, nobody.final, nobody.error]).toEqual([550, true, expect.stringMatching(/^SMTP RCPT TO: 550 /)]);
    const later = await deliverer.send(mail("ada@example.test"), "msg_later");
    expect([later.statusCode, later.final]).toEqual([451, false]);
    const ok = await deliverer.send(mail("ada@example.test"), "msg_ok");
    expect([ok.statusCode, ok.error]).toEqual([250, null]);
    expect(smtp.received.map((m) => [m.from, m.to])).toEqual([["bookings@example.test", ["ada@example.test"]]]);
    expect(smtp.received[0]!.raw).toContain("Message-ID: <msg_ok@booking-calendar>");
    expect(smtp.received[0]!.mail.from?.value).toEqual([{ address: "bookings@example.test", name: "Bookings" }]);

    await smtp.stop();
    const gone = await deliverer.send(mail("ada@example.test"), "msg_gone");
    expect([gone.statusCode, gone.final, gone.error]).toEqual([null, false, expect.stringMatching(/^unreachable: /)]);
  });
});
