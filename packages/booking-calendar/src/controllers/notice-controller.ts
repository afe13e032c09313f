import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit";
import type { Texts } from "../i18n/texts.ts";

/** A message above the current view; `retry` offers to repeat what failed. */
interface Notice {
  text: string;
  danger: boolean;
  retry: (() => void) | undefined;
  /** Epoch ms before which the retry waits (429 `Retry-After`); it then runs by itself. */
  retryAt: number;
}

/**
 * The message above the current view: something to know, or what went wrong with a retry. A
 * retry that has to wait (429 `Retry-After`) counts down in the message and then runs by itself;
 * a retry runs only while its message is the one shown.
 */
export class NoticeController implements ReactiveController {
  #shown: Notice | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The time the countdown was last drawn at. */
  #now = Date.now();

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }

  /** Shows `text`, a warning unless `danger` is false; `retry` offers to repeat what failed, after `waitSeconds`. */
  say(text: string, danger = true, retry?: () => void, waitSeconds = 0): void {
    const notice: Notice = { text, danger, retry, retryAt: Date.now() + waitSeconds * 1000 };
    clearTimeout(this.#timer);
    if (retry && waitSeconds > 0) this.#timer = setTimeout(() => this.#retry(notice), waitSeconds * 1000);
    this.#show(notice);
    this.#tick(notice);
  }

  /** Takes the message away (the visitor moved on). */
  clear(): void {
    this.#show(null);
  }

  /** What failed has worked since: its message, if still shown, goes. */
  recovered(): void {
    if (this.#shown?.retry) this.clear();
  }

  /** The message shown, with its retry button and countdown; nothing when none is. */
  render(texts: Texts) {
    const notice = this.#shown;
    if (!notice) return nothing;
    const waitSeconds = Math.max(0, Math.ceil((notice.retryAt - this.#now) / 1000));
    return html`<div class="notice ${notice.danger ? "danger" : ""}" part="notice" role="alert">
      <p style="margin:0">${notice.text}${waitSeconds > 0 ? html` ${texts("retryIn", { seconds: waitSeconds })}` : nothing}</p>
      ${
        notice.retry
          ? html`<div class="actions"><button type="button" part="retry" ?disabled=${waitSeconds > 0}
        @click=${() => this.#retry(notice)}>${texts("retry")}</button></div>`
          : nothing
      }
    </div>`;
  }

  #show(notice: Notice | null): void {
    this.#shown = notice;
    this.host.requestUpdate();
  }

  /** Draws the countdown again each second while the retry of the notice shown waits. */
  #tick(notice: Notice): void {
    this.#now = Date.now();
    this.host.requestUpdate();
    if (this.#shown === notice && notice.retryAt > this.#now) setTimeout(() => this.#tick(notice), 1000);
  }

  #retry(notice: Notice): void {
    if (this.#shown !== notice) return;
    clearTimeout(this.#timer);
    this.clear();
    notice.retry?.();
  }
}
