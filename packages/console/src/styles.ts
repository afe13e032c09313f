/**
 * The console's one style sheet (its pages render into the document, not shadow roots, so one
 * sheet styles them all). Colours follow `color-scheme` through `light-dark()`, each pair at
 * least 4.5:1 against its background in both schemes.
 */
export const CONSOLE_CSS = `
:root { color-scheme: light dark; --bg: light-dark(#ffffff, #111418); --surface: light-dark(#f4f6f8, #1b2027); --text: light-dark(#14181d, #e8ebef);
  --muted: light-dark(#4b5563, #aab3bf); --border: light-dark(#c4cad3, #3a434f); --accent: light-dark(#1d4ed8, #8ab4ff); --on-accent: light-dark(#ffffff, #0b1220);
  --danger: light-dark(#b91c1c, #ff9b9b); --ok: light-dark(#166534, #86efac); --focus: 0 0 0 3px light-dark(#1d4ed8, #8ab4ff);
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 15px; line-height: 1.45; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--accent); }
:focus-visible { outline: none; box-shadow: var(--focus); border-radius: 4px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--on-accent); padding: 8px; z-index: 10; }
.skip:focus { left: 8px; }
header.bar { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 8px 16px; border-bottom: 1px solid var(--border); background: var(--surface); }
header.bar h1 { font-size: 1.1rem; margin: 0 8px 0 0; }
nav ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 0; }
nav a { display: inline-block; padding: 6px 10px; border-radius: 6px; text-decoration: none; color: var(--text); }
nav a[aria-current="page"] { background: var(--accent); color: var(--on-accent); }
.bar .tools { margin-left: auto; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
main { padding: 16px; max-width: 1200px; margin: 0 auto; }
h2 { font-size: 1.35rem; margin: 8px 0 12px; }
h3 { font-size: 1.1rem; margin: 16px 0 8px; }
button, .button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--border); background: var(--bg); color: var(--text); cursor: pointer; text-decoration: none; display: inline-block; }
button.primary { background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
button[aria-pressed="true"] { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); font-weight: 700; }
button.danger { color: var(--danger); border-color: var(--danger); }
button:disabled { opacity: 0.6; cursor: default; }
input, select, textarea { font: inherit; padding: 5px 8px; border-radius: 6px; border: 1px solid var(--border); background: var(--bg); color: var(--text); max-width: 100%; box-sizing: border-box; }
input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--danger); }
label { display: block; font-weight: 600; margin-bottom: 2px; }
.field { margin: 0 0 12px; }
.field .help { color: var(--muted); font-size: 0.9em; margin: 2px 0 0; }
.field .error, .error { color: var(--danger); font-size: 0.92em; margin: 2px 0 0; }
.check { display: flex; gap: 6px; align-items: center; font-weight: 400; }
.row { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-end; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 0 16px; }
fieldset { border: 1px solid var(--border); border-radius: 8px; margin: 0 0 16px; padding: 8px 12px; }
legend { font-weight: 700; padding: 0 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--border); vertical-align: top; }
th { font-weight: 700; }
/* Positioned, so a hidden label (.sr-only, absolute) in a scrolled cell stays inside the scroll box instead of widening the page. */
.table-wrap { overflow-x: auto; position: relative; }
.muted { color: var(--muted); }
.status { display: inline-block; padding: 1px 8px; border-radius: 999px; border: 1px solid var(--border); font-size: 0.9em; }
.notice { padding: 8px 12px; border-radius: 6px; background: var(--surface); border: 1px solid var(--border); margin: 8px 0; }
.notice.bad { border-color: var(--danger); color: var(--danger); }
.notice.good { border-color: var(--ok); color: var(--ok); }
.split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 24px; align-items: start; }
.preview-pane { position: sticky; top: 8px; border: 1px solid var(--border); border-radius: 8px; padding: 8px; min-height: 300px; }
pre.code { background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; font-size: 0.88em; }
dialog { border: 1px solid var(--border); border-radius: 10px; background: var(--bg); color: var(--text); max-width: min(720px, 94vw); width: 100%; }
dialog::backdrop { background: rgb(0 0 0 / 0.45); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; }
dl.facts dt { font-weight: 700; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.week { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 4px; }
.week section { border: 1px solid var(--border); border-radius: 6px; padding: 4px; min-height: 120px; }
.week h3 { font-size: 0.95rem; margin: 0 0 4px; }
.week ul { list-style: none; margin: 0; padding: 0; }
.week li button { width: 100%; text-align: left; margin-bottom: 4px; font-size: 0.88em; }
.month { display: grid; grid-template-columns: repeat(7, 2.6rem); gap: 4px; margin-bottom: 12px; text-align: center; }
.month button { padding: 6px 0; }
.month button[aria-pressed="true"] { background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
.slots { display: flex; flex-wrap: wrap; gap: 6px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 760px) {
  .split { grid-template-columns: 1fr; }
  .preview-pane { position: static; }
  .week { grid-template-columns: 1fr; }
  .week section { min-height: 0; }
  main { padding: 10px; }
}
`;
