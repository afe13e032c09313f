/**
 * Entry of the script-tag file: defines the element and makes the API default to the origin this
 * script was served from, so `<script src="https://book.example.com/embed/booking-calendar.js">`
 * plus `<booking-calendar token="...">` is the whole embed.
 */
import { setDefaultApiBase } from "./booking-calendar.component.ts";
import "./booking-calendar.ts";

// Set while a classic script runs; a module script or an inlined copy falls back to the page's origin.
const script = document.currentScript;
if (script instanceof HTMLScriptElement && script.src) setDefaultApiBase(new URL(script.src, location.href).origin);
