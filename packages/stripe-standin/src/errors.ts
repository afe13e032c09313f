/**
 * Stripe's error responses, as the stand-in sends them.
 *
 * Every failure leaves as `{ "error": { type, code?, message, param?, doc_url?, ... } }` with the HTTP status
 * Stripe uses, because stripe-node picks its error class from the status alone (400/404 →
 * StripeInvalidRequestError, or StripeIdempotencyError when `type` is `idempotency_error`; 401 →
 * StripeAuthenticationError; 402 → StripeCardError; 403 → StripePermissionError) and copies the body's
 * fields onto the error. Messages follow Stripe's wording where it is known; where the stand-in refuses
 * something real Stripe would accept, the message says so.
 */

/** The body of Stripe's `error` object. */
export interface StripeErrorBody {
  type: "invalid_request_error" | "card_error" | "idempotency_error" | "api_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: object;
  payment_method?: object;
  request_log_url?: string;
}

/** A failure that becomes a Stripe error response; thrown anywhere below the HTTP layer. */
export class StripeApiError extends Error {
  readonly body: StripeErrorBody;
  constructor(
    readonly status: number,
    body: StripeErrorBody,
  ) {
    super(body.message);
    const full: StripeErrorBody = body.code && !body.doc_url ? { ...body, doc_url: docUrl(body.code) } : body;
    // Stripe lists the error's fields alphabetically; keeping that order makes bodies diff cleanly against real ones.
    this.body = Object.fromEntries(Object.entries(full).sort(([a], [b]) => a.localeCompare(b))) as unknown as StripeErrorBody;
  }
}

/** Stripe links each error code to its page, `invalid_request` → `.../error-codes/invalid-request`. */
export function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`;
}

const STANDIN_NOTE = "(This is a local Stripe stand-in, which implements only part of Stripe's API.)";

function invalid(message: string, extra: Omit<StripeErrorBody, "type" | "message"> = {}, status = 400): StripeApiError {
  return new StripeApiError(status, { type: "invalid_request_error", message, ...extra });
}

/** A required parameter is absent. */
export function missingParam(param: string): StripeApiError {
  return invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param });
}

/** A parameter the endpoint does not take (or that this stand-in does not implement). */
export function unknownParam(param: string, hint = STANDIN_NOTE): StripeApiError {
  return invalid(`Received unknown parameter: ${param}. ${hint}`, { code: "parameter_unknown", param });
}

/** A parameter whose value is not acceptable; `code` when Stripe has a specific one. */
export function invalidParam(param: string, message: string, code?: string): StripeApiError {
  return invalid(message, code ? { code, param } : { param });
}

/** An object addressed by the URL does not exist on the account the request acts for. */
export function noSuchObject(kind: string, id: string, param: string): StripeApiError {
  return invalid(`No such ${kind}: '${id}'`, { code: "resource_missing", param }, 404);
}

/** An object named in a parameter does not exist; Stripe answers 400 here, not 404. */
export function noSuchReference(kind: string, id: string, param: string): StripeApiError {
  return invalid(`No such ${kind}: '${id}'`, { code: "resource_missing", param });
}

/** The intent is in a status that does not allow the operation. */
export function unexpectedState(message: string, paymentIntent?: object): StripeApiError {
  return invalid(
    message,
    paymentIntent ? { code: "payment_intent_unexpected_state", payment_intent: paymentIntent } : { code: "payment_intent_unexpected_state" },
  );
}

/** No API key came with the request. */
export function apiKeyMissing(): StripeApiError {
  return invalid(
    "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    {},
    401,
  );
}

/** The key is not one this stand-in accepts; shown redacted as Stripe does. */
export function apiKeyInvalid(key: string): StripeApiError {
  const shown = key.length > 12 ? `${key.slice(0, 8)}${"*".repeat(Math.max(4, key.length - 12))}${key.slice(-4)}` : "*".repeat(key.length);
  return invalid(`Invalid API Key provided: ${shown}`, {}, 401);
}

/** A publishable key was used for a call that needs the secret key. */
export function publishableKeyForbidden(): StripeApiError {
  return invalid(
    "This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.",
    {},
    403,
  );
}

/** The Stripe-Account header does not name an account this key may act for. */
export function accountInvalid(account: string, key: string): StripeApiError {
  return invalid(
    `The provided key '${key.slice(0, 8)}***' does not have access to account '${account}' (or that account does not exist). Application access may have been revoked.`,
    { code: "account_invalid" },
    403,
  );
}

/** The route does not exist (on Stripe, or in this stand-in). */
export function unrecognizedUrl(method: string, path: string): StripeApiError {
  return invalid(
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/. ${STANDIN_NOTE}`,
    {},
    404,
  );
}

/** An idempotency key was reused for a different request. */
export function idempotencyMismatch(key: string, detail: string): StripeApiError {
  return new StripeApiError(400, {
    type: "idempotency_error",
    message: `Keys for idempotent requests can only be used ${detail}. Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}

/** A raw card number sent with a secret key, which Stripe refuses unless raw card data APIs are enabled. */
export function rawCardDataRefused(): StripeApiError {
  return invalid(
    "Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable raw card data APIs in test mode, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.",
  );
}

/** The Stripe-Version header is not an API version. */
export function invalidApiVersion(version: string): StripeApiError {
  return invalid(`Invalid Stripe API version: ${version}`);
}

/** A publishable-key request presented a client secret that is not the intent's. */
export function clientSecretMismatch(): StripeApiError {
  return invalid("The client_secret provided does not match the client_secret associated with the PaymentIntent.", { param: "client_secret" });
}
