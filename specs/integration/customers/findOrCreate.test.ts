import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Customers } from "../../../engine/services/customers/Customers.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { eventsOf } from "./helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

const findOrCreate = (orgId: string, input: { email: string; name: string | null; phone?: string | null }) =>
  runEngine(
    app,
    Effect.flatMap(Customers, (c) => c.findOrCreate(orgId, input))
  )
const countFor = (orgId: string) =>
  sql(app, (s) => s<{ n: number }>`select count(*)::int as n from customers where org_id = ${orgId}`).then(
    (r) => r[0].n
  )

describe("Customers.findOrCreate", () => {
  it("creates one customer under 20 parallel calls, emitting customer.updated once", async () => {
    const org = await app.newOrg()
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        findOrCreate(org.id, { email: i % 2 === 0 ? "race@example.com" : "RACE@example.com", name: "Racer" })
      )
    )
    expect(new Set(results.map((c) => c.id)).size).toBe(1)
    expect(await countFor(org.id)).toBe(1)
    expect(await eventsOf(app, org.id, "customer.updated")).toHaveLength(1)
  })

  it("keeps the name and phone it has, gains what is missing, and emits only on change", async () => {
    const org = await app.newOrg()
    const first = await findOrCreate(org.id, { email: "fill@example.com", name: "Original" })
    const same = await findOrCreate(org.id, { email: "fill@example.com", name: "Other Name" })
    expect(same).toEqual(first)
    const gained = await findOrCreate(org.id, { email: "fill@example.com", name: "Other Name", phone: "+31 6 1" })
    expect(gained).toMatchObject({ id: first.id, name: "Original", phone: "+31 6 1" })
    await findOrCreate(org.id, { email: "fill@example.com", name: null, phone: "+31 6 2" })
    const events = await eventsOf(app, org.id, "customer.updated")
    expect(events.map((e) => e.phone)).toEqual([null, "+31 6 1"])
  })

  it("runs inside the caller's transaction: a rollback leaves no customer and no event", async () => {
    const org = await app.newOrg()
    const attempt = Effect.gen(function* () {
      const s = yield* SqlClient.SqlClient
      const customers = yield* Customers
      return yield* Effect.gen(function* () {
        yield* customers.findOrCreate(org.id, { email: "rolled@example.com", name: "Rolled" })
        return yield* Effect.fail("booking refused")
      }).pipe(s.withTransaction)
    })
    await expect(runEngine(app, attempt)).rejects.toThrow()
    expect(await countFor(org.id)).toBe(0)
    expect(await eventsOf(app, org.id, "customer.updated")).toEqual([])
  })

  it("makes a new customer for the email of an erased one, and keeps orgs apart", async () => {
    const a = await app.newOrg()
    const b = await app.newOrg()
    const old = (await app.call(a.key, "POST", "/api/v1/customers", { email: "back@example.com" })).body
    await app.call(a.key, "DELETE", `/api/v1/customers/${old.id}`)
    const again = await findOrCreate(a.id, { email: "back@example.com", name: "Back" })
    expect(again.id).not.toBe(old.id)
    const other = await findOrCreate(b.id, { email: "back@example.com", name: "Back" })
    expect(other.id).not.toBe(again.id)
  })
})
