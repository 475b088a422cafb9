import { sql, type TestApp } from "../../support/app.ts"

// Shared by relay.test.ts, relay.nats.test.ts and relay.pg.nats.test.ts.

export const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id)
export const increasing = (xs: Array<number>) => xs.every((x, i) => i === 0 || x > xs[i - 1])

/** The org's events, in id order, and whether each was relayed (is off the relay's queue). */
export const orgEvents = (app: TestApp, orgId: string) =>
  sql(
    app,
    (s) => s<{ id: number; relayed: boolean }>`select e.id, q.event_id is null as relayed from events e
    left join relay_queue q on q.event_id = e.id where e.org_id = ${orgId} order by e.id`
  )
export const allRelayed = (app: TestApp, orgId: string) => async () =>
  (await orgEvents(app, orgId)).every((e) => e.relayed)
