import { existsSync } from "node:fs";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageHtml, type MessageContent } from "../src/modules/mail/template.ts";

// The message's HTML in real Chromium, light and dark (`prefers-color-scheme`, as Apple Mail,
// Outlook on the Mac and Thunderbird apply it): every text and button reads at WCAG AA (4.5:1)
// against what is really behind it, and the dark scheme really is dark.

const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ ...(CHROMIUM ? { executablePath: CHROMIUM } : {}), args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const content = (accent: string): MessageContent => ({
  language: "en",
  brand: "Jana Nováková",
  accent,
  greeting: "Hello Ada,",
  lines: ["Your booking is confirmed."],
  rows: [
    ["What", "Intro call"],
    ["When", "Tuesday, 24 November 2026, 09:00–09:30 (Central European Standard Time)"],
    ["Host", "Jana Nováková"],
  ],
  buttons: [
    { label: "Join the meeting", url: "https://meet.example/a" },
    { label: "Reschedule", url: "https://book.example/r" },
    { label: "Cancel", url: "https://book.example/c" },
  ],
  closing: "The attached invite adds it to your calendar.",
});

interface Measured {
  text: string;
  color: string;
  background: string;
  ratio: number;
}

/** Each element's own text with its colour, the first opaque background behind it, and their contrast. */
async function measure(html: string, colorScheme: "light" | "dark"): Promise<{ texts: Measured[]; card: number[]; page: number[] }> {
  const context = await browser.newContext({ colorScheme });
  const page = await context.newPage();
  await page.setContent(html);
  const result = await page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const backgroundOf = (el: Element | null): string => {
      for (let e = el; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        const parts = rgb(bg);
        if (parts.length === 3 || (parts.length === 4 && parts[3]! > 0)) return bg;
      }
      return "rgb(255, 255, 255)";
    };
    const texts = [...document.body.querySelectorAll("*")]
      .filter((el) => [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() && n.textContent!.trim() !== "\u00a0"))
      .map((el) => {
        const color = getComputedStyle(el).color;
        const background = backgroundOf(el);
        const [a, b] = [luminance(rgb(color)), luminance(rgb(background))];
        return { text: el.textContent!.trim().slice(0, 40), color, background, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
      });
    const card = rgb(getComputedStyle(document.querySelector('table[width="600"]')!).backgroundColor);
    return { texts, card, page: rgb(getComputedStyle(document.body).backgroundColor) };
  });
  await context.close();
  return result;
}

const isDark = ([r, g, b]: number[]) => r! + g! + b! < 3 * 64;

describe("the message's colours in a real browser", () => {
  for (const accent of ["#1d4ed8", "#0f766e", "#fde047"]) {
    it(`reads at 4.5:1 or more, light and dark, with the brand colour ${accent}`, async () => {
      const html = messageHtml(content(accent));
      const light = await measure(html, "light");
      const dark = await measure(html, "dark");
      for (const [scheme, m] of [
        ["light", light],
        ["dark", dark],
      ] as const) {
        // Greeting, opening, three rows of label and value, three buttons, the brand line and the closing.
        expect(m.texts.length, scheme).toBe(13);
        for (const t of m.texts) expect(t.ratio, `${scheme}: "${t.text}" ${t.color} on ${t.background}`).toBeGreaterThanOrEqual(4.5);
      }
      expect([isDark(light.card), isDark(light.page)]).toEqual([false, false]);
      // Dark really is dark: the card and the page behind it, and the buttons other than the main one.
      expect([isDark(dark.card), isDark(dark.page)]).toEqual([true, true]);
      for (const label of ["Reschedule", "Cancel"])
        expect(
          isDark(
            dark.texts
              .find((t) => t.text === label)!
              .background.match(/\d+/g)!
              .map(Number),
          ),
          label,
        ).toBe(true);
      // The main button keeps the brand colour.
      const join = dark.texts.find((t) => t.text === "Join the meeting")!;
      expect(join.background).toBe(light.texts.find((t) => t.text === "Join the meeting")!.background);
    });
  }
});
