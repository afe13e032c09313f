/**
 * The parts of the element that only some visitors need, loaded on first use: the popup with its
 * floating button, the payment step (only paid event types reach it), the manage screens (only a
 * manage link opens them), the zone picker's list and search (once the visitor reaches for the
 * picker), and the details form (once a day is picked). The script-tag file fetches
 * each from `parts/<name>.js` beside itself; the npm module imports it as a chunk of its own.
 */
import type { LitElement, css, html, nothing } from "lit";
import type { ContextConsumer } from "@lit/context";
import type { controlStyles } from "../booking-calendar.styles.ts";
import type { environmentContext } from "../context.ts";
import type { closePopup, equipFloatingButton, openPopup } from "../popup/popup.ts";
import type { DEFAULT_TEXTS } from "../i18n/texts.ts";
import type * as manageViews from "../views/manage.ts";
import type { ZoneIndex, cityName } from "../zones/zone-index.ts";

export type PartName = "popup" | "payment" | "manage" | "zones" | "form";

/** What the manage part hands back: the screens of an existing booking. */
export type ManagePart = typeof manageViews;

/** Loads one part; resolves once it has run (its elements defined). */
export type PartLoader = (name: PartName) => Promise<void>;

/** What the popup part hands back to the script-tag file once it runs. */
export interface PopupPart {
  openPopup: typeof openPopup;
  closePopup: typeof closePopup;
  equipFloatingButton: typeof equipFloatingButton;
}

/** What the zones part hands back: the zone list and search, and the cities' names in the element's languages. */
export interface ZonesPart {
  ZoneIndex: typeof ZoneIndex;
  cityName: typeof cityName;
}

/**
 * What the script-tag file shares with its parts, under `window.BookingCalendarShared`: the one Lit
 * (the parts are built with it left out, reading these names instead), the modules whose identity
 * counts (the context key), and the slots where the popup and manage parts put their functions.
 */
export interface SharedModules {
  LitElement: typeof LitElement;
  css: typeof css;
  html: typeof html;
  nothing: typeof nothing;
  ContextConsumer: typeof ContextConsumer;
  environmentContext: typeof environmentContext;
  controlStyles: typeof controlStyles;
  DEFAULT_TEXTS: typeof DEFAULT_TEXTS;
  popup?: PopupPart;
  manage?: ManagePart;
  zones?: ZonesPart;
}

declare global {
  interface Window {
    BookingCalendarShared?: SharedModules;
  }
}

let manage: ManagePart | undefined;

/**
 * The manage screens once their part has run: the npm module's loader hands them over here; the
 * script-tag file's part puts them on the shared object (it is a bundle of its own).
 */
export const managePart = (): ManagePart | undefined => manage ?? window.BookingCalendarShared?.manage;

/** Keeps the manage screens the npm module imported. */
export function setManagePart(part: ManagePart): void {
  manage = part;
}

let zones: ZonesPart | undefined;

/** The zones part once it has run: handed over by the npm module's loader, or put beside the shared modules by the part's file. */
export const zonesPart = (): ZonesPart | undefined => zones ?? window.BookingCalendarShared?.zones;

/** The npm module's loader hands the zones part over here. */
export function setZonesPart(part: ZonesPart): void {
  zones = part;
}

let loader: PartLoader = (name) => Promise.reject(new Error(`The ${name} part has no loader.`));
const loading = new Map<PartName, Promise<void>>();

/** Sets how parts are fetched (the entry module does, once). */
export function setPartLoader(next: PartLoader): void {
  loader = next;
  loading.clear();
}

/** Loads `name` once; after a failure, the next call tries afresh. */
export function loadPart(name: PartName): Promise<void> {
  let promise = loading.get(name);
  if (!promise) {
    promise = loader(name).catch((error: unknown) => {
      loading.delete(name);
      throw error;
    });
    loading.set(name, promise);
  }
  return promise;
}

/**
 * Runs the classic script at `url` once: resolves when it has run, rejects when it cannot be fetched.
 * The script element is taken off the page again either way (what it defined stays).
 */
export function runScript(url: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url.href;
    script.async = true;
    script.addEventListener("load", () => {
      script.remove();
      resolve();
    });
    script.addEventListener("error", () => {
      script.remove();
      reject(new Error(`Could not load ${url.pathname}`));
    });
    document.head.append(script);
  });
}
