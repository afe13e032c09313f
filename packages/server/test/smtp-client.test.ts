import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmailDeliverer, smtpTransport } from "../src/modules/mail/deliverer.ts";
import { dotStuffed, SmtpError, SmtpPool, smtpOptionsOf, type SmtpOptions } from "../src/modules/mail/smtp.ts";
import { waitFor } from "./utils.ts";

// The product's SMTP client against a real SMTP server (the `smtp-server` package) on loopback,
// with PIPELINING, AUTH and STARTTLS (a self-signed certificate made with openssl) as each test
// configures it. A TCP relay between them records both directions in order, so a test can tell
// whether commands waited for their answers, and can cut every connection at once.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

let certDir = "";
let key = "";
let cert = "";
beforeAll(() => {
  certDir = mkdtempSync(join(tmpdir(), "smtp-cert-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem"), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], { stdio: "ignore" });
  key = readFileSync(join(certDir, "key.pem"), "utf8");
  cert = readFileSync(join(certDir, "cert.pem"), "utf8");
});
afterAll(() => rmSync(certDir, { recursive: true, force: true }));

interface Accepted {
  from: string;
  to: string[];
  raw: Buffer;
  secure: boolean;
  user: string | undefined;
}

/** A real SMTP server on loopback keeping what it accepts; `options` add to or override the defaults (no TLS, no auth). */
async function server(options: Partial<SMTPServerOptions> = {}) {
  const accepted: Accepted[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        accepted.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks), secure: session.secure, user: session.user as string | undefined });
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  return { port: (smtp.server.address() as AddressInfo).port, accepted };
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
    sent: () => log.filter((l) => l.dir === "c").map((l) => l.text).join(""),
    cut: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}

function pool(port: number, options: Partial<SmtpOptions> = {}): SmtpPool {
  const p = new SmtpPool({ host: "127.0.0.1", port, secure: false, starttls: "ignore", connections: 2, idleMs: 5_000, timeoutMs: 5_000, name: "client.example.test", ...options });
  cleanups.push(() => p.close());
  return p;
}

function message(n: number, body = `Message ${n}.`): string {
  return `From: bookings@example.test\r\nTo: ada@example.test\r\nSubject: Message ${n}\r\nMessage-ID: <m${n}@example.test>\r\n\r\n${body}\r\n`;
}

const envelope = { from: "bookings@example.test", to: ["ada@example.test"] };

describe("the SMTP client", () => {
  it("pipelines MAIL FROM, every RCPT TO and DATA in one go when the server offers PIPELINING", async () => {
    const smtp = await server();
    const wire = await relay(smtp.port);
    const sent = await pool(wire.port).send({ from: envelope.from, to: ["ada@example.test", "grace@example.test"] }, message(1));
    expect(sent.code).toBe(250);
    expect(sent.accepted).toEqual(["ada@example.test", "grace@example.test"]);
    expect(smtp.accepted.map((m) => [m.from, m.to])).toEqual([[envelope.from, ["ada@example.test", "grace@example.test"]]]);
    expect(smtp.accepted[0]!.raw.toString("utf8")).toBe(message(1));
    // DATA went out before the server had answered MAIL FROM: the commands did not wait for their answers.
    const afterEhlo = wire.log.slice(wire.log.findIndex((l) => l.dir === "c" && l.text.startsWith("EHLO")) + 2);
    const dataAt = afterEhlo.findIndex((l) => l.dir === "c" && l.text.includes("DATA\r\n"));
    const mailAnswerAt = afterEhlo.findIndex((l) => l.dir === "s" && l.text.startsWith("250"));
    expect(afterEhlo.find((l) => l.dir === "c")!.text).toBe("MAIL FROM:<bookings@example.test>\r\nRCPT TO:<ada@example.test>\r\nRCPT TO:<grace@example.test>\r\nDATA\r\n");
    expect(dataAt).toBeGreaterThanOrEqual(0);
    expect(dataAt).toBeLessThan(mailAnswerAt);
  });

  it("waits for each answer from a server without PIPELINING", async () => {
    const smtp = await server({ hidePIPELINING: true });
    const wire = await relay(smtp.port);
    const p = pool(wire.port);
    await p.send(envelope, message(1));
    await p.send(envelope, message(2));
    expect(smtp.accepted.map((m) => m.raw.toString("utf8"))).toEqual([message(1), message(2)]);
    const client = wire.log.filter((l) => l.dir === "c").map((l) => l.text);
    expect(client).toContain("MAIL FROM:<bookings@example.test>\r\n");
    expect(client).toContain("RCPT TO:<ada@example.test>\r\n");
    expect(client).toContain("DATA\r\n");
    // The two messages went over one connection, greeted once.
    expect(client.filter((t) => t.startsWith("EHLO"))).toHaveLength(1);
  });

  it("sends many messages side by side over the pool's few connections", async () => {
    const smtp = await server();
    const wire = await relay(smtp.port);
    const p = pool(wire.port, { connections: 3 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => p.send(envelope, message(i))));
    expect(results.every((r) => r.code === 250)).toBe(true);
    expect(smtp.accepted.map((m) => m.raw.toString("utf8")).sort()).toEqual(Array.from({ length: 30 }, (_, i) => message(i)).sort());
    expect(wire.sent().match(/^EHLO /gm)).toHaveLength(3);
  });

  it("sends lines beginning with a dot, 8-bit text and long lines intact", async () => {
    const smtp = await server();
    const body = [".", "..", ".hidden", "a line", "Žluťoučký kůň úpěl ďábelské ódy — 日本語", "x".repeat(2_000), "."].join("\r\n");
    const raw = message(1, body);
    await pool(smtp.port).send(envelope, raw);
    expect(smtp.accepted[0]!.raw.toString("utf8")).toBe(raw);
    // Bare line feeds become CRLF, and the message ends with one.
    expect(dotStuffed("a\n.b\n..c")).toBe("a\r\n..b\r\n...c\r\n");
    expect(dotStuffed(".start\r\n")).toBe("..start\r\n");
  });

  it("sends to addresses beyond ASCII with SMTPUTF8", async () => {
    const smtp = await server();
    await pool(smtp.port).send({ from: envelope.from, to: ["jürgen@exämple.de"] }, message(1));
    expect(smtp.accepted[0]!.to).toEqual(["jürgen@exämple.de"]);
  });

  it("sends to the recipients the server accepts, says which it refused, and fails with the temporary code when none is accepted", async () => {
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("busy")) return callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
        if (address.address.startsWith("nobody")) return callback(Object.assign(new Error("no such mailbox"), { responseCode: 550 }));
        callback();
      },
    });
    const p = pool(smtp.port, { connections: 1 });
    const sent = await p.send({ from: envelope.from, to: ["ada@example.test", "busy@example.test", "nobody@example.test"] }, message(1));
    expect(sent.accepted).toEqual(["ada@example.test"]);
    expect(sent.rejected.map((r) => [r.address, r.code])).toEqual([
      ["busy@example.test", 451],
      ["nobody@example.test", 550],
    ]);
    expect(smtp.accepted.map((m) => m.to)).toEqual([["ada@example.test"]]);

    const permanent = await p.send({ from: envelope.from, to: ["nobody@example.test"] }, message(2)).catch((e: unknown) => e);
    expect(permanent).toBeInstanceOf(SmtpError);
    expect((permanent as SmtpError).code).toBe(550);
    const temporary = await p.send({ from: envelope.from, to: ["nobody@example.test", "busy@example.test"] }, message(3)).catch((e: unknown) => e);
    expect((temporary as SmtpError).code).toBe(451);
    // The connection is clean again after the refusals (RSET): the next message goes through on it.
    await p.send(envelope, message(4));
    expect(smtp.accepted.map((m) => m.raw.toString("utf8"))).toEqual([message(1), message(4)]);
  });

  it("fails a message whose sender is refused with the server's code, and sends the next over the same connection", async () => {
    const smtp = await server({
      onMailFrom(address, _session, callback) {
        if (address.address.startsWith("blocked")) return callback(Object.assign(new Error("sender rejected"), { responseCode: 553 }));
        callback();
      },
    });
    const wire = await relay(smtp.port);
    const p = pool(wire.port, { connections: 1 });
    const refused = await p.send({ from: "blocked@example.test", to: ["ada@example.test"] }, message(1)).catch((e: unknown) => e);
    expect((refused as SmtpError).code).toBe(553);
    expect((await p.send(envelope, message(2))).code).toBe(250);
    expect(smtp.accepted.map((m) => m.raw.toString("utf8"))).toEqual([message(2)]);
    expect(wire.sent().match(/^EHLO /gm)).toHaveLength(1);
  });

  it("has the outbox retry a recipient refused for now and give up on one refused for good", async () => {
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("busy")) return callback(Object.assign(new Error("mailbox busy"), { responseCode: 450 }));
        if (address.address.startsWith("nobody")) return callback(Object.assign(new Error("no such mailbox"), { responseCode: 550 }));
        callback();
      },
    });
    const deliverer = new EmailDeliverer(smtpTransport({ mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}?tls=ignore`, from: "Bookings <bookings@example.test>" } }), "Bookings <bookings@example.test>", () => undefined);
    cleanups.push(() => deliverer.close());
    const mail = (to: string) => ({ to, subject: "Confirmed", text: "See you.", html: "<p>See you.</p>" });
    const busy = await deliverer.send(mail("busy@example.test"), "msg_busy");
    expect([busy.statusCode, busy.final, busy.error]).toEqual([450, false, expect.stringMatching(/^SMTP RCPT TO: 450 /)]);
    const nobody = await deliverer.send(mail("nobody@example.test"), "msg_nobody");
    expect([nobody.statusCode, nobody.final]).toEqual([550, true]);
    const ok = await deliverer.send(mail("ada@example.test"), "msg_ok");
    expect([ok.statusCode, ok.error]).toEqual([250, null]);
    expect(smtp.accepted.map((m) => m.to)).toEqual([["ada@example.test"]]);
    expect(smtp.accepted[0]!.raw.toString("utf8")).toContain("Message-ID: <msg_ok@booking-calendar>");
  });

  it("reports the server's answer to the message itself, 4xx or 5xx, and keeps the connection", async () => {
    let n = 0;
    const smtp = await server({
      onData(stream, _session, callback) {
        stream.on("data", () => undefined);
        stream.on("end", () => {
          n++;
          if (n === 1) return callback(Object.assign(new Error("try again later"), { responseCode: 452 }));
          if (n === 2) return callback(Object.assign(new Error("rejected as spam"), { responseCode: 554 }));
          callback();
        });
      },
    });
    const wire = await relay(smtp.port);
    const p = pool(wire.port, { connections: 1 });
    expect(((await p.send(envelope, message(1)).catch((e: unknown) => e)) as SmtpError).code).toBe(452);
    expect(((await p.send(envelope, message(2)).catch((e: unknown) => e)) as SmtpError).code).toBe(554);
    expect((await p.send(envelope, message(3))).code).toBe(250);
    expect(wire.sent().match(/^EHLO /gm)).toHaveLength(1);
  });

  it("writes the envelope of the next waiting message with the end of the one before it, and keeps each message's own answer", async () => {
    let n = 0;
    const smtp = await server({
      onRcptTo(address, _session, callback) {
        if (address.address === "nobody@example.test") return callback(Object.assign(new Error("no such mailbox"), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          if (++n === 2) return callback(Object.assign(new Error("rejected as spam"), { responseCode: 554 }));
          smtp.accepted.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks), secure: false, user: undefined });
          callback();
        });
      },
    });
    const wire = await relay(smtp.port);
    const p = pool(wire.port, { connections: 1 });
    const outcomes = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => p.send(i === 3 ? { from: envelope.from, to: ["nobody@example.test"] } : envelope, message(i)).then((r) => r.code, (e: SmtpError) => e.code)),
    );
    expect(outcomes).toEqual([250, 554, 550, 250, 250]);
    // Each accepted message arrived once, in order, over one connection greeted once.
    expect(smtp.accepted.map((m) => m.raw.toString("utf8"))).toEqual([message(1), message(4), message(5)]);
    expect(wire.sent().match(/^EHLO /gm)).toHaveLength(1);
    // The end of a message and the next one's envelope went in one write, not after the server's answer to the end.
    expect(wire.log.some((l) => l.dir === "c" && l.text.includes("\r\n.\r\nMAIL FROM:<bookings@example.test>\r\nRCPT TO:<ada@example.test>\r\nDATA\r\n"))).toBe(true);
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
      await pool(smtp.port, { auth: { user: "bookings", pass: "s3cret:pass" } }).send(envelope, message(1));
      expect(smtp.accepted.map((m) => m.user)).toEqual(["bookings"]);
      const refused = await pool(smtp.port, { auth: { user: "bookings", pass: "wrong" } }).send(envelope, message(2)).catch((e: unknown) => e);
      expect((refused as SmtpError).code).toBe(535);
      expect(smtp.accepted).toHaveLength(1);
      expect(seen).toEqual([methods[0], methods[0]]);
    }
  });

  it("takes the credentials, TLS mode and port from SMTP_URL", () => {
    const defaults = { connections: 8, idleMs: 10_000, timeoutMs: 10_000 };
    expect(smtpOptionsOf("smtp://us%40er:p%3Ass@mail.example.com?tls=require", defaults)).toMatchObject({ host: "mail.example.com", port: 587, secure: false, starttls: "require", auth: { user: "us@er", pass: "p:ss" } });
    expect(smtpOptionsOf("smtps://mail.example.com", defaults)).toMatchObject({ port: 465, secure: true, starttls: "opportunistic" });
    expect(smtpOptionsOf("smtp://127.0.0.1:2525?tls=ignore", defaults)).toMatchObject({ port: 2525, starttls: "ignore" });
    expect(smtpOptionsOf("smtp://127.0.0.1:2525", defaults).auth).toBeUndefined();
  });

  it("upgrades to TLS with STARTTLS when offered, signs in over it, and refuses to send without it when required", async () => {
    const smtp = await server({ disabledCommands: [], key, cert, authOptional: false, onAuth: (auth, _s, cb) => cb(null, { user: auth.username }) });
    const wire = await relay(smtp.port);
    await pool(wire.port, { starttls: "opportunistic", ca: cert, auth: { user: "bookings", pass: "x" } }).send(envelope, message(1));
    expect(smtp.accepted.map((m) => [m.secure, m.user])).toEqual([[true, "bookings"]]);
    expect(wire.sent()).toContain("STARTTLS\r\n");
    // The credentials went over TLS only.
    expect(wire.sent()).not.toContain("AUTH");

    // A certificate the client does not trust is refused.
    const untrusted = await pool(smtp.port, { starttls: "require" }).send(envelope, message(2)).catch((e: unknown) => e);
    expect((untrusted as SmtpError).code).toBeNull();

    const plain = await server();
    const required = await pool(plain.port, { starttls: "require" }).send(envelope, message(3)).catch((e: unknown) => e);
    expect((required as SmtpError).code).toBeNull();
    expect((required as SmtpError).message).toMatch(/STARTTLS/);
    expect(plain.accepted).toHaveLength(0);
  });

  it("speaks TLS from the first byte to an smtps server", async () => {
    const smtp = await server({ secure: true, key, cert });
    await pool(smtp.port, { secure: true, ca: cert }).send(envelope, message(1));
    expect(smtp.accepted.map((m) => m.secure)).toEqual([true]);
  });

  it("fails the messages under way when the connection drops, and sends the next over a new one", async () => {
    let cutAfter = 0;
    let wire: Awaited<ReturnType<typeof relay>> | null = null;
    const smtp = await server({
      onData(stream, _session, callback) {
        stream.on("data", () => undefined);
        stream.on("end", () => {
          // Drops every connection before answering the third message.
          if (++cutAfter === 3) return wire!.cut();
          callback();
        });
      },
    });
    wire = await relay(smtp.port);
    const p = pool(wire.port, { connections: 1 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => p.send(envelope, message(i))));
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed).toHaveLength(1);
    expect(((failed[0] as PromiseRejectedResult).reason as SmtpError).code).toBeNull();
    expect(results[2]!.status).toBe("rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(wire.sent().match(/^EHLO /gm)).toHaveLength(2);

    // An idle connection the server closed is noticed and replaced: the message still goes.
    wire.cut();
    await new Promise((r) => setTimeout(r, 50));
    expect((await p.send(envelope, message(9))).code).toBe(250);
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const began = Date.now();
    const error = await pool((silent.address() as AddressInfo).port, { timeoutMs: 300 }).send(envelope, message(1)).catch((e: unknown) => e);
    expect((error as SmtpError).code).toBeNull();
    expect((error as SmtpError).message).toMatch(/timed out/);
    expect(Date.now() - began).toBeLessThan(3_000);
  });

  it("says QUIT when closed and opens a new connection for a message sent after", async () => {
    const smtp = await server();
    const wire = await relay(smtp.port);
    const p = pool(wire.port);
    await p.send(envelope, message(1));
    p.close();
    await waitFor(() => wire.sent().includes("QUIT\r\n"), 2_000, "QUIT");
    await p.send(envelope, message(2));
    expect(smtp.accepted).toHaveLength(2);
    expect(wire.sent().match(/^EHLO /gm)).toHaveLength(2);
  });
});
