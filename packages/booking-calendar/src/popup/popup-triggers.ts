/**
 * The popup's options and what finds them on the page: small enough to stay in the script-tag file,
 * which loads the popup itself only when a visitor or the page's code opens it.
 */

/**
 * What opens the calendar in a popup: the element's own attributes (only `token` is required), plus
 * `label`, the dialog's name until the event type's title is known.
 */
export interface PopupOptions {
  token: string;
  apiBase?: string;
  reservationUuid?: string;
  timezone?: string;
  locale?: string;
  theme?: string;
  email?: string;
  firstname?: string;
  lastname?: string;
  phone?: string;
  label?: string;
}

/** A floating button's options: the popup's, plus the button's text. */
export interface FloatingButtonOptions extends PopupOptions {
  /** The button's text; "Book a time" by default. */
  text?: string;
}

/** Option name → the `<booking-calendar>` attribute it sets. */
export const ATTRIBUTES: Record<string, string> = {
  token: "token",
  apiBase: "api-base",
  reservationUuid: "reservation-uuid",
  timezone: "timezone",
  locale: "locale",
  theme: "theme",
  email: "email",
  firstname: "firstname",
  lastname: "lastname",
  phone: "phone",
};

export const POPUP_TAG = "bc-booking-popup";
export const FLOATING_TAG = "bc-floating-button";

/** Refuses options without a token, naming the call that got them. */
export function checkOptions(options: PopupOptions, call: "open" | "floatingButton"): void {
  if (!options || typeof options.token !== "string" || !options.token) throw new TypeError(`BookingCalendar.${call} needs { token }.`);
}

/**
 * The options a trigger or the script tag carries: the token in `data-booking-calendar` (or
 * `data-booking-floating` on the script tag), every other option in `data-booking-<attribute>`,
 * e.g. `data-booking-locale="de"`, `data-booking-api-base`, `data-booking-label`, `data-booking-text`.
 */
export function optionsFromData(element: HTMLElement, token: string): FloatingButtonOptions {
  const options: FloatingButtonOptions = { token };
  for (const [option, attribute] of [...Object.entries(ATTRIBUTES), ["label", "label"], ["text", "text"]] as const) {
    const value = element.getAttribute(`data-booking-${attribute}`);
    if (value && option !== "token") (options as unknown as Record<string, string>)[option] = value;
  }
  return options;
}

/**
 * Makes every element with `data-booking-calendar="<token>"` under `root`, now or added later, call
 * `open` when clicked (a link's own navigation is then skipped: without the script it still leads to
 * the booking page).
 */
export function onTriggerClick(root: Document, open: (options: PopupOptions, opener: HTMLElement) => Promise<unknown>): void {
  root.addEventListener("click", (event) => {
    if (event.defaultPrevented || !(event.target instanceof Element)) return;
    const trigger = event.target.closest<HTMLElement>("[data-booking-calendar]");
    const token = trigger?.getAttribute("data-booking-calendar");
    if (!trigger || !token) return;
    event.preventDefault();
    void open(optionsFromData(trigger, token), trigger);
  });
}
