import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"
import { type BookingsOrg, bookingsOrg, expectError, guest, ok, startPinned } from "../bookings/helpers.ts"
import { mcpClient } from "../calendar/helpers.ts"
import { CARD, expectMoneyMatchesLedger, ledger, payWith, processorRefunded, steps } from "./helpers.ts"

// bookings.retry_refund (our extension, docs/payments.md): a refund that failed for good is taken again at once, for
// exactly what failed, once however many ask at the same moment, and settles as the first tries did.

let app: TestApp
let org: BookingsOrg
let guests = 0
beforeAll(async () => {
  app = await startPinned()
  org = await bookingsOrg(app)
  ok(await app.admin("POST", `/orgs/${org.id}/members`, { email: "owner@retry.test", role: "owner" }), 201)
})
afterAll(() => app.close())

/** Every automatic try of a refund: taken, settled, retried after 1, 10 and 60 minutes. */
const allTries = () => steps(app, 1, 6, 61, 6, 601, 6, 3601, 6)

/** A booking of one seat at 2500 paid with the card whose refunds fail, cancelled with `refund_cents`, failed for good. */
const failedForGood = async (refund_cents: number | null = null) => {
  const { offering, session } = await org.classWithSession({ price_cents: 2500 })
  const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(++guests) }), 201)
  expect((await payWith(app, b.checkout_url, CARD.refundFails)).status).toBe(200)
  ok(await org.act(b.id, "cancel", { refund_cents }))
  await allTries()
  const failed = ok(await org.get(b.id))
  expect(failed).toMatchObject({ status: "cancelled", refunded_at: null, refund_next_at: null })
  expect(await ledger(app, b.id)).toEqual([expect.objectContaining({ refund_state: "failed", refund_attempts: 4 })])
  return failed as { id: string; payment_intent_id: string; refund_id: string; refund_error: string }
}

/** The processor now takes this payment's refunds (the cardholder's bank was sorted out). */
const processorTakesRefunds = (pi: string) =>
  sql(app, (s) => s`update sandbox_checkouts set card_last4 = '4242' where payment_intent_id = ${pi}`)

/** What the sandbox was asked to refund of a payment: each request's amount, oldest first. */
const refundRequests = async (pi: string) =>
  (
    await sql(
      app,
      (s) => s<{ amount_cents: number; status: string }>`select amount_cents, status from sandbox_refunds
      where payment_intent_id = ${pi} order by created_at, id`
    )
  ).map((r) => [r.amount_cents, r.status])

const eventsOf = async (id: string, type: string) => (await org.events(type)).filter((e) => e.data.id === id)

describe("bookings.retry_refund", () => {
  it("takes exactly what failed again at once; the processor confirms and the booking is refunded", async () => {
    const b = await failedForGood(1000)
    await processorTakesRefunds(b.payment_intent_id)
    const retried = ok(await org.act(b.id, "retry_refund"))
    // Taken at the processor under a new refund; on its way until it settles.
    expect(retried.refund_id).not.toBe(b.refund_id)
    expect(retried).toMatchObject({
      status: "cancelled",
      refund_cents: 1000,
      refunded_at: null,
      refund_failed_at: null,
      refund_error: null
    })
    expect(retried.refund_next_at).not.toBeNull()
    await expectMoneyMatchesLedger(app, org, b.id)
    await steps(app, 1, 6)
    const done = ok(await org.get(b.id))
    expect(done).toMatchObject({ refund_id: retried.refund_id, refund_next_at: null, refund_error: null })
    expect(done.refunded_at).not.toBeNull()
    expect(await refundRequests(b.payment_intent_id)).toEqual([
      [1000, "failed"],
      [1000, "failed"],
      [1000, "failed"],
      [1000, "failed"],
      [1000, "succeeded"]
    ])
    expect(await processorRefunded(app, b.payment_intent_id)).toBe(1000)
    expect(await ledger(app, b.id)).toEqual([
      expect.objectContaining({ amount_cents: 2500, refund_cents: 1000, refund_state: "refunded", refund_attempts: 4 })
    ])
    const refunded = await eventsOf(b.id, "booking.refunded")
    expect(refunded).toHaveLength(1)
    expect(refunded[0].data.payment).toEqual({
      payment_intent_id: b.payment_intent_id,
      refund_id: retried.refund_id,
      refund_cents: 1000
    })
    await expectMoneyMatchesLedger(app, org, b.id)
    // Nothing failed any more.
    expectError(await org.act(b.id, "retry_refund"), 409, "no_failed_refund")
    expect((await org.act(b.id, "retry_refund")).body.error.message).toContain("it was refunded")
  })

  it("a retry the processor refuses again fails for good again: booking.refund_failed, the owners mailed, no more tries", async () => {
    const b = await failedForGood()
    ok(await org.act(b.id, "retry_refund"))
    await steps(app, 1, 6)
    const again = ok(await org.get(b.id))
    expect(again).toMatchObject({ refunded_at: null, refund_next_at: null })
    expect(again.refund_error).toContain("5126")
    expect(await eventsOf(b.id, "booking.refund_failed")).toHaveLength(2)
    const mails = (await org.mails(b.id)).filter((m) => m.kind === "booking.refund_failed")
    expect(mails.map((m) => m.to_address)).toEqual(["owner@retry.test", "owner@retry.test"])
    expect(await ledger(app, b.id)).toEqual([expect.objectContaining({ refund_state: "failed", refund_attempts: 5 })])
    await steps(app, 86_400)
    expect((await refundRequests(b.payment_intent_id)).map(([, status]) => status)).toEqual(Array(5).fill("failed"))
    await expectMoneyMatchesLedger(app, org, b.id)
    // And it can be tried again by hand.
    await processorTakesRefunds(b.payment_intent_id)
    ok(await org.act(b.id, "retry_refund"))
    await steps(app, 1, 6)
    expect(ok(await org.get(b.id)).refunded_at).not.toBeNull()
    expect(await processorRefunded(app, b.payment_intent_id)).toBe(2500)
  })

  it("of concurrent retries, one takes the refund and the others are 409: one refund at the processor", async () => {
    const b = await failedForGood()
    await processorTakesRefunds(b.payment_intent_id)
    const answers = await Promise.all(Array.from({ length: 6 }, () => org.act(b.id, "retry_refund")))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("no_failed_refund")
    await steps(app, 1, 6)
    expect(await refundRequests(b.payment_intent_id)).toEqual([...Array(4).fill([2500, "failed"]), [2500, "succeeded"]])
    expect(await processorRefunded(app, b.payment_intent_id)).toBe(2500)
    expect(await eventsOf(b.id, "booking.refunded")).toHaveLength(1)
    await expectMoneyMatchesLedger(app, org, b.id)
  })

  it("is 409 no_failed_refund with nothing failed for good, 404 for another org's booking, and an MCP tool", async () => {
    const { offering, session } = await org.classWithSession({ price_cents: 2500 })
    const unpaid = await org.booked({ offering_id: offering.id, session_id: session.id, customer: guest(++guests) })
    expectError(await org.act(unpaid.id, "retry_refund"), 409, "no_failed_refund")
    // A refund that failed once is retried on its own schedule: not failed for good yet.
    const b = ok(await org.book({ offering_id: offering.id, session_id: session.id, customer: guest(++guests) }), 201)
    await payWith(app, b.checkout_url, CARD.refundFails)
    ok(await org.act(b.id, "cancel", {}))
    await steps(app, 1, 6)
    const once = ok(await org.get(b.id))
    expect(once.refund_failed_at).not.toBeNull()
    const refused = await org.act(b.id, "retry_refund")
    expectError(refused, 409, "no_failed_refund")
    expect(refused.body.error.message).toContain("on its own schedule")
    expect(ok(await org.get(b.id))).toEqual(once)
    const other = await bookingsOrg(app)
    const failed = await failedForGood()
    expectError(await other.act(failed.id, "retry_refund"), 404, "not_found")
    expect(await ledger(app, failed.id)).toEqual([expect.objectContaining({ refund_state: "failed" })])
    const mcp = await mcpClient(app, org.key)
    try {
      const tool = (await mcp.client.listTools()).tools.find((t) => t.name === "bookings_retry_refund")
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(["id", "idempotency_key"])
      await processorTakesRefunds(failed.payment_intent_id)
      const res = await mcp.call("bookings_retry_refund", { id: failed.id })
      expect(res.isError).toBe(false)
      expect(res.json).toMatchObject({ id: failed.id, refund_cents: null })
      expect((await mcp.call("bookings_retry_refund", { id: failed.id })).json.error.code).toBe("no_failed_refund")
    } finally {
      await mcp.close()
    }
  })
})
