/**
 * The stand-in's control surface under `/_standin/`, for tests and the offline demo. It is not part of
 * Stripe's API and needs no key (the stand-in listens on loopback by default):
 *
 * - `GET  /_standin` — what this server is, and its endpoints.
 * - `GET  /_standin/payment_intents` — every intent on every account, as `{ account, payment_intent }`.
 * - `GET  /_standin/payment_intents/:id` — one intent, whichever account owns it.
 * - `POST /_standin/payment_intents/:id/succeed` — pay it as if confirmed with `pm_card_visa`; waits for
 *   the webhook delivery and returns it.
 * - `POST /_standin/payment_intents/:id/fail` — decline it (`decline_code`, default `generic_decline`).
 * - `GET|POST /_standin/webhook-url` — read or set (`url`, empty to stop) where events are delivered.
 * - `GET  /_standin/deliveries` — every webhook delivery and the receiver's HTTP status.
 */
import type { StandinCore } from "./core.ts";
import { invalidParam, noSuchObject, unrecognizedUrl } from "./errors.ts";
import type { Delivery } from "./events.ts";
import { errorFor, json, readLooseBody } from "./http.ts";
import type { ConfirmOutcome } from "./intents.ts";

/** What `GET /_standin` says about the server, so nobody mistakes it for Stripe. */
export const ABOUT = {
  object: "stripe_standin",
  description:
    "A local stand-in for part of Stripe's REST API, for tests and the offline demo. This is NOT Stripe: no money moves, no card is charged, and only the endpoints below exist.",
  api: [
    "POST /v1/payment_intents",
    "GET /v1/payment_intents/:id",
    "POST /v1/payment_intents/:id",
    "POST /v1/payment_intents/:id/confirm",
    "POST /v1/payment_intents/:id/cancel",
    "POST /v1/payment_intents/:id/capture",
    "POST /v1/refunds",
    "GET /v1/refunds (payment_intent, charge, limit, starting_after, ending_before)",
    "GET /v1/refunds/:id",
  ],
  control: [
    "GET /_standin/payment_intents",
    "GET /_standin/payment_intents/:id",
    "POST /_standin/payment_intents/:id/succeed",
    "POST /_standin/payment_intents/:id/fail (decline_code)",
    "GET|POST /_standin/webhook-url (url)",
    "GET /_standin/deliveries",
  ],
};

/** Runs a control action that pays or declines an intent, and waits for its webhook deliveries. */
export async function settleWithDeliveries(core: StandinCore, action: () => ConfirmOutcome): Promise<{ outcome: ConfirmOutcome; deliveries: Delivery[] }> {
  const { result, deliveries } = core.during({ id: null, idempotency_key: null }, action);
  return { outcome: result, deliveries: await Promise.all(deliveries) };
}

async function route(core: StandinCore, request: Request, url: URL): Promise<unknown> {
  const path = url.pathname.replace(/\/+$/, "");
  const { method } = request;
  if (path === "/_standin" && method === "GET") return { ...ABOUT, webhook_url: core.webhooks.url() };
  if (path === "/_standin/payment_intents" && method === "GET") {
    return { object: "list", data: core.intents.all().map((r) => ({ account: r.account, payment_intent: r.intent })) };
  }
  if (path === "/_standin/deliveries" && method === "GET") return { object: "list", data: core.webhooks.deliveries() };
  if (path === "/_standin/webhook-url") {
    if (method === "POST") {
      const { url: target } = await readLooseBody(request, url);
      if (target !== undefined && target !== null && typeof target !== "string") throw invalidParam("url", "url must be a string.");
      if (target && !/^https?:\/\/\S+$/.test(target)) throw invalidParam("url", `Not an http(s) URL: ${target}`, "url_invalid");
      core.webhooks.setUrl(target || null);
      core.log(`webhook URL set to ${target || "nothing"}`);
    } else if (method !== "GET") throw unrecognizedUrl(method, url.pathname);
    return { webhook_url: core.webhooks.url() };
  }
  const match = /^\/_standin\/payment_intents\/([^/]+)(?:\/(succeed|fail))?$/.exec(path);
  if (match) {
    const id = decodeURIComponent(match[1]!);
    const action = match[2];
    if (!action && method === "GET") {
      const record = core.intents.find(id);
      if (!record) throw noSuchObject("payment_intent", id, "intent");
      return { account: record.account, payment_intent: record.intent };
    }
    if (action && method === "POST") {
      const body = await readLooseBody(request, url);
      const declineCode = typeof body.decline_code === "string" && body.decline_code ? body.decline_code : undefined;
      const { outcome, deliveries } = await settleWithDeliveries(core, () =>
        action === "succeed" ? core.intents.succeed(id) : core.intents.fail(id, declineCode),
      );
      return { account: core.intents.find(id)?.account ?? null, payment_intent: outcome.intent, deliveries };
    }
  }
  throw unrecognizedUrl(method, url.pathname);
}

/** Answers a `/_standin/...` request; failures use Stripe's error shape like the rest of the server. */
export async function handleControl(core: StandinCore, request: Request, url: URL): Promise<Response> {
  try {
    return json(200, await route(core, request, url));
  } catch (error) {
    const failure = errorFor(error);
    return json(failure.status, { error: failure.body });
  }
}
