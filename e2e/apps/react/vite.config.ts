import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The React example, served by the test site under /react/. */
export default defineConfig({
  root: import.meta.dirname,
  base: "/react/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true },
  logLevel: "warn",
});
