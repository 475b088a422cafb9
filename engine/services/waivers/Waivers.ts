import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { notFound, WaiverClosed, WaiverComplete, WaiverMissing } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import { type BookingRow, signaturesOf } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import { transaction } from "../../store/transaction.ts"
import { fn } from "../../tracing.ts"
import { Events } from "../Events.ts"
import { newSignatures } from "./sign.ts"

type Row = BookingRow & {
  readonly waiver_text: string | null
  readonly waiver_version: number
  readonly o_name: string
  readonly timezone: string
}

/**
 * waivers.get and waivers.sign: the signing link's side. The waiver token is the credential (no API key) and
 * reaches only its booking's waiver: the text, who has signed, and one more signature until every one needed is in.
 */
export class Waivers extends Effect.Service<Waivers>()("Waivers", {
  dependencies: [Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events
    const store = yield* bookingStore

    const load = (token: string, lock: boolean) =>
      Effect.gen(function* () {
        const [row] = yield* sql<Row>`
          select b.*, g.waiver_text, g.waiver_version, g.timezone, o.name as o_name
          from bookings b join orgs g on g.id = b.org_id join offerings o on o.id = b.offering_id
          where b.waiver_token = ${token} ${lock ? sql`for update of b` : sql``}`
        return row === undefined ? yield* notFound("waiver") : row
      })

    /** A waiver stops taking signatures with its booking: cancelled, or a hold that lapsed. */
    const open = (r: BookingRow) => r.status !== "cancelled" && !(r.status === "held" && !r.keeps_place)
    const view = (r: Row) => ({
      offering: r.o_name,
      reference: r.reference,
      starts_at: r.starts_at.toISOString(),
      timezone: r.timezone,
      text: r.waiver_text,
      version: r.waiver_version,
      open: open(r),
      needed: r.waiver_needed ?? r.quantity,
      signed: r.waiver_signed,
      signatures: signaturesOf(r).map((s) => ({ name: s.name, signed_at: s.signed_at }))
    })

    const get = (token: string) => Effect.map(load(token, false).pipe(Effect.catchTag("SqlError", Effect.die)), view)

    const sign = fn("Waivers.sign")(function* (token: string, input: { name: string }) {
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        const r = yield* load(token, true)
        if (!open(r))
          return yield* new WaiverClosed({
            message: "this booking is cancelled or its hold lapsed: its waiver takes no signatures"
          })
        if (r.waiver_text === null)
          return yield* new WaiverMissing({ message: "the org has no waiver text to sign yet" })
        const needed = r.waiver_needed ?? r.quantity
        if (r.waiver_signed >= needed)
          return yield* new WaiverComplete({ message: `every signature this booking needs (${needed}) is in` })
        const signed = newSignatures(
          r,
          signaturesOf(r),
          [{ name: input.name, for: "guest" }],
          needed,
          r.waiver_version,
          now
        )
        const applied = yield* store.apply(r, { type: "sign_waiver", at: now.toISOString() }, now, {
          waiver_signed: signed.signatures.length,
          waiver_signatures: JSON.stringify(signed.signatures)
        })
        yield* events.append(r.org_id, [...applied.events, ...signed.events])
        const s = signed.added[0]
        return {
          id: s.id,
          name: s.name,
          for: s.for,
          version: s.version,
          signed_at: s.signed_at,
          signed: signed.signatures.length,
          needed
        }
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    return { get, sign } as const
  })
}) {}
