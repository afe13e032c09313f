import type { EventTypeRecord, Store } from "../store/types.ts";
import { bearerToken, hashToken, sameSecret } from "./tokens.ts";

/** Event types already resolved from a request's bearer token, so a request looks its token up once. */
export const resolvedEventTypes = new WeakMap<Request, EventTypeRecord>();

interface AddressSource {
  requestIP(request: Request): { address: string } | null;
}

/**
 * Who is calling, as the rate limit counts: the event type or the admin whose valid token the
 * request carries, else its client address. Made-up tokens count against the address, so guessing
 * tokens cannot escape the limit.
 */
export async function callerKey(store: Store, adminKey: string | null, request: Request, server: AddressSource | null, trustProxy: boolean): Promise<string> {
  const token = bearerToken(request.headers.get("authorization"));
  if (token) {
    const eventType = await store.eventTypes.byTokenHash(hashToken(token));
    if (eventType) {
      resolvedEventTypes.set(request, eventType);
      return `event-type:${eventType.id}`;
    }
    if (adminKey && sameSecret(token, adminKey)) return "admin";
  }
  return `address:${clientAddress(request, server, trustProxy)}`;
}

/**
 * The client's address. Behind a proxy the operator runs (`trustProxy`), the last `X-Forwarded-For`
 * entry is the one that proxy added; entries before it are whatever the client claimed.
 */
function clientAddress(request: Request, server: AddressSource | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
