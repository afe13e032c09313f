import { Type, type TSchema } from "@sinclair/typebox";
import { ErrorBody } from "@booking/wire";

/** The statuses a route's failures are answered with, each with the spec's JSON error body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 503;

/**
 * Failures any route can answer: a malformed Host or API version (400), the rate limit (429), an
 * unexpected failure (500) and a store out of reach for a moment (503).
 */
const EVERY_ROUTE: readonly ErrorStatus[] = [400, 413, 429, 500, 503];

/**
 * A schema the route declares but the server does not check on every answer: the tests check every
 * answer against it (`answer-check.ts`), production pays nothing for it. Elysia skips the check of a
 * response schema marked `noValidate`; the marker never reaches the OpenAPI document.
 */
const declared = <T extends TSchema>(schema: T): T => ({ ...schema, noValidate: true });

/**
 * A route's `response`: its success answer (200, and others such as 202 where it has them) and the
 * error body under each status it can fail with, besides those every route can answer.
 */
export function answers<S extends TSchema, More extends { [status: number]: TSchema } = Record<never, never>>(
  success: S,
  errors: readonly ErrorStatus[] = [],
  more?: More,
): { 200: S } & NoInfer<More> & Record<ErrorStatus, typeof ErrorBody> {
  const out: Record<number, TSchema> = { 200: declared(success) };
  for (const status of [...EVERY_ROUTE, ...errors]) out[status] = declared(ErrorBody);
  // A route that answers a status otherwise (a page that says it in HTML) declares it here.
  for (const [status, schema] of Object.entries(more ?? {})) out[Number(status)] = declared(schema as TSchema);
  return out as never;
}

/** The success envelope around an answer's `data`. */
export const envelope = <T extends TSchema>(data: T) => Type.Object({ success: Type.Literal(true), message: Type.Optional(Type.String()), data });

/** The answer of a route that reports what it did in a sentence. */
export const Done = Type.Object({ success: Type.Literal(true), message: Type.String() });

/** A body of text in another format than JSON (a page, a script, a calendar), described for the document. */
export const text = (description: string, contentType: string) =>
  // Sent as text or as the bytes of a prepared (compressed) body.
  Type.Unsafe<string | Uint8Array>(Type.String({ description, contentMediaType: contentType }));
