/**
 * Colour contrast as WCAG 2 measures it, for the organizer's brand colour on the calendar's dark
 * palette: kept as it is when it reads well there, else made lighter (hue and saturation kept)
 * until it does. The email helper or any other page may use the same measure.
 */

/** An sRGB colour, each channel 0–255. */
export type Rgb = [number, number, number];

/** The dark palette's surface (summaries, notices), the lightest background the accent sits on in dark mode. */
export const DARK_SURFACE: Rgb = [0x1e, 0x29, 0x3b];

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

const clamp = (value: number, max: number) => Math.min(max, Math.max(0, value));

/** Reads a hex, `rgb()`/`rgba()` or `hsl()`/`hsla()` colour; null for any other form (named, oklch, …). */
export function parseColor(value: string): Rgb | null {
  const text = value.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join("") : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
  }
  const fn = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(text);
  if (!fn) return null;
  const parts = fn[2]!
    .split(/[\s,/]+/)
    .filter(Boolean)
    .slice(0, 3);
  if (parts.length < 3) return null;
  const numbers = parts.map((p) => Number.parseFloat(p));
  if (numbers.some((n) => !Number.isFinite(n))) return null;
  if (fn[1]!.startsWith("rgb")) return parts.map((p, i) => clamp(p.endsWith("%") ? numbers[i]! * 2.55 : numbers[i]!, 255)) as Rgb;
  const [h, s, l] = [((numbers[0]! % 360) + 360) % 360, clamp(numbers[1]!, 100) / 100, clamp(numbers[2]!, 100) / 100];
  return hslToRgb(h, s, l);
}

/** Relative luminance (WCAG 2). */
export function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** Contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function rgbToHsl([r, g, b]: Rgb): [number, number, number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h * 60, s, l];
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/**
 * The brand colour `value` for a dark background `background`: itself when it already reaches `min`
 * contrast there, else the least lighter shade (same hue and saturation) that does, as `#rrggbb`.
 * Null when the colour cannot be read (the calendar then keeps its own dark accent).
 */
export function readableOnDark(value: string, background: Rgb = DARK_SURFACE, min = MIN_CONTRAST): string | null {
  const rgb = parseColor(value);
  if (!rgb) return null;
  if (contrastRatio(rgb, background) >= min) return value;
  const [h, s, l] = rgbToHsl(rgb);
  for (let lightness = l; lightness < 1; lightness += 0.01) {
    const shade = hslToRgb(h, s, lightness);
    if (contrastRatio(shade, background) >= min) return toHex(shade);
  }
  return "#ffffff";
}
