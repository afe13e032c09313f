import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { assertSameOrigin } from "../../http/console-session.ts";
import { ApiError } from "../../http/errors.ts";
import type { HostAccess } from "../../http/route-doc.ts";
import { ADMIN_HINT, bearerToken, eventTypeOfCredential, hasAdminKey } from "../../http/tokens.ts";
import type { ConsoleAccess } from "../console/service.ts";
import { consoleSessionOf } from "../console/session.ts";
import { assertHostMay } from "./host-scope.ts";

/** What a host's session may reach through the route of `method` and `route` (its path pattern), as the route declares it. */
export type HostRuleOf = (method: string, route: string) => HostAccess | undefined;

/** A route as the guard reads it: its method, path pattern and `detail`. */
interface DeclaredRoute {
  method: string;
  path: string;
  hooks?: { detail?: unknown };
}

/**
 * The host access rule of each route (`detail["x-host-access"]`, from `adminDoc({ hostAccess })`),
 * read from `routes` at the first request, once every route is mounted. HEAD asks as GET does.
 */
export function hostRulesOf(routes: () => readonly DeclaredRoute[]): HostRuleOf {
  let rules: Map<string, HostAccess | undefined> | null = null;
  return (method, route) => {
    rules ??= new Map(routes().map((r) => [`${r.method} ${r.path}`, (r.hooks?.detail as { "x-host-access"?: HostAccess } | undefined)?.["x-host-access"]]));
    return rules.get(`${method === "HEAD" ? "GET" : method} ${route}`);
  };
}

/**
 * The guard of every organizer route under `/admin`: the admin key, or a console session from the
 * console's own origin, whose host (for a host's session) may reach what the route declares; an
 * event type's token is 403 `forbidden`, anything else 401 `unauthenticated`. It runs as the
 * request's first transform, so these answers come before the body or query is validated.
 *
 * A feature's organizer routes `.use()` it before they declare any route: its hook is scoped, so it
 * guards the routes of the instance that uses it, and no route beside that instance.
 */
export const adminGuard = (ctx: AppContext, access: ConsoleAccess, hostRuleOf: HostRuleOf) => {
  const adminKey = ctx.config.adminKey;
  return new Elysia().onTransform({ as: "scoped" }, async ({ request, set, route, params }) => {
    if (adminKey && hasAdminKey(request, adminKey)) return;
    const session = request.headers.has("authorization") ? null : await consoleSessionOf(ctx, access, { request, set });
    if (session) {
      assertSameOrigin(request, ctx.config);
      if (session.role === "host")
        await assertHostMay(ctx, request, session.hostId, hostRuleOf(request.method, route), params as Record<string, string | undefined>);
      return;
    }
    const token = bearerToken(request.headers.get("authorization"));
    if (token && (await eventTypeOfCredential(ctx.store, token))) {
      throw new ApiError("forbidden", "An event type's API token cannot use the admin API.", { hint: ADMIN_HINT });
    }
    throw new ApiError("unauthenticated", "Send the admin key as Authorization: Bearer <BOOKING_ADMIN_KEY>.", { hint: ADMIN_HINT });
  });
};

/** The guard a feature's organizer routes use (see `adminGuard`). */
export type AdminGuard = ReturnType<typeof adminGuard>;
