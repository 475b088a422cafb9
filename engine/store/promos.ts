import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { PromoCodeUpdate } from "../schema/promo.ts"

/**
 * Table `promo_codes`: each org's codes and how often each was used. This store is its only writer: the promo service
 * keeps the codes, a booking counts its code's use (and a lapsed hold gives it back) through `claimUse` and
 * `giveBackUse`.
 */

export interface PromoRow {
  readonly id: string
  readonly org_id: string
  readonly code: string
  readonly percent_off: number | null
  readonly amount_off_cents: number | null
  readonly max_uses: number | null
  readonly uses: number
  readonly starts_on: string | Date | null
  readonly ends_on: string | Date | null
  readonly offering_ids: ReadonlyArray<string> | null
  readonly active: boolean
  readonly created_at: Date
  readonly updated_at: Date | null
}

/** The column's own form of a list of offering ids (a Postgres array literal), or null for every offering. */
const offeringIdsColumn = (ids: ReadonlyArray<string> | null) => (ids === null ? null : `{${[...ids].join(",")}}`)

/** The org's code by id; `locked` holds its row to the end of the caller's transaction. */
export const promoById = (sql: SqlClient.SqlClient, orgId: string, id: string, locked = false) =>
  sql<PromoRow>`select * from promo_codes where org_id = ${orgId} and id = ${id} ${locked ? sql`for update` : sql``}`.pipe(
    Effect.map((rows) => rows[0])
  )

/** The org's code as a guest types it (codes match in any case). */
export const promoByCode = (sql: SqlClient.SqlClient, orgId: string, code: string) =>
  sql<PromoRow>`select * from promo_codes where org_id = ${orgId} and upper(code) = upper(${code})`.pipe(
    Effect.map((rows) => rows[0])
  )

/** The org's codes, oldest first. */
export const promosOf = (sql: SqlClient.SqlClient, orgId: string) =>
  sql<PromoRow>`select * from promo_codes where org_id = ${orgId} order by created_at, code`

/** A new code; fails with the unique violation when the org has the code already (in any case). */
export const insertPromo = (sql: SqlClient.SqlClient, row: PromoRow) =>
  sql`insert into promo_codes ${sql.insert({ ...row, offering_ids: offeringIdsColumn(row.offering_ids) })}`.pipe(
    Effect.asVoid
  )

/** The code with the changes given (those undefined are kept), stamped `now`. */
export const updatePromo = (sql: SqlClient.SqlClient, id: string, changes: PromoCodeUpdate, now: Date) => {
  const set = Object.fromEntries(
    Object.entries({
      ...changes,
      offering_ids:
        changes.offering_ids === undefined
          ? undefined
          : offeringIdsColumn(changes.offering_ids && [...new Set(changes.offering_ids)])
    }).filter(([, v]) => v !== undefined)
  )
  return sql<PromoRow>`update promo_codes set ${sql.update({ ...set, updated_at: now })} where id = ${id} returning *`.pipe(
    Effect.map((rows) => rows[0])
  )
}

/** Deleted for good; answers the code as it was, if the org had it. */
export const deletePromo = (sql: SqlClient.SqlClient, orgId: string, id: string) =>
  sql<PromoRow>`delete from promo_codes where org_id = ${orgId} and id = ${id} returning *`.pipe(
    Effect.map((rows) => rows[0])
  )

/** A booking's use of the code, counted if it is still active and not used up: whether it was. */
export const claimUse = (sql: SqlClient.SqlClient, id: string) =>
  sql`update promo_codes set uses = uses + 1
    where id = ${id} and active and (max_uses is null or uses < max_uses) returning uses`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** A use given back (a hold lapsed), to the org's code of that name if it still has one. */
export const giveBackUse = (sql: SqlClient.SqlClient, orgId: string, code: string) =>
  sql`update promo_codes set uses = uses - 1 where org_id = ${orgId} and upper(code) = upper(${code}) and uses > 0`.pipe(
    Effect.asVoid
  )
