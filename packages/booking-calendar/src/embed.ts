/**
 * Entry of the script-tag file: defines the element and makes the API default to the origin this
 * script was served from, so `<script src="https://book.example.com/embed/booking-calendar.js">`
 * plus `<booking-calendar token="...">` is the whole embed. The same file opens the calendar in a
 * popup: from any element with `data-booking-calendar="<token>"`, from `BookingCalendar.open({...})`,
 * or from a floating button (`data-booking-floating="<token>"` on this script tag, or
 * `BookingCalendar.floatingButton({...})`).
 */
import { setDefaultApiBase } from "./booking-calendar.component.ts";
import "./booking-calendar.ts";
import { closePopup, floatingButton, listenForTriggers, openPopup, optionsFromData } from "./popup.ts";

// Set while a classic script runs (deferred or async too); a module script or an inlined copy falls back to the page's origin.
const script = document.currentScript;
if (script instanceof HTMLScriptElement && script.src) setDefaultApiBase(new URL(script.src, location.href).origin);

/** What the script tag puts on `window` for pages that open the calendar from their own code. */
const api = { open: openPopup, close: closePopup, floatingButton };

declare global {
  interface Window {
    BookingCalendar?: typeof api;
  }
}

// A page that loads the script twice keeps the first one's popup and triggers.
if (!window.BookingCalendar) {
  window.BookingCalendar = api;
  listenForTriggers();
  const floating = script instanceof HTMLScriptElement ? script.getAttribute("data-booking-floating") : null;
  if (floating && script instanceof HTMLScriptElement) {
    const add = () => floatingButton(optionsFromData(script, floating));
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", add, { once: true });
    else add();
  }
}
