// The server and CLI bundles (what `npm start` and the bin run), built by scripts/buildAll.mjs (npm run build and
// the test run's globalSetup) and by the benches that compare builds. They hold the project's own code only: every
// package (effect, pg, PGlite, …) is imported from node_modules, where the package's dependencies are installed
// anyway for the library entry points, so nothing is shipped twice (a start from them takes about 1.4x as long as
// from bundles that carried their packages: bench/README.md, "The package"). Each is split: what only some
// deployments load (NATS, SMTP, Stripe, inbound SMTP; see app/layers.ts) goes to dist/chunks/ and is imported, with
// its packages, only when configured.

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
    packages: "external",
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
