import { LitElement, css, html, nothing } from "lit";
import { ContextConsumer } from "@lit/context";
import { environmentContext } from "../context.ts";

/**
 * How long the held seat stays the visitor's, ticking each second. A timer role, not a live
 * region: screen readers read it on demand instead of every second.
 */
export class HoldTimer extends LitElement {
  static override styles = css`
    :host { display: block; }
    p { margin: 0 0 0.75rem; font-size: 0.9rem; }
    strong { font-variant-numeric: tabular-nums; }
  `;

  static override properties = { heldUntil: { type: Number }, now: { state: true } };

  /** Epoch milliseconds when the hold ends. */
  declare heldUntil: number;
  declare now: number;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });
  #ticker: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.heldUntil = 0;
    this.now = Date.now();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#ticker = setInterval(() => {
      this.now = Date.now();
    }, 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#ticker);
  }

  protected override render() {
    const env = this.#env.value;
    if (!env) return nothing;
    const seconds = Math.max(0, Math.round((this.heldUntil - this.now) / 1000));
    const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    const [before, after] = env.texts("holdRemaining", { time: "\u0000" }).split("\u0000");
    return html`<p part="hold-timer" role="timer">${before}<strong>${time}</strong>${after ?? ""}</p>`;
  }
}
