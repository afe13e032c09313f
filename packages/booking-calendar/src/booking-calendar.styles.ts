import { css, unsafeCSS } from "lit";

// The palettes are declarations, not a style sheet of their own: put into the rules below as they are
// (untagged, which also keeps the embed build's minifier, which parses each `css` template, off them).

/**
 * The dark palette, for `theme.mode` dark and for auto when the system is dark. The organizer's
 * brand colour stays, as the configuration's `primaryDark` (lightened by the server where it reads
 * too dark on this background); the light palette shows `primary` as it is.
 */
const darkPalette = unsafeCSS(`
  --bc-primary: var(--bc-brand-dark, #60a5fa);
  --bc-on-primary: #0b1220;
  --bc-background: #0f172a;
  --bc-surface: #1e293b;
  --bc-text: #f1f5f9;
  --bc-muted: #a7b4c8;
  --bc-border: #475569;
  --bc-danger: #fca5a5;
  --bc-success: #86efac;
  --bc-on-success: #052e16;
  --bc-on-danger: #1f0a0a;
  --bc-skeleton: #334155;
  color-scheme: dark;
`);

/** The light palette, the default. */
const lightPalette = unsafeCSS(`
  --bc-primary: var(--bc-brand, #2563eb);
  --bc-on-primary: #ffffff;
  --bc-background: #ffffff;
  --bc-surface: #f8fafc;
  --bc-text: #0f172a;
  --bc-muted: #52607a;
  --bc-border: #cbd5e1;
  --bc-danger: #b91c1c;
  --bc-success: #15803d;
  --bc-on-success: #ffffff;
  --bc-on-danger: #ffffff;
  --bc-skeleton: #e2e8f0;
  color-scheme: light;
`);

/**
 * Custom properties with their light defaults, dark palettes (fixed, or for `auto` following the
 * host page's `color-scheme` when it names only one (`data-page-scheme`, see controllers/page-scheme.ts), else
 * the system), and the look of buttons and fields every sub-view shares. Host pages restyle through
 * `--bc-*` and parts.
 */
export const themeStyles = css`
  :host {
    ${lightPalette}
    --bc-radius: 8px;
    --bc-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
    --bc-focus: 0 0 0 3px color-mix(in srgb, var(--bc-primary) 45%, transparent);
    display: block;
  }
  :host([data-mode="dark"]) { ${darkPalette} }
  @media (prefers-color-scheme: dark) {
    :host([data-mode="auto"]) { ${darkPalette} }
  }
  :host([data-mode="auto"][data-page-scheme="dark"]) { ${darkPalette} }
  :host([data-mode="auto"][data-page-scheme="light"]) { ${lightPalette} }
`;

/** Buttons, fields and messages, shared by the element and its sub-views. */
export const controlStyles = css`
  :host { font-family: var(--bc-font); color: var(--bc-text); }
  *, *::before, *::after { box-sizing: border-box; }
  button, input, select, textarea { font: inherit; color: inherit; }
  button {
    cursor: pointer; border: 1px solid var(--bc-border); background: var(--bc-background);
    border-radius: var(--bc-radius); padding: 0.5rem 0.9rem; min-height: 2.5rem;
  }
  button:hover:not(:disabled) { border-color: var(--bc-primary); }
  button:disabled, button[aria-disabled="true"] { cursor: not-allowed; opacity: 0.55; }
  button.primary { background: var(--bc-primary); border-color: var(--bc-primary); color: var(--bc-on-primary); font-weight: 600; }
  button.danger { background: var(--bc-danger); border-color: var(--bc-danger); color: var(--bc-on-danger); font-weight: 600; }
  a { color: var(--bc-primary); }
  button.link { border: none; background: none; color: var(--bc-primary); padding: 0.25rem; min-height: 0; text-decoration: underline; }
  :focus-visible { outline: 2px solid var(--bc-primary); outline-offset: 2px; box-shadow: var(--bc-focus); }
  input, select, textarea {
    width: 100%; border: 1px solid var(--bc-border); border-radius: var(--bc-radius);
    background: var(--bc-background); padding: 0.5rem 0.6rem; min-height: 2.5rem;
  }
  input[type="checkbox"], input[type="radio"] { width: auto; min-height: 0; accent-color: var(--bc-primary); }
  [aria-invalid="true"] { border-color: var(--bc-danger); }
  .error { color: var(--bc-danger); font-size: 0.875rem; margin: 0.25rem 0 0; }
  .muted { color: var(--bc-muted); }
  .visually-hidden {
    position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
    clip: rect(0 0 0 0); white-space: nowrap; border: 0;
  }
  h2, h3, h4 { margin: 0 0 0.75rem; line-height: 1.25; }
  h2 { font-size: 1.2rem; }
  h3 { font-size: 1.05rem; }
  h4 { font-size: 1rem; margin: 0 0 0.5rem; }
  .title { font-size: 1.3rem; margin: 0; }
`;

/** Layout of the element itself. */
export const calendarStyles = css`
  .frame {
    background: var(--bc-background); color: var(--bc-text); border: 1px solid var(--bc-border);
    border-radius: var(--bc-radius); padding: 1.25rem; max-width: 56rem; position: relative;
  }
  .header { display: flex; gap: 1rem; align-items: center; margin-bottom: 1rem; }
  .avatar {
    width: 3.5rem; height: 3.5rem; border-radius: 50%; object-fit: cover; flex: none;
    display: inline-grid; place-items: center; background: var(--bc-primary); color: var(--bc-on-primary); font-weight: 600;
  }
  .avatar.small { width: 1.75rem; height: 1.75rem; font-size: 0.75rem; }
  .with-host { display: flex; align-items: center; gap: 0.5rem; }
  .header .host-name { margin: 0 0 0.15rem; font-size: 0.9rem; }
  .details { display: grid; grid-template-columns: minmax(12rem, 17rem) minmax(0, 24rem); gap: 1.5rem; align-items: start; }
  .details .summary { margin: 0; }
  :host([compact]) .details, .compact .details { grid-template-columns: 1fr; }
  @media (max-width: 40rem) { .details { grid-template-columns: 1fr; } }
  .empty-month { margin-top: 0.75rem; }
  .empty-month p { margin: 0 0 0.5rem; }
  .done { text-align: center; }
  .done .summary { text-align: start; max-width: 26rem; margin: 0 auto 1rem; }
  .done .actions, .actions.center { justify-content: center; }
  .mark { display: block; margin: 0 auto 0.75rem; }
  .field-label { display: block; font-weight: 600; font-size: 0.9rem; margin-bottom: 0.3rem; }
  .skeleton { display: grid; gap: 0.6rem; padding: 0.5rem 0; }
  .bone { height: 1rem; border-radius: 4px; background: var(--bc-skeleton); animation: bc-pulse 1.4s ease-in-out infinite; }
  .bone-grid { display: grid; grid-template-columns: repeat(7, 1fr); gap: 0.4rem; max-width: 22rem; margin-top: 0.5rem; }
  .bone-grid .bone { height: 2.25rem; }
  @keyframes bc-pulse { 50% { opacity: 0.55; } }
  @media (prefers-reduced-motion: reduce) { .bone { animation: none; } }
  .header p { margin: 0.25rem 0 0; }
  .away { border-inline-start: 3px solid var(--bc-primary); background: var(--bc-surface); border-radius: var(--bc-radius); padding: 0.5rem 0.75rem; margin: -0.25rem 0 1rem; }
  .away p { margin: 0; }
  .away p + p { margin-top: 0.25rem; }
  .slim .header { zoom: 0.8; }
  .slim .desc { display: none; }
  .pick { display: grid; grid-template-columns: minmax(16rem, 1.3fr) minmax(12rem, 1fr); gap: 1.5rem; }
  :host([compact]) .pick, .compact .pick { grid-template-columns: 1fr; }
  @media (max-width: 40rem) { .pick { grid-template-columns: 1fr; } }
  .notice { border-left: 4px solid var(--bc-primary); background: var(--bc-surface); padding: 0.6rem 0.8rem; margin-bottom: 1rem; border-radius: 4px; }
  .notice.danger { border-left-color: var(--bc-danger); }
  .state { text-align: center; padding: 2rem 1rem; }
  .state p { margin: 0 0 1rem; }
  .summary { background: var(--bc-surface); border-radius: var(--bc-radius); padding: 0.75rem 1rem; margin-bottom: 1rem; }
  .summary p { margin: 0.2rem 0; }
  .actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 1rem; }
  .actions + h3 { margin-top: 1.5rem; }
`;
