import { Elysia } from "elysia";
import type { ErrorBody } from "@booking/wire";
import type { AppContext } from "../context.ts";
import { ApiError, BusinessFailure } from "./errors.ts";
import { rateLimitHeaders } from "./rate-limit.ts";
import { bearerToken, hashToken } from "./tokens.ts";

/** The one API version this server speaks (spec part 9). */
export const API_VERSION = "1";

type RouteList = () => readonly { method: string; path: string }[];

/**
 * The cross-cutting HTTP contract, registered before every route: request id, version header,
 * rate limit headers and 429, JSON body parsing with the size limit (raw text for the paths in
 * `rawBodyPaths`), and the single place where every failure becomes the spec's JSON error body.
 */
export function httpContract(ctx: AppContext, routes: RouteList, rawBodyPaths: ReadonlySet<string> = new Set()) {
  const methodsOf = allowedMethods(routes);
  return new Elysia({ name: "http-contract" })
    .onRequest(async ({ request, set, server }) => {
      const requestId = crypto.randomUUID();
      set.headers["apigw-requestid"] = requestId;
      set.headers["service-api-version"] = API_VERSION;
      set.headers["cache-control"] = "no-store";
      set.headers["x-content-type-options"] = "nosniff";

      const token = bearerToken(request.headers.get("authorization"));
      const key = token ? `token:${hashToken(token)}` : `ip:${clientAddress(request, server, ctx.config.trustProxy)}`;
      const decision = await ctx.rateLimiter.hit(key, ctx.clock.now());
      Object.assign(set.headers, rateLimitHeaders(decision, ctx.config.rateLimit.windowSeconds));
      if (!decision.allowed) {
        throw new ApiError("rate_limited", `More than ${decision.limit} requests in ${ctx.config.rateLimit.windowSeconds} seconds.`, {
          headers: { "retry-after": String(decision.resetSeconds) },
        });
      }

      const pinned = request.headers.get("service-api-version");
      if (pinned !== null && pinned.trim() !== API_VERSION) {
        throw new ApiError("unsupported_api_version", `API version "${pinned.slice(0, 20)}" is not supported; this server speaks version ${API_VERSION}.`);
      }
    })
    .onParse({ as: "global" }, async ({ request }) => {
      const declared = Number(request.headers.get("content-length") ?? "0");
      if (declared > ctx.config.maxBodyBytes) throw tooLarge(ctx.config.maxBodyBytes);
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.byteLength > ctx.config.maxBodyBytes) throw tooLarge(ctx.config.maxBodyBytes);
      if (bytes.byteLength === 0) return null;
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new ApiError("bad_request", "The request body is not valid UTF-8.");
      }
      // Signed payloads (Stripe's webhook) are verified byte for byte, so they stay text.
      if (rawBodyPaths.has(new URL(request.url).pathname)) return text;
      if (text.trim() === "") return null;
      try {
        return JSON.parse(text);
      } catch {
        throw new ApiError("bad_request", "The request body is not valid JSON.");
      }
    })
    .onError({ as: "global" }, ({ code, error, set, request, path }) => {
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
        docs: `${ctx.config.publicUrl ?? new URL(request.url).origin}/docs#error-${failure.code}`,
      };
      if (failure.extra.errors) body.errors = failure.extra.errors;
      return json(failure.status, body);
    });
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json;charset=utf-8" } });
}

const tooLarge = (max: number) => new ApiError("payload_too_large", `The request body is larger than ${max} bytes.`);

/** Maps whatever was thrown to an ApiError; anything unforeseen is a 500 without internals. */
function toApiError(code: string | number, error: unknown, method: string, path: string, methodsOf: (path: string) => string[]): ApiError {
  if (error instanceof ApiError) return error;
  // Elysia wraps what a parser throws; the ApiError inside carries the real answer.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof ApiError) return cause;
  switch (code) {
    case "NOT_FOUND": {
      const allowed = methodsOf(path);
      if (allowed.length > 0 && !allowed.includes(method)) {
        return new ApiError("method_not_allowed", `${method} is not allowed on ${path}.`, { headers: { allow: allowed.join(", ") } });
      }
      return new ApiError("not_found", `Nothing is served at ${path}.`);
    }
    case "PARSE":
      return new ApiError("bad_request", "The request body could not be read as JSON.");
    case "VALIDATION":
      return new ApiError("validation_failed", "The request has invalid fields.", { errors: validationErrors(error) });
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return new ApiError("bad_request", "The request is malformed.");
    default:
      return new ApiError("internal_error", "Something went wrong on our side.");
  }
}

/** Turns a schema validation failure into `errors` keyed by dotted field path (`guests.2`). */
function validationErrors(error: unknown): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const all = (error as { all?: { path?: string; message?: string; summary?: string }[] }).all ?? [];
  const where = (error as { type?: string }).type;
  for (const issue of all) {
    const field = (issue.path ?? "").replace(/^\//, "").replace(/\//g, ".").replace(/~1/g, "/").replace(/~0/g, "~") || (where ?? "body");
    const message = issue.summary ?? issue.message ?? "Invalid value.";
    // One message per field: a missing property also fails its type check, which would only repeat it.
    errors[field] ??= [message];
  }
  if (Object.keys(errors).length === 0) errors[where ?? "body"] = ["Invalid value."];
  return errors;
}

/** Methods served at a concrete path, from the router's route list (for 405 and `Allow`). */
function allowedMethods(routes: RouteList): (path: string) => string[] {
  let patterns: { method: string; regex: RegExp }[] | null = null;
  return (path) => {
    patterns ??= routes().map((r) => ({
      method: r.method,
      regex: new RegExp("^" + r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+").replace(/\*/g, ".*") + "/?$"),
    }));
    const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path;
    return [...new Set(patterns.filter((p) => p.regex.test(normalized)).map((p) => p.method))];
  };
}

/** The client's address for per-address rate limits. */
function clientAddress(request: Request, server: { requestIP(r: Request): { address: string } | null } | null, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}
