import { LitElement, css, html, nothing, type PropertyValues } from "lit";
import { ContextConsumer } from "@lit/context";
import type { Stripe, StripeElementLocale, StripeElements } from "@stripe/stripe-js";
import { environmentContext } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";

/**
 * Internal: a card payment is being confirmed (`bc-paying`), the card was charged (`bc-paid`), or the
 * visitor needs to hear why not (`bc-payment-error`; `refused` when no money can have moved: the
 * form was incomplete or the card was declined).
 */
export type PaymentStepEvents = {
  "bc-paying": Record<string, never>;
  "bc-paid": { paymentIntentId: string };
  /** `unavailable`: Stripe.js could not be loaded, so no card form can be shown here. */
  "bc-payment-error": { message: string; refused: boolean; unavailable?: boolean };
};

/** Where the Payment Element goes, and what it charges. */
export interface PaymentSetup {
  publishableKey: string;
  providerAccountId: string;
  clientSecret: string;
  paymentIntentId: string;
  /** The amount as the visitor reads it, e.g. "€50.00". */
  amountText: string;
  /** Where Stripe.js comes from when not from Stripe (the configuration's `payment.stripeJsUrl`). */
  stripeJsUrl?: string;
}

/** Stripe.js, or what stands in for it, as a script puts it on the page. */
type StripeGlobal = { Stripe?: unknown };

/**
 * Loads the script at `url` (a Stripe.js stand-in) unless a Stripe.js is on the page already, so
 * that `loadStripe` then finds it as `window.Stripe`. A script that fails is taken off the page
 * again, so the next attempt loads it afresh.
 */
function loadStripeScript(url: string): Promise<void> {
  if ((window as StripeGlobal).Stripe) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.addEventListener("load", () => ((window as StripeGlobal).Stripe ? resolve() : reject(new Error("Failed to load Stripe.js"))));
    script.addEventListener("error", () => {
      script.remove();
      reject(new Error("Failed to load Stripe.js"));
    });
    document.head.append(script);
  });
}

/**
 * Stripe's Payment Element and the pay button. Stripe.js is fetched only now, the first time a
 * visitor reaches a payment: from where the configuration names (the server's Stripe.js stand-in
 * outside production), else Stripe's own through `loadStripe`, which also uses a `window.Stripe`
 * already on the page. When it cannot be loaded, `bc-payment-error` says so with `unavailable`. The element is mounted into `mountPoint`, a node in the page's light DOM that
 * the calendar slots in here, because Stripe's iframes expect to live outside shadow roots.
 * `confirmPayment` stays on the page (`redirect: "if_required"`) unless the payment method needs a bank's page.
 */
export class PaymentStep extends LitElement {
  static override styles = [
    controlStyles,
    css`
    /* Shown only with a test key; its colours stay the same in dark mode, as a warning label. */
    .test-badge { display: inline-block; font-size: 0.8rem; font-weight: 600; padding: 0.15rem 0.5rem; border-radius: 999px; background: #fef3c7; color: #713f12; }
    :host { display: block; }
    .card { min-height: 6rem; margin: 0.75rem 0; }
    .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
  `,
  ];

  static override properties = {
    setup: { attribute: false },
    mountPoint: { attribute: false },
    paying: { state: true },
    ready: { state: true },
  };

  declare setup: PaymentSetup | null;
  declare mountPoint: HTMLElement | null;
  declare paying: boolean;
  declare ready: boolean;

  private readonly env = new ContextConsumer(this, { context: environmentContext, subscribe: true });
  private stripe: Stripe | null = null;
  private elements: StripeElements | null = null;
  private mountedFor = "";

  constructor() {
    super();
    this.setup = null;
    this.mountPoint = null;
    this.paying = false;
    this.ready = false;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if ((changed.has("setup") || changed.has("mountPoint")) && this.setup && this.mountPoint && this.mountedFor !== this.setup.clientSecret) {
      void this.mount(this.setup, this.mountPoint);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.elements?.getElement("payment")?.destroy();
    this.mountedFor = "";
  }

  private async mount(setup: PaymentSetup, mountPoint: HTMLElement): Promise<void> {
    this.mountedFor = setup.clientSecret;
    this.ready = false;
    try {
      try {
        if (setup.stripeJsUrl) await loadStripeScript(setup.stripeJsUrl);
        const { loadStripe } = await import("@stripe/stripe-js/pure");
        this.stripe = await loadStripe(setup.publishableKey, { stripeAccount: setup.providerAccountId });
        if (!this.stripe) throw new Error("Stripe.js is not available here.");
      } catch (error) {
        this.mountedFor = "";
        this.dispatchEvent(
          new CustomEvent("bc-payment-error", {
            detail: { message: error instanceof Error ? error.message : String(error), refused: true, unavailable: true },
          }),
        );
        return;
      }
      const style = getComputedStyle(this);
      const variable = (name: string) => style.getPropertyValue(name).trim() || undefined;
      this.elements = this.stripe.elements({
        clientSecret: setup.clientSecret,
        // The card form speaks the calendar's language (each built-in one is a language Stripe has).
        locale: (this.env.value?.language ?? "auto") as StripeElementLocale,
        appearance: {
          theme: style.colorScheme === "dark" ? "night" : "stripe",
          variables: { colorPrimary: variable("--bc-primary"), borderRadius: variable("--bc-radius"), colorDanger: variable("--bc-danger") },
        },
      });
      const element = this.elements.create("payment", { layout: "tabs" });
      element.on("ready", () => {
        this.ready = true;
      });
      mountPoint.replaceChildren();
      element.mount(mountPoint);
    } catch (error) {
      this.mountedFor = "";
      this.fail(error instanceof Error ? error.message : String(error), true);
    }
  }

  private fail(message: string, refused: boolean): void {
    this.dispatchEvent(new CustomEvent("bc-payment-error", { detail: { message, refused } }));
  }

  private async pay(): Promise<void> {
    if (!this.stripe || !this.elements || this.paying) return;
    this.paying = true;
    try {
      const submitted = await this.elements.submit();
      if (submitted.error) {
        this.fail(submitted.error.message ?? "", true);
        return;
      }
      this.dispatchEvent(new CustomEvent("bc-paying", { detail: {} }));
      const result = await this.stripe.confirmPayment({ elements: this.elements, redirect: "if_required", confirmParams: { return_url: location.href } });
      // A declined card or an incomplete form moved no money; any other error might have.
      if (result.error)
        this.fail(result.error.message ?? result.error.code ?? "", result.error.type === "card_error" || result.error.type === "validation_error");
      else this.dispatchEvent(new CustomEvent("bc-paid", { detail: { paymentIntentId: result.paymentIntent.id } }));
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error), false);
    } finally {
      this.paying = false;
    }
  }

  protected override render() {
    const env = this.env.value;
    if (!env || !this.setup) return nothing;
    const { texts } = env;
    return html`
      ${this.setup.publishableKey.startsWith("pk_test_") ? html`<p><span class="test-badge" part="test-badge">${texts("testPayment")}</span></p>` : nothing}
      <div class="card" part="payment-element" aria-busy=${this.ready ? "false" : "true"}>
        <slot></slot>
        ${this.ready ? nothing : html`<p class="muted" role="status">${texts("loading")}</p>`}
      </div>
      <div class="actions">
        <button class="primary" type="button" part="pay" ?disabled=${!this.ready || this.paying} aria-busy=${this.paying ? "true" : "false"}
          @click=${() => void this.pay()}>${texts("pay", { amount: this.setup.amountText })}</button>
        <slot name="actions"></slot>
      </div>`;
  }
}
