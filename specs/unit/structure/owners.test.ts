import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * One owner per table (DESIGN.md): a table is written (insert, update, delete) by its store only. The source of the
 * engine, transports and adapters is read as text; the migrations (and the rules the migrator applies with them,
 * which are .sql) are the schema's history, not writers.
 *
 * To give another table family its owner, add its tables here.
 */
const OWNERS: Readonly<Record<string, string>> = {
  bookings: "engine/store/bookings.ts",
  customers: "engine/store/customers.ts",
  sessions: "engine/store/sessions.ts",
  series: "engine/store/sessions.ts",
  offerings: "engine/store/offerings.ts",
  offering_photos: "engine/store/offerings.ts",
  webhook_endpoints: "engine/store/webhooks.ts",
  webhook_deliveries: "engine/store/webhooks.ts",
  users: "engine/store/users.ts",
  passkeys: "engine/store/users.ts",
  sign_in_links: "engine/store/authSessions.ts",
  auth_sessions: "engine/store/authSessions.ts",
  webauthn_challenges: "engine/store/authSessions.ts"
}

const root = fileURLToPath(new URL("../../../", import.meta.url))
const SOURCE_DIRS = ["engine", "transports", "adapters"]
const EXEMPT = ["engine/store/migrations/"]

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:\\])\/\/.*$/gm, "$1")

/** The tables a source text writes: `insert into t`, `update [only] t`, `delete from t`, `truncate [table] t`. */
const writtenTables = (text: string): ReadonlySet<string> => {
  const found = new Set<string>()
  const statement =
    /\b(?:insert\s+into|update(?:\s+only)?|delete\s+from|truncate(?:\s+table)?)\s+(?!set\b)(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi
  for (const match of withoutComments(text).matchAll(statement)) found.add(match[1].toLowerCase())
  return found
}

const sourceFiles = () =>
  SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) =>
        relative(root, join(root, dir, file))
          .split("\\")
          .join("/")
      )
      .filter((file) => !EXEMPT.some((prefix) => file.startsWith(prefix)))
  )

/** Every table of OWNERS, with the files that write it. */
const writers = () => {
  const byTable = new Map<string, Array<string>>(Object.keys(OWNERS).map((table) => [table, []]))
  for (const file of sourceFiles()) {
    for (const table of writtenTables(readFileSync(join(root, file), "utf8"))) byTable.get(table)?.push(file)
  }
  return byTable
}

describe("one owner per table", () => {
  it("finds writes across lines, with aliases and schema names, and not in comments", () => {
    const text = `
      sql\`insert into sessions \${sql.insert(rows)} on conflict do nothing\`
      sql\`update
        webhook_endpoints w set lease_owner = null\`
      sql\`delete from "public"."offering_photos" where offering_id = $1\`
      sql\`update only series set made_until = $1\`
      // update offerings set state = 'removed'
      /* delete from bookings */
      sql\`select * from customers\`
      sql\`insert into t (a) values (1) on conflict (a) do update set a = excluded.a\``
    expect([...writtenTables(text)].sort()).toEqual(["offering_photos", "series", "sessions", "t", "webhook_endpoints"])
  })

  it("reads the engine, transports and adapters, and not the migrations", () => {
    const files = sourceFiles()
    expect(files).toContain("engine/store/sessions.ts")
    expect(files.some((f) => f.startsWith("transports/"))).toBe(true)
    expect(files.some((f) => f.startsWith("engine/store/migrations/"))).toBe(false)
  })

  const found = writers()
  for (const [table, owner] of Object.entries(OWNERS)) {
    it(`${table} is written by ${owner} only`, () => {
      expect(found.get(table)).toEqual([owner])
    })
  }
})
