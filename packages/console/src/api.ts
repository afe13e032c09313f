import type { Envelope, ErrorBody, FieldError } from "@booking/wire";
import type { App } from "../../server/src/app.ts";

/**
 * One problem of a 422 as `fieldErrors` gives it (the wire's `FieldError`): the field, a stable
 * code, the English message and the limit broken. Read leniently: a code added later is kept.
 */
export type FieldProblem = Omit<FieldError, "code"> & { code: FieldError["code"] | (string & {}) };

/**
 * A refusal of the admin API, with the spec's code and, for a 422, the messages per field
 * (`errors`) and each with its code (`fieldErrors`), which the console words in its language.
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly fieldErrors: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** The well-formed entries of a 422's `fieldErrors` (none when the answer has none). */
function problemsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  const limit = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? n : undefined);
  return value
    .filter(
      (e): e is Record<string, unknown> =>
        !!e && typeof e === "object" && typeof e.field === "string" && typeof e.code === "string" && typeof e.message === "string",
    )
    .map((e) => ({ field: e.field as string, code: e.code as string, message: e.message as string, min: limit(e.min), max: limit(e.max) }));
}

/** Called when the session has ended (401), so the console shows the sign-in again. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void): void => {
  onSignedOut = handler;
};

/** A query string's values; undefined, null and empty ones are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined | null>;

/**
 * The server's routes as the console meets them: the app with its organizer API, which is mounted
 * only with an admin key (or console sign-in links), so the app's type is a union of both cases.
 */
type ServedRoutes = Extract<App["~Routes"], { admin: unknown; console: unknown }>;

/** The methods the console calls with. */
type Method = "get" | "post" | "put" | "patch" | "delete";

/** Every route of a part of the route tree, as `METHOD /path/:param` with what Elysia knows of it. */
type RoutesOf<Tree, Path extends string> = {
  [Segment in keyof Tree & string]: Segment extends Method
    ? { endpoint: `${Uppercase<Segment>} ${Path}`; route: Tree[Segment] }
    : RoutesOf<Tree[Segment], `${Path}/${Segment}`>;
}[keyof Tree & string];

/**
 * The server's paths the console calls (its organizer API under `/admin`, its own session under
 * `/console`), each as `METHOD /path/:param`, read from the app's routes: the body each takes and
 * the answers each declares (`answers(...)` in the server, with the wire's shapes). A route renamed,
 * removed or given another body or answer on the server is a compile error at the console's call.
 */
export type Endpoints = {
  [R in RoutesOf<Pick<ServedRoutes, "admin" | "console">, ""> as R["endpoint"]]: R["route"];
};
export type Endpoint = keyof Endpoints;

/** The `:name` parameters of a path pattern. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The body a route takes; `undefined` when it declares none. */
type BodyOf<E extends Endpoint> = unknown extends Endpoints[E]["body"] ? undefined : Endpoints[E]["body"];

/** The query a route takes, as its schema types it (an optional value may be null: left out); `undefined` when it declares none. */
type QueryOf<E extends Endpoint> = unknown extends Endpoints[E]["query"] ? undefined : Leniently<Endpoints[E]["query"]>;
type Leniently<Query> = { [K in keyof Query]: Query[K] | (undefined extends Query[K] ? null : never) };

/** What a call of `endpoint` gives: its path's parameters, its body and its query string when it has them. */
export type CallOf<E extends Endpoint> = ([ParamNames<E>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<E>, string | number> }) &
  (BodyOf<E> extends undefined ? { body?: undefined } : { body: BodyOf<E> }) &
  (QueryOf<E> extends undefined ? { query?: undefined } : { query?: QueryOf<E> });

/** The success answer a route declares (its 200): the envelope with `data`, or a sentence in `message`. */
type SuccessOf<E extends Endpoint> = Endpoints[E]["response"] extends { 200: infer Success } ? Success : never;

/** The `data` of a success envelope; the wire's `Envelope` declares it optional, for answers that fail with `success: false`. */
type DataOf<Success> = Success extends { data?: infer Data } ? Exclude<Data, undefined> : never;

/** The answer of `endpoint`: the envelope's `data`, or its message for an answer without data. */
export type AnswerOf<E extends Endpoint> = "data" extends keyof SuccessOf<E>
  ? [DataOf<SuccessOf<E>>] extends [never]
    ? string
    : DataOf<SuccessOf<E>>
  : string;

/**
 * Calls the server as the signed-in console: same origin, the session cookie, JSON both ways. The
 * browser adds `Origin` to every change, which the server checks. Answers the envelope's `data`
 * (or its message for answers without data); throws ApiFailure for every refusal.
 */
export async function api<E extends Endpoint>(
  endpoint: E,
  ...[call]: Record<never, never> extends CallOf<E> ? [CallOf<E>?] : [CallOf<E>]
): Promise<AnswerOf<E>> {
  const [method, pattern] = endpoint.split(" ") as [string, string];
  const params: Record<string, string | number> = call?.params ?? {};
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name]))) + query((call?.query ?? {}) as QueryParams);
  const body: unknown = call?.body;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, "network", "The server could not be reached.");
  }
  const answer = (await response.json().catch(() => null)) as (Partial<Envelope<AnswerOf<E>>> & Partial<Pick<ErrorBody, "errors" | "fieldErrors">>) | null;
  if (!response.ok || !answer || answer.success === false) {
    const failure = new ApiFailure(
      response.status,
      answer?.code ?? "internal_error",
      answer?.message ?? `HTTP ${response.status}`,
      answer?.errors ?? {},
      problemsOf(answer?.fieldErrors),
    );
    if (response.status === 401 && !path.startsWith("/console/session")) onSignedOut();
    throw failure;
  }
  return (answer.data ?? answer.message) as AnswerOf<E>;
}

/** The query string of the defined values. */
export function query(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
