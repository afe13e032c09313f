/**
 * The Stripe v1 endpoints the stand-in implements, and what each lets a publishable key do.
 *
 * | Method, path                              | Secret key | Publishable key (+ `client_secret`) |
 * |-------------------------------------------|------------|-------------------------------------|
 * | POST /v1/payment_intents                  | yes        | no                                  |
 * | GET  /v1/payment_intents/:id              | yes        | yes, publishable fields only        |
 * | POST /v1/payment_intents/:id              | yes        | no                                  |
 * | POST /v1/payment_intents/:id/confirm      | yes        | yes, publishable fields only        |
 * | POST /v1/payment_intents/:id/cancel       | yes        | no                                  |
 * | POST /v1/payment_intents/:id/capture      | yes        | no                                  |
 * | POST /v1/refunds                          | yes        | no                                  |
 * | GET  /v1/refunds (payment_intent, charge)  | yes        | no                                  |
 * | GET  /v1/refunds/:id                      | yes        | no                                  |
 */
import type { Caller } from "./auth.ts";
import { clientSecretMismatch, publishableKeyForbidden, StripeApiError } from "./errors.ts";
import type { FormObject } from "./form.ts";
import { readConfirm } from "./confirm-params.ts";
import { publishableView, type PaymentIntent } from "./intent-object.ts";
import { readCancel, readCapture, readCreate, readUpdate } from "./intent-params.ts";
import type { ConfirmOutcome, PaymentIntents } from "./intents.ts";
import { Params } from "./params.ts";
import { readRefund, readRefundList } from "./refunds.ts";

/** A matched endpoint. */
export interface ApiRoute {
  action: "create" | "retrieve" | "update" | "confirm" | "cancel" | "capture" | "create_refund" | "list_refunds" | "retrieve_refund";
  id?: string;
}

/** The endpoint for a method and path; `undefined` for anything the stand-in does not implement. */
export function matchRoute(method: string, path: string): ApiRoute | undefined {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed === "/v1/refunds") return method === "POST" ? { action: "create_refund" } : method === "GET" ? { action: "list_refunds" } : undefined;
  const refund = /^\/v1\/refunds\/([^/]+)$/.exec(trimmed);
  if (refund) return method === "GET" ? { action: "retrieve_refund", id: decodeURIComponent(refund[1]!) } : undefined;
  if (trimmed === "/v1/payment_intents") return method === "POST" ? { action: "create" } : undefined;
  const match = /^\/v1\/payment_intents\/([^/]+)(?:\/(confirm|cancel|capture))?$/.exec(trimmed);
  if (!match) return undefined;
  const id = decodeURIComponent(match[1]!);
  const verb = match[2] as "confirm" | "cancel" | "capture" | undefined;
  if (verb) return method === "POST" ? { action: verb, id } : undefined;
  if (method === "GET") return { action: "retrieve", id };
  if (method === "POST") return { action: "update", id };
  return undefined;
}

/** Stripe's card_error for a declined confirm: 402, with the intent and payment method as they now are. */
function cardError(outcome: ConfirmOutcome, view: (intent: PaymentIntent) => object): StripeApiError {
  const { decline, charge, paymentMethod } = outcome.failure!;
  return new StripeApiError(402, {
    type: "card_error",
    code: decline.code,
    ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
    message: decline.message,
    ...(charge ? { charge } : {}),
    payment_intent: view(outcome.intent),
    payment_method: paymentMethod,
  });
}

function settle(outcome: ConfirmOutcome, view: (intent: PaymentIntent) => object): object {
  if (outcome.failure) throw cardError(outcome, view);
  return view(outcome.intent);
}

/** The intent, if the publishable caller proved it may see it by presenting its client secret. */
function withClientSecret(intents: PaymentIntents, caller: Caller, id: string, params: FormObject): PaymentIntent {
  const secret = params.client_secret;
  if (typeof secret !== "string" || secret === "") throw publishableKeyForbidden();
  const intent = intents.get(caller.account, id);
  if (secret !== intent.client_secret) throw clientSecretMismatch();
  return intent;
}

function runPublishable(route: ApiRoute, caller: Caller, params: FormObject, intents: PaymentIntents): object {
  if (route.action === "retrieve") {
    new Params(params, ["client_secret", "expand"]);
    return publishableView(withClientSecret(intents, caller, route.id!, params));
  }
  if (route.action === "confirm") {
    withClientSecret(intents, caller, route.id!, params);
    return settle(intents.confirm(caller.account, route.id!, readConfirm(params, true), false), publishableView);
  }
  throw publishableKeyForbidden();
}

function runSecret(route: ApiRoute, caller: Caller, params: FormObject, intents: PaymentIntents): object {
  const id = route.id!;
  const asIs = (intent: PaymentIntent) => intent;
  switch (route.action) {
    case "create":
      return settle(intents.create(caller.account, readCreate(params, caller.apiVersion)), asIs);
    case "retrieve":
      new Params(params, ["client_secret", "expand"]);
      return intents.get(caller.account, id);
    case "update":
      return intents.update(caller.account, id, readUpdate(params, caller.apiVersion));
    case "confirm":
      return settle(intents.confirm(caller.account, id, readConfirm(params, false)), asIs);
    case "cancel":
      return intents.cancel(caller.account, id, readCancel(params));
    case "capture":
      return intents.capture(caller.account, id, readCapture(params));
    case "create_refund":
      return intents.refund(caller.account, readRefund(params));
    case "list_refunds":
      return intents.refunds.list(caller.account, readRefundList(params), intents.all());
    case "retrieve_refund":
      new Params(params, ["expand"]);
      return intents.refunds.get(caller.account, id);
  }
}

/**
 * Performs the endpoint and returns the response body; failures are thrown as StripeApiError. Errors that
 * embed the intent show a publishable caller only the publishable fields.
 */
export function runRoute(route: ApiRoute, caller: Caller, params: FormObject, intents: PaymentIntents): object {
  if (caller.kind === "secret") return runSecret(route, caller, params, intents);
  try {
    return runPublishable(route, caller, params, intents);
  } catch (error) {
    if (error instanceof StripeApiError && error.body.payment_intent && error.status !== 402) {
      throw new StripeApiError(error.status, { ...error.body, payment_intent: publishableView(error.body.payment_intent as PaymentIntent) });
    }
    throw error;
  }
}
