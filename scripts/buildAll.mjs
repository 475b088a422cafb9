// Builds all of dist but the type declarations: what `npm start` and the `booking-engine` bin run (one bundled ES module
// each of the engine's own code, no tsx at run time; its packages come from node_modules: see bundle.mjs),
// the library entry points, the /docs bundle, the widget and the console. scripts/build.mjs runs it, and so does the
// test run's globalSetup, once, before any suite starts: a suite that built dist itself would pull dist/chunks from
// under a server another suite had just started.

import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"
import { build as viteBuild } from "vite"
import { bundleServer } from "./bundle.mjs"

const require = createRequire(import.meta.url)

/** Builds dist (all but dist/types); returns the line it would print. */
export const buildAll = async () => {
  const started = Date.now()
  await bundleServer()
  // The library entry points (createEngine, the webhook signature helpers, the typed API client): the project's own code in one module each,
  // its dependencies left to the host's node_modules. Their type declarations are built by `npm run build:types`.
  await build({
    entryPoints: { index: "index.ts", sdk: "sdk.ts", client: "client.ts", layers: "layers.ts" },
    outdir: "dist",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "warning"
  })
  // /docs runs Scalar's standalone bundle (a devDependency): the package ships that one file, not the package.
  mkdirSync("dist/docs", { recursive: true })
  copyFileSync(
    join(dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js"),
    "dist/docs/scalar.js"
  )
  // The booking widget (Preact, in a shadow root): one file the engine serves at /widget.js.
  await viteBuild({ configFile: "vite.widget.config.ts" })
  const widget = readFileSync("dist/widget.js")
  // The console (Preact, its own page at /dashboard): dist/console/index.html and its hashed script and stylesheet.
  await viteBuild({ configFile: "vite.console.config.ts" })
  // What every page loads (index-*) apart from what a screen fetches when first opened (the Reports screen's charts).
  const consoleFiles = readdirSync("dist/console/assets").map((f) => ({
    first: f.startsWith("index-"),
    body: readFileSync(`dist/console/assets/${f}`)
  }))
  const kib = (first, gz) =>
    (
      consoleFiles.filter((f) => f.first === first).reduce((n, f) => n + (gz ? gzipSync(f.body) : f.body).length, 0) /
      1024
    ).toFixed(1)
  return `built dist/server.mjs, dist/cli.mjs, dist/index.mjs, dist/sdk.mjs, dist/client.mjs, dist/widget.js (${(widget.length / 1024).toFixed(1)} KiB, ${(gzipSync(widget).length / 1024).toFixed(1)} KiB gzipped) and dist/console (${kib(true, false)} KiB, ${kib(true, true)} KiB gzipped on first load; ${kib(false, true)} KiB gzipped more for Reports, when opened) in ${Date.now() - started} ms`
}
