import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { Links } from "../../ports/Links.ts"
import { PaymentProcessor } from "../../ports/Payments.ts"
import { Wakeups } from "../../ports/Wakeups.ts"
import type { BookingRow } from "../../store/bookingRow.ts"
import { bookingStore } from "../../store/bookings.ts"
import type { PaymentRow } from "../../store/payments.ts"
import { transaction } from "../../store/transaction.ts"
import { Events } from "../Events.ts"
import { Jobs } from "../Jobs.ts"
import type { BookingMailKind } from "../mail/bookingMails.ts"
import { guestMail } from "../mail/guestMail.ts"
import { Mail } from "../mail/Mail.ts"

/** A checkout opened again for a hold that lapsed (the nudge's link) stays open this long. */
export const FRESH_CHECKOUT_MINUTES = 30
/** A refund the processor took is looked at again after this long if no event settled it. */
export const POLL_SECONDS = 3600
/** A refund being taken is leased this long, so another instance leaves it alone. */
export const LEASE_SECONDS = 60

export type { PaymentRow }

export interface CheckoutSource extends BookingRow {
  readonly o_name: string
  readonly deposit_cents: number | null
  readonly deposit_percent: number | null
  readonly c_email: string | null
  readonly currency: string
  readonly payments: "online" | "offline"
}

export const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000)

/** What every part of Payments works with: its services, the guest's mail of a booking, and the transaction. */
export const paymentsBase = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const processor = yield* PaymentProcessor
  const events = yield* Events
  const mail = yield* Mail
  const jobs = yield* Jobs
  const wakeups = yield* Wakeups
  const store = yield* bookingStore
  const links = yield* Links
  const toGuest = yield* guestMail
  const mailTo = (kind: BookingMailKind, b: BookingRow & { c_email?: string | null; o_name?: string }) =>
    toGuest(kind, b)
  const tx = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(transaction(sql))
  return { sql, clock, processor, events, mail, jobs, wakeups, store, links, mailTo, tx } as const
})

export type PaymentsBase = Effect.Effect.Success<typeof paymentsBase>
