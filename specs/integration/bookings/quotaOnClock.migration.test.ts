import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { upgrade } from "../../support/migrations.ts"

const org = (n: number) => `00000000-0000-0000-0000-${String(n).padStart(12, "0")}`

/**
 * Migration 0094 moves the month's quota from booking_quota onto org_events: each org's latest month carries over
 * (its count and quota), an org with a clock row keeps its last_at, and an org with a quota row but no clock row gets
 * one (at the epoch, so it never holds its next events' stamps back).
 */
describe("migration 0094 (quota on the event clock)", () => {
  it("carries each org's latest month over, and keeps the clock", async () => {
    const after = await upgrade(
      "0093_mail_queue",
      "0094_quota_on_clock",
      (sql) =>
        Effect.zipRight(
          sql`insert into booking_quota (org_id, month, used, quota) values
            (${org(1)}, '2026-10', 25, 25), (${org(1)}, '2026-11', 3, 25), (${org(2)}, '2026-11', 7, 1000)`,
          sql`insert into org_events (org_id, last_at) values (${org(1)}, '2026-11-20T10:00:00Z'), (${org(3)}, '2026-11-21T10:00:00Z')`
        ),
      (sql) =>
        sql<{ org_id: string; last_at: Date; month: string; used: number; quota: number }>`
          select org_id::text, last_at, month, used, quota from org_events order by org_id`
    )
    expect(after.map((r) => [Number(r.org_id.slice(-12)), r.last_at.toISOString(), r.month, r.used, r.quota])).toEqual([
      [1, "2026-11-20T10:00:00.000Z", "2026-11", 3, 25],
      [2, "1970-01-01T00:00:00.000Z", "2026-11", 7, 1000],
      [3, "2026-11-21T10:00:00.000Z", "", 0, 2147483647]
    ])
  }, 120_000)
})
