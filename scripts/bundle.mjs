// The server and CLI bundles (what `npm start` and the bin run), built by scripts/buildAll.mjs (npm run build and
// the test run's globalSetup) and by the benches that compare builds. PGlite stays external: it loads its own wasm.
// Each is split: what only some deployments load (NATS, SMTP, Stripe, inbound SMTP; see app/layers.ts) goes to
// dist/chunks/ and is imported when configured, so a start compiles about 4 MB instead of 8.

import { cpSync, rmSync } from "node:fs"
import { build } from "esbuild"

const bundle = (name, entry) =>
  build({
    entryPoints: { [name]: entry },
    outdir: "dist",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    chunkNames: `chunks/${name}-[name]-[hash]`,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    // twilio stays external too: its SDK (and its HTTP stack) is 8 MB bundled, loaded only when texts go through Twilio.
    external: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "pg-native", "twilio"],
    // Some bundled CommonJS packages call require(); give each ES module (entry and chunk) one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
    },
    logLevel: "warning"
  })

/** One build per entry, so the server's chunks are its own (a copy of dist/server.mjs with dist/chunks/ runs alone). */
export const bundleServer = async () => {
  rmSync("dist/chunks", { recursive: true, force: true })
  await Promise.all([bundle("server", "app/main.ts"), bundle("cli", "app/cli/run.ts")])
  copyRules()
}

/** The database rules (adapters/db/rules.ts reads them at start) next to the bundles that run the migrations. */
export const copyRules = () => {
  rmSync("dist/rules", { recursive: true, force: true })
  cpSync("engine/store/rules", "dist/rules", { recursive: true })
}
