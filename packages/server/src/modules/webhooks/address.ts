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
  // `localhost.` is the same host as `localhost`: a trailing dot must not get it past the check.
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
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
    const c = Number(address.split(".")[2]);
    return (
      a === 0 || a === 10 || a === 127 || a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) || // shared address space (carrier NAT)
      (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 192 && b === 0 && (c === 0 || c === 2)) || // protocol assignments, documentation
      (a === 198 && (b === 18 || b === 19)) || // benchmarking
      (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113) // documentation
    );
  }
  const v6 = address.toLowerCase();
  // IPv4-mapped addresses reach the IPv4 host; URLs spell them in hex (`[::ffff:127.0.0.1]` becomes `::ffff:7f00:1`).
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mappedHex) {
    const [high, low] = [parseInt(mappedHex[1]!, 16), parseInt(mappedHex[2]!, 16)];
    return isPrivateAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  // Everything else in ::/8 (unspecified, loopback, the deprecated IPv4-compatible form) is not a public host.
  if (v6.startsWith("::")) return true;
  // NAT64 (64:ff9b::/96) carries an IPv4 address that a translator reaches; judge that one.
  const nat64 = /^64:ff9b::([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (nat64) {
    const [high, low] = [parseInt(nat64[1]!, 16), parseInt(nat64[2]!, 16)];
    return isPrivateAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  // Unique local, link-local, multicast, documentation (2001:db8::/32), discard (100::/64), local-use
  // NAT64 (64:ff9b:1::/48) and 6to4 (2002::/16, which embeds an IPv4 address of any kind).
  return /^(fc|fd)/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith("ff") || v6.startsWith("2001:db8:") || v6.startsWith("100::") || v6.startsWith("100:0:0:0:") || v6.startsWith("64:ff9b:1:") || v6.startsWith("2002:");
}
