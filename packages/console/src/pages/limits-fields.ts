import { html, type TemplateResult } from "lit";
import type { BookingLimits } from "@booking/wire";
import { LIMIT_KINDS, type LimitKind } from "@booking/wire/constants";
import type { ApiFailure } from "../api.ts";
import { field, fieldError } from "../base.ts";
import type { Texts } from "../i18n/index.ts";

/**
 * The five booking limits as number inputs (empty: no limit), shared by the event type form and the
 * hosts page. `idPrefix` keeps the ids of several forms on one page apart; a refused save's errors
 * (`limits.bookingsPerDay`, ...) show at their input.
 */
export function limitsFields(
  t: Texts,
  idPrefix: string,
  limits: BookingLimits | undefined,
  change: (kind: LimitKind, value: number | null) => void,
  failure: ApiFailure | null,
): TemplateResult {
  return html`<div class="grid">
    ${LIMIT_KINDS.map((kind) => {
      const id = `${idPrefix}-${kind}`;
      return field(
        id,
        t.labels[kind],
        (a) => html`<input id=${id} type="number" min="1" step="1" inputmode="numeric" .value=${limits?.[kind] == null ? "" : String(limits[kind])}
          aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          @input=${(e: Event) => {
            const raw = (e.target as HTMLInputElement).value;
            change(kind, raw === "" ? null : Number(raw));
          }}>`,
        fieldError(failure, `limits.${kind}`),
      );
    })}
  </div>`;
}
