import { sql, type TestApp } from "../../support/app.ts"

// Shared by relay.test.ts, relay.nats.test.ts and relay.pg.nats.test.ts.

export const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id)
export const increasing = (xs: Array<number>) => xs.every((x, i) => i === 0 || x > xs[i - 1])

/** The org's events in the outbox, in id order, and whether each was relayed. */
export const orgEvents = (app: TestApp, orgId: string) =>
  sql(app, (s) => s<{ id: number; relayed: boolean }>`select id, relayed_at is not null as relayed from events where org_id = ${orgId} order by id`)
export const allRelayed = (app: TestApp, orgId: string) => async () => (await orgEvents(app, orgId)).every((e) => e.relayed)
