import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Table `rate_windows`: each fixed window's request count of one limit key, shared by every instance. This store is
 * its only writer (transports/http/limits.ts leases shares of a window through it).
 */

/** Adds `lease` to the window's count (made at `lease` if new) and returns the count after. */
export const leaseWindow = (sql: SqlClient.SqlClient, key: string, windowStart: Date, lease: number) =>
  sql<{ count: number }>`
    insert into rate_windows (key, window_start, count) values (${key}, ${windowStart}, ${lease})
    on conflict (key, window_start) do update set count = rate_windows.count + ${lease}
    returning count`.pipe(
    Effect.map((rows) => rows[0].count),
    Effect.orDie
  )

/** Forgets windows that started before `before`. */
export const pruneWindows = (sql: SqlClient.SqlClient, before: Date) =>
  sql`delete from rate_windows where window_start < ${before}`.pipe(Effect.ignore)
