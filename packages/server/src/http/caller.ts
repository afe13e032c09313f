import type { EventTypeRecord } from "../store/event-types.ts";
import type { Store } from "../store/store.ts";
import { pathOf } from "../lib/links.ts";
import { hashToken, LINK_TOKEN_PREFIX, matchesHash } from "../lib/tokens.ts";
import { isPagePath } from "../page-paths.ts";
import { bearerToken, eventTypeOfCredential } from "./tokens.ts";
import type { SessionContext } from "./console-session.ts";

/** Event types already resolved from a request's bearer token, so a request looks its token up once. */
export const resolvedEventTypes = new WeakMap<Request, EventTypeRecord>();

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/**
 * Who is calling, as the rate limit counts: the admin, or else always a client address. An event
 * type's tokens count per event type and client address: the booking page's link token because
 * every visitor of the page holds the same published token, and the API token because a site may
 * still have put it into a page, where every visitor holds it too; either way one client must never
 * use up another's (or the organizer's servers') budget. The two tokens keep apart budgets at one
 * address, so visitors of a page never use up the API token of a server behind the same address.
 * Anything else counts against its client address; made-up tokens too, so guessing tokens cannot
 * escape the limit. Page loads
 * (GET or HEAD of `isPagePath`, token or not) count per client address in a budget of their own, so
 * the visitors behind one address loading pages never use up the API budget of that address.
 */
export function callerKeys(store: Store, adminKey: string | null, trustProxy: boolean, aliasPrefix = "", consoleSession?: ConsoleSessionKey) {
  // Tokens that have resolved to an event type, and to which. Only real tokens get in (made-up ones
  // never do), so it stays as small as the set of event types in use; it decides the rate limit key
  // only, never access, which the store confirms for every request.
  const knownTokens = new Map<string, number>();
  // The admin key is hashed once; each request hashes only its own token.
  const adminKeyHash = adminKey ? hashToken(adminKey) : null;
  return async (request: Request, server: AddressSource | null, set: SessionContext["set"]) => {
    // The organizer console's calls count like the admin key's: per signed-in session, not per address.
    if (consoleSession && !request.headers.has("authorization") && request.headers.has("cookie") && isConsolePath(pathOf(request.url))) {
      const id = await consoleSession({ request, set });
      if (id) return `console:${id}`;
    }
    return callerKey(store, adminKeyHash, trustProxy, aliasPrefix, knownTokens, request, server);
  };
}

/** The id of the live console session a request's cookie opens, or null (see modules/console); the session is moved on, its cookie renewed, as by any use. */
export type ConsoleSessionKey = (context: SessionContext) => Promise<string | null>;

const isConsolePath = (path: string): boolean => path.startsWith("/admin/") || path === "/console/session";

async function callerKey(
  store: Store,
  adminKeyHash: string | null,
  trustProxy: boolean,
  aliasPrefix: string,
  knownTokens: Map<string, number>,
  request: Request,
  server: AddressSource | null,
): Promise<string> {
  if ((request.method === "GET" || request.method === "HEAD") && isPagePath(pathOf(request.url), aliasPrefix))
    return `page:${clientAddress(request, server, trustProxy)}`;
  const token = bearerToken(request.headers.get("authorization"));
  if (token) {
    // The organizer's key is compared first: it never needs a hash and a database lookup.
    if (adminKeyHash && matchesHash(token, adminKeyHash)) return "admin";
    let id = knownTokens.get(token);
    if (id === undefined) {
      const eventType = await eventTypeOfCredential(store, token);
      if (eventType) {
        resolvedEventTypes.set(request, eventType);
        if (knownTokens.size >= 10_000) knownTokens.clear();
        knownTokens.set(token, eventType.id);
        id = eventType.id;
      }
    }
    if (id !== undefined) {
      // No budget for a token as a whole: anyone can read a token off a page that carries it, so
      // any ceiling shared by its holders is one a scraper (or a few) can use up for every visitor.
      return `${token.startsWith(LINK_TOKEN_PREFIX) ? "link" : "event-type"}:${id}:${clientAddress(request, server, trustProxy)}`;
    }
  }
  return `address:${clientAddress(request, server, trustProxy)}`;
}

/**
 * The client's address. Behind a proxy the operator runs (`trustProxy`), the last `X-Forwarded-For`
 * entry is the one that proxy added; entries before it are whatever the client claimed.
 */
export function clientAddress(request: Request, server: AddressSource | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return addressBudget(forwarded);
  }
  const address = server?.requestIP(request)?.address;
  return address ? addressBudget(address) : "unknown";
}

/**
 * The budget an address counts against. An IPv6 client is usually handed a whole /64 and can pick
 * a fresh address in it for every request, so IPv6 addresses count per /64; an IPv4 address (also
 * written IPv4-mapped, `::ffff:192.0.2.1`) counts alone.
 */
export function addressBudget(address: string): string {
  const plain = address
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase();
  if (!plain.includes(":")) return plain;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  const [head = "", tail] = plain.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  // Only the first four groups matter; with "::" before them the missing ones are zeros.
  const groups =
    tail === undefined || headGroups.length >= 4
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tail.split(":").filter(Boolean).length).fill("0"), ...tail.split(":").filter(Boolean)];
  return `${groups
    .slice(0, 4)
    .map((g) => (g.includes(".") ? g : Number.parseInt(g || "0", 16).toString(16)))
    .join(":")}::/64`;
}
