import { Effect } from "effect"
import { runCli } from "./main.ts"

const { code, text } = await Effect.runPromise(runCli(process.argv.slice(2)))
;(code === 0 ? process.stdout : process.stderr).write(`${text}\n`)
process.exit(code)
