import { escapeHtml } from "../../lib/html.ts";

/** What a message says, before it is laid out as HTML and as plain text. */
export interface MessageContent {
  /** `lang` of the HTML. */
  language: string;
  /** The line above the card: the host's name, else the event type's title. */
  brand: string;
  /** The brand colour (`#rgb` or `#rrggbb`) for the header bar and the main button. */
  accent: string;
  greeting: string;
  /** Paragraphs before the details. */
  lines: string[];
  /** The details table: label and value. */
  rows: [string, string][];
  /** Buttons under the details, the first the main one; the plain text part lists them as `label: url`. */
  buttons: { label: string; url: string }[];
  closing: string;
}

/** The default brand colour: a blue with white text at a contrast above 4.5:1. */
export const DEFAULT_ACCENT = "#1d4ed8";

/** A hex colour the email may use (`#rgb`, `#rrggbb`), or null: anything else (names, functions, variables) is left out. */
export function emailColor(value: string | null | undefined): string | null {
  const v = value?.trim() ?? "";
  if (/^#[0-9a-f]{6}$/i.test(v)) return v.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  return null;
}

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** White or near-black text on `accent`, whichever has the higher contrast. */
export function textOn(accent: string): string {
  const l = luminance(accent);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? "#ffffff" : "#111827";
}

// Colours: a light card on a light grey page; clients that darken messages (with the color-scheme
// meta) turn both together, and the button keeps its colour with a border of the same one.
const PAGE = "#f3f4f6";
const CARD = "#ffffff";
const TEXT = "#1f2937";
const MUTED = "#4b5563";
const RULE = "#e5e7eb";
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/**
 * The dark palette, for clients that apply `prefers-color-scheme` (Apple Mail, Outlook on the Mac,
 * Thunderbird, many phones): a dark card on a darker page, light text, muted text at 7:1 on the card.
 * The main button keeps the brand colour with its own text colour; the others turn dark with light text.
 */
const DARK = { page: "#0b1120", card: "#1f2937", text: "#f3f4f6", muted: "#d1d5db", rule: "#374151" };

/**
 * The one `<style>` of a message: dark colours by class, over the inline light ones (hence
 * `!important`). Clients that drop it keep the inline light message, which reads as it is.
 */
const DARK_STYLE =
  `<style>@media (prefers-color-scheme: dark){` +
  `.bc-page{background-color:${DARK.page}!important}` +
  `.bc-card{background-color:${DARK.card}!important}` +
  `.bc-text{color:${DARK.text}!important}` +
  `.bc-muted{color:${DARK.muted}!important}` +
  `.bc-rule{border-top-color:${DARK.rule}!important}` +
  `.bc-button{background-color:${DARK.card}!important;color:${DARK.text}!important}` +
  `}</style>`;

/**
 * A message as HTML an email client renders the same as a browser: tables for layout, every style
 * inline, no images, fonts or other assets from elsewhere, at most 600 px wide, with the
 * color-scheme metas and one `<style>` of dark colours (`prefers-color-scheme`, by class) so clients
 * with a dark mode show it dark; links only behind buttons.
 */
export function messageHtml(c: MessageContent): string {
  const e = escapeHtml;
  const onAccent = textOn(c.accent);
  const paragraph = (text: string) =>
    `<p class="bc-text" style="margin:0 0 16px 0;font-family:${FONT};font-size:16px;line-height:24px;color:${TEXT}">${e(text)}</p>`;
  const rows = c.rows
    .map(
      ([label, value]) =>
        `<tr><td valign="top" class="bc-muted" style="padding:6px 16px 6px 0;font-family:${FONT};font-size:14px;line-height:20px;color:${MUTED};white-space:nowrap">${e(label)}</td>` +
        `<td valign="top" class="bc-text" style="padding:6px 0;font-family:${FONT};font-size:15px;line-height:20px;color:${TEXT}">${e(value)}</td></tr>`,
    )
    .join("");
  const buttons = c.buttons
    .map((b, i) => {
      const main = i === 0;
      const style = main
        ? `background-color:${c.accent};border:2px solid ${c.accent};color:${onAccent}`
        : `background-color:${CARD};border:2px solid ${c.accent};color:${TEXT}`;
      return (
        `<td style="padding:0 8px 8px 0"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>` +
        `<td${main ? "" : ' class="bc-button"'} style="border-radius:6px;${style}"><a href="${e(b.url)}"${main ? "" : ' class="bc-button"'} style="display:inline-block;padding:10px 18px;font-family:${FONT};font-size:15px;font-weight:bold;line-height:20px;text-decoration:none;border-radius:6px;${main ? `color:${onAccent}` : `color:${TEXT}`}">${e(b.label)}</a></td>` +
        `</tr></table></td>`
      );
    })
    .join("");
  return (
    `<!DOCTYPE html><html lang="${e(c.language)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">` +
    `<title>${e(c.brand)}</title>${DARK_STYLE}</head>` +
    `<body class="bc-page" style="margin:0;padding:0;background-color:${PAGE}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="bc-page" style="background-color:${PAGE}"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" class="bc-card" style="width:100%;max-width:600px;background-color:${CARD};border-radius:8px">` +
    `<tr><td style="background-color:${c.accent};height:6px;line-height:6px;font-size:6px;border-radius:8px 8px 0 0">&nbsp;</td></tr>` +
    `<tr><td class="bc-muted" style="padding:24px 28px 8px 28px;font-family:${FONT};font-size:14px;line-height:20px;font-weight:bold;color:${MUTED}">${e(c.brand)}</td></tr>` +
    `<tr><td style="padding:8px 28px 0 28px">${paragraph(c.greeting)}${c.lines.map(paragraph).join("")}</td></tr>` +
    `<tr><td style="padding:0 28px 16px 28px"><table role="presentation" cellpadding="0" cellspacing="0" border="0" class="bc-rule" style="border-top:1px solid ${RULE};width:100%">${rows}</table></td></tr>` +
    (buttons
      ? `<tr><td style="padding:0 28px 8px 28px"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${buttons}</tr></table></td></tr>`
      : "") +
    `<tr><td class="bc-muted" style="padding:8px 28px 24px 28px;font-family:${FONT};font-size:14px;line-height:20px;color:${MUTED}">${e(c.closing)}</td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}

/** The same message as plain text: every link written out, each under its button's label. */
export function messageText(c: MessageContent): string {
  const rows = c.rows.map(([label, value]) => `${label}: ${value}`);
  const buttons = c.buttons.map((b) => `${b.label}: ${b.url}`);
  return `${[c.greeting, ...c.lines, rows.join("\n"), ...(buttons.length ? [buttons.join("\n")] : []), c.closing].join("\n\n")}\n`;
}
