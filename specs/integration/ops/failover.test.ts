import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PostgresLive } from "../../../adapters/db/postgres.ts"
import { Signals } from "../../../engine/ports/Signals.ts"
import { startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"
import { type PgPair, startPgPair } from "../../support/pgCluster.ts"

// A primary and a synchronous streaming standby of our own; the engine on libpq's multi-host URL
// (target_session_attrs=read-write). Under steady bookings the primary crashes and the standby is promoted.
let pair: PgPair
let app: TestApp | undefined

beforeAll(async () => {
  pair = await startPgPair()
}, 90_000)
afterAll(async () => {
  await app?.close()
  await pair?.dispose()
})

interface Answer {
  readonly status: number
  readonly at: number
  readonly id?: string
  readonly retryAfter: string | null
}

describe("Postgres failover", () => {
  it("answers 503 with Retry-After while no host takes writes, serves within 10 s of the promote and loses no booking", async () => {
    app = await startApp({}, { databaseLayer: PostgresLive(pair.url, 10, 1_000) })
    const org = await app.newOrg({ plan: "scale" })
    const offering = (
      await app.call(org.key, "POST", "/api/v1/offerings", { name: "Row", kind: "class", capacity: 5000 })
    ).body
    const startsAt = `${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13)}:00:00.000Z`
    const session = (
      await app.call(org.key, "POST", "/api/v1/sessions", { offering_id: offering.id, starts_at: startsAt })
    ).body.data[0]

    const answers: Array<Answer> = []
    let stop = false
    let n = 0
    const worker = async () => {
      while (!stop) {
        const i = n++
        const res = await app!
          .call(
            org.key,
            "POST",
            "/api/v1/bookings",
            {
              offering_id: offering.id,
              session_id: session.id,
              customer: { email: `g${i}@example.com`, name: `G ${i}` }
            },
            { "idempotency-key": randomUUID() }
          )
          .catch(() => undefined)
        answers.push({
          status: res?.status ?? 0,
          at: Date.now(),
          id: res?.status === 201 ? res.body.id : undefined,
          retryAfter: res?.headers.get("retry-after") ?? null
        })
        if (res !== undefined && res.status !== 201) await new Promise((r) => setTimeout(r, 100))
      }
    }
    const workers = Array.from({ length: 4 }, worker)
    await new Promise((r) => setTimeout(r, 2_000))
    const crashedAt = Date.now()
    await pair.crashPrimary()
    await new Promise((r) => setTimeout(r, 1_000))
    const promotedAt = Date.now()
    await pair.promoteStandby()
    const promoted = Date.now()
    const servedAgain = async () => {
      while (!answers.some((a) => a.status === 201 && a.at > promoted)) await new Promise((r) => setTimeout(r, 50))
    }
    await Promise.race([servedAgain(), new Promise((r) => setTimeout(r, 15_000))])
    await new Promise((r) => setTimeout(r, 2_000))
    stop = true
    await Promise.all(workers)

    const before = answers.filter((a) => a.at < crashedAt && a.status === 201)
    const failed = answers.filter((a) => a.status !== 201)
    const firstAfter = answers.find((a) => a.status === 201 && a.at > promoted)
    const pauseMs = (firstAfter?.at ?? Number.POSITIVE_INFINITY) - crashedAt
    console.log(
      `Postgres failover: ${answers.length} requests, ${before.length} booked before the crash, ${failed.length} answered 503; ` +
        `promote took ${promoted - promotedAt} ms; serving again ${(firstAfter?.at ?? Number.NaN) - promoted} ms after the promote, ${pauseMs} ms after the crash`
    )
    expect(before.length).toBeGreaterThan(10)
    // Never a 500: while no host takes writes, 503 with Retry-After.
    expect(failed.filter((a) => a.status !== 503)).toEqual([])
    expect(failed.filter((a) => a.retryAfter === null)).toEqual([])
    expect(firstAfter).toBeDefined()
    expect(firstAfter!.at - promoted).toBeLessThan(10_000)

    // Every booking answered 201 is on the new primary, once; the places add up.
    const listed = new Set<string>()
    for (let after = ""; ; ) {
      const page = await app.call(org.key, "GET", `/api/v1/bookings?session_id=${session.id}&limit=500${after}`)
      expect(page.status).toBe(200)
      for (const b of page.body.data as Array<{ id: string }>) listed.add(b.id)
      if (page.body.next_after === null) break
      after = `&after=${page.body.next_after}`
    }
    const booked = answers.filter((a) => a.status === 201).map((a) => a.id!)
    expect(booked.filter((id) => !listed.has(id))).toEqual([])
    const sessions = (await app.call(org.key, "GET", `/api/v1/sessions?offering_id=${offering.id}`)).body.data
    expect(sessions[0].booked).toBe(listed.size)

    // The LISTEN connection moved: a NOTIFY through the pool comes round to it on the new primary.
    const heard = await runEngine(
      app,
      Effect.flatMap(Signals, (s) => s.sync.pipe(Effect.map((ok) => ok && s.listening()))).pipe(
        Effect.retry({ times: 20 }),
        Effect.timeout("20 seconds")
      )
    )
    expect(heard).toBe(true)
  }, 90_000)
})
