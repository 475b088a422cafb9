import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Reply, startApp, type TestApp } from "../../support/app.ts"
import { advanceTo, expectError, newOrg, type Org, ok, PIN } from "../calendar/helpers.ts"

// One request must never stop the engine: dates are bounded where they enter, and every loop over dates is
// bounded by count. Each request here used to spin at 100% CPU until the heap ran out.
let app: TestApp
let org: Org
let klass: { id: string }
let rental: { id: string }
beforeAll(async () => {
  app = await startApp()
  await advanceTo(app, PIN)
  org = await newOrg(app)
  klass = await org.klass()
  rental = await org.offering({ kind: "rental", duration_minutes: 60 })
})
afterAll(() => app.close())

/** The reply within 5 s, then proof that the engine still answers everyone. */
const answered = async (run: () => Promise<Reply>) => {
  const res = await Promise.race([
    run(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer within 5 s")), 5_000))
  ])
  const ready = await fetch(`${app.url}/readyz`)
  expect(ready.status).toBe(200)
  return res
}

describe("dates at the far edge of the calendar", () => {
  it.each(["daily", "weekly", "weekdays", "monthly", "yearly"])(
    "series.create starting 9999-12-31, repeat %s: 400, and the engine answers",
    async (repeat) => {
      const res = await answered(() =>
        org.series.create({
          offering_id: klass.id,
          starts_on: "9999-12-31",
          start_time: "09:00",
          end_time: "10:00",
          repeat
        })
      )
      expectError(res, 400, "invalid_starts_on")
    }
  )

  it("series.create ending 9999-12-31 is refused past 2999 with a message that says so", async () => {
    const res = await answered(() =>
      org.series.create({
        offering_id: klass.id,
        starts_on: "2040-01-10",
        start_time: "09:00",
        end_time: "10:00",
        repeat: "daily",
        ends_on: "9999-12-31"
      })
    )
    expectError(res, 400, "invalid_ends_on")
    expect(res.body.error.message).toContain("2999-12-31")
  })

  it("series.create ending 2999-12-31 repeats daily and makes about a year of times", async () => {
    const res = await answered(() =>
      org.series.create({
        offering_id: klass.id,
        starts_on: "2040-01-10",
        start_time: "09:00",
        end_time: "10:00",
        repeat: "daily",
        ends_on: "2999-12-31"
      })
    )
    const entry = ok(res, 201)
    expect(entry.made_until).toBe("2041-01-01")
  })

  it("series.create starting more than 730 days ahead is 400 invalid_starts_on; 730 days ahead is fine", async () => {
    expectError(
      await answered(() =>
        org.series.create({
          offering_id: klass.id,
          starts_on: "2042-01-02",
          start_time: "09:00",
          end_time: "10:00",
          repeat: "weekly"
        })
      ),
      400,
      "invalid_starts_on"
    )
    ok(
      await org.series.create({
        offering_id: klass.id,
        starts_on: "2042-01-01",
        start_time: "09:00",
        end_time: "10:00",
        repeat: "weekly"
      }),
      201
    )
  })

  it("series.update cannot move an entry to 9999-12-31", async () => {
    const entry = ok(
      await org.series.create({
        offering_id: klass.id,
        starts_on: "2040-02-01",
        start_time: "09:00",
        end_time: "10:00",
        repeat: "daily"
      }),
      201
    )
    const res = await answered(() => org.call("PATCH", `/series/${entry.id}`, { starts_on: "9999-12-31" }))
    expectError(res, 400, "invalid_starts_on")
  })

  it("availability at the end of year 2999 answers at once; 9999 is refused", async () => {
    ok(await answered(() => org.call("GET", `/offerings/${rental.id}/availability?from=2999-12-20&to=2999-12-31`)))
    expectError(
      await answered(() => org.call("GET", `/offerings/${rental.id}/availability?from=9999-12-20&to=9999-12-31`)),
      400,
      "invalid_from"
    )
  })
})

describe("metadata is bounded where it enters, so no event can outgrow the bus", () => {
  it("an offering with 1.1 MB of metadata is 400 invalid_metadata and nothing is stored", async () => {
    const before = ok(await org.call("GET", "/offerings")).data.length
    const res = await answered(() =>
      org.call("POST", "/offerings", { name: "Big", kind: "class", metadata: { blob: "x".repeat(1_100_000) } })
    )
    expectError(res, 400, "invalid_metadata")
    expect(res.body.error.message.length).toBeLessThan(300)
    expect(ok(await org.call("GET", "/offerings")).data.length).toBe(before)
  })

  it("16 KB of metadata is kept; one byte more is refused", async () => {
    const fill = (n: number) => ({ k: "x".repeat(n - JSON.stringify({ k: "" }).length) })
    ok(await org.call("POST", "/offerings", { name: "Full", kind: "class", metadata: fill(16_384) }), 201)
    expectError(
      await org.call("POST", "/offerings", { name: "Over", kind: "class", metadata: fill(16_385) }),
      400,
      "invalid_metadata"
    )
  })
})
