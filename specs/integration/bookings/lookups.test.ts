import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { READ } from "../../../engine/services/bookings/statements.ts"
import { findStatement, lockStatement } from "../../../engine/store/bookings.ts"
import { sql } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, startPinned, type TestApp } from "./helpers.ts"

// A booking's statements look up the offering and the booking by id through their primary keys, also for an org the
// planner's statistics put at about one row: an index that leads with the org (bookings_org_start, offerings_org)
// costs the planner the same then, and when it won the lookup read every entry of the org (engine/store/tenancy.ts).

let app: TestApp
let known: BookingsOrg
let grown: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  known = await bookingsOrg(app)
  grown = await bookingsOrg(app)
})
afterAll(() => app?.close())

/** n cancelled bookings of the org, on no time, straight into the table. */
const addBookings = (orgId: string, n: number) =>
  sql(
    app,
    (
      q
    ) => q`insert into bookings (id, org_id, offering_id, customer_id, starts_at, ends_at, quantity, places, state, machine, status,
      keeps_place, total_cents, reference, handle, source, created_at)
    select gen_random_uuid(), ${orgId}, gen_random_uuid(), gen_random_uuid(), now() + g * interval '1 minute', now() + g * interval '61 minutes',
      1, 1, 'cancelled', '{}'::jsonb, 'cancelled', false, 0, 'L' || lpad(g::text, 7, '0'), md5(g::text || ${orgId}), 'api', now()
    from generate_series(1, ${n}) g`
  )

/** n copies of an offering, straight into the table. */
const copyOffering = (offeringId: string, n: number) =>
  sql(
    app,
    (q) => q`insert into offerings
    select (jsonb_populate_record(null::offerings, to_jsonb(o) || jsonb_build_object('id', gen_random_uuid()))).*
    from offerings o, generate_series(1, ${n}) where o.id = ${offeringId}`
  )

/** The text and parameters of one of the booking store's statements. */
const storeStatement = (which: "findStatement" | "lockStatement", orgId: string, id: string) =>
  app.runtime.runPromise(
    Effect.map(SqlClient.SqlClient, (s) =>
      (which === "findStatement" ? findStatement : lockStatement)(s, orgId, id).compile()
    )
  )

interface PlanNode {
  readonly "Relation Name"?: string
  readonly "Index Name"?: string
  readonly "Actual Rows"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}
const nodes = (n: PlanNode): ReadonlyArray<PlanNode> => [n, ...(n.Plans ?? []).flatMap(nodes)]

/** How a statement reads `table`: [index, rows found] per scan of it, from EXPLAIN ANALYZE. */
const scansOf = async (text: string, params: ReadonlyArray<unknown>, table: string) => {
  const [row] = await sql(app, (q) =>
    q.unsafe<{ "QUERY PLAN": ReadonlyArray<{ Plan: PlanNode }> | string }>(
      `explain (analyze, format json) ${text}`,
      params
    )
  )
  const raw = row["QUERY PLAN"]
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw)[0].Plan as PlanNode
  return nodes(plan)
    .filter((n) => n["Relation Name"] === table)
    .map((n) => [n["Index Name"], n["Actual Rows"]])
}

describe("a booking's lookups by id, for an org that grew since the statistics were taken", () => {
  it("go through the primary keys of offerings and bookings", async () => {
    const { offering, session } = await grown.classWithSession()
    const booking = await grown.booked({ offering_id: offering.id, session_id: session.id, customer: guest("lookups") })
    // The statistics see the other org with every booking and offering; then this one gains 8,000 bookings.
    await copyOffering((await known.offering({ kind: "class", capacity: 5 })).id, 500)
    await addBookings(known.id, 20_000)
    await sql(app, (q) => q`analyze bookings, offerings`)
    await addBookings(grown.id, 8_000)

    expect(
      await scansOf(READ.text, [offering.id, grown.id, session.id, null, "someone-new@example.com"], "offerings")
    ).toEqual([["offerings_pkey", 1]])
    const find = await storeStatement("findStatement", grown.id, booking.id)
    expect(await scansOf(find[0], find[1], "bookings")).toEqual([["bookings_pkey", 1]])
    const lock = await storeStatement("lockStatement", grown.id, booking.id)
    expect(await scansOf(lock[0], lock[1], "bookings")).toEqual([["bookings_pkey", 1]])
    // Another org's booking is still not found by this org.
    const other = await storeStatement("findStatement", known.id, booking.id)
    expect(await sql(app, (q) => q.unsafe(other[0], other[1]))).toEqual([])
  })
})
