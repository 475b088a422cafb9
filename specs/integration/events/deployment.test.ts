import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Deployment } from "../../../engine/store/deployment.ts"
import { sql, startApp, type TestApp } from "../../support/app.ts"
import { runEngine } from "../../support/engine.ts"

// The deployment id (engine/store/deployment.ts) on the run's database, Postgres or PGlite; the bus is not needed.

const row = async (app: TestApp) =>
  (
    await sql(
      app,
      (s) => s<{ id: string; mine: boolean; n: number }>`
    select d.id, d.origin = deployment_origin() as mine,
      (select count(*)::int from deployment) as n
    from deployment d`
    )
  )[0]

const claim = (app: TestApp) =>
  runEngine(
    app,
    Effect.flatMap(Deployment, (d) => d.claim)
  )
const renew = (app: TestApp, stale: string) =>
  runEngine(
    app,
    Effect.flatMap(Deployment, (d) => d.renew(stale))
  )

describe("deployment id", () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(() => app.close())

  it("is made on start, for this database, one row; a second claim keeps it", async () => {
    const [{ origin, oid }] = await sql(
      app,
      (s) => s<{ origin: string; oid: string }>`
      select deployment_origin() as origin,
        (select oid::text from pg_database where datname = current_database()) as oid`
    )
    expect(origin).toMatch(new RegExp(`^\\d+/[0-9A-F]{8}/${oid}$`)) // cluster / timeline / database
    const first = await row(app)
    expect(first).toMatchObject({ mine: true, n: 1 })
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await claim(app)).toEqual({ id: first.id, renewed: false })
    expect(await row(app)).toEqual(first)
  })

  it("is made anew when the row was made elsewhere (a dump restored, a template copied, a PITR)", async () => {
    const before = await row(app)
    await sql(app, (s) => s`update deployment set origin = 'another cluster/00000001/16384'`)
    const claimed = await claim(app)
    expect(claimed.renewed).toBe(true)
    expect(claimed.id).not.toBe(before.id)
    expect(await row(app)).toEqual({ id: claimed.id, mine: true, n: 1 })
    expect(await claim(app)).toEqual({ id: claimed.id, renewed: false })
  })

  it("is made when the row is missing", async () => {
    await sql(app, (s) => s`delete from deployment`)
    const claimed = await claim(app)
    expect(claimed.renewed).toBe(true)
    expect(await row(app)).toEqual({ id: claimed.id, mine: true, n: 1 })
  })

  it("renews once: a renewal of an id no longer in force leaves the current one", async () => {
    const stale = (await row(app)).id
    const fresh = await renew(app, stale)
    expect(fresh).not.toBe(stale)
    expect(await renew(app, stale)).toBe(fresh)
    expect(await row(app)).toEqual({ id: fresh, mine: true, n: 1 })
  })

  it("instances claiming together after a copy agree on one new id", async () => {
    const before = (await row(app)).id
    await sql(app, (s) => s`update deployment set origin = 'another cluster/00000001/16384'`)
    const claims = await Promise.all(Array.from({ length: 4 }, () => claim(app)))
    expect(claims.filter((c) => c.renewed)).toHaveLength(1)
    expect(new Set(claims.map((c) => c.id))).toEqual(new Set([(await row(app)).id]))
    expect((await row(app)).id).not.toBe(before)
  })
})
