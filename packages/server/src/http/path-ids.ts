import { ApiError } from "./errors.ts";

/**
 * The numeric id in a route's path (`/admin/hosts/:hostId`), or the JSON 404 naming `what` has no
 * such id: a path that is not a number is as unknown as a number nothing has.
 */
export function pathId(raw: string, what: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new ApiError("not_found", `No ${what} with id ${raw.slice(0, 40)}.`);
  return Number(raw);
}
