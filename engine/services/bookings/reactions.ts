import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { Links } from "../../ports/Links.ts"
import { BookingReactions } from "../../store/bookings.ts"
import { captureGift, giveBackGift } from "../../store/giftCards.ts"
import { closeCheckouts } from "../../store/payments.ts"
import { openings } from "../waitlist/open.ts"

/**
 * What a booking's change does elsewhere (engine/store/bookings.ts calls it after writing the row): a booking that
 * leaves its hold (confirmed, paid or cancelled) or whose hold lapses closes its open checkouts (the payments job
 * expires them at the processor after the commit); one confirmed takes what it reserved of its gift card; one that
 * leaves (cancelled, lapsed) releases or gives back its gift card's part (once) and, with a move, opens the places it held to the waitlist.
 */
export const BookingReactionsLive = Layer.effect(
  BookingReactions,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const links = yield* Links
    return {
      changed: (before, after, event, now) =>
        Effect.gen(function* () {
          if ((before.status === "held" && after.status !== "held") || event.type === "lapse")
            yield* closeCheckouts(sql, before.id)
          const leaves = after.status === "cancelled" || event.type === "lapse"
          // The card's part: released or given back when the booking leaves, taken when it is confirmed.
          const gift = leaves
            ? yield* giveBackGift(sql, before, now)
            : after.status === "confirmed"
              ? { facts: yield* captureGift(sql, before, now), events: [] }
              : { facts: {}, events: [] }
          const opened =
            (leaves || event.type === "move") && before.session_id !== null && before.keeps_place
              ? (yield* openings(sql, before.session_id, now, links.publicUrl)).map(({ type, data }) => ({
                  type,
                  data
                }))
              : []
          return { facts: gift.facts, events: [...gift.events, ...opened] }
        }).pipe(Effect.orDie)
    }
  })
)
