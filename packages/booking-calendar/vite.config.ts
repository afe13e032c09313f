import { defineConfig } from "vite";

/**
 * Two builds of the element: `--mode npm`, an ES module for bundlers with Lit and Stripe's loader
 * left as dependencies; `--mode embed`, one self-contained minified file for a script tag, which the
 * server serves at /embed/booking-calendar.js (Stripe.js itself is fetched only at a payment step).
 */
export default defineConfig(({ mode }) =>
  mode === "embed"
    ? {
        build: {
          outDir: "dist/embed",
          emptyOutDir: true,
          minify: true,
          target: "es2022",
          lib: { entry: "src/embed.ts", formats: ["iife"], name: "BookingCalendarEmbed", fileName: () => "booking-calendar.js" },
          rollupOptions: { output: { inlineDynamicImports: true } },
        },
      }
    : {
        build: {
          outDir: "dist/npm",
          emptyOutDir: true,
          minify: false,
          target: "es2022",
          lib: { entry: "src/index.ts", formats: ["es"], fileName: () => "index.js" },
          rollupOptions: { external: [/^lit(\/|$)/, /^@lit\//, /^@stripe\/stripe-js/] },
        },
      },
);
