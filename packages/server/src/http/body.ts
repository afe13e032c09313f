import { ApiError } from "./errors.ts";

/** Decodes whole bodies (never a stream of parts), so one decoder serves every request. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a request body as UTF-8 text, stopping as soon as it passes `maxBytes`, so an oversized
 * upload is refused with the JSON 413 without being held in memory. A body of a declared length
 * within the limit (what Bun's server reads to the byte) is read at once, and checked again.
 */
export async function readBody(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const declared = request.headers.get("content-length");
  if (Number(declared ?? "0") > maxBytes) throw tooLarge();
  let bytes: Uint8Array;
  // Chunked (Transfer-Encoding wins over a Content-Length beside it): read in parts, counted as they come.
  if (!request.body || (declared !== null && !request.headers.has("transfer-encoding"))) {
    bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : new Uint8Array(0);
    if (bytes.byteLength > maxBytes) throw tooLarge();
  } else {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
    bytes = Buffer.concat(chunks);
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid UTF-8.");
  }
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. The API's own shapes need four
 * levels; anything near the body limit's worth of brackets only costs time (recursive validation,
 * hashing and error reports grow with depth, some with its square), so it is refused unread.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text` nests arrays or objects deeper than `maxDepth`, found by one pass over the text
 * that counts brackets outside strings, before JSON.parse builds anything. Malformed JSON passes
 * through to JSON.parse, which reports it.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote among them
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
