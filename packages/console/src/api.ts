/** One problem of a 422 as `fieldErrors` gives it: the field, a stable code, the English message and the limit broken. */
export interface FieldProblem {
  field: string;
  code: string;
  message: string;
  min?: number;
  max?: number;
}

/**
 * A refusal of the admin API, with the spec's code and, for a 422, the messages per field
 * (`errors`) and each with its code (`fieldErrors`), which the console words in its language.
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly fieldErrors: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** The well-formed entries of a 422's `fieldErrors` (none when the answer has none). */
function problemsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  const limit = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? n : undefined);
  return value
    .filter((e): e is Record<string, unknown> => !!e && typeof e === "object" && typeof e.field === "string" && typeof e.code === "string" && typeof e.message === "string")
    .map((e) => ({ field: e.field as string, code: e.code as string, message: e.message as string, min: limit(e.min), max: limit(e.max) }));
}

/** Called when the session has ended (401), so the console shows the sign-in again. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void): void => {
  onSignedOut = handler;
};

/**
 * Calls the server as the signed-in console: same origin, the session cookie, JSON both ways. The
 * browser adds `Origin` to every change, which the server checks. Answers the envelope's `data`
 * (or its message for answers without data); throws ApiFailure for every refusal.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, "network", "The server could not be reached.");
  }
  const answer = (await response.json().catch(() => null)) as { success?: boolean; data?: T; message?: string; code?: string; errors?: Record<string, string[]>; fieldErrors?: unknown } | null;
  if (!response.ok || !answer || answer.success === false) {
    const failure = new ApiFailure(response.status, answer?.code ?? "internal_error", answer?.message ?? `HTTP ${response.status}`, answer?.errors ?? {}, problemsOf(answer?.fieldErrors));
    if (response.status === 401 && !path.startsWith("/console/session")) onSignedOut();
    throw failure;
  }
  return (answer.data ?? answer.message) as T;
}

/** The query string of the defined values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
