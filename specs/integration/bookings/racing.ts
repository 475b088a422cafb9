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
  return sql(app, (s) => s<{ id: string; quantity: number; session_id: string | null; starts_at: Date; ends_at: Date }>`
    select id, quantity, session_id, starts_at, ends_at from bookings
    where offering_id = ${offeringId} and keeps_place and (status = 'confirmed' or expires_at > ${now})`)
}

/** The i-th racer: 37 distinct guests per prefix, so many requests come from returning customers. */
export const customers = (prefix: string, i: number) => guest(`${prefix}-${i % 37}`, `Racer ${i % 37}`)
