/**
 * Size of the organizer console's script (`packages/console/dist/console.js`, which only /console
 * loads) as a browser downloads it: raw, gzip (level 9) and brotli; and a check that none of its
 * code reached the element's script-tag file, whose budget it must not touch.
 * Run: `bun bench/console-bundle.ts` (`npm run bench:console`).
 */
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { execFileSync } from "node:child_process";

const repo = new URL("..", import.meta.url).pathname;
execFileSync("npm", ["run", "build", "-w", "@booking/calendar"], { cwd: repo, stdio: "ignore" });
execFileSync("npm", ["run", "build", "-w", "@booking/console"], { cwd: repo, stdio: "ignore" });

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = (path: string) => {
  const bytes = readFileSync(`${repo}${path}`);
  return {
    raw: bytes.byteLength,
    gzip: gzipSync(bytes, { level: 9 }).byteLength,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength,
    text: bytes.toString("utf8"),
  };
};
const consoleFile = sizes("packages/console/dist/console.js");
const element = sizes("packages/booking-calendar/dist/embed/booking-calendar.js");
console.log(
  `console (dist/console.js, /console only): ${kb(consoleFile.raw)} raw, ${kb(consoleFile.gzip)} gzip (${consoleFile.gzip} bytes), ${kb(consoleFile.brotli)} brotli`,
);
console.log(
  `element script tag, for comparison: ${kb(element.gzip)} gzip (${element.gzip} bytes); console / element gzip = ${(consoleFile.gzip / element.gzip).toFixed(2)}`,
);
// Names only the console defines: finding one in the element's file would mean its code leaked in.
const leaked = ["booking-console", "console-event-type-form", "/console/session"].filter((name) => element.text.includes(name));
if (leaked.length) {
  console.error(`The element's script-tag file carries console code: ${leaked.join(", ")}`);
  process.exit(1);
}
console.log("the element's script-tag file carries none of the console's code");
