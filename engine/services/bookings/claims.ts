import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { PromoCodeUsedUp, TooManySignatures, WaiverMissing, WaiverNotAsked } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { Booking, BookingCreate } from "../../schema/booking.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import { claimUse } from "../../store/promos.ts"
import { liveEntryOf } from "../../store/waitlist.ts"
import { Events } from "../Events.ts"
import { GiftCards } from "../gifts/GiftCards.ts"
import { endEntries } from "../waitlist/open.ts"
import { newSignatures } from "../waivers/sign.ts"
import { type Booked, type Gift, GiftChanged, type Promo } from "./booked.ts"

/** What a booking takes besides its row: a promo code's use, a gift card's part, the booker's signatures, the waitlist. */
export const bookingClaims = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const gifts = yield* GiftCards
  /**
   * What a promo code or gift card claims for a booking, in the booking's transaction before WRITE (so that every
   * path locks a card or a code before the org's event clock, as confirming and adjusting do): the code's use is
   * counted (if it is still active and not used up) and the card's part taken (confirmed at once) or reserved (held).
   * A code used up meanwhile fails the booking; a card whose free balance changed meanwhile has the booking tried
   * again with the new balance. After WRITE the booking's row records code, discount, gift and signatures.
   */
  const claims = (orgId: string, row: BookingRow, promo: Promo | undefined, gift: Gift | undefined, now: Date) =>
    Effect.gen(function* () {
      if (promo !== undefined) {
        if (!(yield* claimUse(sql, promo.id)))
          return yield* new PromoCodeUsedUp({
            message: `promo_code: ${promo.code} was used up or switched off just now`
          })
      }
      if (gift !== undefined && !(yield* gifts.take(orgId, gift, row.id, row.status === "confirmed", now)))
        return yield* Effect.fail(new GiftChanged())
    })
  /** The booker signs the org's waiver as they book, for themselves and the children they name: one signature each. */
  const bookerSigns = (
    orgId: string,
    o: Booked,
    row: BookingRow,
    waiver: NonNullable<BookingCreate["waiver"]>,
    now: Date
  ) =>
    Effect.gen(function* () {
      if (!o.waiver_required || row.waiver_needed === null)
        return yield* new WaiverNotAsked({ message: "waiver: this offering asks for no waiver" })
      const [text] = yield* sql<{
        waiver_text: string | null
        waiver_version: number
      }>`select waiver_text, waiver_version from orgs where id = ${orgId}`.pipe(Effect.orDie)
      if (text.waiver_text === null)
        return yield* new WaiverMissing({ message: "waiver: the org has no waiver text to sign yet" })
      const people = [
        { name: waiver.name, for: "booker" as const },
        ...(waiver.children ?? []).map((name) => ({ name, for: "child" as const }))
      ]
      if (people.length > row.waiver_needed) {
        return yield* new TooManySignatures({
          message: `waiver: this booking needs ${row.waiver_needed} signature(s); ${people.length} were given`
        })
      }
      return newSignatures(row, [], people, row.waiver_needed, text.waiver_version, now)
    })
  const events = yield* Events
  const bookedFromWaitlist = (orgId: string, booking: Booking) =>
    Effect.gen(function* () {
      const now = yield* clock.now
      const entry = yield* liveEntryOf(sql, booking.session_id, booking.customer_id)
      if (entry === undefined) return
      const left = yield* endEntries(sql, { ids: [entry] }, "booked", now)
      yield* events.append(
        orgId,
        left.map(({ type, data }) => ({ type, data }))
      )
    }).pipe(sql.withTransaction, Effect.orDie)

  return { claims, bookerSigns, bookedFromWaitlist } as const
})
