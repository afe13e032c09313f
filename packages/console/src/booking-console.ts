import { LitElement, html, nothing } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { api, ApiFailure, whenSignedOut } from "./api.ts";
import type { SessionView } from "@booking/wire";
import { failureText, unsaved } from "./base.ts";
import { chooseLanguage, keepLanguage, LANGUAGES, nameInItself, textsOf, type Language } from "./i18n/index.ts";
import { CONSOLE_CSS } from "./styles.ts";

/** The console's sections, by the hash route that opens each. */
const SECTIONS = ["bookings", "event-types", "availability", "hosts", "calendars", "deliveries", "embed", "sessions"] as const;
type Section = (typeof SECTIONS)[number];
/** What a host's session can use: the admin API answers it only for the host's own bookings, schedules and calendars. */
const HOST_SECTIONS: readonly Section[] = ["bookings", "availability", "calendars", "hosts"];
const SCHEME_KEY = "booking-console-scheme";

/**
 * `<booking-console>`: the organizer console's shell. Asks who is signed in, shows the sign-in or
 * the sections (hash routes, so the server serves one page), keeps the language and colour scheme,
 * asks before leaving a page with unsaved changes, and announces results in one live region.
 *
 * @attr sign-in - `key` (the admin key) or `link` (development: one-time links only).
 * @attr calendar-src - The element's script, which previews load.
 */
export class BookingConsole extends LitElement {
  static override properties = {
    signIn: { attribute: "sign-in" },
    calendarSrc: { attribute: "calendar-src" },
    session: { state: true },
    route: { state: true },
    language: { state: true },
    scheme: { state: true },
    message: { state: true },
    expired: { state: true },
  };
  declare signIn: string;
  declare calendarSrc: string;
  declare session: SessionInfo | null | undefined;
  declare route: string[];
  declare language: Language;
  declare scheme: string;
  declare message: { text: string; tone: string } | null;
  /** The session ended while a page held unsaved changes: the sign-in is shown over the page, which keeps them. */
  declare expired: boolean;
  private lastHash = location.hash;
  /** Where the focus was when the session ended over a page, to go back to once signed in again. */
  private focusBefore: HTMLElement | null = null;

  constructor() {
    super();
    this.signIn = "key";
    this.calendarSrc = "/embed/booking-calendar.js";
    this.session = undefined;
    this.route = routeOf(location.hash);
    this.language = chooseLanguage();
    this.scheme = localStorage.getItem(SCHEME_KEY) ?? "auto";
    this.message = null;
    this.expired = false;
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!document.getElementById("console-css")) {
      const style = document.createElement("style");
      style.id = "console-css";
      style.textContent = CONSOLE_CSS;
      document.head.append(style);
    }
    this.applyScheme();
    document.documentElement.lang = this.language;
    whenSignedOut(() => this.sessionEnded());
    window.addEventListener("hashchange", this.onHash);
    window.addEventListener("beforeunload", this.onUnload);
    this.addEventListener("console-announce", ((event: CustomEvent<{ message: string; tone: string }>) => {
      this.message = { text: event.detail.message, tone: event.detail.tone };
    }) as EventListener);
    this.addEventListener("console-signed-in", ((event: CustomEvent<SessionInfo>) => {
      if (this.expired) {
        this.expired = false;
        const before = this.session;
        // Signed in again as the same one: the page and its unsaved changes stay, ready to be saved.
        if (before && before.role === event.detail.role && before.hostId === event.detail.hostId) {
          this.session = event.detail;
          this.message = null;
          void this.updateComplete.then(() => this.focusBefore?.focus());
          return;
        }
        unsaved.dirty = false;
      }
      this.session = event.detail;
      if (this.route[0] === "sign-in" || !this.route[0]) location.hash = "#/bookings";
      // The sign-in form is gone: the page's heading takes the focus, as after any move between pages.
      void this.updateComplete.then(() => (this.querySelector("main h2") as HTMLElement | null)?.focus());
    }) as EventListener);
    void this.start();
  }

  override disconnectedCallback(): void {
    window.removeEventListener("hashchange", this.onHash);
    window.removeEventListener("beforeunload", this.onUnload);
    super.disconnectedCallback();
  }

  private async start(): Promise<void> {
    // A one-time link carries its secret in the fragment: used once, then gone from the address bar.
    const link = /^#link=(bcsl_[A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
    if (link) {
      history.replaceState(null, "", `${location.pathname}#/bookings`);
      this.route = ["bookings"];
      try {
        this.session = await api("POST /console/session", { body: { link } });
        return;
      } catch (error) {
        // A refused link is said in the console's language; anything else (too many attempts) by its code.
        const texts = textsOf(this.language);
        this.message = { text: error instanceof ApiFailure && error.code === "unauthenticated" ? texts.linkInvalid : failureText(error, texts), tone: "bad" };
      }
    }
    try {
      this.session = await api("GET /console/session");
    } catch {
      this.session = null;
    }
  }

  private onHash = () => {
    if (unsaved.dirty && !confirm(textsOf(this.language).unsaved)) {
      history.replaceState(null, "", this.lastHash);
      return;
    }
    unsaved.dirty = false;
    this.lastHash = location.hash;
    this.route = routeOf(location.hash);
    this.message = null;
    // Focus moves to the new page's heading, so screen readers hear where they are.
    void this.updateComplete.then(() => (this.querySelector("main h2") as HTMLElement | null)?.focus());
  };

  /**
   * The server answered 401: with unsaved changes the sign-in is shown over the page so they are
   * kept; else the sign-in replaces the page.
   */
  private sessionEnded(): void {
    if (this.session && unsaved.dirty) {
      if (!this.expired) this.focusBefore = document.activeElement as HTMLElement | null;
      this.expired = true;
      return;
    }
    unsaved.dirty = false;
    this.expired = false;
    this.session = null;
  }

  override updated(): void {
    const dialog = this.querySelector<HTMLDialogElement>("#signed-out");
    if (dialog && !dialog.open) dialog.showModal();
  }

  private onUnload = (event: BeforeUnloadEvent) => {
    if (unsaved.dirty) event.preventDefault();
  };

  private applyScheme(): void {
    document.documentElement.style.colorScheme = this.scheme === "auto" ? "light dark" : this.scheme;
  }

  private async signOut(): Promise<void> {
    if (unsaved.dirty && !confirm(textsOf(this.language).unsaved)) return;
    await api("DELETE /console/session").catch(() => undefined);
    unsaved.dirty = false;
    this.expired = false;
    this.session = null;
  }

  /** Over a page whose session ended: sign in again and keep its changes, or drop them. */
  private signInAgain(t: ReturnType<typeof textsOf>) {
    return html`<dialog id="signed-out" aria-labelledby="signed-out-note" @cancel=${(e: Event) => e.preventDefault()}>
      <p id="signed-out-note" class="notice bad">${t.sessionEnded}</p>
      <console-sign-in .t=${t} mode=${this.signIn}></console-sign-in>
      <p style="margin-top: 12px"><button type="button" @click=${() => {
        unsaved.dirty = false;
        this.sessionEnded();
      }}>${t.discard}</button></p>
    </dialog>`;
  }

  override render() {
    const t = textsOf(this.language);
    document.title = t.title;
    const status = html`<div id="console-status" role="status" aria-live="polite" class=${this.message ? `notice ${this.message.tone}` : "sr-only"}>${this.message?.text ?? ""}</div>`;
    const tools = html`<div class="tools">
      <label class="check" for="console-language">${t.language}
        <select id="console-language" @change=${(e: Event) => {
          this.language = (e.target as HTMLSelectElement).value as Language;
          keepLanguage(this.language);
          document.documentElement.lang = this.language;
        }}>
          ${LANGUAGES.map((l) => html`<option value=${l} ?selected=${l === this.language}>${nameInItself(l)}</option>`)}
        </select></label>
      <label class="check" for="console-scheme">${t.theme}
        <select id="console-scheme" @change=${(e: Event) => {
          this.scheme = (e.target as HTMLSelectElement).value;
          localStorage.setItem(SCHEME_KEY, this.scheme);
          this.applyScheme();
        }}>
          ${[
            ["auto", t.themeAuto],
            ["light", t.themeLight],
            ["dark", t.themeDark],
          ].map(([v, label]) => html`<option value=${v!} ?selected=${v === this.scheme}>${label}</option>`)}
        </select></label>
      ${this.session ? html`<button type="button" @click=${() => this.signOut()}>${t.signOut}</button>` : nothing}
    </div>`;
    if (this.session === undefined) return html`<main><p>${t.loading}</p></main>`;
    if (this.session === null) {
      return html`<header class="bar"><h1>${t.title}</h1>${tools}</header>
        <main id="main">${status}<console-sign-in .t=${t} mode=${this.signIn}></console-sign-in></main>`;
    }
    const sections = this.session.role === "host" ? HOST_SECTIONS : SECTIONS;
    const section = (sections as readonly string[]).includes(this.route[0] ?? "") ? (this.route[0] as Section) : "bookings";
    const labels: Record<Section, string> = {
      bookings: t.bookings,
      "event-types": t.eventTypes,
      availability: t.availability,
      hosts: this.session.role === "host" ? t.myProfile : t.hosts,
      calendars: t.calendars,
      deliveries: t.deliveries,
      embed: t.embed,
      sessions: t.sessions,
    };
    return html`<a class="skip" href="#main" @click=${(e: Event) => {
      e.preventDefault();
      (this.querySelector("main h2") as HTMLElement | null)?.focus();
    }}>${t.skip}</a>
      <header class="bar">
        <h1>${t.title}</h1>
        <nav aria-label=${t.nav}><ul>
          ${sections.map((s) => html`<li><a href="#/${s}" aria-current=${s === section ? "page" : "false"}>${labels[s]}</a></li>`)}
        </ul></nav>
        ${tools}
      </header>
      <main id="main">${status}${keyed(this.route.join("/"), this.page(section, t))}</main>
      ${this.expired ? this.signInAgain(t) : nothing}`;
  }

  private page(section: Section, t: ReturnType<typeof textsOf>) {
    const rest = this.route.slice(1);
    const hostId = this.session?.role === "host" ? this.session.hostId : null;
    switch (section) {
      case "bookings":
        return html`<console-bookings .t=${t} .hostId=${hostId}></console-bookings>`;
      case "event-types":
        return rest[0]
          ? html`<console-event-type-form .t=${t} .eventTypeId=${rest[0] === "new" ? null : Number(rest[0])} calendar-src=${this.calendarSrc}></console-event-type-form>`
          : html`<console-event-types .t=${t}></console-event-types>`;
      case "availability":
        return html`<console-availability .t=${t} .hostId=${hostId}></console-availability>`;
      case "hosts":
        return html`<console-hosts .t=${t} .hostId=${hostId}></console-hosts>`;
      case "calendars":
        return html`<console-calendars .t=${t} .hostId=${hostId}></console-calendars>`;
      case "deliveries":
        return html`<console-deliveries .t=${t}></console-deliveries>`;
      case "embed":
        return html`<console-embed .t=${t} calendar-src=${this.calendarSrc}></console-embed>`;
      case "sessions":
        return html`<console-sessions .t=${t} .current=${this.session?.id ?? ""}></console-sessions>`;
    }
  }
}

/** Who is signed in, as `/console/session` answers: the organizer, or one host. */
type SessionInfo = Pick<SessionView, "id" | "role" | "hostId">;

function routeOf(hash: string): string[] {
  return hash.replace(/^#\/?/, "").split("/").filter(Boolean);
}
