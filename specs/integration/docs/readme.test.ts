import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The README's walk-through, run as written against a first `npm start` (dist/server.mjs, embedded defaults, an
 * empty folder): every `sh` block of the "Walk-through" section, in order, in one bash, from the folder the server
 * was started in. Only the port differs (a free one for 3000) and KEY is the key the start printed; every `curl`
 * fails on an HTTP error (--fail-with-body), and the script stops at the first failing command.
 */
const README = readFileSync(join(import.meta.dirname, "../../../README.md"), "utf8")
// A private copy of the build (inside the checkout, so node_modules resolves): another suite may rebuild dist/
// while this one runs (the pack test builds what globalSetup leaves out), and its chunks would vanish under it.
const root = join(import.meta.dirname, "../../..")
const build = join(root, `.data-readme-${process.pid}`)
cpSync(join(root, "dist"), join(build, "dist"), { recursive: true })
const SERVER = join(build, "dist/server.mjs")
const folder = mkdtempSync(join(tmpdir(), "be-readme-"))
const children: Array<ChildProcess> = []
afterAll(() => {
  for (const c of children) c.kill("SIGKILL")
  rmSync(folder, { recursive: true, force: true })
  rmSync(build, { recursive: true, force: true })
})

const walkThrough = () => {
  const start = README.indexOf("\n## Walk-through")
  const end = README.indexOf("\n## ", start + 5)
  expect(start).toBeGreaterThan(0)
  return [...README.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1])
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

/** `npm start` in the folder; resolves once it has printed `until` (or exits), with what it printed. */
const start = (port: number, until: RegExp) =>
  new Promise<{ child: ChildProcess; out: () => string }>((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? "", PORT: String(port), TMPDIR: tmpdir() },
      stdio: ["ignore", "pipe", "pipe"]
    })
    children.push(child)
    let out = ""
    let err = ""
    child.stdout!.on("data", (c) => {
      out += c
      if (until.test(out)) resolve({ child, out: () => out })
    })
    child.stderr!.on("data", (c) => (err += c))
    child.on("exit", (code) => reject(new Error(`the server exited (${code}): ${err}`)))
  })

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners("exit")
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })

describe("the README on a first start", () => {
  it("the first start prints a key and an admin token it keeps; the walk-through runs as written; a restart keeps the token and prints nothing new", async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    const first = await start(port, /admin\/v1\/mail\?to=you@example\.com"\n/)
    const key = /bk_live_[A-Za-z0-9_-]+/.exec(first.out())?.[0]
    const token = readFileSync(join(folder, ".data/admin-token"), "utf8").trim()
    expect(key).toBeDefined()
    expect(first.out()).toContain(`The admin API's token (kept in .data/admin-token):\n\n  ${token}\n`)
    expect(statSync(join(folder, ".data/admin-token")).mode & 0o777).toBe(0o600)

    const blocks = walkThrough()
    expect(blocks.length).toBeGreaterThanOrEqual(10)
    const script = [
      "set -euo pipefail",
      'curl() { command curl --fail-with-body "$@"; }',
      ...blocks.map((b, i) => `echo '=== block ${i + 1}'\n${b}`)
    ]
      .join("\n")
      .replaceAll("http://127.0.0.1:3000", base)
      .replace(/^KEY=bk_live_….*$/m, `KEY=${key}`)
    expect(script).toContain(`KEY=${key}\n`)
    const run = spawnSync("bash", ["-c", script], { cwd: folder, encoding: "utf8", timeout: 180_000 })
    const said = `${run.stdout}\n${run.stderr}`
    expect(run.status, said).toBe(0)
    expect(said).toContain(`=== block ${blocks.length}`)
    // What the README's comments say the blocks answer.
    for (const line of [
      `"status": "confirmed"`, // the class paid through the sandbox
      `"total_cents": 10000`, // two kayaks for two days
      `"discount_cents": 300`, // the promo code
      `"status": "ON_HOLD"`,
      `"status": "CONFIRMED"`,
      `"status": "CANCELLED"`
    ])
      expect(said).toContain(line)

    // The guest's mail of the walk-through, through the admin API the first start turned on.
    const mail = await fetch(`${base}/admin/v1/mail?to=ann@example.com`, {
      headers: { authorization: `Bearer ${token}` }
    })
    expect(mail.status).toBe(200)
    expect(((await mail.json()) as { data: Array<unknown> }).data.length).toBeGreaterThan(0)
    await stop(first.child)

    const again = await start(port, /listening on/)
    expect(again.out()).not.toMatch(/Demo org|admin API's token|bk_live_/)
    expect(readFileSync(join(folder, ".data/admin-token"), "utf8").trim()).toBe(token)
    const still = await fetch(`${base}/admin/v1/mail?to=ann@example.com`, {
      headers: { authorization: `Bearer ${token}` }
    })
    expect(still.status).toBe(200)
    await stop(again.child)
  }, 300_000)
})
