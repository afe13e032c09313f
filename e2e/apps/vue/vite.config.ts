import vue from "@vitejs/plugin-vue";
import { defineConfig } from "vite";

/** The Vue example, served by the test site under /vue/; `<booking-calendar>` is a custom element, not a Vue component. */
export default defineConfig({
  root: import.meta.dirname,
  base: "/vue/",
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === "booking-calendar" } } })],
  build: { outDir: "dist", emptyOutDir: true },
  logLevel: "warn",
});
