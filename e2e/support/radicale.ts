import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Radicale (Debian's `/usr/bin/radicale`, or RADICALE_PATH) for a browser test: one user, one calendar, a free loopback port. */
export interface E2eRadicale {
  calendarUrl: string;
  user: string;
  password: string;
  /** PUTs an event (UTC times, `YYYYMMDDTHHMMSSZ`) into the calendar. */
  putEvent(uid: string, start: string, end: string): Promise<void>;
  stop(): Promise<void>;
}

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

/** Starts Radicale with htpasswd authentication and makes the calendar `/{user}/work/`. */
export async function startRadicale(user = "organizer", password = "s3cret-pass"): Promise<E2eRadicale> {
  const dir = mkdtempSync(join(tmpdir(), "radicale-e2e-"));
  writeFileSync(join(dir, "users"), `${user}:${password}\n`);
  const port = await freePort();
  writeFileSync(join(dir, "config"), [
    "[server]", `hosts = 127.0.0.1:${port}`, "[auth]", "type = htpasswd", `htpasswd_filename = ${join(dir, "users")}`, "htpasswd_encryption = plain", "delay = 0",
    "[rights]", "type = owner_only", "[storage]", `filesystem_folder = ${join(dir, "collections")}`, "",
  ].join("\n"));
  const child: ChildProcess = spawn(process.env.RADICALE_PATH ?? "/usr/bin/radicale", ["--config", join(dir, "config")], { stdio: "ignore", env: { PATH: process.env.PATH ?? "", HOME: dir } });
  const base = `http://127.0.0.1:${port}`;
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  for (let waited = 0; ; waited += 100) {
    const up = await fetch(`${base}/`, { headers: { authorization: auth } }).then(() => true, () => false);
    if (up) break;
    if (waited > 15_000) throw new Error("Radicale did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
  const calendarUrl = `${base}/${user}/work/`;
  const made = await fetch(calendarUrl, {
    method: "MKCOL",
    headers: { authorization: auth, "content-type": "application/xml" },
    body: `<?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><set><prop><resourcetype><collection/><C:calendar/></resourcetype><displayname>Work</displayname></prop></set></mkcol>`,
  });
  if (made.status >= 300) throw new Error(`MKCOL answered ${made.status}`);
  return {
    calendarUrl,
    user,
    password,
    async putEvent(uid, start, end) {
      const ics = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//e2e//EN", "BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20260101T000000Z", `DTSTART:${start}`, `DTEND:${end}`, "SUMMARY:Busy", "END:VEVENT", "END:VCALENDAR", ""].join("\r\n");
      const put = await fetch(`${calendarUrl}${uid}.ics`, { method: "PUT", headers: { authorization: auth, "content-type": "text/calendar" }, body: ics });
      if (put.status >= 300) throw new Error(`PUT answered ${put.status}`);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
