import { LitElement, html, nothing } from "lit";
import type { AvailabilityCheckDialog } from "./availability-check.ts";
import { pageTexts } from "./base.ts";

/** Settings of the draft that the calendar reads from its configuration, keyed as the configuration keys them. */
const PREVIEWED = [
  "title",
  "description",
  "locale",
  "theme",
  "profileImage",
  "calendarTitle",
  "hostName",
  "compact",
  "durationMinutes",
  "locations",
  "maxGuests",
] as const;

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
    const body = (await response.clone().json()) as { data?: { configuration?: Record<string, unknown>; customFields?: unknown } };
    const configuration = body.data?.configuration;
    if (!configuration) return response;
    for (const key of PREVIEWED) if (draft[key] !== undefined) configuration[key] = draft[key];
    // The booking form's fields as edited, in their order (init answers them beside the configuration).
    if (Array.isArray(draft.customFields) && body.data && "customFields" in body.data) body.data.customFields = previewFields(draft.customFields);
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  window.fetch = Object.assign(previewing, { preconnect: window.fetch.preconnect }) as typeof fetch;
}

/** Custom fields being edited as init answers them: ordered, each with its merge tag, a stand-in uuid until saved. */
function previewFields(fields: unknown[]): Record<string, unknown>[] {
  return (fields as Record<string, unknown>[])
    .filter((f) => typeof f.name === "string" && f.name !== "" && typeof f.label === "string")
    .map((f, i): Record<string, unknown> => ({ ...f, order: typeof f.order === "number" ? f.order : i }))
    .sort((a, b) => (a.order as number) - (b.order as number))
    .map((f, i) => ({
      uuid: typeof f.uuid === "string" ? f.uuid : `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      label: f.label,
      name: f.name,
      mergeTag: String(f.name).toUpperCase(),
      type: f.type ?? "text",
      order: f.order,
      required: f.required === true,
      ...(Array.isArray(f.options) ? { options: f.options } : {}),
      ...(typeof f.placeholder === "string" && f.placeholder ? { placeholder: f.placeholder } : {}),
      // The element applies the condition by the same rule as the server, so the preview shows it at work.
      ...(f.showIf && typeof f.showIf === "object" ? { showIf: f.showIf } : {}),
    }));
}

/** How the preview shows the calendar: in the page, in the popup a button opens, or behind a floating button. */
export type PreviewMode = "inline" | "popup" | "floating";

/** The script-tag build's global, once loaded: opens the popup and adds floating buttons. */
type EmbedApi = {
  open(o: { token: string; apiBase: string }): Promise<void> | void;
  floatingButton(o: { token: string; apiBase: string; text?: string }): HTMLElement;
};
const embedApi = (): EmbedApi | undefined => (window as unknown as { BookingCalendar?: EmbedApi }).BookingCalendar;

/**
 * `<console-calendar-preview>`: the real `<booking-calendar>` (the server's script-tag build, loaded
 * on first use) for one event type's link token, drawn afresh whenever the draft changes. With
 * `eventTypeId`, a greyed-out day picked in the calendar (its `booking-unavailable-selected`) opens
 * the availability check for that day: why the event type offers no times then.
 */
export class CalendarPreview extends LitElement {
  static override properties = {
    token: {},
    calendarSrc: { attribute: "calendar-src" },
    draft: { attribute: false },
    label: {},
    texts: { attribute: false },
    mode: { state: true },
    eventTypeId: { attribute: false },
  };
  declare token: string;
  /** The saved event type shown, whose availability check a greyed-out day opens; null: none. */
  declare eventTypeId: number | null;
  declare calendarSrc: string;
  declare draft: Record<string, unknown>;
  declare label: string;
  /** The mode choice's texts; without them the preview shows the calendar in the page only. */
  declare texts: { showAs: string; inline: string; popup: string; floating: string; openPopup: string; floatingHelp: string } | null;
  declare mode: PreviewMode;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private drawn = "";
  private floatingButton: HTMLElement | null = null;

  constructor() {
    super();
    this.token = "";
    this.calendarSrc = "/embed/booking-calendar.js";
    this.draft = {};
    this.label = "Preview";
    this.texts = null;
    this.mode = "inline";
    this.eventTypeId = null;
  }

  /** A greyed-out day of this preview's calendar (inline, or the popup it opened): the check for that day. */
  private readonly onUnavailable = (event: GlobalEventHandlersEventMap["booking-unavailable-selected"]): void => {
    const check = this.querySelector<AvailabilityCheckDialog>("console-availability-check");
    const calendar = event.composedPath().find((n): n is HTMLElement => n instanceof HTMLElement && n.localName === "booking-calendar");
    if (!check || calendar?.getAttribute("token") !== this.token) return;
    void check.open(event.detail.date, firstHour(this.draft, event.detail.date), event.detail.timezone);
  };

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    wrapFetch();
    // On the document: the popup and floating modes show the calendar outside the preview.
    document.addEventListener("booking-unavailable-selected", this.onUnavailable);
    if (!customElements.get("booking-calendar") && !document.querySelector("script[data-console-calendar]")) {
      const script = document.createElement("script");
      script.src = this.calendarSrc;
      script.defer = true;
      script.dataset.consoleCalendar = "";
      document.head.append(script);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("booking-unavailable-selected", this.onUnavailable);
    this.removeFloating();
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has("mode")) {
      // Drawn anew in the chosen mode at once.
      this.drawn = "";
      clearTimeout(this.timer);
      this.redraw(`${this.token} ${JSON.stringify(this.draft)}`);
      return;
    }
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
    drafts.set(this.token, this.draft);
    this.drawn = wanted;
    this.removeFloating();
    const holder = this.querySelector(".holder");
    if (!holder || !this.token) return;
    if (this.mode === "inline") {
      const calendar = document.createElement("booking-calendar");
      calendar.setAttribute("token", this.token);
      calendar.setAttribute("api-base", location.origin);
      holder.replaceChildren(calendar);
      return;
    }
    holder.replaceChildren();
    if (this.mode === "floating") void this.addFloating();
  }

  /** The floating button as a site shows it (fixed at the window's corner), once the script has run. */
  private async addFloating(): Promise<void> {
    await customElements.whenDefined("booking-calendar");
    const api = embedApi();
    if (!api || this.mode !== "floating" || !this.isConnected) return;
    this.removeFloating();
    const title = typeof this.draft.title === "string" && this.draft.title ? this.draft.title : undefined;
    this.floatingButton = api.floatingButton({ token: this.token, apiBase: location.origin, ...(title ? { text: title } : {}) });
  }

  private removeFloating(): void {
    this.floatingButton?.remove();
    this.floatingButton = null;
  }

  private async openPopup(): Promise<void> {
    await customElements.whenDefined("booking-calendar");
    await embedApi()?.open({ token: this.token, apiBase: location.origin });
  }

  override render() {
    const t = this.texts;
    const choice = t
      ? html`<fieldset class="row preview-modes"><legend>${t.showAs}</legend>
          ${(["inline", "popup", "floating"] as const).map(
            (mode) => html`<label class="check" for="preview-mode-${mode}"><input type="radio" id="preview-mode-${mode}" name="preview-mode" value=${mode}
            .checked=${this.mode === mode} @change=${() => (this.mode = mode)}> ${t[mode]}</label>`,
          )}
        </fieldset>`
      : nothing;
    const pane =
      this.mode === "inline"
        ? nothing
        : this.mode === "popup"
          ? html`<p><button type="button" @click=${() => this.openPopup()}>${t?.openPopup}</button></p>`
          : html`<p class="muted">${t?.floatingHelp}</p>`;
    const check =
      this.eventTypeId === null ? nothing : html`<console-availability-check .t=${pageTexts()} .eventTypeId=${this.eventTypeId}></console-availability-check>`;
    return html`${choice}<section class="preview-pane" aria-label=${this.label}>${pane}<div class="holder"></div></section>${check}`;
  }
}

const WEEKDAY_KEYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/** The first opening time of the draft's hours on the weekday of `date` (where a check of that day starts), else 09:00. */
function firstHour(draft: Record<string, unknown>, date: string): string {
  const weekly = (draft.availability as { weekly?: Record<string, { start: string }[] | undefined> } | undefined)?.weekly;
  const day = WEEKDAY_KEYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;
  return weekly?.[day]?.[0]?.start ?? "09:00";
}
