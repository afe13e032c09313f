/**
 * @booking/stripe-standin: a local stand-in for the part of Stripe's REST API the booking server uses
 * (PaymentIntents and their webhooks), because Stripe's servers cannot be reached from where the tests
 * and the offline demo run. It speaks Stripe's wire protocol so the real `stripe` SDK and a Stripe.js
 * stand-in can talk to it unchanged. It is a test and demo double, NOT Stripe: no money moves.
 */
export { startStripeStandin, type StripeStandin, type StripeStandinOptions } from "./standin.ts";
export type { Delivery, StripeEvent } from "./events.ts";
export type { PaymentIntent, PublishableIntent } from "./intent-object.ts";
export { stripeJsStandin } from "./browser.ts";
