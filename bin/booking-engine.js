#!/usr/bin/env node
// With no arguments: start the server. Otherwise: the admin CLI (org create, key create|revoke). Runs the build in
// dist/ (made by `npm install` or `npm run build`).
import { existsSync } from "node:fs"

const built = new URL(process.argv.length > 2 ? "../dist/cli.mjs" : "../dist/server.mjs", import.meta.url)
if (!existsSync(built)) {
  process.stderr.write("booking-engine: dist/ is missing; run `npm run build` first\n")
  process.exit(1)
}
await import(built.href)
