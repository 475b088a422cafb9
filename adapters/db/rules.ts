import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The database's rules (capacity, hold caps, the quota's check, ...) as .sql files in engine/store/rules/: the current
 * definition of each, readable in one place. They are applied like Flyway's repeatable migrations: after the numbered
 * migrations, every file whose content changed since it was last applied (schema_rules keeps each one's checksum)
 * runs again, in name order, in the migrations' transaction. A file must be re-runnable (create or replace).
 */
const candidates = [
  // dist/server.mjs and the library bundles: scripts/bundle.mjs copies the files next to them.
  new URL("./rules/", import.meta.url),
  // The source tree (tsx, vitest): adapters/db/ -> engine/store/rules/.
  new URL("../../engine/store/rules/", import.meta.url)
]

export const rulesDir = () => {
  const found = candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(`${dir}capacity.sql`))
  if (found === undefined)
    throw new Error(
      `the database rules (engine/store/rules/*.sql) are not next to the engine: looked in ${candidates.join(", ")}`
    )
  return found
}

export interface Rule {
  readonly name: string
  readonly text: string
  readonly checksum: string
}

export const loadRules = (dir = rulesDir()): ReadonlyArray<Rule> =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((file) => {
      const text = readFileSync(`${dir}${file}`, "utf8")
      return { name: file.replace(/\.sql$/, ""), text, checksum: createHash("sha256").update(text).digest("hex") }
    })

/** Applies every rule that is new or changed; answers the names applied. */
export const applyRules = (rules: ReadonlyArray<Rule> = loadRules()) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`create table if not exists schema_rules (name text primary key, checksum text not null, applied_at timestamptz not null default now())`
    const applied = new Map(
      (yield* sql<{ name: string; checksum: string }>`select name, checksum from schema_rules`).map((r) => [
        r.name,
        r.checksum
      ])
    )
    const due = rules.filter((r) => applied.get(r.name) !== r.checksum)
    for (const rule of due) {
      yield* sql.unsafe(rule.text)
      yield* sql`insert into schema_rules (name, checksum) values (${rule.name}, ${rule.checksum})
        on conflict (name) do update set checksum = excluded.checksum, applied_at = now()`
    }
    return due.map((r) => r.name)
  })
