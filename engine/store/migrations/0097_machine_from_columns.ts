import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const iso = (column: string) => `to_jsonb(to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`
const FIELDS = [
  "starts_at",
  "ends_at",
  "expires_at",
  "confirmed_at",
  "cancelled_at",
  "nudged_at",
  "choose_by",
  "paid_at",
  "checked_in_at",
  "no_show_at"
]

/**
 * From now on a booking's lifecycle columns are derived from its machine's context at each transition
 * (engine/store/bookingRow.ts, lifecycleColumns). Until now a few were written beside it and could differ from it: a
 * booking a gift card paid in full kept paid_at in its column only. Each machine context takes the columns' values,
 * so that no transition of a booking made before changes them; a booking paid in full by its gift card also counts
 * as paid other than by hand (paid_online_at), as new ones do.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const values = FIELDS.map((f) => `'${f}', case when ${f} is null then 'null'::jsonb else ${iso(f)} end`).join(", ")
  yield* sql.unsafe(`
    update bookings set machine = machine || jsonb_build_object(${values}, 'session_id', session_id, 'previous', coalesce(previous, 'null'::jsonb))
      || case when paid_at is not null and not coalesce((machine->>'paid_by_hand')::boolean, false) and machine->>'paid_online_at' is null
           then jsonb_build_object('paid_online_at', ${iso("paid_at")}) else '{}'::jsonb end`)
})
