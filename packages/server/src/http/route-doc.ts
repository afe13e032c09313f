import type { DocumentDecoration } from "elysia";

/**
 * What a route says of itself in the OpenAPI document (`detail`): written beside the route, read by
 * the document's generator (modules/docs/openapi.ts), the docs page, and the test that every route
 * has one.
 */
export interface RouteDoc {
  operationId: string;
  summary: string;
  description: string;
  /** The route reads an empty body as `{}`: its body is documented as optional. */
  optionalBody?: boolean;
}

/** The extensions of the project the document's generator reads and removes. */
const extensions = ({ optionalBody, ...rest }: RouteDoc) => ({ ...rest, ...(optionalBody ? { "x-optional-body": true } : {}) });

/** A route's `detail` as Elysia takes it, with the project's extensions (`x-…`). */
export type Detail = DocumentDecoration & { [extension: `x-${string}`]: unknown };

/** The document's tag of each part of the API. */
export const TAGS = { booking: "Booking", admin: "Admin", console: "Console", pages: "Pages" } as const;

/**
 * A route of the public API, behind the event type's token (`auth: false`: none). `idempotent`:
 * a POST that honours an `Idempotency-Key` header.
 */
export function publicDoc(doc: RouteDoc & { auth?: boolean; idempotent?: boolean }): Detail {
  const { auth = true, idempotent = false, ...rest } = doc;
  return { ...extensions(rest), tags: [TAGS.booking], security: auth ? [{ bearerAuth: [] }] : [], ...(idempotent ? { "x-idempotent": true } : {}) };
}

/**
 * Which of its own things a host's console session may reach through a route: `narrowed` (a list the
 * route narrows to the host), `own-host` (the route's `hostId` must be the session's), and a schedule,
 * calendar source or booking that must be the host's (another host's is 404, as unknown).
 */
export type HostAccess = "narrowed" | "own-host" | "own-schedule" | "own-source" | "own-booking";

/**
 * A route of the organizer's API. `hostAccess`: what a host's console session may reach with it,
 * enforced by the admin API's guard (absent: the organizer only, 403 `forbidden` for a host), and
 * `host` says it in words for the document; `access`: `sign-in` needs no credential (it opens a
 * session), `session` the console's cookie only; by default the admin key or the console's cookie.
 */
export function adminDoc(doc: RouteDoc & { host?: string; hostAccess?: HostAccess; access?: "sign-in" | "session"; tag?: "admin" | "console" }): Detail {
  const { host, hostAccess, access, tag = "admin", ...rest } = doc;
  const description = access ? rest.description : `${rest.description} A host's console session: ${host ?? "refused, 403 `forbidden` (the organizer only)."}`;
  Object.assign(rest, extensions(rest));
  delete rest.optionalBody;
  const security: Record<string, string[]>[] =
    access === "sign-in" ? [] : access === "session" ? [{ consoleSession: [] }] : [{ adminKey: [] }, { consoleSession: [] }];
  return { ...rest, description, tags: [TAGS[tag]], security, "x-access": access ?? "admin", ...(hostAccess ? { "x-host-access": hostAccess } : {}) };
}

/** A route outside the JSON API (a page, a script, a feed): in the document for completeness, tagged apart. */
export function pageDoc(doc: RouteDoc & { auth?: boolean }): Detail {
  const { auth = false, ...rest } = doc;
  return { ...rest, tags: [TAGS.pages], security: auth ? [{ bearerAuth: [] }] : [] };
}
