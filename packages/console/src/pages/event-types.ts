import { html, nothing } from "lit";
import { api } from "../api.ts";
import { ConsolePage } from "../base.ts";
import type { IssuedTokens, RotatedFeedToken, RotatedWebhookSecret } from "@booking/wire";
import { eventTypes, type EventTypeView } from "../model.ts";

/** The event types: open one to edit, disable or enable, issue new tokens; or create one. */
export class EventTypesPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, types: { state: true }, issued: { state: true } };
  declare types: EventTypeView[] | null;
  /** The secrets a rotation just issued, shown this once. */
  declare issued: IssuedTokens | RotatedWebhookSecret | RotatedFeedToken | null;

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
    await this.attempt(
      async () => {
        this.types = await eventTypes();
      },
      () => (this.types = []),
    );
  }

  private async act(et: EventTypeView, action: "disable" | "enable" | "token" | "override" | "webhook" | "feed"): Promise<void> {
    const t = this.t;
    // Each new secret ends the old one at once: asked first.
    const params = { id: et.id };
    const rotations = {
      token: [t.rotateToken, () => api("POST /admin/event-types/:id/token", { params, body: { kind: "api" } })],
      override: [t.rotateOverride, () => api("POST /admin/event-types/:id/token", { params, body: { kind: "override" } })],
      webhook: [t.rotateWebhook, () => api("POST /admin/event-types/:id/webhook-secret", { params })],
      feed: [t.rotateFeed, () => api("POST /admin/event-types/:id/feed-token", { params })],
    } as const;
    await this.attempt(async () => {
      if (action !== "disable" && action !== "enable") {
        const [label, rotate] = rotations[action];
        if (!confirm(`${label}: ${et.title}?`)) return;
        this.issued = await rotate();
      } else {
        await api(action === "disable" ? "POST /admin/event-types/:id/disable" : "POST /admin/event-types/:id/enable", { params });
        this.announce(`${et.title}: ${action === "disable" ? this.t.disable : this.t.enable} ✓`);
      }
      await this.load();
    });
  }

  override render() {
    const t = this.t;
    return html`<h2 tabindex="-1">${t.eventTypes}</h2>
      <p><a class="button" href="#/event-types/new">${t.newEventType}</a></p>
      ${
        this.issued
          ? html`<div class="notice" role="region" aria-label=${t.tokenShown}>${t.tokenShown}
            <pre class="code">${Object.entries(this.issued)
              .filter(([key]) => key !== "id")
              .map(([key, value]) => `${key}: ${value}`)
              .join("\n")}</pre></div>`
          : nothing
      }
      ${
        this.types === null
          ? html`<p>${t.loading}</p>`
          : this.types.length === 0
            ? html`<p>${t.empty}</p>`
            : html`<div class="table-wrap"><table>
              <caption class="sr-only">${t.eventTypes}</caption>
              <thead><tr><th scope="col">${t.eventTypes}</th><th scope="col">${t.slug}</th><th scope="col">${t.status}</th><th scope="col"><span class="sr-only">${t.edit}</span></th></tr></thead>
              <tbody>${this.types.map(
                (et) => html`<tr>
                  <td><a href="#/event-types/${et.id}">${et.title}</a></td>
                  <td>${et.slug ?? "—"}</td>
                  <td>${et.disabled ? t.disabled : "✓"}</td>
                  <td class="row">
                    <button type="button" @click=${() => this.act(et, et.disabled ? "enable" : "disable")} aria-label="${et.disabled ? t.enable : t.disable}: ${et.title}">${et.disabled ? t.enable : t.disable}</button>
                    <details><summary aria-label="${t.tokens}: ${et.title}">${t.tokens}</summary>
                      <div class="row" style="margin-top: 4px">
                        ${(["token", "override", "webhook", "feed"] as const).map((kind) => {
                          const label = { token: t.rotateToken, override: t.rotateOverride, webhook: t.rotateWebhook, feed: t.rotateFeed }[kind];
                          return html`<button type="button" @click=${() => this.act(et, kind)} aria-label="${label}: ${et.title}">${label}</button>`;
                        })}
                      </div></details>
                  </td>
                </tr>`,
              )}</tbody></table></div>`
      }`;
  }
}
