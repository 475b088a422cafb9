import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listStatement } from "../../../engine/services/Events.ts"
import { sql } from "../../support/app.ts"
import {
  type BookingsOrg,
  bookingsOrg,
  clockNow,
  expectError,
  guest,
  ok,
  qs,
  startPinned,
  type TestApp
} from "../bookings/helpers.ts"

// A booking's history: events.list with booking_id (our extension) serves the booking's own events (booking.*) and
// those naming it (data.booking_id), in the org only, paged like any list, read through the index events_booking.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
})
afterAll(() => app?.close())

type Ev = { id: number; type: string; data: Record<string, unknown> }
const history = async (o: BookingsOrg, query: Record<string, string | number>) =>
  ok(await o.call("GET", `/events${qs(query)}`)) as { data: Ev[]; next_after: number }

/** Two bookings of one class: the first confirmed, written to, moved in money and cancelled; the second only held. */
const twoBookings = async () => {
  const { offering, session } = await org.classWithSession({ capacity: 5 })
  const a = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("h1") })
  const b = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest("h2") })
  ok(await org.act(a.id, "mark_paid", { paid_cents: 0 }))
  ok(await org.call("POST", "/messages", { booking_id: a.id, body: "See you there." }), 201)
  ok(await org.act(b.id, "resend"))
  ok(await org.act(a.id, "cancel", {}))
  await app.advance(3)
  return { a, b }
}

describe("events.list with booking_id", () => {
  it("serves exactly the booking's events and those naming it, oldest first, as the full list has them", async () => {
    const { a, b } = await twoBookings()
    const mine = (await history(org, { booking_id: a.id, limit: 200 })).data
    const all = (await org.events()).filter(
      (e) => (e.type.startsWith("booking.") ? e.data.id : e.data.booking_id) === a.id
    )
    expect(mine.map((e) => e.id)).toEqual(all.map((e) => e.id))
    expect(mine.map((e) => e.type)).toEqual(["booking.confirmed", "booking.paid", "message.sent", "booking.cancelled"])
    expect(mine.every((e) => e.data.id === a.id || e.data.booking_id === a.id)).toBe(true)
    const theirs = (await history(org, { booking_id: b.id })).data
    expect(theirs.map((e) => e.type)).toEqual(["booking.confirmed"])
    expect(theirs[0].data.id).toBe(b.id)
  })

  it("pages by cursor, newest first with order=desc, and combines with type", async () => {
    const { a } = await twoBookings()
    const first = await history(org, { booking_id: a.id, limit: 2 })
    const rest = await history(org, { booking_id: a.id, limit: 2, after: first.next_after })
    const end = await history(org, { booking_id: a.id, limit: 2, after: rest.next_after })
    expect([...first.data, ...rest.data].map((e) => e.type)).toEqual([
      "booking.confirmed",
      "booking.paid",
      "message.sent",
      "booking.cancelled"
    ])
    expect(end).toEqual({ data: [], next_after: rest.next_after })
    const newest = await history(org, { booking_id: a.id, order: "desc", limit: 1 })
    expect(newest.data.map((e) => e.type)).toEqual(["booking.cancelled"])
    const typed = await history(org, { booking_id: a.id, type: "message.sent" })
    expect(typed.data.map((e) => e.type)).toEqual(["message.sent"])
  })

  it("never serves another org's events: its booking id gives an empty list; a bad id is 400 invalid_booking_id", async () => {
    const { a } = await twoBookings()
    const other = await bookingsOrg(app)
    expect(await history(other, { booking_id: a.id })).toEqual({ data: [], next_after: 0 })
    expect((await history(org, { booking_id: crypto.randomUUID() })).data).toEqual([])
    expectError(await org.call("GET", "/events?booking_id=nope"), 400, "invalid_booking_id")
    expectError(await org.call("GET", `/events?booking_id=${a.id}&booking_id=${a.id}`), 400, "invalid_booking_id")
  })

  it("reads only the booking's entries of the index events_booking, in an org with many other events", async () => {
    const { a } = await twoBookings()
    // 20,000 events of 2,000 other bookings of the same org (written straight into the table), and the statistics.
    await sql(
      app,
      (s) => s`insert into events (org_id, type, data, created_at)
      select ${org.id}, 'booking.moved', jsonb_build_object('id', md5((g % 2000)::text)::uuid::text), now() - interval '1 day'
      from generate_series(1, 20000) g`
    )
    await sql(app, (s) => s`analyze events`)
    const cutoff = await clockNow(app)
    const { text, params } = await app.runtime.runPromise(
      Effect.map(SqlClient.SqlClient, (s) => {
        const [t, p] = listStatement(s, org.id, { booking_id: a.id, limit: 50 }, cutoff).compile()
        return { text: t, params: p }
      })
    )
    const [row] = await sql(app, (s) =>
      s.unsafe<{ "QUERY PLAN": ReadonlyArray<{ Plan: PlanNode }> | string }>(
        `explain (analyze, format json) ${text}`,
        params
      )
    )
    const raw = row["QUERY PLAN"]
    const plan = (typeof raw === "string" ? JSON.parse(raw) : raw)[0].Plan as PlanNode
    const scans = nodes(plan).filter((n) => n["Relation Name"] === "events")
    expect(scans.map((n) => [n["Index Name"], n["Actual Rows"]])).toEqual([["events_booking", 4]])
  })
})

interface PlanNode {
  readonly "Relation Name"?: string
  readonly "Index Name"?: string
  readonly "Actual Rows"?: number
  readonly Plans?: ReadonlyArray<PlanNode>
}
const nodes = (n: PlanNode): ReadonlyArray<PlanNode> => [n, ...(n.Plans ?? []).flatMap(nodes)]
