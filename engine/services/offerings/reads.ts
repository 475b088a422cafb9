import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Signals } from "../../ports/Signals.ts"
import type { OfferingRow } from "../../store/offerings.ts"
import { ofOrg } from "../../store/tenancy.ts"

/** The channel of rules/offerings_changed.sql: the id of every offering a commit changed. */
export const OFFERINGS_CHANNEL = "offerings_changed"
/** An offering read is remembered at most this long per instance (a bound for what no notice covers). */
export const OFFERING_CACHE_MS = 5_000
export const OFFERING_CACHE_MAX = 10_000

/**
 * The offerings this instance read lately for GET /offerings/{id} (a live offering's row, by id), forgotten on every
 * instance when a commit changes the row: the change's own transaction sends the notice (rules/offerings_changed.sql),
 * and the instance that made the change forgets at once too (`forget`, after its transaction), before it answers.
 * Another org's id is answered as the database would (nothing); a paused offering is its row; a deleted one is not
 * read. While this instance does not listen, nothing new is remembered (notices may be missed), and on every reset of
 * the listener everything is forgotten.
 */
export class OfferingReads extends Effect.Service<OfferingReads>()("OfferingReads", {
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const signals = yield* Signals
    const rows = new Map<string, { readonly row: OfferingRow; readonly at: number }>()
    // Counts what was forgotten: a read begun before a change that returns after it is not remembered.
    let changes = 0
    const drop = (id: string) => {
      changes++
      rows.delete(id.toLowerCase())
    }
    yield* signals.listen(OFFERINGS_CHANNEL, {
      onMessage: drop,
      onReset: () => {
        changes++
        rows.clear()
      }
    })

    /** The live offering `id` of the org, or nothing (unknown, deleted, or another org's). */
    const get = (orgId: string, id: string): Effect.Effect<Option.Option<OfferingRow>> => {
      const key = id.toLowerCase()
      const hit = rows.get(key)
      if (hit !== undefined && Date.now() - hit.at < OFFERING_CACHE_MS)
        return Effect.succeed(hit.row.org_id === orgId ? Option.some(hit.row) : Option.none())
      const since = changes
      return sql<OfferingRow>`
        select * from offerings where id = ${id}::uuid and ${ofOrg(sql, "org_id", orgId)} and deleted_at is null`.pipe(
        Effect.orDie,
        Effect.map((found) => {
          const row = found[0]
          if (row !== undefined && since === changes && signals.listening()) {
            if (rows.size >= OFFERING_CACHE_MAX) rows.clear()
            rows.set(key, { row, at: Date.now() })
          }
          return Option.fromNullable(row)
        })
      )
    }

    /** Forgets the offering here at once: for the instance that changed it, once its transaction is over. */
    const forget = (id: string) => Effect.sync(() => drop(id))

    return { get, forget } as const
  })
}) {}
