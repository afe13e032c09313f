import { html, nothing } from "lit";
import { ConsolePage } from "../base.ts";
import { eventTypes, type EventTypeView } from "../model.ts";

/**
 * The code that puts an event type on a site (script tag, popup button, floating button, React,
 * Vue) and its booking page link, each with a copy button; the calendar itself beside them, and
 * the popup opened as visitors would open it.
 */
export class EmbedPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, calendarSrc: { attribute: "calendar-src" }, types: { state: true }, chosen: { state: true } };
  declare calendarSrc: string;
  declare types: EventTypeView[];
  declare chosen: EventTypeView | null;

  constructor() {
    super();
    this.calendarSrc = "/embed/booking-calendar.js";
    this.types = [];
    this.chosen = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void eventTypes().then((types) => {
      this.types = types;
      this.chosen = types.find((et) => !et.disabled) ?? types[0] ?? null;
    });
  }

  private snippets(et: EventTypeView): [string, string][] {
    const origin = location.origin;
    const script = `${origin}/embed/booking-calendar.js`;
    const t = this.t;
    return [
      [t.scriptTag, `<script src="${script}" defer></script>\n<booking-calendar token="${et.linkToken}" api-base="${origin}"></booking-calendar>`],
      [t.popup, `<script src="${script}" defer></script>\n<button type="button" data-booking-calendar="${et.linkToken}">${et.title}</button>`],
      [t.floating, `<script src="${script}" defer data-booking-floating="${et.linkToken}" data-booking-text="${et.title}"></script>`],
      [
        t.react,
        `import "@booking/calendar";\nimport type {} from "@booking/calendar/react";\n\nexport function Booking() {\n  return <booking-calendar token="${et.linkToken}" api-base="${origin}" />;\n}`,
      ],
      [
        t.vue,
        `<script setup>\nimport "@booking/calendar";\n</script>\n\n<template>\n  <booking-calendar token="${et.linkToken}" api-base="${origin}" />\n</template>`,
      ],
    ];
  }

  private async copy(text: string, label: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.announce(`${label}: ${this.t.copied}`);
    } catch {
      // Without clipboard access the text is selected, for the keyboard's copy.
      const pre = [...this.querySelectorAll("pre")].find((p) => p.textContent === text);
      if (pre) getSelection()?.selectAllChildren(pre);
      this.announce(label, "bad");
    }
  }

  override render() {
    const t = this.t;
    const et = this.chosen;
    const page = et?.slug ? `${location.origin}/book/${et.slug}` : null;
    return html`<h2 tabindex="-1">${t.embed}</h2>
      <div class="field"><label for="em-type">${t.eventType}</label>
        <select id="em-type" @change=${(e: Event) => (this.chosen = this.types.find((x) => x.id === Number((e.target as HTMLSelectElement).value)) ?? null)}>
          ${this.types.map((x) => html`<option value=${x.id} ?selected=${x.id === et?.id}>${x.title}</option>`)}
        </select></div>
      ${
        et
          ? html`<div class="split"><div>
            ${this.snippets(et).map(
              ([label, code], i) => html`<section aria-labelledby="snip-${i}">
              <h3 id="snip-${i}">${label}</h3>
              <pre class="code" data-snippet=${i}>${code}</pre>
              <button type="button" @click=${() => this.copy(code, label)} aria-label="${t.copy}: ${label}">${t.copy}</button>
            </section>`,
            )}
            <section aria-labelledby="snip-page"><h3 id="snip-page">${t.bookingPage}</h3>
              ${
                page
                  ? html`<pre class="code">${page}</pre>
                  <button type="button" @click=${() => this.copy(page, t.bookingPage)} aria-label="${t.copy}: ${t.bookingPage}">${t.copy}</button>
                  <a class="button" href=${page} target="_blank" rel="noopener">${t.open}</a>`
                  : html`<p>${t.noSlug}</p>`
              }
            </section>
          </div><div>
            <h3>${t.preview}</h3>
            <p><button type="button" @click=${() => (window as unknown as { BookingCalendar?: { open(o: { token: string; apiBase: string }): void } }).BookingCalendar?.open({ token: et.linkToken, apiBase: location.origin })}>${t.popup}</button></p>
            <console-calendar-preview token=${et.linkToken} calendar-src=${this.calendarSrc} .draft=${{}} label=${t.preview}></console-calendar-preview>
          </div></div>`
          : nothing
      }`;
  }
}
