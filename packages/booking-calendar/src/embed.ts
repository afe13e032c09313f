/**
 * Entry of the script-tag file: defines the element and makes the API default to the origin this
 * script was served from, so `<script src="https://book.example.com/embed/booking-calendar.js">`
 * plus `<booking-calendar token="...">` is the whole embed. Only English is inside the file; the
 * other languages are fetched from `locales/<language>.json` next to it when one is chosen. The same
 * file opens the calendar in a popup: from any element with `data-booking-calendar="<token>"`, from
 * `BookingCalendar.open({...})`, or from a floating button (`data-booking-floating="<token>"` on this
 * script tag, or `BookingCalendar.floatingButton({...})`).
 */
import { setDefaultApiBase } from "./booking-calendar.component.ts";
import { setCatalogSource } from "./i18n/load.ts";
import type { LoadedCatalog } from "./texts.ts";
import "./booking-calendar.ts";
import { closePopup, floatingButton, listenForTriggers, openPopup, optionsFromData } from "./popup.ts";

// Set while a classic script runs (deferred or async too); a module script or an inlined copy falls back to the page's origin.
const script = document.currentScript;
const scriptUrl = script instanceof HTMLScriptElement && script.src ? new URL(script.src, location.href) : null;
if (scriptUrl) setDefaultApiBase(scriptUrl.origin);

const catalogBase = scriptUrl ?? new URL("/embed/booking-calendar.js", location.href);
setCatalogSource(async (language) => {
  const response = await fetch(new URL(`locales/${language}.json`, catalogBase));
  if (!response.ok) throw new Error(`the ${language} texts answered HTTP ${response.status}`);
  return (await response.json()) as LoadedCatalog;
});

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
