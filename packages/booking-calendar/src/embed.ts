/**
 * Entry of the script-tag file: defines the element and makes the API default to the origin this
 * script was served from, so `<script src="https://book.example.com/embed/booking-calendar.js">`
 * plus `<booking-calendar token="...">` is the whole embed. Only English is inside the file; the
 * other languages are fetched from `locales/<language>.json` next to it when one is chosen. The same
 * file opens the calendar in a popup: from any element with `data-booking-calendar="<token>"`, from
 * `BookingCalendar.open({...})`, or from a floating button (`data-booking-floating="<token>"` on this
 * script tag, or `BookingCalendar.floatingButton({...})`). The popup's code and the payment step are
 * fetched from `parts/popup.js` and `parts/payment.js` next to it, the first time a page needs them,
 * the screens of an existing booking (`parts/manage.js`), when a manage link opens one, the details
 * form (`parts/form.js`), once a day is picked, and the zone picker's list with its search
 * (`parts/zones.js`), once the visitor reaches for it.
 */
/// <reference types="vite/client" />
import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import { setDefaultApiBase } from "./booking-calendar.component.ts";
import { controlStyles } from "./booking-calendar.styles.ts";
import { environmentContext } from "./context.ts";
import { setCatalogSource } from "./i18n/load.ts";
import { loadPart, runScript, setPartLoader, type PopupPart } from "./parts/load.ts";
import { checkOptions, FLOATING_TAG, onTriggerClick, optionsFromData, type FloatingButtonOptions, type PopupOptions } from "./popup/popup-triggers.ts";
import { DEFAULT_TEXTS, type LoadedCatalog } from "./i18n/texts.ts";
import "./booking-calendar.ts";

// Set while a classic script runs (deferred or async too); a module script or an inlined copy falls back to the page's origin.
const script = document.currentScript;
const scriptUrl = script instanceof HTMLScriptElement && script.src ? new URL(script.src, location.href) : null;
if (scriptUrl) setDefaultApiBase(scriptUrl.origin);

const base = scriptUrl ?? new URL("/embed/booking-calendar.js", location.href);
setCatalogSource(async (language) => {
  const response = await fetch(new URL(`locales/${language}.json`, base));
  if (!response.ok) throw new Error(`the ${language} texts answered HTTP ${response.status}`);
  return (await response.json()) as LoadedCatalog;
});

// The parts run against this file's Lit and context: a page that loads the script twice shares the first one's.
window.BookingCalendarShared ??= { LitElement, css, html, nothing, ContextConsumer, environmentContext, controlStyles, DEFAULT_TEXTS };
setPartLoader(
  import.meta.env.DEV
    ? // `npm run dev`: the parts from source, through Vite like this module.
      async (name) =>
        void (await {
          popup: () => import("./parts/popup.ts"),
          manage: () => import("./parts/manage.ts"),
          zones: () => import("./parts/zones.ts"),
          form: () => import("./parts/form.ts"),
          payment: () => import("./parts/payment.ts"),
        }[name]())
    : (name) => runScript(new URL(`parts/${name}.js`, base)),
);

/** The popup's functions, once its part has run. */
async function popupPart(): Promise<PopupPart> {
  await loadPart("popup");
  const part = window.BookingCalendarShared?.popup;
  if (!part) throw new Error("The popup part did not run.");
  return part;
}

/** What the script tag puts on `window` for pages that open the calendar from their own code. */
const api = {
  /** Opens the calendar in the popup; focus returns to `opener` (by default what has it now) on close. */
  async open(options: PopupOptions, opener: HTMLElement | null = document.activeElement instanceof HTMLElement ? document.activeElement : null): Promise<void> {
    checkOptions(options, "open");
    await (await popupPart()).openPopup(options, opener);
  },
  /** Closes the popup, if open. */
  close(): void {
    window.BookingCalendarShared?.popup?.closePopup();
  },
  /** Adds a floating button that opens the popup with `options`; answers it (remove it to take it away). */
  floatingButton(options: FloatingButtonOptions): HTMLElement {
    checkOptions(options, "floatingButton");
    // Shown once the popup's code has defined it.
    const button = document.createElement(FLOATING_TAG);
    (document.body ?? document.documentElement).append(button);
    void popupPart().then((part) => part.equipFloatingButton(button, options));
    return button;
  },
};

declare global {
  interface Window {
    BookingCalendar?: typeof api;
  }
}

// A page that loads the script twice keeps the first one's popup and triggers.
if (!window.BookingCalendar) {
  window.BookingCalendar = api;
  onTriggerClick(document, api.open);
  const floating = script instanceof HTMLScriptElement ? script.getAttribute("data-booking-floating") : null;
  if (floating && script instanceof HTMLScriptElement) {
    const add = () => api.floatingButton(optionsFromData(script, floating));
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", add, { once: true });
    else add();
  }
}
