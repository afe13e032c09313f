/** The payment part: defines `<bc-payment-step>` (with Stripe's loader) when a paid event type reaches its payment. */
import { PaymentStep } from "../views/payment-step.ts";

if (!customElements.get("bc-payment-step")) customElements.define("bc-payment-step", PaymentStep);
