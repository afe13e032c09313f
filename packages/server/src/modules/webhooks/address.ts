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

/** Where a delivery may connect: the addresses its host resolved to, every one judged; or the one that was refused. */
export type Target = { addresses: string[] } | { refused: string };

/** How long resolving a host may take: a resolver that does not answer must not hold a delivery or a calendar sync. */
export const DNS_TIMEOUT_MS = 5_000;

/**
 * Resolves the URL's host once and judges every address it gives. The delivery then connects to
 * these very addresses: resolving again at connect time would let a name that answered a public
 * address to the check answer a private one to the connection (DNS rebinding). Fails when the
 * lookup takes longer than DNS_TIMEOUT_MS, or once `signal` aborts.
 */
export async function resolveTarget(value: string, allowPrivate: boolean, signal?: AbortSignal): Promise<Target> {
  const host = new URL(value).hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await answeredInTime(Bun.dns.lookup(host), host, signal)).map((a) => a.address);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  const refused = allowPrivate ? undefined : addresses.find(isPrivateAddress);
  return refused === undefined ? { addresses } : { refused };
}

/** The lookup's answer, or a failure once DNS_TIMEOUT_MS have passed or `signal` aborted (the lookup itself cannot be cancelled). */
function answeredInTime<T>(lookup: Promise<T>, host: string, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
    };
    const aborted = () => {
      settle();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      settle();
      reject(new Error(`${host} did not resolve within ${DNS_TIMEOUT_MS / 1000} s`));
    }, DNS_TIMEOUT_MS);
    if (signal?.aborted) return aborted();
    signal?.addEventListener("abort", aborted, { once: true });
    lookup.then(
      (answer) => (settle(), resolve(answer)),
      (error: unknown) => (settle(), reject(error)),
    );
  });
}

/**
 * The request that reaches `url` through `address`: the URL with the address as its host, the
 * original `Host` header, and for https the original name for SNI and the certificate check (so
 * a certificate is still checked against the name, never the address).
 */
export function pinnedRequest(url: string, address: string): { url: string; host: string; serverName: string | null } {
  const original = new URL(url);
  const target = new URL(url);
  target.hostname = isIP(address) === 6 ? `[${address}]` : address;
  // The URL setter ignores what it cannot take (an IPv6 zone, say): never fall back to the name.
  if (!isIP(target.hostname.replace(/^\[|\]$/g, ""))) throw new Error(`cannot connect to ${address}`);
  const name = original.hostname.replace(/^\[|\]$/g, "");
  return { url: target.href, host: original.host, serverName: original.protocol === "https:" && !isIP(name) ? name : null };
}

/**
 * Loopback, link-local, private, unspecified and other non-public ranges, IPv4 and IPv6 in any
 * spelling (IPv4-mapped and NAT64 addresses are judged by the IPv4 address they carry).
 */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b, c] = address.split(".").map(Number) as [number, number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 || // this network, private, loopback, multicast and reserved
      (a === 100 && b >= 64 && b <= 127) || // shared address space (carrier NAT)
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0 && (c === 0 || c === 2)) || // protocol assignments, documentation
      (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast
      (a === 198 && (b === 18 || b === 19)) || // benchmarking
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113) // documentation
    );
  }
  const bytes = ipv6Bytes(address);
  // Not an address this code can read: refusing is the safe answer.
  if (!bytes) return true;
  const embeddedV4 = () => bytes.slice(12).join(".");
  const zero = (from: number, to: number) => bytes.slice(from, to).every((x) => x === 0);
  // IPv4-mapped addresses reach the IPv4 host; NAT64 (64:ff9b::/96) reaches it through a translator.
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return isPrivateAddress(embeddedV4());
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12)) return isPrivateAddress(embeddedV4());
  // Public hosts live in global unicast (2000::/3). Outside it: unspecified, loopback, IPv4-compatible,
  // discard (100::/64), local-use NAT64 (64:ff9b:1::/48), unique local (fc00::/7), link-local
  // (fe80::/10), site-local (fec0::/10), multicast (ff00::/8) and what is still unassigned.
  if ((bytes[0]! & 0xe0) !== 0x20) return true;
  const [g0, g1] = [(bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!];
  return (
    (g0 === 0x2001 && g1 <= 0x01ff) || // IETF protocol assignments (2001::/23, Teredo among them)
    (g0 === 0x2001 && g1 === 0x0db8) ||
    (g0 === 0x3fff && g1 <= 0x0fff) || // documentation
    g0 === 0x2002 // 6to4, which embeds an IPv4 address of any kind
  );
}

/** The 16 bytes of an IPv6 address in any spelling (compressed, with a dotted IPv4 tail, with a zone), or null. */
function ipv6Bytes(address: string): number[] | null {
  let text = address
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  let tail: number[] | null = null;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    tail = dotted.slice(1).map(Number);
    if (tail.some((x) => x > 255)) return null;
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  if (halves.length === 2 && head.length + rest.length > 7) return null;
  const all = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - rest.length).fill("0"), ...rest] : head;
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const bytes = all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]);
  if (tail) bytes.splice(12, 4, ...tail);
  return bytes;
}
