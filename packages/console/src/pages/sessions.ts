import { html } from "lit";
import { api } from "../api.ts";
import { ConsolePage, when } from "../base.ts";
import type { SessionView } from "../model.ts";

/** The browsers signed in to the console; revoking one signs it out at once. */
export class SessionsPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, current: {}, items: { state: true } };
  declare current: string;
  declare items: SessionView[] | null;

  constructor() {
    super();
    this.current = "";
    this.items = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    await this.attempt(
      async () => {
        this.items = await api("GET /admin/sessions");
      },
      () => (this.items = []),
    );
  }

  private async revoke(s: SessionView): Promise<void> {
    await this.attempt(async () => {
      this.announce(await api("DELETE /admin/sessions/:sessionId", { params: { sessionId: s.id } }));
      await this.load();
    });
  }

  override render() {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    return html`<h2 tabindex="-1">${t.sessions}</h2>
      ${
        this.items === null
          ? html`<p>${t.loading}</p>`
          : html`<div class="table-wrap"><table>
        <caption class="sr-only">${t.sessions}</caption>
        <thead><tr><th scope="col">${t.who}</th><th scope="col">${t.lastSeen}</th><th scope="col">${t.until}</th><th scope="col"><span class="sr-only">${t.revoke}</span></th></tr></thead>
        <tbody>${this.items.map(
          (s) => html`<tr>
          <td>${t.roles[s.role] ?? s.role} · ${t.signInMethods[s.method] ?? s.method} · ${s.address}<br><span class="muted">${s.userAgent}</span>${s.id === this.current ? html` <strong>(${t.thisBrowser})</strong>` : ""}</td>
          <td>${when(s.lastSeenAt, lang)}</td>
          <td>${when(s.expiresAt, lang)}</td>
          <td><button type="button" class="danger" @click=${() => this.revoke(s)} aria-label="${t.revoke}: ${s.userAgent || s.id}">${t.revoke}</button></td>
        </tr>`,
        )}</tbody></table></div>`
      }`;
  }
}
