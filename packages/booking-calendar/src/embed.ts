/**
 * Entry of the script-tag file: defines the element and makes the API default to the origin this
 * script was served from, so `<script src="https://book.example.com/embed/booking-calendar.js">`
 * plus `<booking-calendar token="...">` is the whole embed. Only English is inside the file; the
 * other languages are fetched from `locales/<language>.json` next to it when one is chosen.
 */
import { setDefaultApiBase } from "./booking-calendar.component.ts";
import { setCatalogSource } from "./i18n/load.ts";
import type { LoadedCatalog } from "./texts.ts";
import "./booking-calendar.ts";

// Set while a classic script runs; a module script or an inlined copy falls back to the page's origin.
const script = document.currentScript;
const scriptUrl = script instanceof HTMLScriptElement && script.src ? new URL(script.src, location.href) : null;
if (scriptUrl) setDefaultApiBase(scriptUrl.origin);

const catalogBase = scriptUrl ?? new URL("/embed/booking-calendar.js", location.href);
setCatalogSource(async (language) => {
  const response = await fetch(new URL(`locales/${language}.json`, catalogBase));
  if (!response.ok) throw new Error(`the ${language} texts answered HTTP ${response.status}`);
  return (await response.json()) as LoadedCatalog;
});
