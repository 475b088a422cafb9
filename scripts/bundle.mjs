// The server and CLI bundles (what `npm start` and the bin run), shared by scripts/build.mjs and the test run's
// globalSetup (specs/support/setup.ts), which rebuilds dist/server.mjs so the suites that start a process test
// the current source as `npm start` runs it. PGlite stays external: it loads its own wasm.
import { build } from "esbuild"

export const bundleServer = () =>
  build({
    entryPoints: { server: "main.ts", cli: "transports/cli/run.ts" },
    outdir: "dist",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    external: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg-native"],
    // Some bundled CommonJS packages call require(); give the ES module one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: "warning"
  })
