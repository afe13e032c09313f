import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";

/** An assistant connected to the app's `/mcp` through the SDK's own client and Streamable HTTP transport, requests going through `app.handle`. */
export async function connectOverHttp(app: { handle(request: Request): Promise<Response> }, key: string | null, base = "http://localhost"): Promise<Client> {
  const client = new Client({ name: "test-assistant", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    fetch: (input, init) => app.handle(new Request(input, init)),
    ...(key === null ? {} : { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  });
  await client.connect(transport);
  return client;
}

/** A successful tool result: its structured content (typed loosely for assertions) and its text. */
export function success(result: Awaited<ReturnType<Client["callTool"]>>): { data: any; text: string } {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`the tool failed: ${JSON.stringify(r.content)}`);
  expect(r.structuredContent).toBeDefined();
  expect(r.content).toHaveLength(1);
  expect(r.content[0]!.type).toBe("text");
  return { data: r.structuredContent, text: (r.content[0] as { text: string }).text };
}

/** A tool error: `isError` with one text naming what went wrong, and no structured content. */
export function failure(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  expect(r.content[0]!.type).toBe("text");
  return (r.content[0] as { text: string }).text;
}

/** A webhook receiver on loopback that verifies each delivery with the event type's secret, as a customer's would. */
export interface Receiver {
  url: string;
  /** The secret it verifies with. */
  secret: string;
  /** Payloads of the verified deliveries, in order. */
  payloads: any[];
  /** Resolves once at least `n` verified payloads arrived (polls up to `ms`). */
  waitFor(n: number, ms?: number): Promise<any[]>;
  stop(): void;
}

/** Starts a receiver; it answers 200 to verified deliveries and 401 to anything else. */
export function startReceiver(): Receiver {
  const payloads: any[] = [];
  const state = { secret: "" };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = await request.text();
      try {
        new Webhook(state.secret).verify(body, Object.fromEntries(request.headers));
      } catch {
        return new Response("bad signature", { status: 401 });
      }
      payloads.push(JSON.parse(body));
      return new Response("ok");
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hooks`,
    get secret() {
      return state.secret;
    },
    set secret(value: string) {
      state.secret = value;
    },
    payloads,
    async waitFor(n, ms = 15_000) {
      for (const deadline = Date.now() + ms; payloads.length < n && Date.now() < deadline; ) await Bun.sleep(50);
      expect(payloads.length).toBeGreaterThanOrEqual(n);
      return payloads;
    },
    stop: () => server.stop(true),
  };
}
