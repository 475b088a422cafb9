import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  errorOf,
  InvalidDates,
  InvalidDiscount,
  InvalidOfferingIds,
  MaxUsesBelowUses,
  notFound,
  PromoCodeExists
} from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { PromoCodeCreate, PromoCodeUpdate } from "../../schema/promo.ts"
import { isEmailTaken as isUniqueViolation } from "../../store/customerRow.ts"
import { deletePromo, insertPromo, promoByCode, promoById, promosOf, updatePromo } from "../../store/promos.ts"
import { transaction } from "../../store/transaction.ts"
import { todayIn } from "../../time/local.ts"
import { fn, traced } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"
import { discountOf, type PromoRow, refusalOf, toPromo } from "./rules.ts"

/** promo_codes.*: the org's codes, and the check a booking makes of the code it brings. */
export class Promos extends Effect.Service<Promos>()("Promos", {
  dependencies: [Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events

    const find = (orgId: string, id: string) =>
      Effect.flatMap(promoById(sql, orgId, id).pipe(Effect.orDie), (row) =>
        row === undefined ? Effect.fail(notFound("promo code")) : Effect.succeed(row)
      )

    /** offering_ids must be the org's own offerings. */
    const checkOfferings = (orgId: string, ids: ReadonlyArray<string> | null | undefined) =>
      Effect.gen(function* () {
        if (ids == null) return
        const found = yield* sql<{
          id: string
        }>`select id from offerings where org_id = ${orgId} and id in ${sql.in([...new Set(ids)])}`.pipe(Effect.orDie)
        const missing = [...new Set(ids)].filter((id) => !found.some((f) => f.id === id))
        if (missing.length > 0)
          return yield* new InvalidOfferingIds({
            message: `offering_ids: ${missing[0]} is not an offering of this org`
          })
      })

    const datesInOrder = (starts: string | null | undefined, ends: string | null | undefined) =>
      starts != null && ends != null && starts > ends
        ? Effect.fail(new InvalidDates({ message: "ends_on is before starts_on" }))
        : Effect.void

    const list = Effect.gen(function* () {
      const org = yield* CurrentOrg
      const rows = yield* promosOf(sql, org.id).pipe(Effect.orDie)
      return { data: rows.map(toPromo) }
    }).pipe(traced("Promos.list"))

    const get = (id: string) => Effect.flatMap(CurrentOrg, (org) => Effect.map(find(org.id, id), toPromo))

    const create = fn("Promos.create")(function* (input: PromoCodeCreate) {
      const org = yield* CurrentOrg
      if ((input.percent_off === undefined) === (input.amount_off_cents === undefined)) {
        return yield* new InvalidDiscount({ message: "give exactly one of percent_off and amount_off_cents" })
      }
      yield* datesInOrder(input.starts_on, input.ends_on)
      yield* checkOfferings(org.id, input.offering_ids)
      const row: PromoRow = {
        id: randomUUID(),
        org_id: org.id,
        code: input.code,
        percent_off: input.percent_off ?? null,
        amount_off_cents: input.amount_off_cents ?? null,
        max_uses: input.max_uses ?? null,
        uses: 0,
        starts_on: input.starts_on ?? null,
        ends_on: input.ends_on ?? null,
        offering_ids: input.offering_ids == null ? null : [...new Set(input.offering_ids)],
        active: input.active ?? true,
        created_at: yield* clock.now,
        updated_at: null
      }
      const promo = toPromo(row)
      return yield* Effect.gen(function* () {
        yield* insertPromo(sql, row)
        yield* events.append(org.id, [{ type: "promo_code.created", data: promo }])
        return promo
      }).pipe(
        transaction(sql),
        Effect.catchTag("SqlError", (e) =>
          isUniqueViolation(e)
            ? Effect.fail(
                new PromoCodeExists({
                  message: `the org already has the code ${input.code.toUpperCase()} (codes match in any case)`
                })
              )
            : Effect.die(e)
        )
      )
    })

    const update = fn("Promos.update")(function* (id: string, patch: PromoCodeUpdate) {
      const org = yield* CurrentOrg
      yield* checkOfferings(org.id, patch.offering_ids)
      return yield* Effect.gen(function* () {
        const row = yield* promoById(sql, org.id, id, true).pipe(Effect.orDie)
        if (row === undefined) return yield* notFound("promo code")
        const starts = patch.starts_on === undefined ? row.starts_on : patch.starts_on
        const ends = patch.ends_on === undefined ? row.ends_on : patch.ends_on
        yield* datesInOrder(starts && String(starts).slice(0, 10), ends && String(ends).slice(0, 10))
        if (patch.max_uses != null && patch.max_uses < row.uses) {
          return yield* new MaxUsesBelowUses({
            message: `the code was used ${row.uses} times already; max_uses cannot be lower`
          })
        }
        const updated = yield* updatePromo(sql, id, patch, yield* clock.now).pipe(Effect.orDie)
        const promo = toPromo(updated)
        yield* events.append(org.id, [{ type: "promo_code.updated", data: promo }])
        return promo
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** Deleted for good; bookings made with it keep promo_code and discount_cents. */
    const remove = fn("Promos.delete")(function* (id: string) {
      const org = yield* CurrentOrg
      return yield* Effect.gen(function* () {
        const row = yield* deletePromo(sql, org.id, id)
        if (row === undefined) return yield* notFound("promo code")
        const promo = toPromo(row)
        yield* events.append(org.id, [{ type: "promo_code.deleted", data: promo }])
        return promo
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /**
     * What a code takes off a booking's total, or the 400 that says why it does not apply. Read without a lock:
     * the use is counted by claim, in the booking's own transaction.
     */
    const check = (orgId: string, zone: string, offeringId: string, code: string, total: number) =>
      Effect.gen(function* () {
        const row = yield* promoByCode(sql, orgId, code).pipe(Effect.orDie)
        const refusal = refusalOf(row, offeringId, todayIn(yield* clock.now, zone))
        if (refusal !== undefined) return yield* errorOf(refusal.code, refusal.message)
        return { id: row.id, code: row.code, discount: discountOf(row, total) }
      })

    return { list, get, create, update, remove, check } as const
  })
}) {}
