import { html, nothing } from "lit";
import { api } from "../api.ts";
import { ConsolePage, when } from "../base.ts";
import { eventTypes, type DeliveryView, type EventTypeView } from "../model.ts";

/** Webhook, email, reminder and calendar deliveries of an event type with their attempts; retry one now. */
export class DeliveriesPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, types: { state: true }, chosen: { state: true }, items: { state: true } };
  declare types: EventTypeView[];
  declare chosen: number | null;
  declare items: DeliveryView[] | null;

  constructor() {
    super();
    this.types = [];
    this.chosen = null;
    this.items = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void eventTypes().then((types) => {
      this.types = types;
      if (types[0]) void this.choose(types[0].id);
    });
  }

  private async choose(id: number): Promise<void> {
    this.chosen = id;
    await this.attempt(
      async () => {
        this.items = await api("GET /admin/event-types/:id/deliveries", { params: { id }, query: { limit: 100 } });
      },
      () => (this.items = []),
    );
  }

  private async retry(d: DeliveryView): Promise<void> {
    await this.attempt(async () => {
      await api("POST /admin/event-types/:id/deliveries/:deliveryId/retry", { params: { id: this.chosen!, deliveryId: d.id } });
      this.announce(this.t.retried);
      await this.choose(this.chosen!);
    });
  }

  override render() {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    return html`<h2 tabindex="-1">${t.deliveries}</h2>
      <div class="field"><label for="dl-type">${t.eventType}</label>
        <select id="dl-type" @change=${(e: Event) => this.choose(Number((e.target as HTMLSelectElement).value))}>
          ${this.types.map((et) => html`<option value=${et.id} ?selected=${et.id === this.chosen}>${et.title}</option>`)}
        </select></div>
      ${
        this.items === null
          ? html`<p>${t.loading}</p>`
          : this.items.length === 0
            ? html`<p>${t.empty}</p>`
            : html`<div class="table-wrap"><table>
        <caption class="sr-only">${t.deliveries}</caption>
        <thead><tr><th scope="col">${t.when}</th><th scope="col">${t.channel}</th><th scope="col">${t.status}</th><th scope="col">${t.attempts}</th><th scope="col"><span class="sr-only">${t.retry}</span></th></tr></thead>
        <tbody>${this.items.map(
          (d) => html`<tr>
          <td>${when(d.createdAt, lang)}</td>
          <td>${t.channels[d.channel] ?? d.channel} · ${d.kind}<br><span class="muted">${d.url}</span></td>
          <td>${t.deliveryStatuses[d.status] ?? d.status}${d.lastError ? html`<br><span class="error">${d.lastError}</span>` : nothing}</td>
          <td><details><summary>${d.attempts}</summary><ul>${d.attemptLog.map((a) => html`<li>#${a.attempt} ${when(a.at, lang)} ${a.statusCode ?? ""} ${a.error ?? ""}</li>`)}</ul></details></td>
          <td>${d.status !== "delivered" ? html`<button type="button" @click=${() => this.retry(d)} aria-label="${t.retry}: ${t.channels[d.channel] ?? d.channel} ${d.kind}">${t.retry}</button>` : nothing}</td>
        </tr>`,
        )}</tbody></table></div>`
      }`;
  }
}
