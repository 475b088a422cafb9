import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ownerOnly, PgliteLive } from "../../../adapters/db/pglite.ts"

// The embedded database on disk (DATA_DIR) is the user's only: PGlite unpacks its files with mode 0666.
const scratch = mkdtempSync(join(tmpdir(), "be-datadir-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Every path under dir with its permission bits, e.g. ["base/1/1259", 0o600]. */
const modes = (dir: string) => {
  const out: Array<[string, number, "dir" | "file"]> = []
  const walk = (path: string, rel: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name)
      const stat = lstatSync(full)
      out.push([join(rel, name), stat.mode & 0o777, stat.isDirectory() ? "dir" : "file"])
      if (stat.isDirectory()) walk(full, join(rel, name))
    }
  }
  walk(dir, "")
  return out
}

describe("the embedded database's data dir", () => {
  it("is 0700, its directories 0700 and its files 0600, while it runs and after it closes", async () => {
    const dir = join(scratch, "data")
    const whileOpen = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`create table t (x int)`
          yield* sql`insert into t select generate_series(1, 1000)`
          yield* sql`checkpoint`
          return { root: statSync(dir).mode & 0o777, pid: statSync(join(dir, "engine.pid")).mode & 0o777 }
        }).pipe(Effect.provide(Layer.orDie(PgliteLive(dir))))
      )
    )
    expect(whileOpen).toEqual({ root: 0o700, pid: 0o600 })
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    const all = modes(dir)
    expect(all.length).toBeGreaterThan(100)
    expect(all.filter(([, mode, kind]) => mode !== (kind === "dir" ? 0o700 : 0o600))).toEqual([])
  }, 120_000)

  it("a data dir made readable by others (an older version's files) is the owner's again; a folder that is no database keeps its files' modes", () => {
    const db = join(scratch, "old")
    mkdirSync(join(db, "base"), { recursive: true })
    writeFileSync(join(db, "PG_VERSION"), "17\n")
    writeFileSync(join(db, "base", "1"), "")
    chmodSync(db, 0o755)
    chmodSync(join(db, "base"), 0o755)
    chmodSync(join(db, "base", "1"), 0o666)
    ownerOnly(db)
    expect(modes(db).map(([p, m]) => [p, m.toString(8)])).toEqual([
      ["PG_VERSION", "600"],
      ["base", "700"],
      ["base/1", "600"]
    ])
    expect(statSync(db).mode & 0o777).toBe(0o700)

    const folder = join(scratch, "folder")
    mkdirSync(folder)
    writeFileSync(join(folder, "notes.txt"), "")
    chmodSync(join(folder, "notes.txt"), 0o644)
    ownerOnly(folder)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(statSync(join(folder, "notes.txt")).mode & 0o777).toBe(0o644)
  })
})
