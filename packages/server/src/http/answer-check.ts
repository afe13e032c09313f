import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ErrorBody } from "@booking/wire";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { pathOf } from "../lib/links.ts";

/** A route as the app lists it: what it answers is `hooks.response`, by status. */
interface DeclaredRoute {
  method: string;
  path: string;
  hooks?: { response?: unknown };
}

interface Matcher {
  method: string;
  pattern: RegExp;
  /** Static segments first, as the router prefers them. */
  rank: number;
  path: string;
  response: Record<string, TSchema>;
}

const escapeRegExp = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

function matcherOf(route: DeclaredRoute): Matcher {
  const segments = route.path.split("/");
  const source = segments.map((s) => (s.startsWith(":") ? "[^/]*" : s === "*" ? ".*" : escapeRegExp(s))).join("/");
  const response = (route.hooks?.response ?? {}) as Record<string, TSchema>;
  return {
    method: route.method,
    pattern: new RegExp(`^${source}$`),
    rank: segments.filter((s) => !s.startsWith(":") && s !== "*").length * 2 - (route.path.endsWith("*") ? 1 : 0),
    path: route.path,
    response,
  };
}

/** Why an answer does not match what its route declares, or null when it does. */
export type AnswerProblem = string | null;

/**
 * Checks answers against the routes' declared responses: the route the request went to (the most
 * specific one matching its method and path) must declare the answer's status, and a JSON body must
 * match that status's schema; a body of another type must be declared as text. Answers no route
 * gave (an unknown path, a wrong method) must be the JSON error body. The tests run every answer of
 * `app.handle` through it; production never does.
 */
export function answerChecker(routes: () => readonly DeclaredRoute[]) {
  let matchers: Matcher[] | null = null;
  const routeOf = (method: string, path: string): Matcher | undefined => {
    matchers ??= routes()
      .map(matcherOf)
      .sort((a, b) => b.rank - a.rank);
    return matchers.find((m) => (m.method === method || (method === "HEAD" && m.method === "GET") || m.method === "ALL") && m.pattern.test(path));
  };
  return async function check(request: Request, response: Response): Promise<AnswerProblem> {
    const path = pathOf(request.url);
    const route = routeOf(request.method, path);
    const where = `${request.method} ${path} → ${response.status}`;
    const type = response.headers.get("content-type") ?? "";
    const isJson = /^application\/json\b/.test(type);
    if (request.method === "HEAD" || response.status === 204 || response.status === 304 || (response.status >= 300 && response.status < 400)) {
      if (route && !route.response[response.status] && response.status !== 304)
        return `${where}: ${route.path} declares no answer with status ${response.status}`;
      return null;
    }
    if (request.method === "OPTIONS" && !route) return null;
    const body = await bodyOf(response);
    if (!route) {
      if (!isJson) return `${where}: no route answered, and the answer is not JSON`;
      return problemsOf(ErrorBody, JSON.parse(body), where);
    }
    const schema = route.response[response.status];
    if (!schema)
      return `${where}: ${route.path} declares no answer with status ${response.status} (it declares ${Object.keys(route.response).join(", ") || "none"})`;
    if (body === "") return null;
    if (!isJson) {
      if ((schema as { type?: string }).type !== "string") return `${where}: the answer is ${type || "untyped"}, but ${route.path} declares JSON`;
      return null;
    }
    return problemsOf(schema, JSON.parse(body), where);
  };
}

/** The answer's body as text, decompressed as its Content-Encoding says. */
async function bodyOf(response: Response): Promise<string> {
  const bytes = new Uint8Array(await response.clone().arrayBuffer());
  const encoding = response.headers.get("content-encoding");
  const plain =
    encoding === "gzip"
      ? gunzipSync(bytes)
      : encoding === "deflate"
        ? inflateSync(bytes)
        : encoding === "br"
          ? brotliDecompressSync(bytes)
          : encoding === "zstd"
            ? Bun.zstdDecompressSync(bytes)
            : bytes;
  return new TextDecoder().decode(plain);
}

function problemsOf(schema: TSchema, value: unknown, where: string): AnswerProblem {
  if (Value.Check(schema, value)) return null;
  const errors = [...Value.Errors(schema, value)].slice(0, 5).map((e) => `${e.path || "/"}: ${e.message}`);
  return `${where}: the answer does not match the declared schema: ${errors.join("; ")}`;
}
