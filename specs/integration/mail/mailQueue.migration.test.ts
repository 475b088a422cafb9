import { describe, expect, it } from "vitest"
import { upgrade } from "../../support/migrations.ts"

/**
 * Migration 0093 moves what is due from a partial index of mail_outbox to mail_queue: mail not yet sent nor given up
 * when the database is upgraded must be queued at its next attempt (a leased one at its lease's end, which is what
 * next_at held), and nothing else.
 */
describe("migration 0093 (mail queue)", () => {
  it("queues the mail still to send, due when its next attempt was, and only that", async () => {
    const after = await upgrade(
      "0092_relay_queue",
      "0093_mail_queue",
      (sql) =>
        sql`insert into mail_outbox (id, org_id, to_address, subject, body, kind, created_at, attempts, next_at, sent_at, failed_at)
          select ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid, gen_random_uuid(), 'g' || g || '@example.com', 's', 'b', 'test',
            '2026-11-01T00:00:00Z'::timestamptz, 0,
            case g % 3 when 0 then '2026-11-01T00:10:00Z'::timestamptz + (g || ' minutes')::interval else null end,
            case g % 3 when 1 then '2026-11-01T00:01:00Z'::timestamptz end,
            case g % 3 when 2 then '2026-11-01T00:02:00Z'::timestamptz end
          from generate_series(1, 9) g`,
      (sql) => sql<{ mail_id: string; due_at: Date }>`select mail_id::text, due_at from mail_queue order by mail_id`
    )
    expect(after.map((r) => [Number(r.mail_id.slice(-12)), r.due_at.toISOString()])).toEqual([
      [3, "2026-11-01T00:13:00.000Z"],
      [6, "2026-11-01T00:16:00.000Z"],
      [9, "2026-11-01T00:19:00.000Z"]
    ])
  }, 120_000)
})
