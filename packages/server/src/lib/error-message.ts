/**
 * An error as one line for a status or a log: its message, followed by its cause's when that says
 * more (a fetch's "fetch failed" is only understood with the network error behind it).
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error)
    return error.cause instanceof Error && error.cause.message !== error.message ? `${error.message} (${error.cause.message})` : error.message;
  return String(error);
}
