#!/usr/bin/env node
// With no arguments: start the server (says so first, on stderr). `--version`: the package's version. Otherwise: the
// admin CLI (org create, key create|revoke, ...). Runs the bundles in dist/, which the published package carries (in
// a clone of the repository, `npm run build` or `npm start` makes them).
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  process.stdout.write(`${version}\n`)
  process.exit(0)
}
const built = new URL(args.length > 0 ? "../dist/cli.mjs" : "../dist/server.mjs", import.meta.url)
if (!existsSync(built)) {
  process.stderr.write("booking-engine: dist/ is missing; run `npm run build` first\n")
  process.exit(1)
}
if (args.length === 0) {
  const env = (name, fallback) => (process.env[name] ?? "").trim() || fallback
  const dataDir = env("DATA_DIR", "./.data")
  const database = env("DATABASE_URL", "")
    ? "Postgres at DATABASE_URL"
    : existsSync(join(dataDir, "PG_VERSION"))
      ? `the embedded database in ${dataDir}`
      : `a new embedded database in ${dataDir} (made now, with a demo org)`
  process.stderr.write(
    `booking-engine: no command given, so starting the server on http://${env("HOST", "127.0.0.1")}:${env("PORT", "3000")} ` +
      `over ${database}; Ctrl-C stops it. booking-engine --help lists the admin commands.\n`
  )
}
await import(built.href)
