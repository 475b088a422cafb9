import { defineConfig } from "vite"

/**
 * The console at /dashboard: an HTML page, one script and one stylesheet (hashed names) in dist/console, and the
 * Reports screen's own script and stylesheet (its charts), fetched when it is first opened. No inline script (the
 * page's CSP is script-src 'self'), no CDN, no module-preload polyfill.
 */
export default defineConfig({
  root: "console",
  base: "/dashboard/",
  logLevel: "warn",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: "../dist/console",
    emptyOutDir: true,
    target: "es2020",
    minify: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false }
  }
})
