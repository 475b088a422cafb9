/**
 * `npm run bench [-- name...]`: runs every bench of bench/ that exists (bookings, availability, webhooks).
 * A bench that exports `run(): Promise<unknown>` is imported and awaited; one that runs when imported is spawned
 * with `npx tsx <file>`. The bookings results go to bench/results/bookings.{json,md} and into bench/README.md.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { BookingsBench } from "./bookings.ts"

const BENCHES = ["bookings", "availability", "webhooks", "flash"] as const
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

const README_BEGIN = "<!-- bookings-results:begin -->"
const README_END = "<!-- bookings-results:end -->"

const publishBookings = async (result: BookingsBench) => {
  const { toMarkdown } = await import("./bookings.ts")
  const markdown = toMarkdown(result)
  await mkdir(here("./results"), { recursive: true })
  await writeFile(here("./results/bookings.json"), `${JSON.stringify(result, null, 2)}\n`)
  await writeFile(here("./results/bookings.md"), `# POST /bookings: engine vs bare node:http + pg\n\n${markdown}\n`)
  const readme = here("./README.md")
  if (existsSync(readme)) {
    const text = await readFile(readme, "utf8")
    const begin = text.indexOf(README_BEGIN)
    const end = text.indexOf(README_END)
    if (begin >= 0 && end > begin) {
      await writeFile(readme, `${text.slice(0, begin + README_BEGIN.length)}\n${markdown}\n${text.slice(end)}`)
    }
  }
  console.log(`\n${markdown}\n`)
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
