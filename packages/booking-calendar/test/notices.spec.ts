import { nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from "lit";
import { NoticeController } from "../src/controllers/notice-controller.ts";
import { textsWith } from "../src/i18n/texts.ts";
import { test, expect } from "./fixtures.ts";

// The message above the view without a page: a host that only counts updates, the template's values read as text.

function setUp() {
  const controllers: ReactiveController[] = [];
  const host = {
    addController: (c: ReactiveController) => void controllers.push(c),
    removeController: () => undefined,
    requestUpdate: () => undefined,
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost;
  const notices = new NoticeController(host);
  /** The words of the message shown, with its countdown; null when none is. */
  const shown = (): string | null => {
    const view = notices.render(textsWith());
    return view === nothing ? null : words(view as TemplateResult);
  };
  return {
    notices,
    shown,
    disconnect: () => {
      for (const c of controllers) c.hostDisconnected?.();
    },
  };
}

function words(view: unknown): string {
  if (typeof view === "string" || typeof view === "number") return String(view);
  if (view && typeof view === "object" && "values" in view) return (view as TemplateResult).values.map(words).filter(Boolean).join(" ");
  return "";
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe("the message above the view", () => {
  test("shows one message at a time, until it is taken away", () => {
    const { notices, shown } = setUp();
    expect(shown()).toBeNull();
    notices.say("Nothing is free soon.", false);
    expect(shown()).toContain("Nothing is free soon.");
    notices.say("That time was just taken.");
    expect(shown()).toContain("That time was just taken.");
    expect(shown()).not.toContain("Nothing is free soon.");
    notices.clear();
    expect(shown()).toBeNull();
  });

  test("once what failed has worked, only a message offering a retry goes", () => {
    const { notices, shown } = setUp();
    notices.say("Please fix the fields.");
    notices.recovered();
    expect(shown()).toContain("Please fix the fields.");
    notices.say("The booking service could not be reached.", true, () => undefined);
    notices.recovered();
    expect(shown()).toBeNull();
  });

  test("a retry that has to wait counts down, then runs by itself once, while its message is still shown", async () => {
    const { notices, shown } = setUp();
    let retried = 0;
    notices.say("Too many requests.", true, () => void retried++, 0.05);
    expect(shown()).toContain("Too many requests. Trying again in 1 s…");
    await wait(120);
    expect(retried).toBe(1);
    expect(shown()).toBeNull();
    notices.say("Too many requests.", true, () => void retried++, 0.05);
    notices.say("That time was just taken.");
    await wait(120);
    expect(retried).toBe(1);
    expect(shown()).toContain("That time was just taken.");
  });

  test("a waiting retry does not run after the element left the page", async () => {
    const { notices, disconnect } = setUp();
    let retried = 0;
    notices.say("Too many requests.", true, () => void retried++, 0.05);
    disconnect();
    await wait(120);
    expect(retried).toBe(0);
  });
});
