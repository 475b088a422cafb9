import { defineConfig } from "vite"

/** The booking widget: one IIFE file, dist/widget.js, with Preact inside (no other request). */
export default defineConfig({
  logLevel: "warn",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "dist",
    emptyOutDir: false,
    target: "es2020",
    minify: true,
    sourcemap: false,
    lib: { entry: "widget/main.tsx", name: "BookingWidget", formats: ["iife"], fileName: () => "widget.js" }
  }
})
