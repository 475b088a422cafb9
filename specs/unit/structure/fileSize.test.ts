import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * Files stay small enough to read in one sitting: no source file of the product is over MAX_LINES lines. The product's
 * folders are read (the engine, its surfaces and parts, the composition root, the two front ends, the build scripts);
 * specs/ and bench/ are not: a test file or a bench is a list of scenarios read one at a time, not a unit to follow.
 */
const MAX_LINES = 300
const DIRS = ["app", "engine", "transports", "adapters", "widget", "console", "scripts"]
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/

const root = fileURLToPath(new URL("../../../", import.meta.url))

const sourceFiles = () =>
  DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => SOURCE.test(file) && !file.split(/[\\/]/).includes("node_modules"))
      .map((file) =>
        relative(root, join(root, dir, file))
          .split("\\")
          .join("/")
      )
  )

/** Lines as an editor numbers them: a final newline ends the last line, it does not start another. */
const linesOf = (text: string) => (text === "" ? 0 : text.replace(/\r?\n$/, "").split(/\r?\n/).length)

describe(`no source file over ${MAX_LINES} lines`, () => {
  it("counts lines as an editor does", () => {
    expect(linesOf("")).toBe(0)
    expect(linesOf("a")).toBe(1)
    expect(linesOf("a\n")).toBe(1)
    expect(linesOf("a\r\nb\n")).toBe(2)
    expect(linesOf(`${"x\n".repeat(301)}`)).toBe(301)
  })

  it("reads every folder of the product, and .ts and .tsx files in them", () => {
    const files = sourceFiles()
    for (const dir of DIRS)
      expect(
        files.some((f) => f.startsWith(`${dir}/`)),
        dir
      ).toBe(true)
    expect(files.some((f) => f.endsWith(".tsx"))).toBe(true)
    expect(files).toContain("engine/store/bookings.ts")
  })

  it("finds no file over the limit", () => {
    const over = sourceFiles()
      .map((file) => ({ file, lines: linesOf(readFileSync(join(root, file), "utf8")) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`)
    expect(over).toEqual([])
  })
})
