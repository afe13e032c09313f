import { ApiError } from "./errors.ts";

/**
 * Reads a request body as UTF-8 text, stopping as soon as it passes `maxBytes`, so an oversized
 * upload is refused with the JSON 413 without being held in memory.
 */
export async function readBody(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new ApiError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
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
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError("bad_request", "The request body is not valid UTF-8.");
  }
}
