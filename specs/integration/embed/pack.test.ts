import { execFile } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { beforeAll, describe, expect, it } from "vitest"

// What `npm pack` would publish: the built library and its types, the docs, README and LICENSE; no tests, benches
// or data. `prepack` builds; here the run's globalSetup has built dist (never this suite: see specs/support/setup.ts),
// the types are built once if missing, then pack runs without scripts.
const run = promisify(execFile)
const root = join(import.meta.dirname, "../../..")
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  license: string
  scripts: Record<string, string>
  bin: Record<string, string>
  exports: Record<string, { types: string; import: string }>
}
let files: ReadonlyArray<string> = []
let sizes = { size: 0, unpackedSize: 0 }

beforeAll(async () => {
  if (!["dist/types/client.d.ts", "dist/types/index.d.ts"].every((f) => existsSync(join(root, f))))
    await run("npx", ["tsc", "-p", "tsconfig.types.json"], { cwd: root, timeout: 120_000 })
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024
  })
  const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }>; size: number; unpackedSize: number }>
  files = packed.files.map((f) => f.path)
  sizes = { size: packed.size, unpackedSize: packed.unpackedSize }
}, 400_000)

describe("npm pack", () => {
  it("holds the built entry points of every export, their types and the bin; README and the MIT LICENSE", () => {
    for (const target of Object.values(pkg.exports)) {
      expect(files).toContain(target.import.replace(/^\.\//, ""))
      expect(files).toContain(target.types.replace(/^\.\//, ""))
    }
    expect(files).toContain("dist/client.mjs")
    expect(files).toContain("dist/types/client.d.ts")
    expect(files.filter((f) => /^dist\/[^/]+\.mjs$/.test(f)).sort()).toEqual([
      "dist/cli.mjs",
      "dist/client.mjs",
      "dist/index.mjs",
      "dist/layers.mjs",
      "dist/sdk.mjs",
      "dist/server.mjs"
    ])
    for (const bin of Object.values(pkg.bin)) expect(files).toContain(bin.replace(/^\.\//, ""))
    expect(files).toContain("README.md")
    expect(files).toContain("LICENSE")
    expect(pkg.license).toBe("MIT")
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License/)
  })

  it("leaves out tests, benches, local data, sources outside dist and node_modules", () => {
    expect(files.length).toBeGreaterThan(10)
    const out = files.filter(
      (f) =>
        /^(specs|bench|\.data|node_modules|engine|adapters|transports|widget|scripts)\//.test(f) ||
        /(^|\/)\.data(-[^/]*)?\//.test(f)
    )
    expect(out).toEqual([])
    expect(files.filter((f) => /\.test\.ts$/.test(f))).toEqual([])
  })
})

describe("what a consumer gets", () => {
  it("no source maps, the /docs bundle, no prepare script pointing at files it lacks; under 6 MB packed", () => {
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([])
    expect(files).toContain("dist/docs/scalar.js")
    expect(pkg.scripts.prepare).toBeUndefined()
    for (const [name, script] of Object.entries(pkg.scripts))
      if (/^(pre|post)?(install|prepare)$/.test(name)) expect(script, name).toBe("")
    // Measured: 11.5 MB packed, 53.6 MB unpacked (35 MB of it source maps) before; see the README for today's.
    expect(sizes.size).toBeLessThan(6 * 1024 * 1024)
    expect(sizes.unpackedSize).toBeLessThan(25 * 1024 * 1024)
  })

  it("a consumer's tsc (strict, skipLibCheck false, no @types/pg) passes on the packed types; a slot books directly", async () => {
    const app = mkdtempSync(join(tmpdir(), "be-consumer-"))
    try {
      const own = join(app, "node_modules", "booking-engine")
      for (const f of [...files, "package.json"]) {
        mkdirSync(dirname(join(own, f)), { recursive: true })
        cpSync(join(root, f), join(own, f))
      }
      // The package's dependencies as an install gives them; of @types only what a Node project has.
      for (const name of readdirSync(join(root, "node_modules")))
        if (!name.startsWith(".") && name !== "@types")
          symlinkSync(join(root, "node_modules", name), join(app, "node_modules", name))
      mkdirSync(join(app, "node_modules", "@types"))
      symlinkSync(join(root, "node_modules/@types/node"), join(app, "node_modules/@types/node"))
      writeFileSync(join(app, "package.json"), JSON.stringify({ type: "module" }))
      writeFileSync(
        join(app, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { strict: true, module: "nodenext", target: "es2022", skipLibCheck: false, noEmit: true }
        })
      )
      writeFileSync(
        join(app, "app.ts"),
        [
          `import { createEngine } from "booking-engine"`,
          `import { createClient } from "booking-engine/client"`,
          `import { sign } from "booking-engine/sdk"`,
          `const engine = await createEngine({ publicUrl: "http://127.0.0.1:3000" })`,
          `const api = createClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "sk" })`,
          `const [slot] = (await api.availability.get({ path: { id: "x" }, urlParams: {} })).data`,
          `await api.bookings.create({ payload: { offering_id: "x", starts_at: slot.starts_at, customer: { email: "a@b.c", name: "A" } } })`,
          `console.log(sign, engine.handler)`
        ].join("\n")
      )
      const tsc = join(root, "node_modules/typescript/bin/tsc")
      const out = await run(process.execPath, [tsc, "-p", app], { cwd: app, timeout: 240_000 }).catch(
        (e: { stdout: string }) => ({ stdout: e.stdout })
      )
      expect(out.stdout).toBe("")
    } finally {
      rmSync(app, { recursive: true, force: true })
    }
  }, 300_000)
})
