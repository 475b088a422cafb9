#!/usr/bin/env node
// With no arguments: start the server. Otherwise: the admin CLI (org create, key create|revoke).
import { register } from "tsx/esm/api"

register()
const args = process.argv.slice(2)
if (args.length === 0) {
  await import("../main.ts")
} else {
  const { Effect } = await import("effect")
  const { runCli } = await import("../transports/cli/main.ts")
  const { code, text } = await Effect.runPromise(runCli(args))
  ;(code === 0 ? process.stdout : process.stderr).write(text + "\n")
  process.exit(code)
}
