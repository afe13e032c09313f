/** The admin CLI's HTTP client of the admin API. */
import type { ErrorBody } from "@booking/wire";
import { UsageError, type Flags } from "./args.ts";

/** The server refused or could not be reached: exit code 1. */
export class RequestFailed extends Error {}

/** A call of the admin API (method, path, JSON body) answering the envelope's data, with the server's address. */
export type AdminApi = (<T>(method: string, path: string, body?: unknown) => Promise<T>) & { base: string };

/** A caller of the admin API that answers the envelope's data or throws RequestFailed. */
export function client(flags: Flags): AdminApi {
  const base = (flags.url ?? process.env.BOOKING_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const key = flags.key ?? process.env.BOOKING_ADMIN_KEY;
  if (!key) throw new UsageError("No admin key: set BOOKING_ADMIN_KEY or pass --key.");
  if (!/^https?:\/\/[^/]/.test(base)) throw new UsageError(`--url (or BOOKING_URL) must be an http(s) address, got "${base}".`);

  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "it did not answer within 30 seconds" : "the connection failed";
      throw new RequestFailed(
        `Cannot reach the booking server at ${base}: ${reason}.\nIs it running (npm start)? Set BOOKING_URL or pass --url to point elsewhere.`,
      );
    }
    const text = await response.text();
    let answer: { success?: boolean; data?: T; code?: string; message?: string } | undefined;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (response.ok && answer?.success === true) return answer.data as T;
    // The whole admin API missing means the server was started without an admin key.
    if (response.status === 404 && answer?.code === "not_found" && /Nothing is served at \/admin/.test(answer.message ?? "")) {
      throw new RequestFailed(`The server at ${base} has no admin API: start it with BOOKING_ADMIN_KEY set (the same key the CLI uses).`);
    }
    if (answer && typeof answer.code === "string") throw new RequestFailed(errorText(answer as ErrorBody, response.status));
    throw new RequestFailed(`The server at ${base} answered HTTP ${response.status} without an API error body; is BOOKING_URL the booking server?`);
  };
  return Object.assign(call, { base });
}

/** The spec's error body as lines for a person: status and code, message, each field's problems, the hint. */
function errorText(e: ErrorBody, status: number): string {
  const lines = [`Error ${e.status ?? status} ${e.code}: ${e.message}`];
  for (const [field, messages] of Object.entries(e.errors ?? {})) for (const m of messages) lines.push(`  ${field}: ${m}`);
  // The server's hints for 401 and 403 speak to booking clients; an organizer needs the admin key.
  const hint = e.code === "unauthenticated" || e.code === "forbidden" ? "Check that BOOKING_ADMIN_KEY (or --key) is the server's admin key." : e.hint;
  if (hint) lines.push(`Hint: ${hint}`);
  return lines.join("\n");
}
