import { describe, expect, it } from "vitest"
import { upgrade } from "../../support/migrations.ts"

/**
 * Migration 0092 moves the relay's progress from events.relayed_at to relay_queue: a database that still has events
 * waiting for the bus when it is upgraded must queue exactly those, so none is lost and none goes out twice.
 */
describe("migration 0092 (relay queue)", () => {
  it("queues the events not yet relayed, and only those", async () => {
    const after = await upgrade(
      "0091_places_fast_path",
      "0092_relay_queue",
      (sql) =>
        sql`insert into events (id, org_id, type, data, created_at, relayed_at)
          select g, gen_random_uuid(), 'org.updated', '{}'::jsonb, now(), case when g % 3 = 0 then null else now() end
          from generate_series(1, 30) g`,
      (sql) =>
        sql<{ queued: Array<string>; column: number }>`select
          array(select q.event_id::text from relay_queue q order by q.event_id) as queued,
          (select count(*)::int from information_schema.columns where table_name = 'events' and column_name = 'relayed_at') as column`
    )
    expect(after[0].queued.map(Number)).toEqual([3, 6, 9, 12, 15, 18, 21, 24, 27, 30])
    expect(after[0].column).toBe(0)
  }, 120_000)
})
