import { describe, expect, it } from "vitest";
import { contrastRatio, DARK_SURFACE, MIN_CONTRAST, parseColor, readableOnDark } from "../src/lib/contrast.ts";

describe("brand colour on the dark palette", () => {
  it("reads hex, rgb() and hsl() colours, and nothing else", () => {
    expect(parseColor("#2563eb")).toEqual([0x25, 0x63, 0xeb]);
    expect(parseColor("#abc")).toEqual([0xaa, 0xbb, 0xcc]);
    expect(parseColor("rgb(37 99 235)")).toEqual([37, 99, 235]);
    expect(parseColor("rgba(37, 99, 235, 0.5)")).toEqual([37, 99, 235]);
    expect(parseColor("hsl(0 100% 50%)")).toEqual([255, 0, 0]);
    expect(parseColor("rebeccapurple")).toBeNull();
    expect(parseColor("oklch(0.6 0.2 250)")).toBeNull();
  });

  it("measures contrast as WCAG does: black on white 21, a colour on itself 1", () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([37, 99, 235], [37, 99, 235])).toBe(1);
    // The dark palette's own accent on its surface, as the element ships it.
    expect(contrastRatio(parseColor("#60a5fa")!, DARK_SURFACE)).toBeGreaterThan(MIN_CONTRAST);
  });

  it("keeps a brand colour that already reads well on the dark surface", () => {
    expect(readableOnDark("#f59e0b")).toBe("#f59e0b");
    expect(readableOnDark("rgb(134 239 172)")).toBe("rgb(134 239 172)");
  });

  it("lightens a dark brand colour just enough to reach 4.5:1, keeping its hue", () => {
    for (const brand of ["#1e3a8a", "#7c3aed", "#b91c1c", "#065f46", "#000000", "hsl(330 80% 30%)"]) {
      const dark = readableOnDark(brand)!;
      expect(dark, brand).toMatch(/^#[0-9a-f]{6}$/);
      const ratio = contrastRatio(parseColor(dark)!, DARK_SURFACE);
      expect(ratio, `${brand} → ${dark}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
      // Just enough: a step darker would not reach it.
      expect(ratio, `${brand} → ${dark}`).toBeLessThan(5.2);
    }
    // The hue stays: a dark red stays red (its red channel leads).
    const [r, g, b] = parseColor(readableOnDark("#7f1d1d")!)!;
    expect(r).toBeGreaterThan(g);
    expect(r).toBeGreaterThan(b);
  });

  it("leaves colours it cannot read to the calendar's own dark accent", () => {
    expect(readableOnDark("navy")).toBeNull();
  });
});
