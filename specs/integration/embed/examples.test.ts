import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { holdFirstFreeTime } from "../../../examples/assistant.ts"
import { reserveAndConfirm } from "../../../examples/reseller.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { bookingsOrg, type BookingsOrg, ok } from "../bookings/helpers.ts"

// The README's runnable examples, run against the engine as a newcomer would.
let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startApp()
  org = await bookingsOrg(app, { timezone: "Europe/Amsterdam" })
  await org.classWithSession({ name: "Example class", capacity: 6 }, 30)
})
afterAll(() => app.close())

describe("examples", () => {
  it("examples/assistant.ts holds a place for a guest through the assistant channel", async () => {
    ok(await org.call("PATCH", "/org", { slug: "example-school" }))
    const hold = await holdFirstFreeTime(app.url, "example-school", { name: "Ana", email: "ana@example.com" })
    expect(hold).toMatchObject({ offering: "Example class", status: "held" })
    const [b] = ok(await org.call("GET", "/bookings?status=held")).data
    expect(b).toMatchObject({ reference: hold.reference, source: "assistant" })
  })

  it("examples/reseller.ts reserves and confirms two adults through OCTO with a reseller key", async () => {
    const rk = ok(await app.admin("POST", `/orgs/${org.id}/api_keys`, { kind: "reseller", name: "Example reseller" }), 201).key
    const booked = await reserveAndConfirm(app.url, rk, { fullName: "Ann Lee", emailAddress: "ann@example.com" })
    expect(booked.status).toBe("CONFIRMED")
    const listed = ok(await org.call("GET", "/bookings?status=confirmed")).data
    expect(listed.find((x: { source: string; quantity: number }) => x.source === "octo")).toMatchObject({ quantity: 2 })
  })
})
