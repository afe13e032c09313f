import { html, nothing } from "lit";
import { api } from "../api.ts";
import { ConsolePage, failureText } from "../base.ts";
import { eventTypes, type EventTypeView } from "../model.ts";

/** The event types: open one to edit, disable or enable, issue new tokens; or create one. */
export class EventTypesPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, types: { state: true }, issued: { state: true } };
  declare types: EventTypeView[] | null;
  declare issued: { id: number; token?: string; linkToken?: string } | null;

  constructor() {
    super();
    this.types = null;
    this.issued = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.types = await eventTypes(api);
    } catch (error) {
      this.types = [];
      this.announce(failureText(error), "bad");
    }
  }

  private async act(et: EventTypeView, action: "disable" | "enable" | "token"): Promise<void> {
    try {
      if (action === "token") {
        if (!confirm(`${this.t.rotateToken}: ${et.title}?`)) return;
        this.issued = await api("POST", `/admin/event-types/${et.id}/token`, { kind: "api" });
      } else {
        await api("POST", `/admin/event-types/${et.id}/${action}`);
        this.announce(`${et.title}: ${action === "disable" ? this.t.disable : this.t.enable} ✓`);
      }
      await this.load();
    } catch (error) {
      this.announce(failureText(error), "bad");
    }
  }

  override render() {
    const t = this.t;
    return html`<h2 tabindex="-1">${t.eventTypes}</h2>
      <p><a class="button" href="#/event-types/new">${t.newEventType}</a></p>
      ${this.issued
        ? html`<div class="notice" role="region" aria-label=${t.tokenShown}>${t.tokenShown}<pre class="code">${this.issued.token}</pre>
            ${this.issued.linkToken ? html`<span class="muted">link token: ${this.issued.linkToken}</span>` : nothing}</div>`
        : nothing}
      ${this.types === null
        ? html`<p>${t.loading}</p>`
        : this.types.length === 0
          ? html`<p>${t.empty}</p>`
          : html`<div class="table-wrap"><table>
              <caption class="sr-only">${t.eventTypes}</caption>
              <thead><tr><th scope="col">${t.eventTypes}</th><th scope="col">Slug</th><th scope="col">${t.status}</th><th scope="col"><span class="sr-only">${t.edit}</span></th></tr></thead>
              <tbody>${this.types.map(
                (et) => html`<tr>
                  <td><a href="#/event-types/${et.id}">${et.title}</a></td>
                  <td>${et.slug ?? "—"}</td>
                  <td>${et.disabled ? t.disabled : "✓"}</td>
                  <td class="row">
                    <button type="button" @click=${() => this.act(et, et.disabled ? "enable" : "disable")} aria-label="${et.disabled ? t.enable : t.disable}: ${et.title}">${et.disabled ? t.enable : t.disable}</button>
                    <button type="button" @click=${() => this.act(et, "token")} aria-label="${t.rotateToken}: ${et.title}">${t.rotateToken}</button>
                  </td>
                </tr>`,
              )}</tbody></table></div>`}`;
  }
}
