import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { sql } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, guest, startPinned, type TestApp } from "./helpers.ts"

// Shared by the concurrency suites: concurrency.test.ts (any database) and concurrency.pg.test.ts (real Postgres only).

/** The app the races run on: pinned clock, one scale-plan org so quotas never get in the way. */
export const startRacing = async (): Promise<{ app: TestApp; org: BookingsOrg }> => {
  const app = await startPinned()
  return { app, org: await bookingsOrg(app, { plan: "scale" }) }
}

/** Live bookings of an offering (confirmed, or holds still keeping their place by the engine clock), from the table. */
export const liveRows = async (app: TestApp, org: BookingsOrg, offeringId: string) => {
  const now = await org.now()
  return sql(
    app,
    (s) => s<{ id: string; quantity: number; session_id: string | null; starts_at: Date; ends_at: Date }>`
    select id, quantity, session_id, starts_at, ends_at from bookings
    where offering_id = ${offeringId} and keeps_place and (status = 'confirmed' or expires_at > ${now})`
  )
}

/** The i-th racer: 37 distinct guests per prefix, so many requests come from returning customers. */
export const customers = (prefix: string, i: number) => guest(`${prefix}-${i % 37}`, `Racer ${i % 37}`)

/** A row the test locks: which table, which id. */
export interface Locked {
  readonly table: "bookings" | "offerings" | "sessions"
  readonly id: string
}

/**
 * Stages a deadlock (real Postgres only): a transaction of the test's own locks `first`, then `request` is sent; once
 * a statement of the request that starts with `waiting` waits for a lock, the transaction asks for `second`. If the
 * request's transaction holds `second` and waits for `first`, Postgres ends the one that waited first (the request's)
 * and the test's goes on and commits. Returns the request's answer.
 */
export const crossLocks = async <A>(
  app: TestApp,
  first: Locked,
  second: Locked,
  waiting: string,
  request: () => Promise<A>
): Promise<A> => {
  let go = () => {}
  const crossing = new Promise<void>((resolve) => (go = resolve))
  let locked = () => {}
  const isLocked = new Promise<void>((resolve) => (locked = resolve))
  const holder = app.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (q) =>
      q.withTransaction(
        Effect.gen(function* () {
          // The operation must be the one Postgres ends: it waited first, but under load the holder's own deadlock
          // check (1 s by default) could come first, so the holder's is put past the operation's.
          yield* q`set local deadlock_timeout = '30s'`
          yield* q`select id from ${q(first.table)} where id = ${first.id} for update`
          locked()
          yield* Effect.promise(() => crossing)
          yield* q`select id from ${q(second.table)} where id = ${second.id} for update`
        })
      )
    ).pipe(Effect.orDie)
  )
  await isLocked
  const answer = request()
  const waits = async () =>
    (
      await sql(
        app,
        (q) => q<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`${waiting}%`}`
      )
    )[0].n
  for (let i = 0; i < 100 && (await waits()) === 0; i++) await new Promise((r) => setTimeout(r, 50))
  go()
  await holder
  return answer
}
