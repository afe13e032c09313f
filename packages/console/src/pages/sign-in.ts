import { html, nothing } from "lit";
import { api, ApiFailure } from "../api.ts";
import { ConsolePage, failureMessage, field, fieldError } from "../base.ts";

/** Sign-in with the admin key (or, in development without one, how to use the printed link). */
export class SignInPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, mode: {}, failure: { state: true }, busy: { state: true } };
  declare mode: string;
  declare failure: ApiFailure | null;
  declare busy: boolean;

  constructor() {
    super();
    this.mode = "key";
    this.failure = null;
    this.busy = false;
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const key = new FormData(event.target as HTMLFormElement).get("adminKey") as string;
    this.busy = true;
    try {
      const session = await api("POST /console/session", { body: { adminKey: key } });
      this.failure = null;
      this.dispatchEvent(new CustomEvent("console-signed-in", { detail: session, bubbles: true }));
    } catch (error) {
      this.failure = error instanceof ApiFailure ? error : new ApiFailure(0, "network", String(error));
      // A wrong key is the key field's error.
      if (this.failure.code === "unauthenticated" || this.failure.code === "rate_limited")
        this.failure = new ApiFailure(this.failure.status, this.failure.code, this.failure.message, { adminKey: [this.failure.message] });
      await this.updateComplete;
      (this.querySelector("#admin-key") as HTMLInputElement | null)?.focus();
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const t = this.t;
    if (this.mode === "link") return html`<h2 tabindex="-1">${t.signIn}</h2><p>${t.linkOnly}</p>`;
    // A wrong key (or too many tries) is said in the console's language.
    const error =
      this.failure?.code === "unauthenticated"
        ? t.wrongKey
        : this.failure?.code === "rate_limited"
          ? t.failures.rate_limited!
          : fieldError(this.failure, "adminKey", t);
    return html`<h2 tabindex="-1">${t.signIn}</h2>
      <form @submit=${this.submit} style="max-width: 420px">
        ${field(
          "admin-key",
          t.adminKey,
          (a) => html`<input id="admin-key" name="adminKey" type="password" autocomplete="current-password" required
          aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%">`,
          error,
          t.adminKeyHelp,
        )}
        ${this.failure && !error ? html`<p class="error">${failureMessage(this.failure, t)}</p>` : nothing}
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? t.signingIn : t.signIn}</button>
      </form>`;
  }
}
