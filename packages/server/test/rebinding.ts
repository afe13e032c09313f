import { vi } from "vitest";

/** The public address the rebinding name first answers; connections to it are refused, so the test reaches no outside host. */
export const REBINDING_PUBLIC_ADDRESS = "93.184.215.14";

/**
 * A DNS rebinding attack, as a guarded fetch meets it: the name's first lookup (the address check)
 * answers a public address and every later one loopback, which the system's own resolver would
 * connect to. Records the names looked up and where each fetch connected, with its Host header.
 * Spies on `Bun.dns.lookup` and `fetch`; the test's `vi.restoreAllMocks()` ends them.
 */
export function rebindingDns() {
  const lookups: string[] = [];
  vi.spyOn(Bun.dns, "lookup").mockImplementation((async (host: string) => {
    lookups.push(host);
    return [{ address: lookups.length === 1 ? REBINDING_PUBLIC_ADDRESS : "127.0.0.1", family: 4, ttl: 0 }];
  }) as typeof Bun.dns.lookup);
  const realFetch = globalThis.fetch;
  const connected: { url: string; host: string | null }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((async (input: string | URL | Request, init?: RequestInit) => {
    const target = new URL(input instanceof Request ? input.url : input);
    connected.push({ url: target.href, host: new Headers(init?.headers).get("host") });
    if (target.hostname === REBINDING_PUBLIC_ADDRESS) throw Object.assign(new Error("Unable to connect"), { code: "ECONNREFUSED" });
    return realFetch(input, init);
  }) as typeof fetch);
  return { lookups, connected };
}
