import type { FieldErrorCode } from "@booking/wire";
import { ApiError, DomainError, FieldErrors } from "./errors.ts";
import { notFoundOfParams } from "./path-params.ts";
import { StoreBusyError, StoreOutcomeUnknownError, StoreUnavailableError } from "../store/errors.ts";

/** Routes as the router lists them, for 405 answers. */
export type RouteList = () => readonly { method: string; path: string }[];

/** Maps whatever was thrown to an ApiError (a service's DomainError gets its status and hint here); anything unforeseen is a 500 without internals. */
export function toApiError(code: string | number, error: unknown, method: string, path: string, methodsOf: (path: string) => string[]): ApiError {
  if (error instanceof DomainError) return ApiError.of(error);
  if (error instanceof StoreBusyError) {
    return new ApiError("service_unavailable", "The service is busy; nothing was changed. Try again in a moment.", { headers: { "retry-after": "1" } });
  }
  if (error instanceof StoreOutcomeUnknownError) {
    // Unlike other 503s, the change may have been made: a client must not take it for "nothing happened".
    return new ApiError("service_unavailable", "The connection to the database was lost while saving; the change may or may not have been saved.", {
      headers: { "retry-after": "2" },
      hint: "A booking sent with an Idempotency-Key: send it again with the same Idempotency-Key; its answer says what was saved. Anything else: look up the current state before sending it again.",
    });
  }
  if (error instanceof StoreUnavailableError) {
    // A database restart or failover takes seconds; the pool reconnects on the next request.
    return new ApiError("service_unavailable", "The database cannot be reached right now; try again in a moment.", { headers: { "retry-after": "2" } });
  }
  // Elysia wraps what a parser throws; the ApiError inside carries the real answer.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof DomainError) return ApiError.of(cause);
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
    case "VALIDATION": {
      // A path segment its route's `params` refuse names nothing: the route's 404, as an unknown id is.
      if ((error as { type?: string }).type === "params") {
        const failed = error as { all?: SchemaIssue[]; value?: unknown };
        return new ApiError("not_found", notFoundOfParams(failed.all ?? [], failed.value) ?? `Nothing is served at ${path}.`);
      }
      const found = validationErrors(error);
      return new ApiError("validation_failed", "The request has invalid fields.", { errors: found.messages, fieldErrors: found.list });
    }
    case "INVALID_COOKIE_SIGNATURE":
    case "INVALID_FILE_TYPE":
      return new ApiError("bad_request", "The request is malformed.");
    default:
      return new ApiError("internal_error", "Something went wrong on our side.");
  }
}

/** What a schema validation issue tells of the value and the rule it broke. */
interface SchemaIssue {
  path?: string;
  message?: string;
  summary?: string;
  value?: unknown;
  schema?: { format?: string; maxLength?: number; maxItems?: number; minimum?: number; maximum?: number };
}

/** Turns a schema validation failure into `errors` keyed by dotted field path (`guests.2`), each with its code. */
function validationErrors(error: unknown): FieldErrors {
  const found = new FieldErrors();
  // No prototype: field names come from the client and may be `__proto__` or `constructor`.
  Object.setPrototypeOf(found.messages, null);
  const all = (error as { all?: SchemaIssue[] }).all ?? [];
  const where = (error as { type?: string }).type;
  for (const issue of all) {
    const field = (issue.path ?? "").replace(/^\//, "").replace(/\//g, ".").replace(/~1/g, "/").replace(/~0/g, "~") || (where ?? "body");
    const message = shortened(issue.summary ?? issue.message ?? "Invalid value.");
    // One message per field: a missing property also fails its type check, which would only repeat it.
    if (found.messages[field]) continue;
    const { code, max, min } = issueCode(issue);
    found.add(field, code, message, max, min);
  }
  if (found.list.length === 0) found.add(where ?? "body", "invalid", "Invalid value.");
  return found;
}

/** The field error code of a schema issue, from the value found and the rule it broke. */
function issueCode({ value, schema = {} }: SchemaIssue): { code: FieldErrorCode; max?: number; min?: number } {
  if (value === undefined) return { code: "required" };
  if (typeof value === "number" && Number.isInteger(schema.minimum) && value < schema.minimum!) return { code: "too_small", min: schema.minimum };
  if (typeof value === "number" && Number.isInteger(schema.maximum) && value > schema.maximum!) return { code: "too_large", max: schema.maximum };
  if (typeof value === "string" && schema.maxLength !== undefined && value.length > schema.maxLength) return { code: "too_long", max: schema.maxLength };
  if (Array.isArray(value) && schema.maxItems !== undefined && value.length > schema.maxItems) return { code: "too_many", max: schema.maxItems };
  if (typeof value === "string" && schema.format === "email") return { code: "invalid_email" };
  if (typeof value === "string" && schema.format === "date-time") return { code: "invalid_datetime" };
  return { code: "invalid" };
}

/** Longest message kept per field: Elysia's summaries quote the value found, which the client sent, up to the body limit. */
const MAX_MESSAGE_LENGTH = 200;

function shortened(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

/** Methods served at a concrete path, from the router's route list (for 405 and `Allow`). */
export function allowedMethods(routes: RouteList): (path: string) => string[] {
  let patterns: { method: string; regex: RegExp }[] | null = null;
  return (path) => {
    patterns ??= routes().map((r) => ({
      method: r.method,
      regex: new RegExp(
        `^${r.path
          .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
          .replace(/:[^/]+/g, "[^/]+")
          .replace(/\*/g, ".*")}/?$`,
      ),
    }));
    const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path;
    return [...new Set(patterns.filter((p) => p.regex.test(normalized)).map((p) => p.method))];
  };
}
