/**
 * HTTP plumbing shared by the API and the control surface: reading parameters the way Stripe reads
 * them, Stripe's JSON responses and error bodies, and the CORS headers that let a browser page (the
 * booking component's Stripe.js stand-in) call the API with a publishable key.
 */
import { StripeApiError, type StripeErrorBody } from "./errors.ts";
import { decodeForm, FormError, type FormObject } from "./form.ts";

/** CORS as Stripe's API answers it: any origin, Stripe's request headers allowed, its response ids exposed. */
export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key, Stripe-Account, Stripe-Version, X-Stripe-Client-User-Agent",
  "Access-Control-Expose-Headers": "Request-Id, Stripe-Should-Retry, Idempotent-Replayed, Original-Request",
  "Access-Control-Max-Age": "300",
};

/** The answer to a CORS preflight. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}

/** A JSON response, pretty-printed as Stripe prints it; a string body is sent as it is (a replay). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body, null, 2), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-cache, no-store", ...CORS_HEADERS, ...headers },
  });
}

/**
 * The request's parameters: the query string, and for POST the form body on top of it. Any body is read
 * as a form whatever its Content-Type, as Stripe's v1 API does, so a JSON body shows up as an unknown
 * parameter rather than being silently understood.
 */
export async function readParams(request: Request, url: URL): Promise<FormObject> {
  const query = decodeForm(url.search.slice(1));
  if (request.method !== "POST") return query;
  const body = decodeForm(await request.text());
  return { ...query, ...body };
}

/** Reads a control request's body, which may be a form or JSON (for convenience from scripts). */
export async function readLooseBody(request: Request, url: URL): Promise<Record<string, unknown>> {
  const text = request.method === "POST" ? await request.text() : "";
  if (text.trim().startsWith("{")) {
    try {
      return { ...decodeForm(url.search.slice(1)), ...(JSON.parse(text) as Record<string, unknown>) };
    } catch {
      throw new FormError("Invalid request: the body is not valid JSON.");
    }
  }
  return { ...decodeForm(url.search.slice(1)), ...decodeForm(text) };
}

/** The status and Stripe error body for anything thrown while answering. */
export function errorFor(error: unknown): { status: number; body: StripeErrorBody } {
  if (error instanceof StripeApiError) return { status: error.status, body: error.body };
  if (error instanceof FormError) {
    return { status: 400, body: { type: "invalid_request_error", message: error.message, ...(error.param ? { param: error.param } : {}) } };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { status: 500, body: { type: "api_error", message: `The Stripe stand-in failed while handling this request: ${detail}` } };
}
