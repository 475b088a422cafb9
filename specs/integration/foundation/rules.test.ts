import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadRules } from "../../../adapters/db/rules.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"

/**
 * engine/store/rules/*.sql are the current definitions of the database's rules: a freshly migrated database holds
 * exactly what the files say (applying them again changes no definition), and no function or trigger outside them.
 */
const migrationsDir = fileURLToPath(new URL("../../../engine/store/migrations/", import.meta.url))
let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const definitions = (s: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const functions = yield* s<{ name: string; def: string }>`
      select p.proname as name, pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by 1`
    const triggers = yield* s<{ name: string; def: string }>`
      select tgname as name, pg_get_triggerdef(oid) as def from pg_trigger where not tgisinternal order by 1`
    const checks = yield* s<{ name: string; def: string }>`
      select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conname = 'plan_quota_exceeded'`
    return { functions, triggers, checks }
  })

class Rollback {
  constructor(readonly value: unknown) {}
}

describe("the database rules as files", () => {
  it("a migrated database's functions, triggers and the quota check are the files' definitions, and nothing else", async () => {
    const rules = loadRules()
    expect(rules.map((r) => r.name)).toEqual([
      "booking_refused",
      "capacity",
      "deployment_origin",
      "hold_caps",
      "keys",
      "never_deleted",
      "offerings_changed",
      "places",
      "quota"
    ])
    const migrated = await sql(app, definitions)
    // The files applied again in a transaction that is rolled back: no definition may move.
    const reapplied = await sql(app, (s) =>
      s
        .withTransaction(
          Effect.gen(function* () {
            for (const rule of rules) yield* s.unsafe(rule.text)
            return yield* Effect.fail(new Rollback(yield* definitions(s)))
          })
        )
        .pipe(
          Effect.catchIf(
            (e): e is Rollback => e instanceof Rollback,
            (e) => Effect.succeed(e.value)
          )
        )
    )
    expect(reapplied).toEqual(migrated)
    expect(migrated.checks).toHaveLength(1)

    const text = rules.map((r) => r.text.toLowerCase()).join("\n")
    const made = (kind: "function" | "trigger") =>
      new Set(
        [...text.matchAll(new RegExp(`create (?:or replace |constraint )${kind} (?:public\\.)?([a-z_]+)`, "g"))].map(
          (m) => m[1]
        )
      )
    expect(migrated.functions.map((f) => f.name).filter((n) => !made("function").has(n))).toEqual([])
    expect(migrated.triggers.map((t) => t.name).filter((n) => !made("trigger").has(n))).toEqual([])

    // A numbered migration after the files took over (0096) must change a rule through its file, never by itself:
    // on a new database the file would win and hide it, while databases already migrated kept the migration's.
    const later = readdirSync(migrationsDir).filter((f) => Number(f.slice(0, 4)) > 96)
    const redefined = later.filter((f) =>
      /create\s+(or\s+replace\s+)?(function|trigger|constraint\s+trigger)/i.test(
        readFileSync(join(migrationsDir, f), "utf8")
      )
    )
    expect(redefined).toEqual([])

    // What the database recorded as applied is what the files hold.
    const applied = await sql(
      app,
      (s) => s<{ name: string; checksum: string }>`select name, checksum from schema_rules order by name`
    )
    expect(applied).toEqual(rules.map((r) => ({ name: r.name, checksum: r.checksum })))
  })
})
