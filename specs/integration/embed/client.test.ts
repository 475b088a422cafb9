import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, makeClient, NotFound } from "../../../client.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { clockNow } from "../bookings/helpers.ts"

// The typed client (client.ts, package export "./client"), derived from the contract, against the running app.
let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp()
  key = (await app.newOrg({ timezone: "UTC" })).key
})
afterAll(() => app.close())

describe("the typed client (HttpApiClient over the contract)", () => {
  it("creates an offering, schedules a time, books it and lists it, decoded by the contract's Schemas; a 404 is a typed NotFound", async () => {
    const startsAt = new Date(Math.ceil((await clockNow(app)).getTime() / 3_600_000) * 3_600_000 + 48 * 3_600_000)
    const program = Effect.gen(function* () {
      const client = yield* makeClient({ baseUrl: app.url, apiKey: key })
      const offering = yield* client.offerings.create({
        payload: { name: "Typed yoga", kind: "class", capacity: 8 },
        headers: {}
      })
      const sessions = yield* client.sessions.create({
        payload: { offering_id: offering.id, starts_at: startsAt },
        headers: {}
      })
      const booking = yield* client.bookings.create({
        payload: {
          offering_id: offering.id,
          session_id: sessions.data[0].id,
          quantity: 2,
          customer: { email: "typed@example.com", name: "Ty Ped" }
        },
        headers: { "idempotency-key": "typed-client-1" }
      })
      const listed = yield* client.bookings.list({ urlParams: { offering_id: offering.id } })
      const missing = yield* Effect.either(
        client.bookings.get({ path: { id: "00000000-0000-4000-8000-000000000000" } })
      )
      return { offering, booking, listed, missing }
    })
    const { offering, booking, listed, missing } = await Effect.runPromise(program)
    expect(offering).toMatchObject({ name: "Typed yoga", kind: "class", capacity: 8 })
    expect(booking).toMatchObject({ status: "confirmed", quantity: 2, offering_id: offering.id, source: "api" })
    expect(listed.data.map((b) => b.id)).toEqual([booking.id])
    expect(Either.isLeft(missing)).toBe(true)
    if (Either.isLeft(missing)) {
      expect(missing.left).toBeInstanceOf(NotFound)
      expect(missing.left).toMatchObject({ _tag: "NotFound", code: "not_found" })
    }
  })

  it("passes an availability slot straight into bookings.create, with no headers (type-checked by tsc -p .)", async () => {
    const api = createClient({ baseUrl: app.url, apiKey: key })
    const cut = await api.offerings.create({
      payload: { name: "Typed haircut", kind: "appointment", schedule: "hours", min_notice_minutes: 0 }
    })
    const [slot, next] = (await api.availability.get({ path: { id: cut.id }, urlParams: {} })).data
    const booked = await api.bookings.create({
      payload: { offering_id: cut.id, starts_at: slot.starts_at, customer: { email: "slot@example.com", name: "Slo" } }
    })
    expect(booked.starts_at).toBe(slot.starts_at)
    const client = await Effect.runPromise(makeClient({ baseUrl: app.url, apiKey: key }))
    const again = await Effect.runPromise(
      client.bookings.create({
        payload: {
          offering_id: cut.id,
          starts_at: new Date(next.starts_at),
          customer: { email: "d@example.com", name: "D" }
        }
      })
    )
    expect(again.starts_at).toBe(next.starts_at)
  })

  it("with Promises: answers decoded values and rejects with the typed error itself; a bad key is Unauthorized", async () => {
    const api = createClient({ baseUrl: app.url, apiKey: key })
    const created = await api.offerings.create({ payload: { name: "Promised class", kind: "class" }, headers: {} })
    expect(created.name).toBe("Promised class")
    expect((await api.offerings.get({ path: { id: created.id } })).id).toBe(created.id)
    await expect(api.offerings.get({ path: { id: "00000000-0000-4000-8000-000000000000" } })).rejects.toBeInstanceOf(
      NotFound
    )
    const bad = await api.offerings
      .create({ payload: { name: "", kind: "class" }, headers: {} })
      .catch((e: unknown) => e)
    expect(bad).toMatchObject({ _tag: "ParseError" })
    const stranger = createClient({ baseUrl: app.url, apiKey: "sk_live_nobody" })
    await expect(stranger.offerings.list({ urlParams: {} })).rejects.toMatchObject({
      _tag: "Unauthorized",
      code: "unauthorized"
    })
  })
})
