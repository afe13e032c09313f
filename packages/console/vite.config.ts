import minifyHtmlLiterals from "@lit-labs/rollup-plugin-minify-html-literals";
import { defineConfig } from "vite";

/**
 * The console's one script, `dist/console.js`, an ES module the server serves at
 * `/console/v/{version}/console.js`. Apart from the element's builds: nothing of it reaches the
 * element's script-tag file, and the console loads that file itself for its previews.
 */
export default defineConfig({
  plugins: [minifyHtmlLiterals({ options: { minifyOptions: { conservativeCollapse: true, removeEmptyAttributes: false } } })],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    minify: true,
    target: "es2022",
    lib: { entry: "src/console.ts", formats: ["es"], fileName: () => "console.js" },
  },
});
