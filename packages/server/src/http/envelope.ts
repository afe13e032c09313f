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

/**
 * A prepared JSON body, serialized once and gzipped at most once, for answers that are cached and
 * served many times (slot lists run to hundreds of kilobytes).
 */
export class PreparedJson {
  private gzipped: Uint8Array<ArrayBuffer> | null = null;
  constructor(readonly text: string) {}

  response(acceptEncoding: string | null): Response {
    const headers: Record<string, string> = { "content-type": "application/json;charset=utf-8", vary: "Accept-Encoding" };
    if (this.text.length >= GZIP_FROM_BYTES && acceptEncoding && /\bgzip\b/i.test(acceptEncoding)) {
      this.gzipped ??= Bun.gzipSync(this.text) as Uint8Array<ArrayBuffer>;
      headers["content-encoding"] = "gzip";
      return new Response(this.gzipped, { headers });
    }
    return new Response(this.text, { headers });
  }
}
