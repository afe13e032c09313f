import { LitElement, css, html } from "lit";
import { DEFAULT_TEXTS } from "../i18n/texts.ts";
import { ATTRIBUTES, checkOptions, FLOATING_TAG, onTriggerClick, POPUP_TAG, type FloatingButtonOptions, type PopupOptions } from "./popup-triggers.ts";

export { optionsFromData, type FloatingButtonOptions, type PopupOptions } from "./popup-triggers.ts";

/** The same options, compared as the calendar would show them. */
const sameOptions = (a: PopupOptions, b: PopupOptions) =>
  Object.keys(ATTRIBUTES).every(
    (key) => (a as unknown as Record<string, string | undefined>)[key] === (b as unknown as Record<string, string | undefined>)[key],
  );

/** What can take focus under `node`, in tree order through shadow roots and slots (the calendar's fields included). */
function focusables(node: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  const walk = (element: Element) => {
    if (element instanceof HTMLElement && element.tabIndex >= 0 && !element.matches(":disabled") && element.getClientRects().length > 0) found.push(element);
    const children =
      element instanceof HTMLSlotElement ? element.assignedElements({ flatten: true }) : [...(element.shadowRoot?.children ?? []), ...element.children];
    for (const child of children) walk(child);
  };
  walk(node);
  return found;
}

/**
 * Light or dark chrome, as the calendar inside shows. One box: the calendar's own frame is the
 * popup's card (with the shadow), the dialog around it only places it and holds the close button
 * over the backdrop; on a phone the dialog is the screen, and the frame fills it without a border.
 */
const chrome = css`
  :host { display: contents; }
  dialog {
    color-scheme: inherit; box-sizing: border-box; border: none; padding: 0;
    width: min(46rem, calc(100vw - 2rem)); max-height: calc(100dvh - 2rem); overflow: auto;
    background: transparent; color: #ffffff;
  }
  dialog[data-scheme="dark"] { color-scheme: dark; }
  dialog::backdrop { background: rgb(15 23 42 / 0.7); }
  .bar { position: sticky; top: 0; z-index: 1; display: flex; justify-content: flex-end; padding: 0 0 0.5rem; }
  .close {
    font: inherit; font-size: 1.5rem; line-height: 1; cursor: pointer; min-width: 2.75rem; min-height: 2.75rem;
    border: 1px solid currentColor; border-radius: 999px; background: rgb(15 23 42 / 0.6); color: inherit;
  }
  .close:focus-visible { outline: 3px solid #ffffff; outline-offset: 2px; }
  ::slotted(booking-calendar) { border-radius: var(--bc-radius, 8px); box-shadow: 0 20px 50px rgb(15 23 42 / 0.45); }
  .edge { position: absolute; width: 1px; height: 1px; overflow: hidden; }
  @media (max-width: 40rem) {
    dialog { width: 100vw; max-width: 100vw; height: 100dvh; max-height: 100dvh; margin: 0; background: #ffffff; color: #0f172a; }
    dialog[data-scheme="dark"] { background: #0f172a; color: #f1f5f9; }
    .bar { padding: 0.5rem 0.5rem 0; background: inherit; }
    .close { background: transparent; }
    .close:focus-visible { outline-color: #2563eb; }
    dialog[data-scheme="dark"] .close:focus-visible { outline-color: #60a5fa; }
    ::slotted(booking-calendar) { box-shadow: none; }
  }
`;

/**
 * The popup: a native modal `<dialog>` (the rest of the page inert, focus kept inside, Esc closes)
 * with a close button, named after the event type once known, holding a `<booking-calendar>` that is
 * slotted in from the light DOM (Stripe's card fields must not live in a shadow root). Closing it
 * returns focus to what opened it. The calendar stays while the same options open it again, so a
 * visitor who closes it by mistake finds their step; other options replace it (which gives back any
 * seat it held).
 */
export class BookingPopup extends LitElement {
  static override styles = chrome;

  static override properties = { label: { state: true } };
  declare label: string;

  private options: PopupOptions | null = null;
  private opener: HTMLElement | null = null;
  private readonly media = matchMedia("(prefers-color-scheme: dark)");

  constructor() {
    super();
    this.label = DEFAULT_TEXTS.openBooking;
    this.addEventListener("booking-ready", (event) => {
      const detail = (event as CustomEvent<{ configuration: { title?: string } }>).detail;
      if (detail.configuration.title) this.label = detail.configuration.title;
      // The calendar now shows its theme; the chrome follows once its styles apply.
      requestAnimationFrame(() => this.syncScheme());
    });
  }

  private get dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector("dialog");
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.media.addEventListener("change", this.syncScheme);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.media.removeEventListener("change", this.syncScheme);
  }

  /** Opens the calendar for `options`; `opener` gets the focus back when the popup closes. */
  async open(options: PopupOptions, opener: HTMLElement | null): Promise<void> {
    this.opener = opener;
    if (!this.options || !sameOptions(this.options, options) || !this.querySelector("booking-calendar")) {
      this.querySelector("booking-calendar")?.remove();
      const calendar = document.createElement("booking-calendar");
      for (const [option, attribute] of Object.entries(ATTRIBUTES)) {
        const value = (options as unknown as Record<string, string | undefined>)[option];
        if (value) calendar.setAttribute(attribute, value);
      }
      this.label = options.label || DEFAULT_TEXTS.openBooking;
      this.append(calendar);
    }
    this.options = options;
    await this.updateComplete;
    this.syncScheme();
    if (!this.dialog!.open) {
      this.dialog!.showModal();
      // The close button, not the edge before it (which would pass the focus on to the last field).
      this.closeButton?.focus();
    }
  }

  close(): void {
    this.dialog?.close();
  }

  /** The chrome in the calendar's own light or dark (its resolved `color-scheme`). */
  private readonly syncScheme = () => {
    const calendar = this.querySelector("booking-calendar");
    const dialog = this.dialog;
    if (!calendar || !dialog) return;
    dialog.dataset.scheme = getComputedStyle(calendar).colorScheme.split(/\s+/).includes("dark") ? "dark" : "light";
  };

  private get closeButton(): HTMLElement | null {
    return this.renderRoot.querySelector(".close");
  }

  /**
   * Keeps Tab inside: past the last field it comes round to the close button, and Shift+Tab from
   * the close button goes to the last field (the two edges take the focus only to pass it on).
   */
  private focusLast(): void {
    // Some candidates cannot take focus after all (the fields of a closed <details>): the last that does.
    for (const element of [...this.querySelectorAll("booking-calendar")].flatMap(focusables).reverse()) {
      element.focus();
      if (element.matches(":focus")) return;
    }
    this.closeButton?.focus();
  }

  private onClose(): void {
    const opener = this.opener;
    this.opener = null;
    if (opener?.isConnected) opener.focus();
  }

  protected override render() {
    return html`<dialog aria-label=${this.label} part="dialog" @close=${() => this.onClose()}
      @click=${(event: MouseEvent) => {
        if (event.target === this.dialog) this.close();
      }}>
      <span class="edge" tabindex="0" @focus=${() => this.focusLast()}></span>
      <div class="bar"><button type="button" class="close" part="close" autofocus aria-label=${DEFAULT_TEXTS.closeBooking}
        @click=${() => this.close()}>×</button></div>
      <slot></slot>
      <span class="edge" tabindex="0" @focus=${() => this.closeButton?.focus()}></span>
    </dialog>`;
  }
}

/**
 * A button fixed to the page's lower right corner that opens the popup. Its colour is the page's
 * `--bc-primary` (blue by default); restyle it through `::part(button)`.
 */
export class FloatingButton extends LitElement {
  // Typed as the base class types it: an inferred type would spell out this TypeScript's DOM lib
  // (ShadowRootInit's members) in the published declarations, which older DOM libs then reject.
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  static override styles = css`
    :host { position: fixed; right: 1rem; bottom: 1rem; z-index: 2147483000; }
    button {
      font: 600 1rem/1.2 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; cursor: pointer;
      min-height: 3rem; padding: 0.75rem 1.25rem; border: 2px solid transparent; border-radius: 999px;
      background: var(--bc-primary, #2563eb); color: var(--bc-on-primary, #ffffff);
      box-shadow: 0 6px 20px rgb(15 23 42 / 0.3);
    }
    button:hover { filter: brightness(1.08); }
    button:focus-visible { outline: 3px solid var(--bc-primary, #2563eb); outline-offset: 3px; border-color: #ffffff; }
  `;

  static override properties = { text: { type: String } };
  declare text: string;

  options: PopupOptions | null = null;

  constructor() {
    super();
    this.text = DEFAULT_TEXTS.openBooking;
  }

  protected override render() {
    return html`<button type="button" part="button" aria-haspopup="dialog"
      @click=${() => {
        if (this.options) void openPopup(this.options, this);
      }}>${this.text}</button>`;
  }
}

function define(): void {
  if (!customElements.get(POPUP_TAG)) customElements.define(POPUP_TAG, BookingPopup);
  if (!customElements.get(FLOATING_TAG)) customElements.define(FLOATING_TAG, FloatingButton);
}

/** The page's one popup, made on first use. */
function popup(): BookingPopup {
  define();
  let element = document.querySelector<BookingPopup>(POPUP_TAG);
  if (!element) {
    element = document.createElement(POPUP_TAG) as BookingPopup;
    document.body.append(element);
  }
  return element;
}

/** Opens the calendar in the popup; focus returns to `opener` (by default what has it now) on close. */
export function openPopup(
  options: PopupOptions,
  opener: HTMLElement | null = document.activeElement instanceof HTMLElement ? document.activeElement : null,
): Promise<void> {
  try {
    checkOptions(options, "open");
  } catch (error) {
    return Promise.reject(error);
  }
  return popup().open(options, opener);
}

/** Closes the popup, if open. */
export function closePopup(): void {
  document.querySelector<BookingPopup>(POPUP_TAG)?.close();
}

/** Adds a floating button that opens the popup with `options`; answers it (remove it to take it away). */
export function floatingButton(options: FloatingButtonOptions): HTMLElement {
  checkOptions(options, "floatingButton");
  const button = document.createElement(FLOATING_TAG);
  equipFloatingButton(button, options);
  (document.body ?? document.documentElement).append(button);
  return button;
}

/** Makes `button` (a `bc-floating-button`, perhaps made before this code was loaded) open the popup with `options`. */
export function equipFloatingButton(button: HTMLElement, options: FloatingButtonOptions): void {
  define();
  customElements.upgrade(button);
  const { text, ...popupOptions } = options;
  (button as FloatingButton).options = popupOptions;
  if (text) (button as FloatingButton).text = text;
}

/**
 * Makes every element with `data-booking-calendar="<token>"` on the page, now or added later, open
 * the popup when clicked (a link's own navigation is then skipped: without the script it still
 * leads to the booking page).
 */
export function listenForTriggers(root: Document = document): void {
  onTriggerClick(root, openPopup);
}
