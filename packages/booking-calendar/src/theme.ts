import type { CSSResultOrNative } from "lit";

/** The colour modes the element knows; anything else reads as `light`. */
export type ThemeMode = "light" | "dark" | "auto";

/** The mode to show: the `theme` attribute first, then the configuration's `theme.mode`, else light. */
export function themeMode(attribute: string, configured: string | undefined): ThemeMode {
  const mode = attribute || configured || "light";
  return mode === "light" || mode === "dark" || mode === "auto" ? mode : "light";
}

/**
 * The brand colour goes to `--bc-brand`, which the light palette shows as its accent, and
 * `primaryDark` (the server's variant of it, readable on the dark background) to `--bc-brand-dark`,
 * which the dark one shows: whichever palette applies keeps the brand.
 */
const COLOR_PROPERTIES: Record<string, string> = {
  primary: "--bc-brand",
  primaryDark: "--bc-brand-dark",
  background: "--bc-background",
  text: "--bc-text",
  muted: "--bc-muted",
  border: "--bc-border",
  danger: "--bc-danger",
};

/**
 * The configuration's colours and radius as `:host` custom properties. Only values the browser
 * accepts as a colour or a length get through, so a configuration cannot inject other CSS.
 */
export function themeCss(colors: Record<string, string>, radius: string): string {
  const declarations: string[] = [];
  for (const [name, property] of Object.entries(COLOR_PROPERTIES)) {
    const value = colors[name];
    if (value && !/[;{}<>]/.test(value) && CSS.supports("color", value)) declarations.push(`${property}: ${value};`);
  }
  if (radius && !/[;{}<>]/.test(radius) && CSS.supports("border-radius", radius)) declarations.push(`--bc-radius: ${radius};`);
  return declarations.length ? `:host { ${declarations.join(" ")} }` : "";
}

/**
 * Gives a shadow root the element's own styles plus a sheet with the configuration's colours after
 * them, so the configuration overrides the defaults while page CSS on the host still wins.
 */
export function adoptTheme(root: ShadowRoot, styles: CSSResultOrNative[], colors: Record<string, string>, radius: string): void {
  const base = styles.map((s) => (s instanceof CSSStyleSheet ? s : s.styleSheet)).filter((s): s is CSSStyleSheet => !!s);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(themeCss(colors, radius));
  root.adoptedStyleSheets = [...base, sheet];
}
