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
const recordMove = (
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

/** A card as stored (its code only as a hash). */
export interface CardRow {
  readonly id: string
  readonly org_id: string
  readonly last4: string
  readonly amount_cents: number
  readonly balance_cents: number
  readonly reserved_cents: number
  readonly currency: string
  readonly for_email: string | null
  readonly note: string | null
  readonly created_at: Date
  readonly updated_at: Date | null
}

/** A new card with its whole amount as balance, and its `issue` move. */
export const insertCard = (sql: SqlClient.SqlClient, row: Omit<CardRow, "reserved_cents">, codeHash: string) =>
  Effect.gen(function* () {
    yield* sql`insert into gift_cards ${sql.insert({ ...row, code_hash: codeHash })}`
    yield* recordMove(sql, {
      org_id: row.org_id,
      gift_card_id: row.id,
      booking_id: null,
      cents: row.amount_cents,
      kind: "issue",
      note: row.note,
      at: row.created_at
    })
  })

/**
 * A balance fixed by hand (signed cents) with its `adjust` move; none when it would leave less than what holds have
 * reserved (a balance below zero, or below a hold's part).
 */
export const adjustCard = (sql: SqlClient.SqlClient, id: string, cents: number, note: string, now: Date) =>
  Effect.gen(function* () {
    const [card] =
      yield* sql<CardRow>`update gift_cards set balance_cents = balance_cents + ${cents}, updated_at = ${now}
      where id = ${id} and balance_cents - reserved_cents + ${cents} >= 0 returning *`
    if (card === undefined) return undefined
    yield* recordMove(sql, {
      org_id: card.org_id,
      gift_card_id: id,
      booking_id: null,
      cents,
      kind: "adjust",
      note,
      at: now
    })
    return card
  })

/** Takes `cents` off what the card has free (balance less reserves), with a `redeem` move; false when it has not. */
const takeFree = (
  sql: SqlClient.SqlClient,
  orgId: string,
  cardId: string,
  bookingId: string,
  cents: number,
  now: Date
) =>
  Effect.gen(function* () {
    const taken = yield* sql`update gift_cards set balance_cents = balance_cents - ${cents}, updated_at = ${now}
      where id = ${cardId} and balance_cents - reserved_cents >= ${cents} returning id`
    if (taken.length === 0) return false
    yield* recordMove(sql, {
      org_id: orgId,
      gift_card_id: cardId,
      booking_id: bookingId,
      cents: -cents,
      kind: "redeem",
      note: null,
      at: now
    })
    return true
  })

/**
 * A new booking's part of a card, in the booking's transaction: taken when the booking is confirmed at once, else
 * reserved (the card's free balance goes down, its balance not) until the booking is confirmed (captureGift) or
 * leaves (giveBackGift). False when the card's free balance no longer covers it (another booking took or reserved
 * it meanwhile: the booking is tried again with what is left).
 */
export const claimGift = (
  sql: SqlClient.SqlClient,
  orgId: string,
  gift: { readonly id: string; readonly cents: number },
  bookingId: string,
  confirmed: boolean,
  now: Date
) =>
  Effect.gen(function* () {
    if (gift.cents <= 0) return true
    if (confirmed) return yield* takeFree(sql, orgId, gift.id, bookingId, gift.cents, now)
    const reserved =
      yield* sql`update gift_cards set reserved_cents = reserved_cents + ${gift.cents}, updated_at = ${now}
      where id = ${gift.id} and balance_cents - reserved_cents >= ${gift.cents} returning id`
    return reserved.length > 0
  })

interface Gifted {
  readonly id: string
  readonly org_id: string
  readonly gift_card_id: string | null
  readonly gift_cents: number
  readonly gift_taken_at?: Date | null
  readonly gift_returned_at?: Date | null
}

/** The booking's part is reserved on its card: neither taken nor released. */
const reservedFor = (row: Gifted) =>
  row.gift_card_id !== null &&
  row.gift_cents > 0 &&
  (row.gift_taken_at ?? null) === null &&
  (row.gift_returned_at ?? null) === null

/**
 * A booking confirmed captures what it reserved: balance and reserve both go down by its part, the `redeem` move.
 * The reserve covers it (the card's check keeps reserved_cents within the balance), so it cannot fail. Runs in the
 * caller's transaction with the booking row locked; answers the booking's fact (gift_taken_at), or none.
 */
export const captureGift = (sql: SqlClient.SqlClient, row: Gifted, now: Date) =>
  Effect.gen(function* () {
    if (!reservedFor(row)) return {}
    yield* sql`update gift_cards set balance_cents = balance_cents - ${row.gift_cents},
      reserved_cents = reserved_cents - ${row.gift_cents}, updated_at = ${now} where id = ${row.gift_card_id}`
    yield* recordMove(sql, {
      org_id: row.org_id,
      gift_card_id: row.gift_card_id!,
      booking_id: row.id,
      cents: -row.gift_cents,
      kind: "redeem",
      note: null,
      at: now
    })
    return { gift_taken_at: now }
  })

/**
 * A booking that leaves (cancelled, or its hold lapsed) lets go of its card's part, once: a part only reserved is
 * released (nothing was taken: no move, no event); a part taken goes back to the balance with a `return` move and
 * the event gift_card.refunded. The booking records it (gift_returned_at) as a fact of its change. Runs in the
 * caller's transaction, with the booking row locked.
 */
export const giveBackGift = (sql: SqlClient.SqlClient, row: Gifted, now: Date) =>
  Effect.gen(function* () {
    const none = { facts: {}, events: [] as ReadonlyArray<NewEvent> }
    if (row.gift_card_id === null || row.gift_cents <= 0 || (row.gift_returned_at ?? null) !== null) return none
    if (reservedFor(row)) {
      yield* sql`update gift_cards set reserved_cents = reserved_cents - ${row.gift_cents}, updated_at = ${now}
        where id = ${row.gift_card_id}`
      return { facts: { gift_returned_at: now }, events: [] as ReadonlyArray<NewEvent> }
    }
    const [card] = yield* sql<{ for_email: string | null }>`
      update gift_cards set balance_cents = balance_cents + ${row.gift_cents}, updated_at = ${now}
      where id = ${row.gift_card_id} returning for_email`
    if (card === undefined) return none
    yield* recordMove(sql, {
      org_id: row.org_id,
      gift_card_id: row.gift_card_id,
      booking_id: row.id,
      cents: row.gift_cents,
      kind: "return",
      note: null,
      at: now
    })
    return {
      facts: { gift_returned_at: now },
      events: [
        {
          type: "gift_card.refunded",
          data: { gift_card_id: row.gift_card_id, booking_id: row.id, cents: row.gift_cents, for_email: card.for_email }
        }
      ] as ReadonlyArray<NewEvent>
    }
  })

/**
 * A lapsed hold whose gift was let go is paid after all (and so confirmed): the card pays its part from what it has
 * free, if that still covers it (false otherwise: the payment is then refunded, as when the place is gone); the
 * booking records it (gift_taken_at now, gift_returned_at cleared) with the payment.
 */
export const retakeGift = (sql: SqlClient.SqlClient, row: Gifted, now: Date) =>
  Effect.gen(function* () {
    if (row.gift_card_id === null || row.gift_cents <= 0 || (row.gift_returned_at ?? null) === null) return true
    return yield* takeFree(sql, row.org_id, row.gift_card_id, row.id, row.gift_cents, now)
  })
