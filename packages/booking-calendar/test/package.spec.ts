import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";

/*
 * The package as a site owner installs it: `npm pack` of the built package, installed from the
 * tarball into a fresh React app and a fresh Vue app, each type-checked with `skipLibCheck: false`,
 * so every type file the package ships must resolve without anything unpublished of this repository.
 * No page is opened; npm fetches React, Vue and TypeScript from the registry (hence the long timeout).
 */
const run = promisify(execFile);
const pkgDir = resolve(import.meta.dirname, "..");
const repo = resolve(pkgDir, "../..");

// The versions the repository's own example apps use, so the check matches what the repo builds with.
const e2e = JSON.parse(readFileSync(join(repo, "e2e/package.json"), "utf8")).devDependencies as Record<string, string>;
const root = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).devDependencies as Record<string, string>;

const tsconfig = {
  compilerOptions: {
    target: "ES2022", module: "ESNext", moduleResolution: "bundler", lib: ["ES2023", "DOM", "DOM.Iterable"],
    jsx: "react-jsx", strict: true, skipLibCheck: false, noEmit: true, types: [],
  },
  include: ["src"],
};

const reactApp = `import "@booking/calendar";
import type {} from "@booking/calendar/react";
import type { BookingCalendar, BookingCalendarEventMap } from "@booking/calendar";

type Confirmed = BookingCalendarEventMap["booking-reservation-confirmed"]["detail"];

export function App(props: { onBooked: (booking: Confirmed) => void }) {
  return (
    <booking-calendar
      token="link-token"
      api-base="https://booking.example.com"
      theme="dark"
      email="visitor@example.com"
      onbooking-reservation-confirmed={(event) => props.onBooked(event.detail)}
    />
  );
}

export const element: BookingCalendar | null = document.querySelector("booking-calendar");
`;

const vueApp = `import { defineComponent, h } from "vue";
import "@booking/calendar";
import { setDefaultApiBase, type BookingCalendarEventMap } from "@booking/calendar";
import type { BookingCalendarProps } from "@booking/calendar/vue";

setDefaultApiBase("https://booking.example.com");

export default defineComponent({
  setup() {
    const props: BookingCalendarProps = {
      token: "link-token",
      locale: "cs",
      "onBooking-reservation-confirmed": (event: BookingCalendarEventMap["booking-reservation-confirmed"]) => console.log(event.detail.uuid),
    };
    return () => h("booking-calendar", props);
  },
});
`;

async function typeCheck(dir: string, tarball: string, deps: string[], file: string, source: string): Promise<void> {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "site", private: true, type: "module" }));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  writeFileSync(join(dir, "src", file), source);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, ...deps], { cwd: dir });
  try {
    await run(join(dir, "node_modules/.bin/tsc"), ["-p", "."], { cwd: dir });
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    throw new Error(`tsc in the ${file} app failed:\n${stdout}${stderr}`);
  }
}

test.describe("the npm package", () => {
  test.setTimeout(600_000);

  test("is publishable and its packed tarball type-checks in a fresh React and Vue app with skipLibCheck false", async () => {
    const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();

    const work = mkdtempSync(join(tmpdir(), "booking-calendar-pack-"));
    try {
      // The package is built by the test script before Playwright runs.
      const { stdout } = await run("npm", ["pack", "--pack-destination", work, "--json"], { cwd: pkgDir });
      const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
      const paths = packed!.files.map((f) => f.path);
      for (const file of ["README.md", "package.json", "dist/npm/index.js", "dist/npm/index.d.ts", "dist/embed/booking-calendar.js", "types/react.d.ts", "types/vue.d.ts"]) expect(paths).toContain(file);
      const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);

      const typescript = `typescript@${root.typescript}`;
      // Both apps finish before the directory goes, and both apps' errors are reported.
      const results = await Promise.allSettled([
        typeCheck(join(work, "react"), tarball, [`react@${e2e.react}`, `@types/react@${e2e["@types/react"]}`, typescript], "app.tsx", reactApp),
        typeCheck(join(work, "vue"), tarball, [`vue@${e2e.vue}`, typescript], "app.ts", vueApp),
      ]);
      const failures = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      expect(failures.join("\n")).toBe("");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
