import { Elysia } from "elysia";
import type { ErrorBody } from "@booking/wire";
import type { AppContext } from "../context.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, readBody } from "./body.ts";
import { callerKeys, type ConsoleSessionKey } from "./caller.ts";
import { isValidHost, pathOf, publicOrigin } from "../lib/links.ts";
import { CORS_HEADERS, isCrossOriginPath, preflight } from "./cors.ts";
import { ApiError, BusinessFailure, codedAsInvalid } from "./errors.ts";
import { allowedMethods, toApiError, type RouteList } from "./failures.ts";
import { useSharedFormats } from "./formats.ts";
import { rateLimitHeaders } from "./rate-limit.ts";
import { strictTransportSecurity } from "./transport-security.ts";

/** The one API version this server speaks (spec part 9). */
export const API_VERSION = "1";

/**
 * The cross-cutting HTTP contract, registered before every route: request id, version header,
 * Strict-Transport-Security (production over https), CORS for the public API, rate limit headers
 * and 429, JSON body parsing with the size limit (raw text for the paths in `rawBodyPaths`), the
 * string formats the request schemas check, and the single place where every failure becomes the
 * spec's JSON error body.
 */
export function httpContract(ctx: AppContext, routes: RouteList, rawBodyPaths: ReadonlySet<string> = new Set(), consoleSession?: ConsoleSessionKey) {
  useSharedFormats();
  const methodsOf = allowedMethods(routes);
  const callerKey = callerKeys(ctx.store, ctx.config.adminKey, ctx.config.trustProxy, ctx.config.aliasPrefix, consoleSession);
  const hsts = strictTransportSecurity(ctx.config);
  return (
    new Elysia({ name: "http-contract" })
      .onRequest(async ({ request, set, server }) => {
        set.headers["apigw-requestid"] = crypto.randomUUID();
        set.headers["service-api-version"] = API_VERSION;
        set.headers["cache-control"] = "no-store";
        set.headers["x-content-type-options"] = "nosniff";
        if (hsts) set.headers["strict-transport-security"] = hsts;
        // RFC 9112 asks for a 400 on a malformed Host; a request without one (HTTP/1.0) is served.
        const host = request.headers.get("host");
        if (host !== null && !isValidHost(host)) throw new ApiError("bad_request", "The Host header is not a valid host name.");
        const path = pathOf(request.url);
        const crossOrigin = isCrossOriginPath(path, ctx.config.aliasPrefix);
        if (crossOrigin) Object.assign(set.headers, CORS_HEADERS);

        const key = await callerKey(request, server, set);
        const decision = await ctx.rateLimiter.hit(key, ctx.clock.now());
        Object.assign(set.headers, rateLimitHeaders(decision, ctx.config.rateLimit.windowSeconds));
        if (!decision.allowed) {
          throw new ApiError("rate_limited", `More than ${decision.limit} requests in ${ctx.config.rateLimit.windowSeconds} seconds.`, {
            headers: { "retry-after": String(decision.resetSeconds) },
          });
        }
        // A preflight counts like any request (browsers send it without the token, so per address)
        // and carries the same headers.
        if (crossOrigin && request.method === "OPTIONS" && request.headers.has("access-control-request-method")) return preflight();

        const pinned = request.headers.get("service-api-version");
        if (pinned !== null && pinned.trim() !== API_VERSION) {
          throw new ApiError("unsupported_api_version", `API version "${pinned.slice(0, 20)}" is not supported; this server speaks version ${API_VERSION}.`);
        }
      })
      .onParse({ as: "global" }, async ({ request }) => {
        const text = await readBody(request, ctx.config.maxBodyBytes);
        // Signed payloads (Stripe's webhook) are verified byte for byte, so they stay text.
        if (rawBodyPaths.has(pathOf(request.url))) return text;
        if (text.trim() === "") return null;
        if (nestsDeeperThan(text, MAX_JSON_DEPTH))
          throw new ApiError("bad_request", `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`);
        try {
          return JSON.parse(text);
        } catch {
          throw new ApiError("bad_request", "The request body is not valid JSON.");
        }
      })
      // The fields named, not the whole context: Elysia reads from a handler's parameters what each
      // request needs, and a context passed on whole makes it parse every request's cookies.
      .onError({ as: "global" }, ({ code, error, set, request, path }) => {
        try {
          return errorAnswer({ code, error, set, request, path } as FailedRequest);
        } catch (failure) {
          // The answer of last resort: what failed here must not become Bun's own HTML error page.
          ctx.log({ level: "error", message: "the error handler failed", error: failure });
          set.status = 500;
          return lastResortAnswer(publicOrigin(ctx.config));
        }
      })
  );

  /** The spec's error body for whatever was thrown while handling a request. */
  function errorAnswer({ code, error, set, request, path }: FailedRequest): Response {
    const requestId = String(set.headers["apigw-requestid"] ?? "");
    if (error instanceof BusinessFailure) {
      // Elysia keeps its own error status over a returned 200, so the status is set explicitly.
      set.status = 200;
      return json(200, { success: false, code: error.code, message: error.message });
    }
    const failure = toApiError(code, error, request.method, path, methodsOf);
    if (failure.code === "internal_error") ctx.log({ level: "error", message: `${request.method} ${path} failed`, requestId, error });
    Object.assign(set.headers, failure.extra.headers ?? {});
    set.status = failure.status;
    const body: ErrorBody = {
      success: false,
      status: failure.status,
      code: failure.code,
      message: failure.message,
      hint: failure.hint,
      docs: `${publicOrigin(ctx.config, request.url)}/docs#error-${failure.code}`,
    };
    if (failure.extra.errors) {
      body.errors = failure.extra.errors;
      body.fieldErrors = failure.extra.fieldErrors ?? codedAsInvalid(failure.extra.errors);
    }
    if (failure.extra.conflicts) body.conflicts = failure.extra.conflicts;
    return json(failure.status, body);
  }
}

/** What the error handler is told of a failed request. */
interface FailedRequest {
  code: string | number;
  error: unknown;
  set: { headers: Record<string, string | number>; status?: number | string };
  request: Request;
  path: string;
}

/**
 * The spec's 500, built from nothing that could fail (`origin` from the configuration, not the
 * request): the answer when answering an error failed,
 * and Bun's `error` handler (app.ts), so nothing ever falls through to Bun's HTML error page.
 */
export function lastResortAnswer(origin: string): Response {
  const failure = new ApiError("internal_error", "Something went wrong on our side.");
  return json(500, {
    success: false,
    status: 500,
    code: failure.code,
    message: failure.message,
    hint: failure.hint,
    docs: `${origin}/docs#error-internal_error`,
  });
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json;charset=utf-8" } });
}
