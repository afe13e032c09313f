import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * The light or dark a host page asks for on the element's place in it: its `color-scheme` there
 * (as CSS or `<meta name="color-scheme">` sets it) when it names only one; null when the page
 * supports both or says nothing, which leaves it to the visitor's system.
 */
export function pageScheme(host: HTMLElement): "light" | "dark" | null {
  const parent = host.parentElement ?? document.documentElement;
  let declared = getComputedStyle(parent).colorScheme;
  if (!declared || declared === "normal") declared = document.querySelector<HTMLMetaElement>('meta[name="color-scheme"]')?.content ?? "";
  const words = declared.toLowerCase().split(/\s+/);
  const light = words.includes("light");
  const dark = words.includes("dark");
  return light === dark ? null : dark ? "dark" : "light";
}

/**
 * Keeps `data-page-scheme` on the element as {@link pageScheme} answers, so `theme.mode: auto`
 * shows the page's own light or dark where the page fixes one (the styles read it; the system's
 * preference covers the rest). Follows the page when it switches, by a class, style or attribute
 * on `<html>` or `<body>` or its `<meta name="color-scheme">`.
 */
export class PageSchemeController implements ReactiveController {
  #observer: MutationObserver | null = null;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#read();
    this.#observer = new MutationObserver(() => this.#read());
    const watch = { attributes: true, attributeFilter: ["class", "style", "data-theme", "data-mode", "content"] };
    this.#observer.observe(document.documentElement, watch);
    if (document.body) this.#observer.observe(document.body, watch);
    const meta = document.querySelector('meta[name="color-scheme"]');
    if (meta) this.#observer.observe(meta, watch);
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#observer = null;
  }

  #read(): void {
    const scheme = pageScheme(this.host);
    if (scheme) this.host.dataset.pageScheme = scheme;
    else delete this.host.dataset.pageScheme;
  }
}
