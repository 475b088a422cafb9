// `npm run build` (and npm start's prestart, npm pack's prepack): all of dist but the type declarations; see buildAll.mjs.

import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { buildAll } from "./buildAll.mjs"

// `--if-stale` (npm start's prestart): build only when dist/server.mjs is missing or older than a source file.
if (process.argv.includes("--if-stale") && !stale()) process.exit(0)

function stale() {
  if (!existsSync("dist/server.mjs") || !existsSync("dist/widget.js")) return true
  const built = statSync("dist/server.mjs").mtimeMs
  const newer = (path) =>
    statSync(path).isDirectory()
      ? readdirSync(path).some((f) => f !== "node_modules" && newer(join(path, f)))
      : statSync(path).mtimeMs > built
  return [
    "app",
    "engine",
    "transports",
    "adapters",
    "widget",
    "console",
    "index.ts",
    "sdk.ts",
    "client.ts",
    "package.json"
  ]
    .filter((p) => existsSync(p))
    .some(newer)
}

console.log(await buildAll())
