import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { when } from "../../../transports/pages/html.ts"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"
import { CARD, checkoutPage, ledger, payAgain, payWith, processorRefunded, steps } from "./helpers.ts"

let app: TestApp
let org: BookingsOrg
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await app.admin("POST", `/orgs/${org.id}/members`, { email: "owner@surf.test", role: "owner" }), 201)
})
afterAll(() => app.close())

/** A held booking of one seat at 2500 (EUR) with its checkout. */
const heldSeat = async (body: Record<string, unknown> = {}, capacity = 10) => {
  const { offering, session } = await org.classWithSession({
    price_cents: 2500,
    capacity,
    name: "Surf lesson",
    ...body
  })
  const b = ok(await org.book({ offering_id: offering.id, session_id: session.id }), 201)
  return { offering, session, b }
}

describe("a priced booking in the sandbox", () => {
  it("shows the time in the org's zone and language, as the guest page and mail do, before and after paying", async () => {
    const zoned = await bookingsOrg(app, { timezone: "America/New_York" })
    const { offering, session } = await zoned.classWithSession({ price_cents: 2500, name: "Zoned lesson" })
    const b = ok(await zoned.book({ offering_id: offering.id, session_id: session.id }), 201)
    const local = when(b.starts_at, "America/New_York", "en")
    const page = await checkoutPage(app, b.checkout_url)
    expect(page.html).toContain(`${local}</time> <span class="note">(America/New_York time)</span>`)
    expect(page.html).not.toContain(new Date(b.starts_at).toUTCString())
    const declined = await payWith(app, b.checkout_url, CARD.declined)
    expect(declined.html).toContain(local)
    const paid = await payWith(app, b.checkout_url, CARD.pays)
    expect(paid.html).toContain(`${local}</time>`)
  })

  it("is held with a checkout_url; the page shows what is paid; 4242 pays and confirms it with the payment's fields", async () => {
    const { b } = await heldSeat()
    expect(b.status).toBe("held")
    expect(b.checkout_url).toMatch(/^http:\/\/127\.0\.0\.1\/pay\/cs_sandbox_[0-9a-f]+$/)
    const page = await checkoutPage(app, b.checkout_url)
    expect(page.status).toBe(200)
    expect(page.type).toContain("text/html")
    expect(page.html).toContain(`<html lang="en">`)
    expect(page.html).toMatch(/<label for="card_number">Card number<\/label><input id="card_number"/)
    expect(page.html).toContain("Surf lesson")
    expect(page.html).toContain("€25.00")
    expect(page.html).toContain("<dd>EUR</dd>")
    expect(page.html).toContain(`datetime="${b.starts_at}"`)
    expect(page.html).not.toMatch(/<(script|link)\b|src=/)
    expect(ok(await org.get(b.id)).checkout_url).toBe(b.checkout_url)

    const paid = await payWith(app, b.checkout_url, CARD.pays)
    expect(paid.status).toBe(200)
    expect(paid.html).toContain("Paid")
    const after = ok(await org.get(b.id))
    expect(after).toMatchObject({
      status: "confirmed",
      paid_cents: 2500,
      charged_cents: 2500,
      refund_id: null,
      refunded_at: null
    })
    expect(after.payment_intent_id).toMatch(/^pi_sandbox_/)
    expect(after.paid_at).not.toBeNull()
    const confirmed = (await org.events("booking.confirmed")).filter((e) => e.data.id === b.id)
    expect(confirmed).toHaveLength(1)
    expect(confirmed[0].data).toMatchObject({
      paid_cents: 2500,
      charged_cents: 2500,
      payment_intent_id: after.payment_intent_id
    })
    expect(await org.mailKinds(b.id)).toContain("booking.confirmed")
    // The page of a paid checkout says so; paying it again is refused.
    expect((await checkoutPage(app, b.checkout_url)).html).toContain("Paid")
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(409)
  })

  it("4000...0002 is declined: the hold stays and the guest may retry with another card", async () => {
    const { b } = await heldSeat()
    const declined = await payWith(app, b.checkout_url, CARD.declined)
    expect(declined.status).toBe(402)
    expect(declined.html).toContain(`role="alert"`)
    expect(declined.html).toContain("declined")
    expect(ok(await org.get(b.id))).toMatchObject({ status: "held", paid_at: null, payment_intent_id: null })
    expect((await payWith(app, b.checkout_url, "1234")).status).toBe(400)
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(200)
    expect(ok(await org.get(b.id)).status).toBe("confirmed")
  })

  it("an org with payments offline holds without a checkout; the setting shows in org get/update and org.updated", async () => {
    const other = await bookingsOrg(app)
    expect(ok(await other.call("GET", "/org")).payments).toBe("online")
    const updated = ok(await other.call("PATCH", "/org", { payments: "offline" }))
    expect(updated.payments).toBe("offline")
    expect((await other.events("org.updated")).at(-1)!.data.payments).toBe("offline")
    expect((await other.call("PATCH", "/org", { payments: "sometimes" })).status).toBe(400)
    const { offering, session } = await other.classWithSession({ price_cents: 900 })
    const b = ok(await other.book({ offering_id: offering.id, session_id: session.id }), 201)
    expect(b).toMatchObject({ status: "held", checkout_url: null })
    const free = await other.classWithSession({ price_cents: 0 })
    expect(ok(await other.book({ offering_id: free.offering.id, session_id: free.session.id }), 201)).toMatchObject({
      status: "confirmed",
      checkout_url: null
    })
  })
})

describe("cancelling a paid booking", () => {
  it("delivers a payment's event again until the engine has it: a crash between paying and receiving loses nothing", async () => {
    const { b } = await heldSeat()
    const checkout = new URL(b.checkout_url).pathname.split("/").pop()!
    // The state a crash right after the sandbox took the money leaves: the checkout paid, the engine never told.
    const now = new Date(await org.now())
    await sql(
      app,
      (
        s
      ) => s`update sandbox_checkouts set status = 'complete', payment_intent_id = 'pi_sandbox_crashed', card_last4 = '4242',
      event_due_at = ${new Date(now.getTime() + 10_000)} where id = ${checkout}`
    )
    expect(ok(await org.get(b.id)).status).toBe("held")
    await steps(app, 5)
    expect(ok(await org.get(b.id)).status).toBe("held")
    await steps(app, 6)
    expect(ok(await org.get(b.id))).toMatchObject({
      status: "confirmed",
      payment_intent_id: "pi_sandbox_crashed",
      charged_cents: 2500
    })
    expect((await org.events("booking.confirmed")).filter((e) => e.data.id === b.id)).toHaveLength(1)
    // Taken once: later passes find the payment and stop.
    await steps(app, 30, 60, 120)
    expect((await ledger(app, b.id)).map((p) => p.payment_intent_id)).toEqual(["pi_sandbox_crashed"])
    const [row] = await sql(
      app,
      (s) => s<{ event_due_at: Date | null }>`select event_due_at from sandbox_checkouts where id = ${checkout}`
    )
    expect(row.event_due_at).toBeNull()
  })

  it("tells a settled refund again until the engine has it: a crash between settling and receiving leaves no refund waiting an hour", async () => {
    const { b } = await heldSeat()
    await payWith(app, b.checkout_url, CARD.pays)
    ok(await org.act(b.id, "cancel", {}))
    await steps(app, 1)
    const taken = ok(await org.get(b.id))
    expect(taken.refund_id).toMatch(/^re_sandbox_/)
    // The state a crash right after the sandbox settled the refund leaves: settled there, the engine never told.
    const now = new Date(await org.now())
    await sql(
      app,
      (s) =>
        s`update sandbox_refunds set status = 'succeeded', event_due_at = ${new Date(now.getTime() + 10_000)} where id = ${taken.refund_id}`
    )
    await steps(app, 5)
    expect(ok(await org.get(b.id)).refunded_at).toBeNull()
    await steps(app, 6)
    expect(ok(await org.get(b.id)).refunded_at).not.toBeNull()
    expect((await org.events("booking.refunded")).filter((e) => e.data.id === b.id)).toHaveLength(1)
    await steps(app, 30, 60)
    expect((await org.events("booking.refunded")).filter((e) => e.data.id === b.id)).toHaveLength(1)
  })

  it("refunds all of charged_cents: refund_id at once, refunded_at when the sandbox confirms it a moment later (booking.refunded)", async () => {
    const { b } = await heldSeat()
    await payWith(app, b.checkout_url, CARD.pays)
    const cancelled = ok(await org.act(b.id, "cancel", {}))
    expect(cancelled).toMatchObject({ status: "cancelled", refund_cents: null, refund_id: null, refunded_at: null })
    expect(cancelled.refund_next_at).not.toBeNull()
    await steps(app, 1)
    const taken = ok(await org.get(b.id))
    expect(taken.refund_id).toMatch(/^re_sandbox_/)
    expect(taken.refunded_at).toBeNull()
    await steps(app, 6)
    const done = ok(await org.get(b.id))
    expect(done).toMatchObject({ refund_id: taken.refund_id, refund_next_at: null, refund_failed_at: null })
    expect(done.refunded_at).not.toBeNull()
    const refunded = (await org.events("booking.refunded")).filter((e) => e.data.id === b.id)
    expect(refunded).toHaveLength(1)
    expect(refunded[0].data.payment).toMatchObject({ payment_intent_id: done.payment_intent_id, refund_cents: 2500 })
    expect(await processorRefunded(app, done.payment_intent_id)).toBe(2500)
  })

  it("refund_cents: a part is refunded, 0 refunds nothing, more than charged is 400 and changes nothing", async () => {
    const part = await heldSeat()
    await payWith(app, part.b.checkout_url, CARD.pays)
    expectError(await org.act(part.b.id, "cancel", { refund_cents: 2501 }), 400, "invalid_refund_cents")
    expect(ok(await org.get(part.b.id)).status).toBe("confirmed")
    expect(ok(await org.act(part.b.id, "cancel", { refund_cents: 1000 })).refund_cents).toBe(1000)
    const none = await heldSeat()
    await payWith(app, none.b.checkout_url, CARD.pays)
    expect(ok(await org.act(none.b.id, "cancel", { refund_cents: 0 }))).toMatchObject({
      refund_cents: 0,
      refund_next_at: null
    })
    await steps(app, 1, 6)
    const p = ok(await org.get(part.b.id))
    expect(p.refunded_at).not.toBeNull()
    expect(await processorRefunded(app, p.payment_intent_id)).toBe(1000)
    const n = ok(await org.get(none.b.id))
    expect(n).toMatchObject({ refund_id: null, refunded_at: null })
    expect(await ledger(app, none.b.id)).toEqual([expect.objectContaining({ refund_cents: 0, refund_state: null })])
  })

  it("a refund that fails (5126) is retried with backoff on the engine clock; after the last it fails for good and the owners are mailed", async () => {
    const { b } = await heldSeat()
    await payWith(app, b.checkout_url, CARD.refundFails)
    ok(await org.act(b.id, "cancel", {}))
    await steps(app, 1, 6)
    const first = ok(await org.get(b.id))
    expect(first.refund_failed_at).not.toBeNull()
    expect(first.refund_error).toContain("5126")
    expect(Date.parse(first.refund_next_at) - Date.parse(first.refund_failed_at)).toBe(60_000)
    expect(first.refunded_at).toBeNull()
    await steps(app, 61, 6)
    const second = ok(await org.get(b.id))
    expect(Date.parse(second.refund_next_at) - Date.parse(second.refund_failed_at)).toBe(600_000)
    expect(second.refund_id).not.toBe(first.refund_id)
    await steps(app, 601, 6)
    expect(
      Date.parse(ok(await org.get(b.id)).refund_next_at) - Date.parse(ok(await org.get(b.id)).refund_failed_at)
    ).toBe(3_600_000)
    expect((await org.events("booking.refund_failed")).filter((e) => e.data.id === b.id)).toHaveLength(0)
    await steps(app, 3601, 6)
    const last = ok(await org.get(b.id))
    expect(last).toMatchObject({ refund_next_at: null, refunded_at: null })
    expect(last.refund_error).toContain("5126")
    const failed = (await org.events("booking.refund_failed")).filter((e) => e.data.id === b.id)
    expect(failed).toHaveLength(1)
    expect(failed[0].data.refund_error).toContain("5126")
    const mails = (await org.mails(b.id)).filter((m) => m.kind === "booking.refund_failed")
    expect(mails.map((m) => m.to_address)).toEqual(["owner@surf.test"])
    expect(await ledger(app, b.id)).toEqual([expect.objectContaining({ refund_state: "failed", refund_attempts: 4 })])
    // Nothing retries any more.
    await steps(app, 86_400)
    expect(ok(await org.get(b.id)).refund_id).toBe(last.refund_id)
  })

  it("offerings.delete counts the refunds on their way; sessions.cancel refunds too", async () => {
    const a = await heldSeat()
    await payWith(app, a.b.checkout_url, CARD.pays)
    const held = ok(await org.book({ offering_id: a.offering.id, session_id: a.session.id, customer: guest(2) }), 201)
    const counts = ok(await org.call("DELETE", `/offerings/${a.offering.id}?cancel_bookings=true`))
    expect(counts).toEqual({ cancelled: 2, refunded: 0, refunding: 1, refund_failed: 0 })
    expect(ok(await org.get(held.id)).refund_next_at).toBeNull()
    const s = await heldSeat()
    await payWith(app, s.b.checkout_url, CARD.pays)
    ok(await org.call("POST", `/sessions/${s.session.id}/cancel`, {}))
    await steps(app, 1, 6)
    expect(ok(await org.get(a.b.id)).refunded_at).not.toBeNull()
    expect(ok(await org.get(s.b.id))).toMatchObject({ status: "cancelled", refund_next_at: null })
    expect(ok(await org.get(s.b.id)).refunded_at).not.toBeNull()
  })
})

describe("refunds from the calendar", () => {
  it("series.delete with cancel_bookings refunds a paid booking on its times", async () => {
    const o = ok(
      await org.call("POST", "/offerings", { name: "Series class", kind: "class", capacity: 5, price_cents: 1800 }),
      201
    )
    const startsOn = new Date(Date.parse((await org.now()).toISOString()) + 3 * 86_400_000).toISOString().slice(0, 10)
    const entry = ok(
      await org.call("POST", "/series", {
        offering_id: o.id,
        starts_on: startsOn,
        start_time: "10:00",
        end_time: "11:00"
      }),
      201
    )
    const [time] = await org.sessions(o.id)
    const b = ok(await org.book({ offering_id: o.id, session_id: time.id }), 201)
    await payWith(app, b.checkout_url, CARD.pays)
    expect(ok(await org.call("DELETE", `/series/${entry.id}?cancel_bookings=true`))).toEqual({ cancelled: 1 })
    await steps(app, 1, 6)
    const after = ok(await org.get(b.id))
    expect(after).toMatchObject({ status: "cancelled", refund_next_at: null })
    expect(after.refunded_at).not.toBeNull()
    expect(await processorRefunded(app, after.payment_intent_id)).toBe(1800)
  })

  it("sessions.cancel with guests choose: a guest who has not picked by choose_by is cancelled and refunded", async () => {
    const { b, session } = await heldSeat()
    await payWith(app, b.checkout_url, CARD.pays)
    ok(await org.call("POST", `/sessions/${session.id}/cancel`, { guests: "choose" }))
    const calledOff = ok(await org.get(b.id))
    expect(calledOff.choose_by).not.toBeNull()
    expect(calledOff.refund_next_at).toBeNull()
    await steps(app, 9 * 86_400, 1, 6)
    const after = ok(await org.get(b.id))
    expect(after).toMatchObject({ status: "cancelled", cancel_reason: "choose_by_passed", refund_next_at: null })
    expect(after.refunded_at).not.toBeNull()
    expect(await processorRefunded(app, after.payment_intent_id)).toBe(2500)
  })
})

describe("payments that come late or twice", () => {
  it("the hold lapsing expires its checkout; the nudge mail's link opens a fresh one, and paying it revives the booking while its place is free", async () => {
    const { b } = await heldSeat()
    await steps(app, 16 * 60)
    expect(ok(await org.get(b.id)).nudged_at).not.toBeNull()
    expect((await payWith(app, b.checkout_url, CARD.pays)).status).toBe(410)
    const nudge = (await org.mails(b.id)).find((m) => m.kind === "booking.nudged")!
    const link = /\/pay\/again\/\S+/.exec(nudge.body)![0]
    const fresh = await payAgain(app, link.split("/").at(-1)!)
    expect(fresh).not.toBe(b.checkout_url)
    expect((await payWith(app, fresh, CARD.pays)).status).toBe(200)
    const after = ok(await org.get(b.id))
    expect(after).toMatchObject({ status: "confirmed", charged_cents: 2500 })
    expect(await ledger(app, b.id)).toEqual([expect.objectContaining({ refund_state: null })])
  })

  it("a late payment whose place was taken meanwhile is refunded in full and the booking cancelled", async () => {
    const { offering, session, b } = await heldSeat({}, 1)
    await steps(app, 16 * 60)
    const taker = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(3) }), 201)
    await payWith(app, taker.checkout_url, CARD.pays)
    const fresh = await payAgain(app, await org.handle(b.id))
    expect((await payWith(app, fresh, CARD.pays)).status).toBe(200)
    const late = ok(await org.get(b.id))
    expect(late).toMatchObject({
      status: "cancelled",
      cancel_reason: "paid_after_hold_lapsed_no_room",
      charged_cents: 2500,
      refund_cents: null
    })
    await steps(app, 1, 6)
    const refunded = ok(await org.get(b.id))
    expect(refunded.refunded_at).not.toBeNull()
    expect(await processorRefunded(app, refunded.payment_intent_id)).toBe(2500)
    expect((await org.events("booking.confirmed")).filter((e) => e.data.id === b.id)).toHaveLength(0)
    expect(ok(await org.get(taker.id)).status).toBe("confirmed")
  })

  it("a payment landing twice (two checkouts paid) confirms once and the second is refunded once", async () => {
    const { b } = await heldSeat()
    const second = await payAgain(app, await org.handle(b.id))
    expect(second).not.toBe(b.checkout_url)
    await payWith(app, b.checkout_url, CARD.pays)
    // The first payment closed the other checkout at the processor (a job, after the commit).
    await steps(app, 1)
    expect((await payWith(app, second, CARD.pays)).status).toBe(410)
    const rows = await ledger(app, b.id)
    expect(rows).toHaveLength(1)
    expect((await org.events("booking.confirmed")).filter((e) => e.data.id === b.id)).toHaveLength(1)
  })

  it("two checkouts both paid before either is closed: one confirmation, the extra payment refunded once", async () => {
    const { b } = await heldSeat()
    const second = await payAgain(app, await org.handle(b.id))
    await payWith(app, b.checkout_url, CARD.pays)
    // The guest pays the second tab before the job closes it (as a processor's race would).
    await sql(
      app,
      (s) => s`update sandbox_checkouts set status = 'open' where id = ${new URL(second).pathname.split("/").at(-1)!}`
    )
    expect((await payWith(app, second, CARD.pays)).status).toBe(200)
    await steps(app, 1, 6, 60)
    const rows = await ledger(app, b.id)
    expect(rows).toHaveLength(2)
    const booking = ok(await org.get(b.id))
    expect(booking).toMatchObject({ status: "confirmed", refund_id: null })
    const extra = rows.find((r) => r.payment_intent_id !== booking.payment_intent_id)!
    expect(extra).toMatchObject({ refund_state: "refunded", refund_cents: 2500, refund_attempts: 0 })
    expect(await processorRefunded(app, extra.payment_intent_id)).toBe(2500)
    expect(await processorRefunded(app, booking.payment_intent_id)).toBe(0)
    expect((await org.events("booking.confirmed")).filter((e) => e.data.id === b.id)).toHaveLength(1)
  })
})
