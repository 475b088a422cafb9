import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * One owner per table (DESIGN.md): a table is written (insert, update, delete, truncate) by its store only. The source
 * of the engine, transports, adapters and the composition root is read as text; the migrations (and the rules the
 * migrator applies with them, which are .sql) are the schema's history, not writers. The tables are the migrations'
 * own (created, renamed, dropped, in order), so a new table without an owner here fails.
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
  rate_windows: "engine/store/rateWindows.ts",
  gift_cards: "engine/store/giftCards.ts",
  gift_card_moves: "engine/store/giftCards.ts",
  texts: "engine/store/texts.ts",
  text_optouts: "engine/store/texts.ts",
  text_receipts: "engine/store/texts.ts",
  users: "engine/store/users.ts",
  passkeys: "engine/store/users.ts",
  sign_in_links: "engine/store/authSessions.ts",
  auth_sessions: "engine/store/authSessions.ts",
  webauthn_challenges: "engine/store/authSessions.ts",
  deployment: "engine/store/deployment.ts",
  demo_site: "engine/store/demoSite.ts",
  hosted_pages: "engine/store/hostedPages.ts",
  idempotency_keys: "engine/store/idempotency.ts",
  waitlist_entries: "engine/store/waitlist.ts",
  promo_codes: "engine/store/promos.ts",
  closures: "engine/store/closures.ts",
  calendar_feeds: "engine/store/calendarFeeds.ts",
  gift_purchases: "engine/store/giftPurchases.ts",
  payments: "engine/store/payments.ts",
  payment_checkouts: "engine/store/payments.ts",
  processor_events: "engine/store/payments.ts",
  sandbox_checkouts: "adapters/payments/sandboxStore.ts",
  sandbox_refunds: "adapters/payments/sandboxStore.ts",
  orgs: "engine/store/orgs.ts",
  api_keys: "engine/store/orgs.ts",
  members: "engine/store/team.ts",
  invites: "engine/store/team.ts",
  conversations: "engine/store/messages.ts",
  messages: "engine/store/messages.ts",
  message_drafts: "engine/store/messages.ts",
  events: "engine/store/events.ts",
  org_events: "engine/store/events.ts",
  relay_queue: "engine/store/events.ts",
  mail_outbox: "engine/store/mail.ts",
  mail_queue: "engine/store/mail.ts",
  oauth_clients: "engine/store/oauth.ts",
  oauth_apps: "engine/store/oauth.ts",
  oauth_codes: "engine/store/oauth.ts",
  oauth_tokens: "engine/store/oauth.ts"
}

const root = fileURLToPath(new URL("../../../", import.meta.url))
const SOURCE_DIRS = ["engine", "transports", "adapters", "app"]
const MIGRATIONS = "engine/store/migrations/"
const EXEMPT = [MIGRATIONS]

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:\\])\/\/.*$/gm, "$1")

/** The tables a migration's text leaves, given those before it: created and renamed ones in, dropped ones out. */
const tablesAfter = (before: ReadonlySet<string>, text: string): ReadonlySet<string> => {
  const tables = new Set(before)
  const name = String.raw`(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?`
  const change = new RegExp(
    String.raw`\bcreate\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${name}` +
      String.raw`|\bdrop\s+table\s+(?:if\s+exists\s+)?${name}` +
      String.raw`|\balter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${name}\s+rename\s+to\s+${name}`,
    "gi"
  )
  for (const [, created, dropped, from, to] of withoutComments(text).replace(/--.*$/gm, "").matchAll(change)) {
    if (created !== undefined) tables.add(created.toLowerCase())
    if (dropped !== undefined) tables.delete(dropped.toLowerCase())
    if (from !== undefined && to !== undefined) {
      tables.delete(from.toLowerCase())
      tables.add(to.toLowerCase())
    }
  }
  return tables
}

/** Every table the migrations leave, read in their numbered order. */
const migratedTables = () =>
  readdirSync(join(root, MIGRATIONS))
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .reduce<ReadonlySet<string>>(
      (tables, file) => tablesAfter(tables, readFileSync(join(root, MIGRATIONS, file), "utf8")),
      new Set()
    )

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

  it("reads the engine, transports, adapters and app, and not the migrations", () => {
    const files = sourceFiles()
    expect(files).toContain("engine/store/sessions.ts")
    expect(files.some((f) => f.startsWith("transports/"))).toBe(true)
    expect(files.some((f) => f.startsWith("app/"))).toBe(true)
    expect(files.some((f) => f.startsWith("engine/store/migrations/"))).toBe(false)
  })

  it("follows the migrations' tables through creates, renames and drops, and not in comments", () => {
    const first = tablesAfter(
      new Set(),
      `create table a (id int); create table if not exists "public"."b" (id int);
      create table c (id int); -- create table d (id int)
      /* create table e (id int) */`
    )
    expect([...first].sort()).toEqual(["a", "b", "c"])
    const next = tablesAfter(
      first,
      "alter table a rename to f; alter table b rename column x to y; drop table if exists c;"
    )
    expect([...next].sort()).toEqual(["b", "f"])
  })

  it("gives every table of the migrations one owner that exists", () => {
    const tables = migratedTables()
    expect(tables).toContain("bookings")
    expect(tables).not.toContain("booking_quota")
    const unowned = [...tables].filter((table) => OWNERS[table] === undefined)
    expect(unowned).toEqual([])
    expect(Object.keys(OWNERS).filter((table) => !tables.has(table))).toEqual([])
    for (const owner of new Set(Object.values(OWNERS))) expect(existsSync(join(root, owner)), owner).toBe(true)
  })

  const found = writers()
  for (const [table, owner] of Object.entries(OWNERS)) {
    it(`${table} is written by ${owner} only`, () => {
      expect(found.get(table)).toEqual([owner])
    })
  }
})
