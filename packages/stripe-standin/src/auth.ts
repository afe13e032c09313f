/**
 * Who is calling, for which account, on which API version: the request headers Stripe reads before it
 * looks at an endpoint.
 *
 * - Key: `Authorization: Bearer <key>` (what stripe-node sends), `Authorization: Basic base64(<key>:)`
 *   (what `curl -u sk_test_...:` sends), or a `key` parameter (what Stripe.js sends with publishable keys).
 *   Secret keys are `sk_test_...`, publishable keys `pk_test_...`; live keys are refused by this stand-in.
 * - Account: the `Stripe-Account` header (stripe-node's `stripeAccount` option) or a `_stripe_account`
 *   parameter (Stripe.js's `stripeAccount` option); absent means the platform account.
 * - Version: the `Stripe-Version` header or `_stripe_version` parameter, echoed back; absent means the
 *   stand-in's default version.
 */
import { accountInvalid, apiKeyInvalid, apiKeyMissing, invalidApiVersion } from "./errors.ts";
import type { FormObject } from "./form.ts";

/** The kind of key a request was made with; publishable keys may only touch an intent via its client secret. */
export interface Caller {
  kind: "secret" | "publishable";
  key: string;
  /** The connected account the request acts for; `null` for the platform. */
  account: string | null;
  apiVersion: string;
}

/** Which keys the stand-in accepts; an absent key accepts any test key of that kind. */
export interface KeyPolicy {
  secretKey?: string;
  publishableKey?: string;
}

/** Parameters that carry the caller (Stripe.js style) rather than input to the endpoint. */
const CALLER_PARAMS = ["key", "_stripe_account", "_stripe_version"];

function keyFromHeader(header: string): string {
  const [scheme, value = ""] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === "bearer") return value;
  if (scheme?.toLowerCase() === "basic") {
    try {
      return atob(value).split(":")[0] ?? "";
    } catch {
      return value;
    }
  }
  return header.trim();
}

function paramString(params: FormObject, name: string): string | undefined {
  const value = params[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Identifies the caller and removes the caller parameters from `params`, so that the endpoint sees only
 * its own input. Throws Stripe's 401 for a missing or unaccepted key.
 */
export function identifyCaller(headers: Headers, params: FormObject, policy: KeyPolicy, defaultVersion: string): Caller {
  const header = headers.get("authorization");
  const key = header ? keyFromHeader(header) : paramString(params, "key");
  const account = headers.get("stripe-account") || paramString(params, "_stripe_account") || null;
  const version = headers.get("stripe-version") || paramString(params, "_stripe_version") || defaultVersion;
  for (const name of CALLER_PARAMS) delete params[name];

  if (!key) throw apiKeyMissing();
  let kind: Caller["kind"];
  if (key.startsWith("sk_test_") && key.length > 8 && (!policy.secretKey || key === policy.secretKey)) kind = "secret";
  else if (key.startsWith("pk_test_") && key.length > 8 && (!policy.publishableKey || key === policy.publishableKey)) kind = "publishable";
  else throw apiKeyInvalid(key);

  if (account !== null && !/^acct_[A-Za-z0-9]+$/.test(account)) throw accountInvalid(account, key);
  if (!/^\d{4}-\d{2}-\d{2}(\.[a-z_]+)?$/.test(version)) throw invalidApiVersion(version);
  return { kind, key, account, apiVersion: version };
}
