import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { BalanceBelowZero, GiftCardEmpty, GiftCardUnknown, notFound } from "../../errors/index.ts"
import type { GiftCard } from "../../schema/gift.ts"
import { hashGiftCode, newGiftCode, normalizeGiftCode, recordMove } from "../../store/giftCards.ts"
import { transaction } from "../../store/transaction.ts"
import { fn, traced } from "../../tracing.ts"
import { EngineClock } from "../Clock.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"

interface CardRow {
  readonly id: string
  readonly org_id: string
  readonly last4: string
  readonly amount_cents: number
  readonly balance_cents: number
  readonly currency: string
  readonly for_email: string | null
  readonly note: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
}

const toCard = (r: CardRow): GiftCard => ({
  id: r.id,
  last4: r.last4,
  amount_cents: r.amount_cents,
  balance_cents: r.balance_cents,
  currency: r.currency,
  for_email: r.for_email,
  note: r.note,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at?.toISOString() ?? null
})

/** gift_cards.*: issue, list, read and adjust an org's cards; and the check and take a booking makes with a code. */
export class GiftCards extends Effect.Service<GiftCards>()("GiftCards", {
  dependencies: [Events.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const events = yield* Events

    const list = Effect.gen(function* () {
      const org = yield* CurrentOrg
      const rows = yield* sql<CardRow>`select * from gift_cards where org_id = ${org.id} order by created_at, id`.pipe(
        Effect.orDie
      )
      return { data: rows.map(toCard) }
    }).pipe(traced("GiftCards.list"))

    const get = (id: string) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const [row] = yield* sql<CardRow>`select * from gift_cards where org_id = ${org.id} and id = ${id}`.pipe(
          Effect.orDie
        )
        return row === undefined ? yield* notFound("gift card") : toCard(row)
      })

    const issue = fn("GiftCards.issue")(function* (input: {
      amount_cents: number
      for_email?: string | undefined
      note?: string | undefined
    }) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      const code = newGiftCode()
      const row: CardRow = {
        id: randomUUID(),
        org_id: org.id,
        last4: code.slice(-4),
        amount_cents: input.amount_cents,
        balance_cents: input.amount_cents,
        currency: org.currency,
        for_email: input.for_email?.toLowerCase() ?? null,
        note: input.note ?? null,
        created_at: now,
        updated_at: null
      }
      return yield* Effect.gen(function* () {
        yield* sql`insert into gift_cards ${sql.insert({ ...row, code_hash: hashGiftCode(code) })}`
        yield* recordMove(sql, {
          org_id: org.id,
          gift_card_id: row.id,
          booking_id: null,
          cents: row.amount_cents,
          kind: "issue",
          note: row.note,
          at: now
        })
        yield* events.append(org.id, [
          {
            type: "gift_card.issued",
            data: {
              gift_card_id: row.id,
              amount_cents: row.amount_cents,
              currency: row.currency,
              for_email: row.for_email
            }
          }
        ])
        return { ...toCard(row), code }
      }).pipe(transaction(sql), Effect.orDie)
    })

    const adjust = fn("GiftCards.adjust")(function* (id: string, input: { cents: number; note: string }) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        const [row] = yield* sql<CardRow>`select * from gift_cards where org_id = ${org.id} and id = ${id} for update`
        if (row === undefined) return yield* notFound("gift card")
        if (row.balance_cents + input.cents < 0) {
          return yield* new BalanceBelowZero({
            message: `the balance is ${row.balance_cents}; taking ${-input.cents} would leave it below zero`
          })
        }
        const [updated] =
          yield* sql<CardRow>`update gift_cards set balance_cents = balance_cents + ${input.cents}, updated_at = ${now} where id = ${id} returning *`
        yield* recordMove(sql, {
          org_id: org.id,
          gift_card_id: id,
          booking_id: null,
          cents: input.cents,
          kind: "adjust",
          note: input.note,
          at: now
        })
        yield* events.append(org.id, [
          {
            type: "gift_card.adjusted",
            data: {
              gift_card_id: id,
              cents: input.cents,
              balance: updated.balance_cents,
              note: input.note,
              for_email: updated.for_email
            }
          }
        ])
        return toCard(updated)
      }).pipe(transaction(sql), Effect.catchTag("SqlError", Effect.die))
    })

    /** What a card can pay of a total: its balance, at most the total; 400 when the code is unknown or the card empty. */
    const check = (orgId: string, code: string, total: number) =>
      Effect.gen(function* () {
        if (normalizeGiftCode(code).length < 4)
          return yield* new GiftCardUnknown({ message: "gift_card_code: no such gift card" })
        const [row] =
          yield* sql<CardRow>`select * from gift_cards where org_id = ${orgId} and code_hash = ${hashGiftCode(code)}`.pipe(
            Effect.orDie
          )
        if (row === undefined) return yield* new GiftCardUnknown({ message: "gift_card_code: no such gift card" })
        if (row.balance_cents <= 0)
          return yield* new GiftCardEmpty({ message: `gift_card_code: the card ending ${row.last4} has nothing left` })
        return { id: row.id, cents: Math.min(row.balance_cents, total) }
      })

    /**
     * Takes what a booking uses off the card, in the booking's transaction; false when the balance no longer covers it
     * (another booking took from the card meanwhile: the booking is tried again with the new balance).
     */
    const take = (orgId: string, gift: { id: string; cents: number }, bookingId: string, now: Date) =>
      Effect.gen(function* () {
        if (gift.cents <= 0) return true
        const taken =
          yield* sql`update gift_cards set balance_cents = balance_cents - ${gift.cents}, updated_at = ${now}
          where id = ${gift.id} and balance_cents >= ${gift.cents} returning id`
        if (taken.length === 0) return false
        yield* recordMove(sql, {
          org_id: orgId,
          gift_card_id: gift.id,
          booking_id: bookingId,
          cents: -gift.cents,
          kind: "redeem",
          note: null,
          at: now
        })
        return true
      })

    return { list, get, issue, adjust, check, take } as const
  })
}) {}
