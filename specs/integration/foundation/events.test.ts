import { SqlClient } from "@effect/sql"
import { Effect, type ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Events } from "../../../engine/services/Events.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { allEvents, expectError, offerings } from "./fixtures.ts"

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.close())

/** The app's runtime also holds the engine services. */
const engine = () => app.runtime as unknown as ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | Events, never>

const page = async (key: string, query: string) => {
  const res = await app.call(key, "GET", `/api/v1/events${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as { data: Array<{ id: number; type: string; data: any; created_at: string }>; next_after: number }
}

/** An org with n offering.updated events after its offering.created, all served (older than 2 s). */
const withEvents = async (n: number) => {
  const org = await app.newOrg()
  const api = offerings(app, org.key)
  const offering = await api.create({ name: "Counter", kind: "class" })
  for (let i = 1; i <= n; i++) await api.patch(offering.id, { capacity: i })
  await app.advance(3)
  return { org, api, offering }
}

describe("every change writes its event", () => {
  it("offering.created, updated, hours_updated and deleted carry the resource after the change", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const created = await api.create({ name: "Kayak", kind: "rental" })
    const updated = (await api.patch(created.id, { price_cents: 2500 })).body
    const hours = (await api.setHours(created.id, { hours: [{ weekday: 1, start_time: "09:00", end_time: "12:00" }] }))
      .body
    const afterHours = (await api.get(created.id)).body
    await api.remove(created.id)
    const events = await allEvents(app, org.key)
    expect(events.map((e) => e.type)).toEqual([
      "offering.created",
      "offering.updated",
      "offering.hours_updated",
      "offering.deleted"
    ])
    expect(events[0].data).toEqual(created)
    expect(events[1].data).toEqual(updated)
    expect(events[2].data).toEqual({ ...afterHours, hours: hours.data })
    expect(events[3].data).toEqual({ ...afterHours, active: false })
  })

  it("waiver.updated carries the version and body (null when removed), org.updated the org", async () => {
    const org = await app.newOrg()
    await app.call(org.key, "PUT", "/api/v1/waiver", { text: "Ride safe" })
    await app.call(org.key, "PUT", "/api/v1/waiver", { text: null })
    const updated = (await app.call(org.key, "PATCH", "/api/v1/org", { name: "Renamed" })).body
    const events = await allEvents(app, org.key)
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["waiver.updated", { version: 1, body: "Ride safe" }],
      ["waiver.updated", { version: 2, body: null }],
      ["org.updated", updated]
    ])
  })

  it("writes nothing for a refused change", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const created = await api.create({ name: "Yoga", kind: "class" })
    expect((await api.patch(created.id, { deposit_cents: 1, deposit_percent: 1 })).status).toBe(400)
    expect((await api.patch(created.id, { waiver_required: true })).status).toBe(409)
    expect((await api.patch(created.id, { capacity: 0 })).status).toBe(400)
    expect((await api.setHours(created.id, { hours: [] })).status).toBe(409)
    expect((await api.post({ name: "Course", kind: "rental", course: true })).status).toBe(409)
    expect((await app.call(org.key, "PUT", "/api/v1/waiver", { text: "" })).status).toBe(400)
    expect((await allEvents(app, org.key)).map((e) => e.type)).toEqual(["offering.created"])
  })

  it("gives events increasing integer ids stamped with the engine clock", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const t0 = (await app.admin("GET", "/clock")).body.now
    const created = await api.create({ name: "Yoga", kind: "class" })
    await app.advance(5)
    const t1 = (await app.admin("GET", "/clock")).body.now
    await api.patch(created.id, { name: "Yin" })
    const events = await allEvents(app, org.key)
    expect(events.map((e) => e.created_at)).toEqual([t0, t1])
    expect(Number.isInteger(events[0].id)).toBe(true)
    expect(events[1].id).toBeGreaterThan(events[0].id)
  })

  it("commits an event with its transaction or not at all", async () => {
    const org = await app.newOrg()
    const failed = await engine().runPromiseExit(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const events = yield* Events
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* events.append(org.id, [{ type: "offering.updated", data: { n: 1 } }])
            return yield* Effect.fail("rolled back")
          })
        )
      })
    )
    expect(failed._tag).toBe("Failure")
    await engine().runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.withTransaction(
          Effect.flatMap(Events, (events) => events.append(org.id, [{ type: "offering.updated", data: { n: 2 } }]))
        )
      )
    )
    expect((await allEvents(app, org.key)).map((e) => e.data)).toEqual([{ n: 2 }])
  })
})

describe("events.list", () => {
  it("serves an event only once it is 2 seconds old by the engine clock", async () => {
    const org = await app.newOrg()
    await offerings(app, org.key).create({ name: "Yoga", kind: "class" })
    expect(await page(org.key, "?after=0")).toEqual({ data: [], next_after: 0 })
    await app.advance(1)
    expect(await page(org.key, "?after=0")).toEqual({ data: [], next_after: 0 })
    await app.advance(1)
    const served = await page(org.key, "?after=0")
    expect(served.data.map((e) => e.type)).toEqual(["offering.created"])
    expect(served.next_after).toBe(served.data[0].id)
  })

  it("starts at after=0 (or without after) and pages with next_after", async () => {
    const { org } = await withEvents(4)
    const all = await page(org.key, "?after=0")
    expect(all.data).toHaveLength(5)
    expect(await page(org.key, "")).toEqual(all)
    const ids = all.data.map((e) => e.id)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    const first = await page(org.key, "?after=0&limit=2")
    expect(first.data.map((e) => e.id)).toEqual(ids.slice(0, 2))
    expect(first.next_after).toBe(ids[1])
    const second = await page(org.key, `?after=${first.next_after}&limit=2`)
    expect(second.data.map((e) => e.id)).toEqual(ids.slice(2, 4))
    const third = await page(org.key, `?after=${second.next_after}&limit=2`)
    expect(third.data.map((e) => e.id)).toEqual(ids.slice(4))
    expect(third.next_after).toBe(ids[4])
    expect(await page(org.key, `?after=${third.next_after}&limit=2`)).toEqual({ data: [], next_after: ids[4] })
    expect(await page(org.key, "?after=999999999")).toEqual({ data: [], next_after: 999999999 })
  })

  it("serves 50 by default and at most 200", async () => {
    const { org } = await withEvents(209)
    const first = await page(org.key, "?after=0")
    expect(first.data).toHaveLength(50)
    expect((await page(org.key, "?after=0&limit=200")).data).toHaveLength(200)
    expect((await page(org.key, "?after=0&limit=1")).data).toHaveLength(1)
    expectError(await app.call(org.key, "GET", "/api/v1/events?limit=201"), 400, "invalid_limit")
  })

  it.each([
    ["limit=0", "invalid_limit"],
    ["limit=-5", "invalid_limit"],
    ["limit=1.5", "invalid_limit"],
    ["limit=ten", "invalid_limit"],
    ["after=-1", "invalid_after"],
    ["after=1.5", "invalid_after"],
    ["after=abc", "invalid_after"],
    ["after=", "invalid_after"],
    ["after=99999999999999999999", "invalid_after"],
    ["order=newest", "invalid_order"],
    ["type=Offering", "invalid_type"],
    ["type=offering", "invalid_type"]
  ])("refuses %s with 400 %s", async (query, code) => {
    const org = await app.newOrg()
    expectError(await app.call(org.key, "GET", `/api/v1/events?${query}`), 400, code)
  })

  it("filters by type", async () => {
    const org = await app.newOrg()
    const api = offerings(app, org.key)
    const a = await api.create({ name: "A", kind: "rental" })
    await api.patch(a.id, { name: "A2" })
    await api.create({ name: "B", kind: "rental" })
    await app.call(org.key, "PUT", "/api/v1/waiver", { text: "w" })
    await app.advance(3)
    expect((await page(org.key, "?type=offering.created")).data.map((e) => e.data.name)).toEqual(["A", "B"])
    expect((await page(org.key, "?type=offering.updated")).data.map((e) => e.data.name)).toEqual(["A2"])
    expect((await page(org.key, "?type=waiver.updated")).data).toHaveLength(1)
    expect(await page(org.key, "?type=booking.confirmed&after=0")).toEqual({ data: [], next_after: 0 })
    const filtered = await page(org.key, "?type=offering.created&limit=1")
    expect(
      (await page(org.key, `?type=offering.created&after=${filtered.next_after}`)).data.map((e) => e.data.name)
    ).toEqual(["B"])
  })

  it("serves newest first with order=desc; next_after is the newest served", async () => {
    const { org } = await withEvents(4)
    const asc = (await page(org.key, "?after=0")).data.map((e) => e.id)
    const desc = await page(org.key, "?after=0&order=desc")
    expect(desc.data.map((e) => e.id)).toEqual([...asc].reverse())
    expect(desc.next_after).toBe(asc[4])
    const newestTwo = await page(org.key, "?after=0&order=desc&limit=2")
    expect(newestTwo.data.map((e) => e.id)).toEqual([asc[4], asc[3]])
    expect(newestTwo.next_after).toBe(asc[4])
    const sinceSecond = await page(org.key, `?after=${asc[1]}&order=desc`)
    expect(sinceSecond.data.map((e) => e.id)).toEqual([asc[4], asc[3], asc[2]])
    expect(await page(org.key, `?after=${asc[4]}&order=desc`)).toEqual({ data: [], next_after: asc[4] })
    expect((await page(org.key, "?after=0&order=asc")).data.map((e) => e.id)).toEqual(asc)
  })

  it("never skips an event committed later with a lower id (concurrent writers, polling cursor)", async () => {
    const org = await app.newOrg()
    const WRITERS = 20
    const millis = (max: number) => Effect.sleep(`${Math.floor(Math.random() * max)} millis`)
    // Starts staggered over the poller's first five polls (not over wall time, which a loaded machine stretches) keep
    // the poller reading while some transactions are open and others have committed.
    let polls = 0
    const pollsReached = (k: number) =>
      Effect.promise(async () => {
        while (polls < k) await new Promise((r) => setTimeout(r, 5))
      })
    const writer = (n: number) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const events = yield* Events
        yield* pollsReached(1 + (n % 5))
        yield* millis(100)
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* events.append(org.id, [{ type: "offering.updated", data: { n } }])
            yield* millis(50)
          })
        )
      })
    let done = false
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, n) => engine().runPromise(writer(n)))).finally(
      () => {
        done = true
      }
    )
    const seen: number[] = []
    let after = 0
    const poll = async () => {
      await app.advance(3)
      const res = await page(org.key, `?after=${after}&limit=7`)
      seen.push(...res.data.map((e) => e.data.n as number))
      expect(res.next_after).toBeGreaterThanOrEqual(after)
      after = res.next_after
      return res.data.length
    }
    while (!done) polls += (await poll(), 1)
    await writers
    expect(polls).toBeGreaterThan(1)
    while ((await poll()) > 0) {
      /* drain */
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: WRITERS }, (_, n) => n))
  })

  it("does not pass an open transaction's event when a later one commits first", async () => {
    const org = await app.newOrg()
    let appended!: () => void
    const isAppended = new Promise<void>((resolve) => (appended = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const append = (n: number, hold: Effect.Effect<void>) =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const events = yield* Events
        yield* sql.withTransaction(
          Effect.zipRight(events.append(org.id, [{ type: "offering.updated", data: { n } }]), hold)
        )
      })
    // First: appends (lower id), then stays open until released.
    const first = engine().runPromise(
      append(
        1,
        Effect.zipRight(
          Effect.sync(() => appended()),
          Effect.promise(() => released)
        )
      )
    )
    await isAppended
    // Second: appends after it and commits at once, unless it must wait for the first.
    const second = engine().runPromise(append(2, Effect.void))
    await new Promise((r) => setTimeout(r, 100))
    // PGlite has one connection, so there the poll itself waits for the first to commit.
    const timer = setTimeout(release, 400)
    await app.advance(3)
    const early = await page(org.key, "?after=0")
    release()
    clearTimeout(timer)
    await Promise.all([first, second])
    await app.advance(3)
    const rest = await page(org.key, `?after=${early.next_after}`)
    expect([...early.data, ...rest.data].map((e) => e.data.n)).toEqual([1, 2])
  })

  it("keeps orgs apart", async () => {
    const { org } = await withEvents(2)
    const other = await app.newOrg()
    expect(await page(other.key, "?after=0")).toEqual({ data: [], next_after: 0 })
    expect((await page(org.key, "?after=0")).data).toHaveLength(3)
  })
})
