/**
 * Size of `<booking-calendar>` as a page downloads it: builds the script-tag file and reports its
 * raw, gzip (level 9) and brotli sizes against the 30 KB gzip budget. Stripe.js is not in the file
 * (it is fetched from js.stripe.com only at a payment step); the small loader that fetches it is.
 * The file speaks English; each other language is a JSON file beside it, fetched only when chosen,
 * and reported here one by one, as are the parts of its code it fetches from `parts/` beside it only
 * when a page needs them (the popup with its floating button, the payment step with Stripe's loader).
 * Run: `npm run bench:bundle`. Exits non-zero when the budget is exceeded.
 */
import { readdirSync, readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { execFileSync } from "node:child_process";

const BUDGET_GZIP_BYTES = 30 * 1024;
const repo = new URL("..", import.meta.url).pathname;

execFileSync("npm", ["run", "build", "-w", "@booking/calendar"], { cwd: repo, stdio: "ignore" });

const files = {
  "script tag (dist/embed/booking-calendar.js)": "packages/booking-calendar/dist/embed/booking-calendar.js",
  "npm module, Lit not included (dist/npm/index.js)": "packages/booking-calendar/dist/npm/index.js",
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
let over = false;
for (const [name, path] of Object.entries(files)) {
  const bytes = readFileSync(`${repo}${path}`);
  const gzip = gzipSync(bytes, { level: 9 }).byteLength;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
  console.log(`${name}: ${kb(bytes.byteLength)} raw, ${kb(gzip)} gzip (${gzip} bytes), ${kb(brotli)} brotli`);
  if (path.includes("embed")) {
    console.log(`  budget ${kb(BUDGET_GZIP_BYTES)} gzip: ${((gzip / BUDGET_GZIP_BYTES) * 100).toFixed(0)}% used`);
    over = gzip > BUDGET_GZIP_BYTES;
  }
}
const parts = "packages/booking-calendar/dist/embed/parts/";
for (const name of readdirSync(`${repo}${parts}`).sort()) {
  const bytes = readFileSync(`${repo}${parts}${name}`);
  const gzip = gzipSync(bytes, { level: 9 }).byteLength;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
  console.log(`code on demand (dist/embed/parts/${name}): ${kb(bytes.byteLength)} raw, ${kb(gzip)} gzip, ${kb(brotli)} brotli`);
}
const locales = "packages/booking-calendar/dist/embed/locales/";
for (const name of readdirSync(`${repo}${locales}`).sort()) {
  const bytes = readFileSync(`${repo}${locales}${name}`);
  const gzip = gzipSync(bytes, { level: 9 }).byteLength;
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
  console.log(`texts on demand (dist/embed/locales/${name}): ${kb(bytes.byteLength)} raw, ${kb(gzip)} gzip, ${kb(brotli)} brotli`);
}
if (over) {
  console.error("The script-tag file is over its gzip budget.");
  process.exit(1);
}
