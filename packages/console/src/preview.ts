import { LitElement, html } from "lit";

/** Settings of the draft that the calendar reads from its configuration, keyed as the configuration keys them. */
const PREVIEWED = ["title", "description", "locale", "theme", "profileImage", "calendarTitle", "hostName", "compact", "durationMinutes", "locations", "maxGuests"] as const;

/** The draft each preview token shows, read by the one fetch wrapper. */
const drafts = new Map<string, Record<string, unknown>>();
let wrapped = false;

/**
 * Lets the calendar in a preview show settings not saved yet: its `init` and `configuration`
 * answers, for a token being previewed, get the draft's appearance and texts merged in. Only in the
 * console's page; slots and bookings still come from the server as saved.
 */
function wrapFetch(): void {
  if (wrapped) return;
  wrapped = true;
  const original = window.fetch.bind(window);
  const previewing = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const auth = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get("authorization") ?? "";
    const draft = drafts.get(auth.replace(/^Bearer /, ""));
    if (!draft || !/\/(event-types\/init|configuration)(\?|$)/.test(url) || !response.ok) return response;
    const body = (await response.clone().json()) as { data?: { configuration?: Record<string, unknown> } };
    const configuration = body.data?.configuration;
    if (!configuration) return response;
    for (const key of PREVIEWED) if (draft[key] !== undefined) configuration[key] = draft[key];
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  window.fetch = Object.assign(previewing, { preconnect: window.fetch.preconnect }) as typeof fetch;
}

/**
 * `<console-calendar-preview>`: the real `<booking-calendar>` (the server's script-tag build, loaded
 * on first use) for one event type's link token, drawn afresh whenever the draft changes.
 */
export class CalendarPreview extends LitElement {
  static override properties = { token: {}, calendarSrc: { attribute: "calendar-src" }, draft: { attribute: false }, label: {} };
  declare token: string;
  declare calendarSrc: string;
  declare draft: Record<string, unknown>;
  declare label: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private drawn = "";

  constructor() {
    super();
    this.token = "";
    this.calendarSrc = "/embed/booking-calendar.js";
    this.draft = {};
    this.label = "Preview";
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    wrapFetch();
    if (!customElements.get("booking-calendar") && !document.querySelector("script[data-console-calendar]")) {
      const script = document.createElement("script");
      script.src = this.calendarSrc;
      script.defer = true;
      script.dataset.consoleCalendar = "";
      document.head.append(script);
    }
  }

  override updated(changed: Map<string, unknown>): void {
    if (!changed.has("draft") && !changed.has("token")) return;
    drafts.set(this.token, this.draft);
    // The same settings again (a save answering what was typed) keep the calendar as the visitor left it.
    const wanted = `${this.token} ${JSON.stringify(this.draft)}`;
    if (wanted === this.drawn) return;
    clearTimeout(this.timer);
    // Typing a colour or a text redraws once the typing pauses; meanwhile the preview is marked busy.
    this.toggleAttribute("data-pending", true);
    this.timer = setTimeout(() => this.redraw(wanted), changed.has("token") ? 0 : 300);
  }

  private redraw(wanted: string): void {
    this.removeAttribute("data-pending");
    this.drawn = wanted;
    const holder = this.querySelector(".holder");
    if (!holder || !this.token) return;
    const calendar = document.createElement("booking-calendar");
    calendar.setAttribute("token", this.token);
    calendar.setAttribute("api-base", location.origin);
    holder.replaceChildren(calendar);
  }

  override render() {
    return html`<section class="preview-pane" aria-label=${this.label}><div class="holder"></div></section>`;
  }
}
