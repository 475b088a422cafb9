import { expect } from "vitest"
import { sql, type TestApp } from "../../support/app.ts"

export const CARD = { pays: "4242 4242 4242 4242", declined: "4000 0000 0000 0002", refundFails: "4000 0000 0000 5126" } as const

/** The sandbox checkout's path (PUBLIC_URL in tests has no port), fetched from the running app. */
const local = (app: TestApp, url: string) => `${app.url}${new URL(url).pathname}`

export const checkoutPage = async (app: TestApp, url: string) => {
  const res = await fetch(local(app, url))
  return { status: res.status, html: await res.text(), type: res.headers.get("content-type") }
}

/** Submits the sandbox form with a card number, as a browser would. */
export const payWith = async (app: TestApp, url: string, card: string) => {
  const res = await fetch(local(app, url), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ card_number: card }).toString() })
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
  sql(app, (s) => s<PaymentLedgerRow>`select payment_intent_id, amount_cents, refund_cents, refund_state, refund_attempts from payments
    where booking_id = ${bookingId} order by created_at, payment_intent_id`)

/** What the sandbox processor itself recorded as refunded (succeeded) for a payment. */
export const processorRefunded = async (app: TestApp, pi: string) =>
  (await sql(app, (s) => s<{ n: number }>`select coalesce(sum(amount_cents), 0)::int as n from sandbox_refunds where payment_intent_id = ${pi} and status = 'succeeded'`))[0].n
