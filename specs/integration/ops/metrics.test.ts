import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, type TestApp } from "../../support/app.ts"
import { bookingsOrg, guest, ok, startPinned } from "../bookings/helpers.ts"

let app: TestApp
beforeAll(async () => {
  app = await startPinned()
})
afterAll(() => app.close())

const scrape = async () => {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toContain("text/plain")
  return res.text()
}
/** The value of one sample, by its name and labels as Prometheus prints them. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe("GET /metrics", () => {
  it("is for the admin token only", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401)
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: "Bearer nope" } })).status).toBe(401)
  })

  it("counts requests by operation and status, times them, and reads bookings, backlogs and the pool", async () => {
    const before = await scrape()
    const created = (series: string) => sample(before, series) ?? 0
    const org = await bookingsOrg(app)
    const { offering, session } = await org.classWithSession({ capacity: 1 })
    ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(1) }), 201)
    expect((await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(2) })).status).toBe(409)
    const after = await scrape()
    expect(sample(after, 'http_requests_total{operation="bookings.create",status="201"}')).toBe(
      created('http_requests_total{operation="bookings.create",status="201"}') + 1
    )
    expect(sample(after, 'http_requests_total{operation="bookings.create",status="409"}')).toBe(
      created('http_requests_total{operation="bookings.create",status="409"}') + 1
    )
    expect(sample(after, 'http_request_duration_seconds_count{operation="bookings.create"}')).toBeGreaterThanOrEqual(2)
    expect(sample(after, 'bookings{status="confirmed"}')).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'outbox_backlog{outbox="mail"}')).toBeGreaterThanOrEqual(0)
    expect(sample(after, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1)
    expect(after).toContain("process_cpu_seconds_total")
  })
})
