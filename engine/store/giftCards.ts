import { createHash, randomBytes, randomUUID } from "node:crypto"
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { NewEvent } from "../schema/event.ts"

/** Crockford's base32 without I, L, O, U: nothing a guest can misread. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** A new code, GIFT-XXXX-XXXX-XXXX-XXXX (80 random bits). */
export const newGiftCode = () => {
  const bytes = randomBytes(16)
  const chars = Array.from(bytes, (b) => ALPHABET[b & 31])
  return `GIFT-${[0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join("")).join("-")}`
}

/** The code as typed, in any case, with or without dashes and spaces, as its stored hash. */
export const normalizeGiftCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, "").replace(/^GIFT/, "")
export const hashGiftCode = (code: string) => createHash("sha256").update(normalizeGiftCode(code)).digest("hex")

/** One movement of a card's balance, written beside the change it records. */
export const recordMove = (
  sql: SqlClient.SqlClient,
  move: {
    org_id: string
    gift_card_id: string
    booking_id: string | null
    cents: number
    kind: "issue" | "adjust" | "redeem" | "return"
    note: string | null
    at: Date
  }
) =>
  sql`insert into gift_card_moves ${sql.insert({
    id: randomUUID(),
    org_id: move.org_id,
    gift_card_id: move.gift_card_id,
    booking_id: move.booking_id,
    cents: move.cents,
    kind: move.kind,
    note: move.note,
    created_at: move.at
  })}`

interface Gifted {
  readonly id: string
  readonly org_id: string
  readonly gift_card_id: string | null
  readonly gift_cents: number
  readonly gift_returned_at?: Date | null
}

/**
 * A booking that leaves (cancelled, or its hold lapsed) gives back what its gift card paid, once: the card's balance
 * and a `return` move, and the event gift_card.refunded; the booking records it (gift_returned_at) as a fact of its
 * change. Runs in the caller's transaction, with the booking row locked. Answers whether anything went back.
 */
export const giveBackGift = (sql: SqlClient.SqlClient, row: Gifted, now: Date) =>
  Effect.gen(function* () {
    if (row.gift_card_id === null || row.gift_cents <= 0 || (row.gift_returned_at ?? null) !== null)
      return [] as ReadonlyArray<NewEvent>
    const [card] = yield* sql<{ for_email: string | null }>`
      update gift_cards set balance_cents = balance_cents + ${row.gift_cents}, updated_at = ${now}
      where id = ${row.gift_card_id} returning for_email`
    if (card === undefined) return []
    yield* recordMove(sql, {
      org_id: row.org_id,
      gift_card_id: row.gift_card_id,
      booking_id: row.id,
      cents: row.gift_cents,
      kind: "return",
      note: null,
      at: now
    })
    return [
      {
        type: "gift_card.refunded",
        data: { gift_card_id: row.gift_card_id, booking_id: row.id, cents: row.gift_cents, for_email: card.for_email }
      }
    ]
  })

/**
 * A lapsed hold whose gift went back is paid after all: the card pays its part again if its balance still covers it
 * (false otherwise: the payment is then refunded, as when the place is gone); the booking records it (its
 * gift_returned_at cleared) with the payment.
 */
export const retakeGift = (sql: SqlClient.SqlClient, row: Gifted, now: Date) =>
  Effect.gen(function* () {
    if (row.gift_card_id === null || row.gift_cents <= 0 || (row.gift_returned_at ?? null) === null) return true
    const taken =
      yield* sql`update gift_cards set balance_cents = balance_cents - ${row.gift_cents}, updated_at = ${now}
      where id = ${row.gift_card_id} and balance_cents >= ${row.gift_cents} returning id`
    if (taken.length === 0) return false
    yield* recordMove(sql, {
      org_id: row.org_id,
      gift_card_id: row.gift_card_id,
      booking_id: row.id,
      cents: -row.gift_cents,
      kind: "redeem",
      note: null,
      at: now
    })
    return true
  })
