import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, guest, ok } from "../bookings/helpers.ts"
import { startRacing } from "../bookings/racing.ts"

// One gift card raced from every side on real Postgres (many connections at once): bookings that pay with it (taken at
// once when they are confirmed at once, reserved when they are held), confirmations of those holds, cancellations,
// and the business topping the card up or taking from it. The card is sampled throughout: its balance never goes below
// zero nor below what holds reserved, no confirmation of a hold fails (its part was reserved for it, whatever the
// others spend), and at the end the balance is what was issued and adjusted less what confirmed bookings took.

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  ;({ app, org } = await startRacing())
})
afterAll(() => app?.close())

type Card = { balance_cents: number; reserved_cents: number }

const ISSUED = 10_000
const PRICE = 4_000

describe("a gift card raced by holds, confirmations, cancels and adjustments (Postgres)", () => {
  it("never spends a balance twice, never goes below zero, and never fails a confirmation for another's reserve", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: PRICE, capacity: 1000 })
    const card = ok(await org.call("POST", "/gift_cards", { amount_cents: ISSUED }), 201)
    const samples: Array<Card> = []
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const [row] = await sql(
          app,
          (s) => s<Card>`select balance_cents, reserved_cents from gift_cards where id = ${card.id}`
        )
        samples.push(row)
      }
    })()

    let adjusted = 0
    let n = 0
    const held: Array<string> = []
    const confirmations: Array<number> = []
    for (let round = 0; round < 4; round++) {
      const waiting = held.splice(0)
      const results = await Promise.all([
        // Bookings with the card: gift = min(free balance, price); confirmed at once when it covers the price.
        ...Array.from({ length: 14 }, () =>
          org
            .book({
              offering_id: offering.id,
              session_id: session.id,
              customer: guest(`gr${++n}`),
              gift_card_code: card.code
            })
            .then((r) => ({ t: "book" as const, r }))
        ),
        // The holds of the round before confirmed by hand, racing everything else.
        ...waiting.map((id) => org.act(id, "confirm").then((r) => ({ t: "confirm" as const, r }))),
        // The business tops the card up, and takes from it.
        ...Array.from({ length: 5 }, () =>
          org
            .call("POST", `/gift_cards/${card.id}/adjust`, { cents: 1_500, note: "top up" })
            .then((r) => ({ t: "adjust" as const, r, cents: 1_500 }))
        ),
        ...Array.from({ length: 3 }, () =>
          org
            .call("POST", `/gift_cards/${card.id}/adjust`, { cents: -1_000, note: "cash out" })
            .then((r) => ({ t: "adjust" as const, r, cents: -1_000 }))
        )
      ])
      for (const x of results) {
        if (x.t === "book") {
          if (x.r.status === 201) {
            if (x.r.body.status === "held") held.push(x.r.body.id)
          } else expect(x.r.body.error.code).toBe("gift_card_empty")
        } else if (x.t === "confirm") confirmations.push(x.r.status)
        else if (x.r.status === 200) adjusted += x.cents
        else expect(x.r.body.error.code).toBe("balance_below_zero")
      }
      // A confirmed booking of the card cancelled now and then: its part goes back.
      const [confirmed] = await sql(
        app,
        (s) => s<{ id: string }>`select id from bookings where gift_card_id = ${card.id} and status = 'confirmed'
          order by created_at desc limit 1`
      )
      if (confirmed !== undefined && round % 2 === 1) ok(await org.act(confirmed.id, "cancel"))
    }
    await Promise.all(held.map((id) => org.act(id, "confirm").then((r) => confirmations.push(r.status))))
    sampling = false
    await sampler

    // Holds were made and confirmed, each one.
    expect(confirmations.length).toBeGreaterThan(0)
    expect(confirmations.every((s) => s === 200)).toBe(true)
    expect(samples.length).toBeGreaterThan(10)
    for (const c of samples) {
      expect(c.balance_cents).toBeGreaterThanOrEqual(0)
      expect(c.reserved_cents).toBeGreaterThanOrEqual(0)
      expect(c.reserved_cents).toBeLessThanOrEqual(c.balance_cents)
    }
    const [end] = await sql(
      app,
      (s) => s<Card & { moves: number; taken: number; held: number }>`
        select g.balance_cents, g.reserved_cents,
          (select coalesce(sum(cents), 0)::int from gift_card_moves where gift_card_id = g.id) as moves,
          (select coalesce(sum(gift_cents), 0)::int from bookings where gift_card_id = g.id and status = 'confirmed') as taken,
          (select count(*)::int from bookings where gift_card_id = g.id and status = 'held') as held
        from gift_cards g where g.id = ${card.id}`
    )
    expect(end.held).toBe(0)
    expect(end.reserved_cents).toBe(0)
    expect(end.moves).toBe(end.balance_cents)
    expect(end.balance_cents).toBe(ISSUED + adjusted - end.taken)
  }, 240_000)
})
