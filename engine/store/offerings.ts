import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { OfferingAccepted, OfferingState } from "../machines/offering.ts"
import type { Kind, Question } from "../schema/offering.ts"

// The store of `offerings` and `offering_photos`: the only code that writes them. An offering's lifecycle columns
// change only through the offering machine, and `columnsOf` is the one place they are derived from its result.

export interface StoredHours {
  readonly weekday: number
  readonly start_time: string
  readonly end_time: string
}

export interface OfferingRow {
  readonly id: string
  readonly org_id: string
  readonly kind: Kind
  readonly name: string
  readonly description: string
  readonly location: string
  readonly duration_minutes: number
  readonly capacity: number
  readonly max_per_booking: number
  readonly price_cents: number
  readonly guest_price_cents: number | null
  readonly deposit_cents: number | null
  readonly deposit_percent: number | null
  readonly slot_interval_minutes: number | null
  readonly buffer_minutes: number
  readonly min_notice_minutes: number
  readonly max_advance_days: number
  readonly max_periods: number
  readonly state: OfferingState
  readonly metadata: Record<string, unknown>
  readonly lat: number | null
  readonly lon: number | null
  readonly place_id: string | null
  readonly gauge_site: string | null
  readonly schedule: "hours" | "calendar" | null
  readonly waiver_required: boolean
  readonly waitlist_enabled: boolean
  readonly course: boolean
  readonly questions: ReadonlyArray<Question>
  readonly hours: ReadonlyArray<StoredHours> | null
  readonly photo_url: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
}

/** The columns of a machine state reached at `at`: the one derivation of an offering's lifecycle columns. */
export const columnsOf = (
  state: OfferingState,
  at: Date
): { readonly state: OfferingState; readonly deleted_at?: Date } =>
  state === "removed" ? { state, deleted_at: at } : { state }

/** Columns no machine decides (the lifecycle ones come from `columnsOf` only). */
export type OfferingChanges = { readonly [column: string]: unknown } & {
  readonly state?: never
  readonly deleted_at?: never
}

export interface Photo {
  readonly offering_id: string
  readonly org_id: string
  readonly bytes: Buffer
  readonly width: number
  readonly height: number
  readonly etag: string
  readonly updated_at: Date
}

export const offeringStore = (sql: SqlClient.SqlClient) => {
  /** A new offering in the state the machine started it in; returns the row. */
  const insert = (
    values: OfferingChanges & { readonly id: string; readonly org_id: string; readonly created_at: Date },
    started: OfferingAccepted
  ) =>
    sql<OfferingRow>`insert into offerings ${sql.insert({ ...values, ...columnsOf(started.state, values.created_at) })} returning *`.pipe(
      Effect.map((rows) => rows[0])
    )

  /** Writes `changes` and, with an accepted machine result, the columns it decides; returns the row after. */
  const update = (id: string, changes: OfferingChanges, at: Date, decided?: OfferingAccepted) =>
    sql<OfferingRow>`update offerings set ${sql.update({
      ...changes,
      ...(decided === undefined ? {} : columnsOf(decided.state, at)),
      updated_at: at
    })} where id = ${id} returning *`.pipe(Effect.map((rows) => rows[0]))

  /** Keeps the offering's photo (one per offering: a new one replaces it). */
  const putPhoto = (photo: Photo) =>
    sql`insert into offering_photos ${sql.insert({ ...photo })}
      on conflict (offering_id) do update set bytes = excluded.bytes, width = excluded.width, height = excluded.height, etag = excluded.etag, updated_at = excluded.updated_at`.pipe(
      Effect.asVoid
    )

  const deletePhoto = (offeringId: string) =>
    sql`delete from offering_photos where offering_id = ${offeringId}`.pipe(Effect.asVoid)

  return { insert, update, putPhoto, deletePhoto } as const
}

export type OfferingStore = ReturnType<typeof offeringStore>
