/**
 * The request handler: Stripe's v1 pipeline for `/v1/...` and the stand-in's control surface for
 * `/_standin/...`.
 *
 * For `/v1`, in Stripe's order: read the form parameters, identify the key, account and version
 * (401/403 on failure), match the endpoint (404 "Unrecognized request URL" otherwise), replay or refuse a
 * reused `Idempotency-Key`, perform the endpoint, and answer with Stripe's headers: `Request-Id`,
 * `Stripe-Version` (the version the request asked for), `Stripe-Account` and `Idempotency-Key` when sent.
 */
import type { Caller } from "./auth.ts";
import { identifyCaller } from "./auth.ts";
import { matchRoute, runRoute } from "./api-routes.ts";
import { handleControl } from "./control.ts";
import type { StandinCore } from "./core.ts";
import { unrecognizedUrl } from "./errors.ts";
import { fingerprint, type FormObject } from "./form.ts";
import { errorFor, json, preflight, readParams } from "./http.ts";
import { newRequestId } from "./ids.ts";

/** Statuses whose responses Stripe saves for idempotent replay: the endpoint ran to an outcome. */
function replayable(status: number): boolean {
  return status === 200 || status === 402;
}

/** A fetch handler for Bun.serve that answers as Stripe's API (and the control surface) would. */
export function createHandler(core: StandinCore): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (request.method === "OPTIONS") return preflight();
    if (url.pathname === "/_standin" || url.pathname.startsWith("/_standin/")) return handleControl(core, request, url);
    return handleApi(core, request, url);
  };
}

async function handleApi(core: StandinCore, request: Request, url: URL): Promise<Response> {
  const requestId = newRequestId();
  const headers: Record<string, string> = { "Request-Id": requestId, "Stripe-Version": core.apiVersion };
  const endpoint = `${request.method} ${url.pathname}`;
  let caller: Caller | undefined;
  let idempotencyKey: string | null = null;
  let params: FormObject = {};
  let status = 200;
  let body: unknown;
  try {
    params = await readParams(request, url);
    caller = identifyCaller(request.headers, params, core.keys, core.apiVersion);
    headers["Stripe-Version"] = caller.apiVersion;
    if (caller.account) headers["Stripe-Account"] = caller.account;
    const route = matchRoute(request.method, url.pathname);
    if (!route) throw unrecognizedUrl(request.method, url.pathname);
    idempotencyKey = request.method === "POST" ? request.headers.get("idempotency-key") : null;
    if (idempotencyKey) {
      headers["Idempotency-Key"] = idempotencyKey;
      const saved = core.idempotency.replay(caller.account, idempotencyKey, endpoint, fingerprint(params));
      if (saved) {
        core.log(`${endpoint}${caller.account ? ` [${caller.account}]` : ""} → ${saved.status} (idempotent replay)`);
        return json(saved.status, saved.body, { ...headers, "Idempotent-Replayed": "true", "Original-Request": saved.requestId });
      }
    }
    const who = caller;
    body = core.during({ id: requestId, idempotency_key: idempotencyKey }, () => runRoute(route, who, params, core.intents)).result;
  } catch (error) {
    const failure = errorFor(error);
    status = failure.status;
    body = { error: failure.body };
    if (status >= 500) {
      headers["Stripe-Should-Retry"] = "false";
      core.log(`stand-in failure on ${endpoint}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  const text = JSON.stringify(body, null, 2);
  if (caller && idempotencyKey && replayable(status)) {
    core.idempotency.save(caller.account, idempotencyKey, endpoint, fingerprint(params), { status, body: text, requestId });
  }
  core.log(`${endpoint}${caller?.account ? ` [${caller.account}]` : ""} → ${status}`);
  return json(status, text, headers);
}
