import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import { InvalidSeriesId, InvalidSessionId, OfferingPaused } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingCreate } from "../../schema/booking.ts"
import type { CurrentOrg } from "../CurrentOrg.ts"
import { checkAnswers } from "./answers.ts"
import type { Booked, Read } from "./booked.ts"
import { isFull, type placesGate } from "./gate.ts"
import { holdLapses } from "./lapse.ts"
import { calendarPlacement, closuresNear, onHours, type Placement, placementOf, placesOf } from "./placement.ts"
import { requestPrice } from "./pricing.ts"

/** The gate of create.ts: what READ said of calendar times, by time. */
export type ReadGate = Effect.Effect.Success<ReturnType<typeof placesGate<Read>>>

/** How a booking's request is judged on what READ read: its price, its place, and whether the time is full. */
export const bookingScreen = (gate: ReadGate) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const placement = yield* placementOf
    const lapses = yield* holdLapses

    /** Where the booking goes; `full` when READ already shows too few places at a calendar time. */
    const place = (o: Read, input: BookingCreate, quantity: number, zone: string, now: Date, closuresToo = true) =>
      o.course || onHours(o)
        ? Effect.map(placement.place(o, { ...input, quantity }, zone, now), (placed) => ({ placed, full: false }))
        : Effect.gen(function* () {
            if (input.session_id === undefined && input.starts_at === undefined)
              return yield* new InvalidSessionId({
                message: "session_id (or starts_at of one of its times) is required"
              })
            const time =
              o.s_id === null
                ? undefined
                : {
                    id: o.s_id,
                    starts_at: o.s_starts_at!,
                    ends_at: o.s_ends_at!,
                    state: o.s_state!,
                    booked: o.s_booked!,
                    cap: o.s_cap!
                  }
            const closures =
              time === undefined || !closuresToo || o.s_closed_near !== true
                ? []
                : yield* Effect.orDie(closuresNear(sql, o.id, time.starts_at, time.ends_at))
            const placed = yield* calendarPlacement(o, time, now, { closures, zone })
            return { placed, full: time !== undefined && time.booked + placesOf(o, quantity) > time.cap }
          })

    /** Lapses holds past expiry at the placement's time (or over it, for hours and rentals); true if any lapsed. */
    const freeExpired = (o: Booked, p: Placement) =>
      Effect.map(
        lapses.lapse(
          p.session_id !== null && p.series_id === null
            ? sql`session_id = ${p.session_id}`
            : p.series_id !== null
              ? sql`series_id = ${p.series_id}`
              : sql`offering_id = ${o.id} and starts_at < ${p.ends_at} and ends_at > ${p.starts_at}`
        ),
        (n) => n > 0
      )

    /** What READ's offering says of the request before its place is looked at; answers its quantity and price. */
    const screen = (o: Read, input: BookingCreate) =>
      Effect.gen(function* () {
        if (o.state !== "active")
          return yield* new OfferingPaused({ message: "this offering is paused and takes no bookings" })
        if (input.series_id !== undefined && !o.course)
          return yield* new InvalidSeriesId({ message: "series_id books a course; this offering is not one" })
        return yield* requestPrice(o, input)
      })

    /**
     * Whether what this instance heard says the time has no place left for this request, every other check of it
     * passing on what READ last read of the offering (any other refusal is left to the database path to give).
     */
    const fullHere = (org: CurrentOrg["Type"], input: BookingCreate, sessionId: string) =>
      Effect.gen(function* () {
        const seen = gate.peek(sessionId)
        if (seen === undefined || seen.org !== org.id || seen.offering !== input.offering_id) return false
        const now = yield* clock.now
        if (!isFull(seen.places, now)) return false
        const o: Read = {
          ...seen.read,
          s_booked: seen.places.booked,
          s_cap: seen.places.cap,
          s_state: seen.places.state
        }
        if (o.course || onHours(o)) return false
        const judged = yield* Effect.either(
          Effect.gen(function* () {
            const { quantity } = yield* screen(o, input)
            yield* checkAnswers(o.questions, input.answers ?? {})
            return (yield* place(o, input, quantity, org.timezone, now, false)).full
          })
        )
        return Either.isRight(judged) && judged.right
      })

    return { place, freeExpired, screen, fullHere } as const
  })
