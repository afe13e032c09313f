import { brotliCompressSync, constants } from "node:zlib";

// Bodies encoded once and served many times. Services build them (the slot page cache, the
// calendar's script), so they live outside src/http; the routes hand them to Elysia with `send`.

const COMPRESS_FROM_BYTES = 1024;

/** Content codings the server offers, best first: zstd and brotli are smaller and as fast as gzip. */
type Coding = "zstd" | "br" | "gzip";
const CODINGS: Coding[] = ["zstd", "br", "gzip"];

const chosen = new Map<string, Coding | null>();

/** The best coding an `Accept-Encoding` header allows (a `q=0` refuses one), or null. */
export function negotiateCoding(acceptEncoding: string | null): Coding | null {
  if (!acceptEncoding) return null;
  let coding = chosen.get(acceptEncoding);
  if (coding === undefined) {
    const accepted = new Set<string>();
    for (const part of acceptEncoding.toLowerCase().split(",")) {
      const [name, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      if (name && (q === undefined || Number(q) > 0)) accepted.add(name.trim());
    }
    coding = CODINGS.find((c) => accepted.has(c)) ?? null;
    // Clients send few distinct headers; the bound only guards against a flood of made-up ones.
    if (chosen.size < 1000) chosen.set(acceptEncoding, coding);
  }
  return coding;
}

/** Where response headers go (the `set` of Elysia's context). */
export interface HeaderSink {
  headers: Record<string, string | number>;
}

/**
 * A prepared body (JSON unless told otherwise), encoded once and compressed at most once per coding,
 * for answers that are cached and served many times (slot lists run to hundreds of kilobytes, the
 * calendar's script to tens). It is handed to Elysia as
 * bytes with headers on `set`: a returned Response would be rebuilt around its body stream.
 */
export class PreparedBody {
  private readonly plain: Uint8Array<ArrayBuffer>;
  private readonly compressed = new Map<Coding, Uint8Array<ArrayBuffer>>();

  constructor(
    text: string,
    private readonly contentType = "application/json;charset=utf-8",
  ) {
    this.plain = new TextEncoder().encode(text);
  }

  /** Bytes of the plain body; compressed forms add a fraction of it. */
  get byteLength(): number {
    return this.plain.byteLength;
  }

  /** Sets the headers and returns the body to send, compressed when the client accepts it. */
  send(set: HeaderSink, acceptEncoding: string | null): Uint8Array<ArrayBuffer> {
    set.headers["content-type"] = this.contentType;
    set.headers.vary = "Accept-Encoding";
    const coding = this.plain.byteLength >= COMPRESS_FROM_BYTES ? negotiateCoding(acceptEncoding) : null;
    if (coding === null) return this.plain;
    let body = this.compressed.get(coding);
    if (body === undefined) {
      body = compress(this.plain, coding);
      this.compressed.set(coding, body);
    }
    set.headers["content-encoding"] = coding;
    return body;
  }
}

/**
 * The JSON of an answer of type `T`, prepared once (see PreparedBody). `send` hands Elysia the bytes
 * and is typed as the `T` they encode: the route's declared answer, which its clients (the console's
 * typed client among them) read, stays checked against what is prepared.
 */
export class PreparedJson<T> {
  private readonly body: PreparedBody;

  constructor(answer: T) {
    this.body = new PreparedBody(JSON.stringify(answer));
  }

  /** Bytes of the plain body; compressed forms add a fraction of it. */
  get byteLength(): number {
    return this.body.byteLength;
  }

  /** Sets the headers and returns the bytes of the answer, compressed when the client accepts it. */
  send(set: HeaderSink, acceptEncoding: string | null): T {
    // The bytes are the JSON of a T, which is what the client reads.
    return this.body.send(set, acceptEncoding) as unknown as T;
  }
}

function compress(bytes: Uint8Array<ArrayBuffer>, coding: Coding): Uint8Array<ArrayBuffer> {
  switch (coding) {
    case "zstd":
      return Bun.zstdCompressSync(bytes, { level: 3 }) as Uint8Array<ArrayBuffer>;
    case "br":
      // Quality 5 compresses a slot page to half of gzip's size in a few milliseconds; 11 takes seconds.
      return new Uint8Array(
        brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } }),
      );
    case "gzip":
      return Bun.gzipSync(bytes) as Uint8Array<ArrayBuffer>;
  }
}
