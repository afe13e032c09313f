import minifyHtmlLiterals from "@lit-labs/rollup-plugin-minify-html-literals";
import { defineConfig } from "vite";

/**
 * Minifies the HTML and CSS of the `html` and `css` templates in the script-tag file and its parts.
 * Whitespace is collapsed to one space, never dropped (text beside an expression keeps its space),
 * and empty attributes stay (`alt=""` means something).
 */
const minifyTemplates = () => minifyHtmlLiterals({ options: { minifyOptions: { conservativeCollapse: true, removeEmptyAttributes: false } } });

/** Modules the script-tag file shares with its parts: the parts read them from `window.BookingCalendarShared`. */
const SHARED = /^(lit|lit\/.*|@lit\/.*)$|(^|\/)(context|booking-calendar\.styles|texts)\.ts$/;

/**
 * Builds of the element: `--mode npm`, an ES module for bundlers with Lit and Stripe's loader left as
 * dependencies (the payment step a chunk of its own); `--mode embed`, one minified file for a script
 * tag, which the server serves at /embed/booking-calendar.js; `--mode part-popup` and
 * `--mode part-payment`, the parts that file fetches from `parts/` beside itself when a page first
 * needs them, built without Lit (they use the script-tag file's). Stripe.js itself is fetched only at
 * a payment step.
 */
export default defineConfig(({ mode }) => {
  if (mode === "embed") {
    return {
      // The templates' and styles' own whitespace and comments go too: about 0.4 KB gzip of the file.
      plugins: [minifyTemplates()],
      build: {
        outDir: "dist/embed",
        emptyOutDir: true,
        minify: true,
        target: "es2022",
        // One file without options for it: Vite turns code splitting off for an IIFE build
        // (`codeSplitting: false`), so a dynamic import (Stripe's loader) is inlined.
        lib: { entry: "src/embed.ts", formats: ["iife"], name: "BookingCalendarEmbed", fileName: () => "booking-calendar.js" },
      },
    };
  }
  if (mode.startsWith("part-")) {
    const part = mode.slice("part-".length);
    return {
      plugins: [minifyTemplates()],
      build: {
        outDir: "dist/embed/parts",
        emptyOutDir: false,
        minify: true,
        target: "es2022",
        lib: { entry: `src/parts/${part}.ts`, formats: ["iife"], name: "BookingCalendarPart", fileName: () => `${part}.js` },
        rollupOptions: {
          external: (id: string) => SHARED.test(id),
          output: { globals: () => "BookingCalendarShared" },
        },
      },
    };
  }
  return {
    build: {
      outDir: "dist/npm",
      emptyOutDir: true,
      minify: false,
      target: "es2022",
      lib: { entry: "src/index.ts", formats: ["es"], fileName: () => "index.js" },
      rollupOptions: { external: [/^lit(\/|$)/, /^@lit\//, /^@stripe\/stripe-js/] },
    },
  };
});
