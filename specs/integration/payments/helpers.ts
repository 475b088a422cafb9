import { expect } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"

export const CARD = {
  pays: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  refundFails: "4000 0000 0000 5126"
} as const

/** The sandbox checkout's path (PUBLIC_URL in tests has no port), fetched from the running app. */
const local = (app: TestApp, url: string) => `${app.url}${new URL(url).pathname}`

export const checkoutPage = async (app: TestApp, url: string) => {
  const res = await fetch(local(app, url))
  return { status: res.status, html: await res.text(), type: res.headers.get("content-type") }
}

/** Submits the sandbox form with a card number, as a browser would. */
export const payWith = async (app: TestApp, url: string, card: string) => {
  const res = await fetch(local(app, url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ card_number: card }).toString()
  })
  return { status: res.status, html: await res.text() }
}

/** Follows a fresh-checkout link (GET /pay/again/{handle}): a 303 to the new checkout. */
export const payAgain = async (app: TestApp, handle: string) => {
  const res = await fetch(`${app.url}/pay/again/${handle}`, { redirect: "manual" })
  expect(res.status).toBe(303)
  return res.headers.get("location")!
}

/** Moves the engine clock through the given steps (seconds); every step runs the due jobs. */
export const steps = async (app: TestApp, ...seconds: ReadonlyArray<number>) => {
  for (const s of seconds) await app.advance(s)
}

export interface PaymentLedgerRow {
  readonly payment_intent_id: string
  readonly amount_cents: number
  readonly refund_cents: number
  readonly refund_state: string | null
  readonly refund_attempts: number
}

export const ledger = (app: TestApp, bookingId: string) =>
  sql(
    app,
    (
      s
    ) => s<PaymentLedgerRow>`select payment_intent_id, amount_cents, refund_cents, refund_state, refund_attempts from payments
    where booking_id = ${bookingId} order by created_at, payment_intent_id`
  )

/** What the sandbox processor itself recorded as refunded (succeeded) for a payment. */
export const processorRefunded = async (app: TestApp, pi: string) =>
  (
    await sql(
      app,
      (s) =>
        s<{
          n: number
        }>`select coalesce(sum(amount_cents), 0)::int as n from sandbox_refunds where payment_intent_id = ${pi} and status = 'succeeded'`
    )
  )[0].n

interface LedgerRow extends PaymentLedgerRow {
  readonly refund_id: string | null
  readonly created_at: Date
}

interface MoneyFields {
  readonly status: string
  readonly total_cents: number
  readonly gift_cents: number
  readonly paid_at: string | null
  readonly paid_cents: number | null
  readonly payment_intent_id: string | null
  readonly charged_cents: number | null
  readonly refund_id: string | null
  readonly refund_cents: number | null
  readonly refunded_at: string | null
  readonly refund_failed_at: string | null
  readonly refund_error: string | null
  readonly refund_next_at: string | null
}

/**
 * A booking's money fields say what its ledger says. Its payment (payment_intent_id) is the ledger row of that payment
 * intent: charged_cents is its amount, paid_cents counts it, and the refund fields (refund_cents, null meaning all of
 * it; refund_id; refunded_at, refund_next_at, refund_error) follow that row's refund. A booking with no payment has no
 * charge and no refund of one (refund_cents null or 0). Every other payment for it was refunded in full (or is being).
 */
export const expectMoneyMatchesLedger = async (
  app: TestApp,
  org: { get: (id: string) => Promise<{ status: number; body: any }> },
  bookingId: string
) => {
  const res = await org.get(bookingId)
  expect(res.status).toBe(200)
  const b = res.body as MoneyFields
  const rows = await sql(
    app,
    (
      s
    ) => s<LedgerRow>`select payment_intent_id, amount_cents, refund_cents, refund_state, refund_attempts, refund_id, created_at
    from payments where booking_id = ${bookingId} order by created_at, payment_intent_id`
  )
  const own = rows.find((r) => r.payment_intent_id === b.payment_intent_id)
  const context = JSON.stringify({ booking: b, ledger: rows })
  for (const r of rows.filter((x) => x !== own)) {
    expect(r.refund_cents, context).toBe(r.amount_cents)
    expect(r.refund_state, context).not.toBeNull()
  }
  if (b.paid_at !== null) expect(b.paid_cents, context).not.toBeNull()
  if (b.payment_intent_id === null) {
    expect(own, context).toBeUndefined()
    expect(
      {
        charged: b.charged_cents,
        id: b.refund_id,
        at: b.refunded_at,
        next: b.refund_next_at,
        failed: b.refund_failed_at,
        error: b.refund_error
      },
      context
    ).toEqual({ charged: null, id: null, at: null, next: null, failed: null, error: null })
    expect([null, 0], context).toContain(b.refund_cents)
    return
  }
  expect(own, context).toBeDefined()
  if (own === undefined) return
  expect(b.charged_cents, context).toBe(own.amount_cents)
  expect(b.refund_id, context).toBe(own.refund_id)
  if (b.status !== "cancelled") {
    // Kept: paid (at least this payment), and no refund of it.
    expect(own.refund_state, context).toBeNull()
    expect(b.paid_at, context).not.toBeNull()
    expect(b.paid_cents ?? 0, context).toBeGreaterThanOrEqual(own.amount_cents)
    expect({ refund: b.refund_cents, at: b.refunded_at, next: b.refund_next_at }, context).toEqual({
      refund: null,
      at: null,
      next: null
    })
    return
  }
  if (own.refund_state === null) {
    // Cancelled, and the business kept it all.
    expect(b.refund_cents, context).toBe(0)
    expect({ at: b.refunded_at, next: b.refund_next_at }, context).toEqual({ at: null, next: null })
    return
  }
  expect(b.refund_cents ?? b.charged_cents, context).toBe(own.refund_cents)
  expect(b.refunded_at !== null, context).toBe(own.refund_state === "refunded")
  expect(b.refund_next_at !== null, context).toBe(own.refund_state === "pending" || own.refund_state === "taken")
  if (own.refund_state === "failed") expect(b.refund_error, context).not.toBeNull()
}
