/**
 * `npm run bench [-- name...]`: runs every bench of bench/ that exists (bookings, http, availability, webhooks, flash, reports, signin, exports).
 * A bench that exports `run(): Promise<unknown>` is imported and awaited; one that runs when imported is spawned
 * with `npx tsx <file>`. The bookings and http results go to bench/results/<name>.{json,md} and into bench/README.md.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { BookingsBench } from "./bookings.ts"
import type { HttpBench } from "./http.ts"

const BENCHES = ["bookings", "http", "availability", "webhooks", "flash", "reports", "signin", "exports"] as const
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url))

/** Without importing it (which would start a run-at-import bench): does the file export `run`? */
const exportsRun = (source: string) =>
  /export\s+(async\s+)?function\s+run\b/.test(source) ||
  /export\s+(const|let|var)\s+run\b/.test(source) ||
  /export\s*\{[^}]*\brun\b[^}]*\}/.test(source)

const spawnBench = (file: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn("npx", ["tsx", file], { stdio: "inherit" })
    child.once("error", reject)
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`))))
  })

/** Writes results/<name>.{json,md} and puts the table between the README's `<!-- <name>-results:begin/end -->`. */
const publish = async (name: string, title: string, result: unknown, markdown: string) => {
  await mkdir(here("./results"), { recursive: true })
  await writeFile(here(`./results/${name}.json`), `${JSON.stringify(result, null, 2)}\n`)
  await writeFile(here(`./results/${name}.md`), `# ${title}\n\n${markdown}\n`)
  const readme = here("./README.md")
  const [begin, end] = [`<!-- ${name}-results:begin -->`, `<!-- ${name}-results:end -->`]
  if (existsSync(readme)) {
    const text = await readFile(readme, "utf8")
    const at = text.indexOf(begin)
    const to = text.indexOf(end)
    if (at >= 0 && to > at)
      await writeFile(readme, `${text.slice(0, at + begin.length)}\n${markdown}\n${text.slice(to)}`)
  }
  console.log(`\n${markdown}\n`)
}

const publishBookings = async (result: BookingsBench) => {
  const { toMarkdown } = await import("./bookings.ts")
  await publish("bookings", "POST /bookings: engine vs bare node:http + pg", result, toMarkdown(result))
}

const publishHttp = async (result: HttpBench) => {
  const { toMarkdown } = await import("./http.ts")
  await publish("http", "GET /offerings/{id}: engine vs bare node:http + pg", result, toMarkdown(result))
}

const main = async () => {
  const only = process.argv.slice(2)
  const failed: string[] = []
  for (const name of BENCHES) {
    if (only.length > 0 && !only.includes(name)) continue
    const file = here(`./${name}.ts`)
    if (!existsSync(file)) continue
    console.log(`== bench/${name}.ts`)
    try {
      if (exportsRun(await readFile(file, "utf8"))) {
        const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<unknown> }
        const result = await mod.run()
        if (name === "bookings") await publishBookings(result as BookingsBench)
        else if (name === "http") await publishHttp(result as HttpBench)
        else if (result !== undefined) console.log(JSON.stringify(result, null, 2))
      } else {
        await spawnBench(file)
      }
    } catch (e) {
      console.error(`bench/${name}.ts failed:`, e)
      failed.push(name)
    }
  }
  if (failed.length > 0) process.exitCode = 1
}

main()
