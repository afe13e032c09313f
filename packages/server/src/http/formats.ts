import { FormatRegistry } from "@sinclair/typebox";
import { EMAIL_PATTERN } from "@booking/wire";

/**
 * Makes the request schemas' `format: "email"` (a booker, their guests, a payer, the organizer's
 * copy address) the one email rule of `@booking/wire`, which the element and the reservation rules
 * check too. Elysia otherwise brings its own stricter pattern, which refused addresses the form lets
 * through (`jürgen@example.de`, `ada@exa_mple.org`) with a 422 the visitor could not foresee.
 * Set unconditionally: Elysia registers its own only when none is there, so this rule stands
 * whichever loads first. Calling it again changes nothing.
 */
export function useSharedFormats(): void {
  FormatRegistry.Set("email", (value) => EMAIL_PATTERN.test(value));
}
