import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Debian's Radicale (`apt-get install radicale`; .ci/run installs it). */
export const RADICALE = process.env.RADICALE_PATH ?? "/usr/bin/radicale";

/**
 * A real CalDAV server for one suite: Radicale on a free loopback port with its own storage and one
 * user. Started with `node:child_process`, so the server's tests (Bun) and the end-to-end tests
 * (Node) run the same one.
 */
export interface Radicale {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  user: string;
  password: string;
  /** Creates the calendar collection `/{user}/{name}/`; answers its URL. */
  makeCalendar(name: string): Promise<string>;
  /** PUTs an iCalendar object into a calendar; answers its URL. */
  put(calendarUrl: string, name: string, ics: string): Promise<string>;
  /** Deletes an object. */
  remove(objectUrl: string): Promise<void>;
  /** Requests Radicale answered so far: method and path, oldest first (from its access log). */
  requests(): { method: string; path: string }[];
  /** Stops the server process, keeping its storage: requests fail to connect until `resume`. */
  pause(): Promise<void>;
  /** Starts the server again on the same port and storage, with the password (the user's own when left out). */
  resume(password?: string): Promise<void>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the process has exited (at once when it already has). */
function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts Radicale with htpasswd authentication (plain passwords in a temp file) and owner-only
 * rights, storing into a temp folder removed again by `stop`. Resolves once it answers.
 */
export async function startRadicale(user = "organizer", password = "s3cret-pass"): Promise<Radicale> {
  const dir = mkdtempSync(join(tmpdir(), "radicale-"));
  writeFileSync(join(dir, "users"), `${user}:${password}\n`);
  const port = await freePort();
  writeFileSync(
    join(dir, "config"),
    [
      "[server]",
      `hosts = 127.0.0.1:${port}`,
      "[auth]",
      "type = htpasswd",
      `htpasswd_filename = ${join(dir, "users")}`,
      "htpasswd_encryption = plain",
      "delay = 0",
      "[rights]",
      "type = owner_only",
      "[storage]",
      `filesystem_folder = ${join(dir, "collections")}`,
      "[logging]",
      "level = info",
      "mask_passwords = True",
      "",
    ].join("\n"),
  );
  let log = "";
  const base = `http://127.0.0.1:${port}`;
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const launch = async () => {
    const started = spawn(RADICALE, ["--config", join(dir, "config")], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: dir } });
    started.stdout.setEncoding("utf8").on("data", (text: string) => (log += text));
    started.stderr.setEncoding("utf8").on("data", (text: string) => (log += text));
    started.once("error", (error) => (log += `${error}\n`));
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await fetch(`${base}/.web/`);
        return started;
      } catch {
        if (started.exitCode !== null || started.pid === undefined || Date.now() > deadline) throw new Error(`Radicale did not start:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  let proc = await launch();
  const send = async (method: string, url: string, body?: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { method, body, headers: { authorization: auth, ...headers } });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${text}`);
    return response;
  };
  return {
    base,
    user,
    password,
    async makeCalendar(name) {
      const url = `${base}/${user}/${name}/`;
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>
<D:displayname>${name}</D:displayname>
<C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>
</D:prop></D:set></C:mkcalendar>`;
      await send("PROPFIND", `${base}/${user}/`, undefined, { depth: "0" });
      await send("MKCALENDAR", url, body, { "content-type": "application/xml" });
      return url;
    },
    async put(calendarUrl, name, ics) {
      const url = `${calendarUrl}${name}`;
      await send("PUT", url, ics, { "content-type": "text/calendar; charset=utf-8" });
      return url;
    },
    async remove(objectUrl) {
      await send("DELETE", objectUrl);
    },
    requests() {
      const out: { method: string; path: string }[] = [];
      for (const m of log.matchAll(/(GET|PUT|DELETE|PROPFIND|REPORT|MKCALENDAR|OPTIONS|PROPPATCH|MKCOL) request for '([^']*)'/g))
        out.push({ method: m[1]!, path: m[2]! });
      return out;
    },
    async pause() {
      proc.kill("SIGTERM");
      await exited(proc);
    },
    async resume(newPassword = password) {
      writeFileSync(join(dir, "users"), `${user}:${newPassword}\n`);
      proc = await launch();
    },
    async stop() {
      proc.kill("SIGTERM");
      await exited(proc);
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
