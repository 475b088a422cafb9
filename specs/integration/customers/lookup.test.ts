import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { READ } from "../../../engine/services/bookings/statements.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"

// A booking finds its guest by (org, email) through customers_org_email, one index entry, whatever the org's size and
// whatever the statistics say of it. The index that lists an org's customers matched the org half of that lookup and,
// for an org the statistics thought tiny, Postgres read every customer of the org on each booking (migration 0095).

let app: TestApp
let big: { id: string; key: string }
let grown: { id: string; key: string }
beforeAll(async () => {
  app = await startApp()
  big = await app.newOrg()
  grown = await app.newOrg()
})
afterAll(() => app.close())

const addCustomers = (orgId: string, prefix: string, n: number) =>
  sql(
    app,
    (q) => q`insert into customers (id, org_id, email, name, created_at)
    select gen_random_uuid(), ${orgId}, ${prefix} || g || '-' || md5(g::text) || '@example.com', 'Guest', now() + g * interval '1 millisecond'
    from generate_series(1, ${n}) g`
  )

interface PlanNode {
  readonly "Node Type": string
  readonly "Relation Name"?: string
  readonly "Index Name"?: string
  readonly "Actual Rows"?: number
  readonly "Rows Removed by Filter"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}
const nodes = (n: PlanNode): ReadonlyArray<PlanNode> => [n, ...(n.Plans ?? []).flatMap(nodes)]

describe("the booking's lookup of its guest", () => {
  it("reads at most one index entry for an org that grew since the statistics were taken", async () => {
    const offering = await app.call(grown.key, "POST", "/api/v1/offerings", {
      name: "Lookup",
      kind: "class",
      capacity: 5
    })
    expect(offering.status).toBe(201)
    // The statistics see one org with every customer and the other with none; then the other gains 6,000.
    await addCustomers(big.id, "big-", 10_000)
    await sql(app, (q) => q`analyze customers`)
    await addCustomers(grown.id, "grown-", 6_000)
    const [row] = await sql(app, (q) =>
      q.unsafe<{ "QUERY PLAN": ReadonlyArray<{ Plan: PlanNode }> | string }>(
        `explain (analyze, format json) ${READ.text}`,
        [offering.body.id, grown.id, null, null, "new-guest@example.com"]
      )
    )
    const raw = row["QUERY PLAN"]
    const plan = (typeof raw === "string" ? JSON.parse(raw) : raw)[0].Plan as PlanNode
    const lookup = nodes(plan).filter((n) => n["Relation Name"] === "customers")
    expect(lookup.map((n) => [n["Index Name"], n["Actual Rows"], n["Rows Removed by Filter"] ?? 0])).toEqual([
      ["customers_org_email", 0, 0]
    ])
  })

  it("the org's customer list still pages in order of creation", async () => {
    const first = await app.call(grown.key, "GET", "/api/v1/customers?limit=2")
    const next = await app.call(grown.key, "GET", `/api/v1/customers?limit=2&after=${first.body.next_after}`)
    const emails = [...first.body.data, ...next.body.data].map((c: { email: string }) =>
      c.email.split("-").slice(0, 2).join("-")
    )
    expect(emails).toEqual(["grown-1", "grown-2", "grown-3", "grown-4"])
  })
})
