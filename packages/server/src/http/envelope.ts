import type { Envelope } from "@booking/wire";

/** A successful envelope with its payload. */
export function ok<T>(data: T, message?: string): Envelope<T> {
  return message === undefined ? { success: true, data } : { success: true, message, data };
}

/** A successful envelope with only a message (e.g. cancel). */
export function done(message: string): Envelope<never> {
  return { success: true, message };
}

const GZIP_FROM_BYTES = 1024;

/** The part of Elysia's context that carries response headers. */
interface HeaderSink {
  headers: Record<string, string | number>;
}

/**
 * A prepared JSON body, encoded once and gzipped at most once, for answers that are cached and
 * served many times (slot lists run to hundreds of kilobytes). It is handed to Elysia as bytes
 * with headers on `set`: a returned Response would be rebuilt around its body stream per request.
 */
export class PreparedJson {
  private readonly plain: Uint8Array<ArrayBuffer>;
  private gzipped: Uint8Array | null = null;

  constructor(text: string) {
    this.plain = new TextEncoder().encode(text);
  }

  /** Sets the headers and returns the body to send, gzipped when the client accepts it. */
  send(set: HeaderSink, acceptEncoding: string | null): Uint8Array {
    set.headers["content-type"] = "application/json;charset=utf-8";
    set.headers.vary = "Accept-Encoding";
    if (this.plain.byteLength >= GZIP_FROM_BYTES && acceptEncoding !== null && /\bgzip\b/i.test(acceptEncoding)) {
      this.gzipped ??= Bun.gzipSync(this.plain);
      set.headers["content-encoding"] = "gzip";
      return this.gzipped;
    }
    return this.plain;
  }
}
