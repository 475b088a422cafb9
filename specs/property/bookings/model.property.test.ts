import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type BookingsOrg,
  bookingsOrg,
  guest,
  hoursAhead,
  type Reply,
  startPinned,
  type TestApp,
  utcAt
} from "../../integration/bookings/helpers.ts"
import { sql } from "../../support/app.ts"

// Random sequences of create / cancel / move / confirm / attendance / clock moves on a small class and a small
// rental, run against the real app and checked, step by step, against a model a few lines long.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app, { plan: "scale" })
})
afterAll(() => app.close())

const MIN = 60_000

type Cmd =
  | { readonly t: "bookClass"; readonly s: number; readonly q: number; readonly hold: number }
  | { readonly t: "bookRental"; readonly day: number; readonly periods: number; readonly q: number }
  | { readonly t: "cancel"; readonly i: number }
  | { readonly t: "move"; readonly i: number; readonly to: number }
  | { readonly t: "confirm"; readonly i: number }
  | { readonly t: "expire"; readonly minutes: number }
  | { readonly t: "attend"; readonly i: number; readonly a: "checked_in" | "no_show" | "clear" }

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    arbitrary: fc.record({
      t: fc.constant("bookClass" as const),
      s: fc.nat(2),
      q: fc.integer({ min: 1, max: 3 }),
      hold: fc.integer({ min: 1, max: 30 })
    }),
    weight: 4
  },
  {
    arbitrary: fc.record({
      t: fc.constant("bookRental" as const),
      day: fc.integer({ min: 2, max: 4 }),
      periods: fc.integer({ min: 1, max: 2 }),
      q: fc.integer({ min: 1, max: 2 })
    }),
    weight: 3
  },
  { arbitrary: fc.record({ t: fc.constant("cancel" as const), i: fc.nat(20) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant("move" as const), i: fc.nat(20), to: fc.nat(2) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant("confirm" as const), i: fc.nat(20) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant("expire" as const), minutes: fc.integer({ min: 1, max: 40 }) }), weight: 2 },
  {
    arbitrary: fc.record({
      t: fc.constant("attend" as const),
      i: fc.nat(20),
      a: fc.constantFrom("checked_in" as const, "no_show" as const, "clear" as const)
    }),
    weight: 1
  }
)

const world = fc.record({
  capacity: fc.integer({ min: 3, max: 6 }),
  sessions: fc.integer({ min: 2, max: 3 }),
  stock: fc.integer({ min: 2, max: 4 })
})

interface Booked {
  readonly id: string
  readonly kind: "class" | "rental"
  place: number
  readonly periods: number
  readonly q: number
  status: "held" | "confirmed" | "cancelled"
  readonly expires: number | null
  checkedIn: boolean
}

/** The model: which bookings hold a place right now, and what a new or moved booking would find. */
class Model {
  readonly bookings: Booked[] = []
  constructor(
    readonly capacity: number,
    readonly sessions: number,
    readonly stock: number,
    public now: number
  ) {}
  live(b: Booked) {
    return b.status === "confirmed" || (b.status === "held" && b.expires !== null && this.now < b.expires)
  }
  seats(session: number, except?: Booked) {
    return this.bookings
      .filter((b) => b.kind === "class" && b !== except && b.place === session && this.live(b))
      .reduce((n, b) => n + b.q, 0)
  }
  /** Items out on rental day `day`. */
  out(day: number, except?: Booked) {
    return this.bookings
      .filter((b) => b.kind === "rental" && b !== except && b.place <= day && day < b.place + b.periods && this.live(b))
      .reduce((n, b) => n + b.q, 0)
  }
  fitsClass(session: number, q: number, except?: Booked) {
    return this.seats(session, except) + q <= this.capacity
  }
  fitsRental(day: number, periods: number, q: number, except?: Booked) {
    for (let d = day; d < day + periods; d++) if (this.out(d, except) + q > this.stock) return false
    return true
  }
  fits(b: Booked, place: number) {
    return b.kind === "class" ? this.fitsClass(place, b.q, b) : this.fitsRental(place, b.periods, b.q, b)
  }
}

const outcome = (r: Reply) => (r.status < 300 ? String(r.status) : `${r.status} ${r.body?.error?.code}`)

describe("bookings against a model", () => {
  it("every decision matches the model and capacity is never exceeded", async () => {
    let runs = 0
    await fc.assert(
      fc.asyncProperty(world, fc.array(cmd, { minLength: 12, maxLength: 15 }), async (w, cmds) => {
        runs++
        const start = await org.now()
        const klass = await org.offering({ kind: "class", capacity: w.capacity, max_per_booking: 3, price_cents: 1000 })
        const sessions = []
        for (let s = 0; s < w.sessions; s++) sessions.push(await org.session(klass.id, hoursAhead(start, 48 + 24 * s)))
        const kayak = await org.rental({ capacity: w.stock, max_per_booking: 2, max_periods: 2 })
        const dayStart = (day: number) => utcAt(start, day, "09:00")
        const model = new Model(w.capacity, w.sessions, w.stock, start.getTime())
        const log: string[] = []

        for (const c of cmds) {
          const b = model.bookings.length === 0 || !("i" in c) ? undefined : model.bookings[c.i % model.bookings.length]
          let expected: string
          let res: Reply | undefined
          switch (c.t) {
            case "bookClass": {
              const s = c.s % w.sessions
              expected = model.fitsClass(s, c.q) ? "201" : "409 sold_out"
              res = await org.book({
                offering_id: klass.id,
                session_id: sessions[s].id,
                quantity: c.q,
                hold_minutes: c.hold,
                customer: guest(`m${c.s}`)
              })
              if (res.status === 201) {
                model.bookings.push({
                  id: res.body.id,
                  kind: "class",
                  place: s,
                  periods: 1,
                  q: c.q,
                  status: "held",
                  expires: model.now + c.hold * MIN,
                  checkedIn: false
                })
                expect(res.body.status).toBe("held")
              }
              break
            }
            case "bookRental": {
              expected = model.fitsRental(c.day, c.periods, c.q) ? "201" : "409 sold_out"
              res = await org.book({
                offering_id: kayak.id,
                starts_at: dayStart(c.day).toISOString(),
                periods: c.periods,
                quantity: c.q,
                customer: guest(`r${c.day}`)
              })
              if (res.status === 201) {
                model.bookings.push({
                  id: res.body.id,
                  kind: "rental",
                  place: c.day,
                  periods: c.periods,
                  q: c.q,
                  status: "confirmed",
                  expires: null,
                  checkedIn: false
                })
                expect(res.body.status).toBe("confirmed")
              }
              break
            }
            case "expire": {
              await app.advance(c.minutes * 60)
              model.now += c.minutes * MIN
              expected = "ok"
              break
            }
            case "cancel": {
              if (b === undefined) continue
              expected = b.status === "cancelled" ? "409 booking_cancelled" : "200"
              res = await org.act(b.id, "cancel", {})
              if (res.status === 200) b.status = "cancelled"
              break
            }
            case "confirm": {
              if (b === undefined) continue
              expected =
                b.status === "cancelled"
                  ? "409 booking_cancelled"
                  : b.status === "confirmed"
                    ? "409 booking_not_held"
                    : model.live(b) || model.fits(b, b.place)
                      ? "200"
                      : "409 sold_out"
              res = await org.act(b.id, "confirm")
              if (res.status === 200) b.status = "confirmed"
              break
            }
            case "move": {
              if (b === undefined) continue
              const to = b.kind === "class" ? c.to % w.sessions : 2 + (c.to % 3)
              expected =
                b.status === "cancelled"
                  ? "409 booking_cancelled"
                  : b.status === "held" && !model.live(b)
                    ? "409 hold_lapsed"
                    : model.fits(b, to)
                      ? "200"
                      : "409 sold_out"
              res = await org.act(
                b.id,
                "move",
                b.kind === "class" ? { session_id: sessions[to].id } : { starts_at: dayStart(to).toISOString() }
              )
              if (res.status === 200) b.place = to
              break
            }
            case "attend": {
              if (b === undefined) continue
              expected =
                b.status === "cancelled"
                  ? "409 booking_cancelled"
                  : b.status === "held"
                    ? "409 booking_not_confirmed"
                    : c.a === "no_show"
                      ? "409 not_started"
                      : "200"
              res = await org.act(b.id, "attendance", { attendance: c.a })
              if (res.status === 200) b.checkedIn = c.a === "checked_in"
              break
            }
          }
          const got = res === undefined ? "ok" : outcome(res)
          log.push(`${JSON.stringify(c)} -> ${got} (model ${expected})`)
          if (got !== expected) throw new Error(`decision differs from the model:\n${log.join("\n")}`)
          await checkInvariants(
            model,
            klass.id,
            kayak.id,
            sessions.map((s) => s.id),
            log
          )
        }
      }),
      { numRuns: 30, endOnFailure: true }
    )
    expect(runs).toBeGreaterThanOrEqual(30)
  }, 120_000)
})

const checkInvariants = async (
  model: Model,
  classId: string,
  rentalId: string,
  sessionIds: ReadonlyArray<string>,
  log: ReadonlyArray<string>
) => {
  const fail = (what: string) => {
    throw new Error(`${what}\n${log.join("\n")}`)
  }
  const booked = (await org.sessions(classId)).map((s) => s.booked as number)
  const seats = sessionIds.map((_, s) => model.seats(s))
  if (JSON.stringify(booked) !== JSON.stringify(seats))
    fail(`seats booked ${JSON.stringify(booked)}, model ${JSON.stringify(seats)}`)
  for (const n of booked) if (n > model.capacity) fail(`oversold: ${n} > ${model.capacity}`)
  // The database's own count of each time (what the trigger keeps) is the sum of the places its bookings hold.
  const counters = await sql(
    app,
    (s) => s<{ id: string; booked: number; counted: number }>`
    select x.id, x.booked, coalesce((select sum(b.places) from bookings b where b.session_id = x.id and b.series_id is null
      and b.keeps_place and b.status <> 'cancelled'), 0)::int as counted
    from sessions x where x.id in ${s.in(sessionIds)}`
  )
  for (const c of counters)
    if (c.booked !== c.counted) fail(`time ${c.id} counts ${c.booked}, its bookings hold ${c.counted}`)
  const now = await org.now()
  const rows = await sql(
    app,
    (s) => s<{
      id: string
      status: string
      keeps_place: boolean
      live: boolean
      checked_in_at: Date | null
      no_show_at: Date | null
      starts_at: Date
      ends_at: Date
      quantity: number
    }>`
    select id, status, keeps_place, checked_in_at, no_show_at, starts_at, ends_at, quantity,
      keeps_place and (status = 'confirmed' or expires_at > ${now}) as live
    from bookings where offering_id in (${classId}, ${rentalId})`
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  for (const b of model.bookings) {
    const r = byId.get(b.id)
    if (r === undefined) return fail(`booking ${b.id} missing`)
    if (r.status !== b.status) fail(`booking ${b.id} is ${r.status}, model ${b.status}`)
    if (r.live !== model.live(b)) fail(`booking ${b.id} live ${r.live}, model ${model.live(b)}`)
    if (b.status === "cancelled" && r.keeps_place) fail(`cancelled booking ${b.id} keeps its place`)
    if (r.checked_in_at !== null && r.no_show_at !== null) fail(`booking ${b.id} both checked in and no-show`)
    if ((r.checked_in_at !== null) !== b.checkedIn)
      fail(`booking ${b.id} checked in ${r.checked_in_at}, model ${b.checkedIn}`)
  }
  if (rows.length !== model.bookings.length) fail(`${rows.length} rows, model ${model.bookings.length}`)
  const rentals = rows.filter((r) => r.live && model.bookings.some((b) => b.id === r.id && b.kind === "rental"))
  const days = new Set(rentals.map((r) => r.starts_at.getTime()))
  for (const day of days) {
    const out = rentals
      .filter((r) => r.starts_at.getTime() <= day && day < r.ends_at.getTime())
      .reduce((n, r) => n + r.quantity, 0)
    if (out > model.stock) fail(`rental oversold on ${new Date(day).toISOString()}: ${out} > ${model.stock}`)
  }
}
