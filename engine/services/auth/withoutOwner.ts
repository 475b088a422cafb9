import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Orgs whose team has no owner (made before owner_email, or whose owners all left), oldest first. */
export const orgsWithoutOwner = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: string; name: string; created_at: Date }>`
    select o.id, o.name, o.created_at from orgs o
    where not exists (select 1 from members m where m.org_id = o.id and m.role = 'owner' and m.removed_at is null)
    order by o.created_at, o.id`.pipe(Effect.orDie)
  return { data: rows.map((r) => ({ id: r.id, name: r.name, created_at: r.created_at.toISOString() })) }
})
