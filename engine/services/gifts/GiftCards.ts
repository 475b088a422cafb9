import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { BalanceBelowZero, GiftCardEmpty, GiftCardUnknown, notFound } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { GiftCard } from "../../schema/gift.ts"
import {
  adjustCard,
  type CardRow,
  claimGift,
  hashGiftCode,
  insertCard,
  newGiftCode,
  normalizeGiftCode
} from "../../store/giftCards.ts"
import { transaction } from "../../store/transaction.ts"
import { fn, traced } from "../../tracing.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Events } from "../Events.ts"

const toCard = (r: CardRow): GiftCard => ({
  id: r.id,
  last4: r.last4,
  amount_cents: r.amount_cents,
  balance_cents: r.balance_cents,
  reserved_cents: r.reserved_cents,
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
      const row = {
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
        yield* insertCard(sql, row, hashGiftCode(code))
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
        return { ...toCard({ ...row, reserved_cents: 0 }), code }
      }).pipe(transaction(sql), Effect.orDie)
    })

    const adjust = fn("GiftCards.adjust")(function* (id: string, input: { cents: number; note: string }) {
      const org = yield* CurrentOrg
      const now = yield* clock.now
      return yield* Effect.gen(function* () {
        const [row] = yield* sql<CardRow>`select * from gift_cards where org_id = ${org.id} and id = ${id} for update`
        if (row === undefined) return yield* notFound("gift card")
        const updated = yield* adjustCard(sql, id, input.cents, input.note, now)
        if (updated === undefined) {
          return yield* new BalanceBelowZero({
            message:
              row.reserved_cents > 0
                ? `the balance is ${row.balance_cents}, of which ${row.reserved_cents} is reserved by holds not yet confirmed; taking ${-input.cents} would leave less than that`
                : `the balance is ${row.balance_cents}; taking ${-input.cents} would leave it below zero`
          })
        }
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
        // What holds have reserved is spoken for: only the rest is free to spend.
        const free = row.balance_cents - row.reserved_cents
        if (free <= 0)
          return yield* new GiftCardEmpty({ message: `gift_card_code: the card ending ${row.last4} has nothing left` })
        return { id: row.id, cents: Math.min(free, total) }
      })

    /**
     * A booking's part of the card, in the booking's transaction: taken when the booking is confirmed at once, else
     * reserved until it is confirmed; false when the card's free balance no longer covers it (another booking took or
     * reserved it meanwhile: the booking is tried again with the new balance).
     */
    const take = (
      orgId: string,
      gift: { id: string; cents: number },
      bookingId: string,
      confirmed: boolean,
      now: Date
    ) => claimGift(sql, orgId, gift, bookingId, confirmed, now)

    return { list, get, issue, adjust, check, take } as const
  })
}) {}
