import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FETCH_TRIES, guardedFetch } from "../src/modules/calendars/fetch.ts";

/**
 * A bare HTTP/1.1 server on loopback that keeps connections alive and, for each request, either
 * answers it or drops its connection (destroys the socket without a byte of answer), as `drop`
 * decides from the request's number on its connection (1 for the first) and the connection's
 * number. Written on sockets, not Bun.serve, to control exactly when a connection dies.
 */
function droppingServer(drop: (request: { onConnection: number; connection: number }) => boolean) {
  const seen = { connections: 0, requests: [] as string[] };
  const server = net.createServer((socket) => {
    const connection = ++seen.connections;
    let onConnection = 0;
    let buffered = "";
    socket.on("error", () => undefined);
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? "0");
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        seen.requests.push(head.slice(0, head.indexOf(" ")));
        if (drop({ onConnection: ++onConnection, connection })) return void socket.destroy();
        socket.write("HTTP/1.1 207 Multi-Status\r\ncontent-type: application/xml\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok");
      }
    });
  });
  const listening = new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`)),
  );
  servers.push(server);
  return { seen, url: listening };
}

const servers: net.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const report = {
  method: "REPORT",
  headers: { depth: "1", "content-type": "application/xml" },
  body: "<c:calendar-query xmlns:c='urn:ietf:params:xml:ns:caldav'/>",
};

describe("guardedFetch when the connection drops before an answer", () => {
  it("sends a REPORT again on a new connection when the server closed the kept-alive one it went on", async () => {
    // The server answers the first request of each connection and drops the connection on the next:
    // a server closing an idle keep-alive connection just as the client reuses it.
    const server = droppingServer(({ onConnection }) => onConnection > 1);
    const fetchFn = guardedFetch(true);
    const base = await server.url;
    expect((await fetchFn(`${base}/calendars/a/`, report)).status).toBe(207);
    const second = await fetchFn(`${base}/calendars/a/`, report);
    expect(second.status).toBe(207);
    expect(await second.text()).toBe("ok");
    expect(server.seen).toEqual({ connections: 2, requests: ["REPORT", "REPORT", "REPORT"] });
  });

  it("answers a PROPFIND whose first connection was dropped", async () => {
    const server = droppingServer(({ connection }) => connection === 1);
    const response = await guardedFetch(true)(`${await server.url}/principals/`, {
      method: "PROPFIND",
      headers: { depth: "0" },
      body: "<d:propfind xmlns:d='DAV:'/>",
    });
    expect(response.status).toBe(207);
    expect(server.seen).toEqual({ connections: 2, requests: ["PROPFIND", "PROPFIND"] });
  });

  it("fails with what happened after its tries when every connection is dropped", async () => {
    const server = droppingServer(() => true);
    const base = await server.url;
    const failure = guardedFetch(true)(`${base}/feed.ics`);
    await expect(failure).rejects.toThrow(new RegExp(`^GET ${base}/feed\\.ics failed 3 times: \\S.*closed`));
    expect(FETCH_TRIES).toBe(3);
    expect(server.seen.requests).toEqual(["GET", "GET", "GET"]);
  });

  it("does not try a refused connection again: nothing listens there", async () => {
    const closed = net.createServer();
    const port = await new Promise<number>((resolve) => closed.listen(0, "127.0.0.1", () => resolve((closed.address() as net.AddressInfo).port)));
    await new Promise((resolve) => closed.close(resolve));
    const failure = guardedFetch(true)(`http://127.0.0.1:${port}/feed.ics`);
    await expect(failure).rejects.toThrow(/Unable to connect/);
    await expect(failure).rejects.not.toThrow(/failed 3 times/);
  });

  it("never sends a request that may change something twice", async () => {
    const server = droppingServer(() => true);
    await expect(
      guardedFetch(true)(`${await server.url}/calendars/a/event.ics`, { method: "PUT", body: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" }),
    ).rejects.toThrow();
    expect(server.seen.requests).toEqual(["PUT"]);
  });

  it("sends nothing again once the caller's signal has aborted", async () => {
    const controller = new AbortController();
    // The first drop aborts the caller (a sync's deadline passing): no other try follows.
    const server = droppingServer(() => (controller.abort(new Error("deadline passed")), true));
    await expect(guardedFetch(true)(`${await server.url}/calendars/a/`, { ...report, signal: controller.signal })).rejects.toThrow();
    expect(server.seen.requests).toEqual(["REPORT"]);
  });
});
