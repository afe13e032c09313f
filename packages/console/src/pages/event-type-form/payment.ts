import { html, nothing, type TemplateResult } from "lit";
import { field, fieldError, fieldMessages } from "../../base.ts";
import type { Draft, DraftEditor } from "./draft.ts";

type Payment = NonNullable<Draft["payment"]>;

/** Card payment of a paid event type: on or off, and when on its amount, currency and Stripe account. */
export function paymentEditor(form: DraftEditor): TemplateResult {
  const t = form.t;
  const payment = form.draft?.payment ?? null;
  const error = fieldMessages(form.failure, t).payment?.join(" ") ?? "";
  /** Changes some of the card payment settings, keeping the rest. */
  const setPayment = (change: Partial<Payment>): void => {
    const current = form.draft?.payment;
    if (current) form.set("payment", { ...current, ...change });
  };
  return html`<fieldset aria-describedby=${error ? "et-payment-error" : nothing}><legend>${t.payment}</legend>
    ${error ? html`<p class="error" id="et-payment-error">${error}</p>` : nothing}
    <div class="field"><label class="check" for="et-paid"><input id="et-paid" type="checkbox" .checked=${!!payment}
      @change=${(e: Event) => form.set("payment", (e.target as HTMLInputElement).checked ? { amount: 1000, currency: "eur", providerAccountId: "acct_" } : null)}> ${t.labels.cardPayment}</label></div>
    ${
      payment
        ? html`<div class="grid">
          ${field(
            "et-amount",
            t.labels.amount,
            (a) => html`<input id="et-amount" type="number" .value=${String(payment.amount)} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
            @input=${(e: Event) => setPayment({ amount: Number((e.target as HTMLInputElement).value) })}>`,
            fieldError(form.failure, "payment.amount"),
          )}
          ${field(
            "et-currency",
            t.labels.currency,
            (a) => html`<input id="et-currency" .value=${payment.currency} maxlength="3" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
            @input=${(e: Event) => setPayment({ currency: (e.target as HTMLInputElement).value })}>`,
            fieldError(form.failure, "payment.currency"),
          )}
          ${field(
            "et-account",
            t.labels.stripeAccount,
            (a) => html`<input id="et-account" .value=${payment.providerAccountId} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
            @input=${(e: Event) => setPayment({ providerAccountId: (e.target as HTMLInputElement).value })}>`,
            fieldError(form.failure, "payment.providerAccountId"),
          )}
        </div>`
        : nothing
    }
  </fieldset>`;
}
