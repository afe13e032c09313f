import { isIP } from "node:net";

/** Why a webhook URL may not be used, or null when it may. Syntax only; see `refusedAddress` for where it points. */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Expected an http(s) URL.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Expected an http(s) URL.";
  if (url.username || url.password) return "Credentials do not belong in a webhook URL; use the signature to authenticate.";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost") || (isIP(host) && isPrivateAddress(host)))) {
    return "Webhooks cannot go to loopback, link-local or private addresses.";
  }
  return null;
}

/**
 * Resolves the URL's host and answers the first address that is loopback, link-local or private
 * (or null): checked before every delivery, since a public name can point inward.
 */
export async function refusedAddress(value: string): Promise<string | null> {
  const host = new URL(value).hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await Bun.dns.lookup(host)).map((a) => a.address);
  return addresses.find(isPrivateAddress) ?? null;
}

/** Loopback, link-local, private, unspecified and other non-public ranges, IPv4 and IPv6. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split(".").map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || a >= 224;
  }
  const v6 = address.toLowerCase();
  if (v6 === "::" || v6 === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isPrivateAddress(mapped[1]!);
  return /^(fc|fd)/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith("ff");
}
