import { execFile } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { beforeAll, describe, expect, it } from "vitest"

// What `npm pack` would publish: the built library and its types, the docs, README and LICENSE; no tests, benches
// or data. `prepack` builds; here the build runs once if dist is missing, then pack runs without scripts.
const run = promisify(execFile)
const root = join(import.meta.dirname, "../../..")
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  license: string
  bin: Record<string, string>
  exports: Record<string, { types: string; import: string }>
}
let files: ReadonlyArray<string> = []

beforeAll(async () => {
  const built = [
    "dist/index.mjs",
    "dist/sdk.mjs",
    "dist/client.mjs",
    "dist/server.mjs",
    "dist/types/client.d.ts",
    "dist/types/index.d.ts"
  ]
  if (!built.every((f) => existsSync(join(root, f)))) {
    await run("node", ["scripts/build.mjs"], { cwd: root, timeout: 120_000 })
    await run("npx", ["tsc", "-p", "tsconfig.types.json"], { cwd: root, timeout: 120_000 })
  }
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024
  })
  const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>
  files = packed.files.map((f) => f.path)
}, 280_000)

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
