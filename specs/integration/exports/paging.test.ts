import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EXPORT_PAGE_ROWS } from "../../../engine/schema/export.ts"
import { CurrentOrg } from "../../../engine/services/CurrentOrg.ts"
import { Exports } from "../../../engine/services/exports/Exports.ts"
import type { CsvExport } from "../../../engine/services/exports/plan.ts"
import { pages } from "../../../transports/http/exportReply.ts"
import { send } from "../../../transports/shared/reply.ts"
import { sql } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, ok, startPinned, type TestApp } from "../bookings/helpers.ts"
import { csv } from "./helpers.ts"

const BOOKINGS = 5000

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { timezone: "America/New_York", currency: "USD" })
  const offering = await org.offering({ name: "Busy", kind: "class", capacity: 10 })
  const session = await org.session(offering.id, new Date("2040-01-05T15:00:00Z"))
  const first = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(1) })
  const customer = ok(await org.get(first.id)).customer_id as string
  // A busy org's bookings, written in SQL (the places trigger off: no room checks are wanted here).
  await sql(app, (s) =>
    Effect.gen(function* () {
      yield* s`alter table bookings disable trigger user`
      yield* s`insert into bookings (id, org_id, offering_id, customer_id, starts_at, ends_at, quantity, places, state,
          machine, status, keeps_place, total_cents, reference, handle, source, confirmed_at, created_at)
        select gen_random_uuid(), ${org.id}, ${offering.id}, ${customer},
          timestamptz '2040-02-01T00:00:00Z' + n * interval '7 minutes',
          timestamptz '2040-02-01T01:00:00Z' + n * interval '7 minutes', 1, 1, 'confirmed.plain', '{}'::jsonb,
          'confirmed', true, 1000 + n, 'X' || n, gen_random_uuid()::text, 'api', ${new Date("2040-01-02T12:00:00Z")},
          ${new Date("2040-01-02T12:00:00Z")}
        from generate_series(1, ${BOOKINGS - 1}) as n`
      yield* s`alter table bookings enable trigger user`
    })
  )
})
afterAll(() => app.close())

/** The engine's Exports service, as the dispatcher reaches it, for the org. */
const exportOf = (query: Parameters<Exports["bookings"]>[0]) =>
  (app.runtime as unknown as { runPromise: <A>(e: Effect.Effect<A, unknown, unknown>) => Promise<A> }).runPromise(
    Effect.flatMap(Exports, (e) => e.bookings(query)).pipe(
      Effect.provideService(CurrentOrg, {
        id: org.id,
        timezone: "America/New_York",
        currency: "USD",
        plan: "scale",
        apiKeyId: org.keyId,
        role: "owner"
      })
    )
  )

describe("a big export", () => {
  it(`streams ${BOOKINGS} bookings over HTTP: every one once, in the list's order`, async () => {
    const file = await csv(app, org.key, "bookings.csv")
    expect(file.rows.length).toBe(BOOKINGS)
    const ids = await sql(
      app,
      (s) => s<{ id: string }>`select id::text as id from bookings where org_id = ${org.id} order by starts_at, id`
    )
    expect(file.rows.map((r) => r.id)).toEqual(ids.map((r) => r.id))
    expect(file.rows[BOOKINGS - 1]).toMatchObject({ reference: `X${BOOKINGS - 1}`, total: "59.99" })
    expect(file.text.split("\r\n").filter((l) => l.startsWith("\uFEFF") || l.startsWith("id,"))).toHaveLength(1)
  })

  it(`reads the database a page (${EXPORT_PAGE_ROWS} rows) at a time, each only when the one before was written`, async () => {
    const plan: CsvExport = await exportOf({})
    expect(plan.first.rows.length).toBe(EXPORT_PAGE_ROWS)
    const reads: Array<number> = []
    const chunks = pages(plan, async (after, size) => {
      reads.push(size)
      return (app.runtime as unknown as { runPromise: <A>(e: Effect.Effect<A, unknown>) => Promise<A> }).runPromise(
        plan.page(after, size)
      )
    })
    const head = await chunks.next()
    expect(head.done).toBe(false)
    expect((head.value as string).split("\r\n").length - 1).toBe(EXPORT_PAGE_ROWS + 1)
    expect(reads).toEqual([])
    await chunks.next()
    expect(reads).toEqual([EXPORT_PAGE_ROWS])
    let rows = 2 * EXPORT_PAGE_ROWS
    for await (const chunk of chunks) {
      const lines = chunk.split("\r\n").length - 1
      expect(lines).toBeLessThanOrEqual(EXPORT_PAGE_ROWS)
      rows += lines
    }
    expect(rows).toBe(BOOKINGS)
    expect(reads).toEqual(Array(BOOKINGS / EXPORT_PAGE_ROWS - 1).fill(EXPORT_PAGE_ROWS))
  })

  it("with a limit, reads only the pages it needs, the last one short", async () => {
    const plan: CsvExport = await exportOf({ limit: 1200 })
    const reads: Array<number> = []
    const text: Array<string> = []
    for await (const chunk of pages(plan, async (after, size) => {
      reads.push(size)
      return (app.runtime as unknown as { runPromise: <A>(e: Effect.Effect<A, unknown>) => Promise<A> }).runPromise(
        plan.page(after, size)
      )
    }))
      text.push(chunk)
    expect(reads).toEqual([500, 200])
    expect(text.join("").split("\r\n").length - 2).toBe(1200)
  })
})

describe("a streamed answer", () => {
  let server: Server
  let pulled = 0
  let finished = false
  beforeAll(async () => {
    server = createServer((_req, res) => {
      async function* endless() {
        try {
          for (;;) {
            pulled++
            yield `${"x".repeat(64 * 1024)}\r\n`
          }
        } finally {
          finished = true
        }
      }
      send(res, { status: 200, headers: { "content-type": "text/csv" }, body: "", stream: endless() })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("is asked for chunks only as the client takes them, and no more once the client has gone", async () => {
    const controller = new AbortController()
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      signal: controller.signal
    })
    const reader = res.body!.getReader()
    await reader.read()
    await new Promise((r) => setTimeout(r, 200))
    // The socket's buffers hold a few chunks; a reader that stops reading stops the writer.
    const whileStalled = pulled
    expect(whileStalled).toBeLessThan(200)
    await new Promise((r) => setTimeout(r, 200))
    expect(pulled).toBe(whileStalled)
    controller.abort()
    await new Promise((r) => setTimeout(r, 300))
    expect(finished).toBe(true)
    const after = pulled
    await new Promise((r) => setTimeout(r, 200))
    expect(pulled).toBe(after)
  })
})
