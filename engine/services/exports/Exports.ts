import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { InvalidAfter, InvalidTo } from "../../errors/index.ts"
import { EngineClock } from "../../ports/Clock.ts"
import type { BookingsExportQuery, GuestsExportQuery, PaymentsExportQuery } from "../../schema/export.ts"
import { ledgerCursor, ledgerPage } from "../../store/payments.ts"
import { endOfLocalDay, todayIn, toInstant, toLocal } from "../../time/local.ts"
import { fn } from "../../tracing.ts"
import { Bookings } from "../bookings/Bookings.ts"
import { CurrentOrg } from "../CurrentOrg.ts"
import { Customers } from "../customers/Customers.ts"
import { BOOKING_COLUMNS, bookingCells, GUEST_COLUMNS, guestCells, PAYMENT_COLUMNS, paymentCells } from "./columns.ts"
import { firstPage } from "./plan.ts"

/**
 * exports.*: the org's bookings, payments and refunds, and guests as CSV files, read a page at a time. Bookings and
 * guests are read by the lists' own reads (bookings.list, customers.list: the same filters, the same keyset), the
 * ledger by the payments store's. Each answer is a CsvExport: the transport asks for its pages as it writes them.
 */
export class Exports extends Effect.Service<Exports>()("Exports", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const clock = yield* EngineClock
    const bookings = yield* Bookings
    const customers = yield* Customers

    /** The org's slug (else its id's first part), what the file is about and the local dates it spans. */
    const nameOf = (what: string, from: string | undefined, to: string | undefined) =>
      Effect.gen(function* () {
        const org = yield* CurrentOrg
        const rows = yield* sql<{ slug: string | null }>`select slug from orgs where id = ${org.id}`.pipe(Effect.orDie)
        const who = rows[0]?.slug ?? `org-${org.id.slice(0, 8)}`
        const today = todayIn(yield* clock.now, org.timezone)
        const span = from === undefined && to === undefined ? today : `${from ?? "start"}-to-${to ?? today}`
        return `${who}-${what}-${span}.csv`
      })

    const bookingsExport = fn("Exports.bookings")(function* (q: BookingsExportQuery) {
      const org = yield* CurrentOrg
      const { limit, after, ...filters } = q
      const local = (at: Date | undefined) => (at === undefined ? undefined : toLocal(at, org.timezone).date)
      const filename = yield* nameOf("bookings", local(q.from), local(q.to))
      const cells = bookingCells(org)
      return yield* firstPage(filename, BOOKING_COLUMNS, { after, limit }, (cursor, size) =>
        bookings.list({ ...filters, limit: size, ...(cursor ? { after: cursor } : {}) }).pipe(
          Effect.map((page) => ({ rows: page.data.map(cells), next: page.next_after ?? undefined })),
          Effect.provideService(CurrentOrg, org)
        )
      )
    })

    const guestsExport = fn("Exports.guests")(function* (q: GuestsExportQuery) {
      const org = yield* CurrentOrg
      const filename = yield* nameOf("guests", undefined, undefined)
      const cells = guestCells(org)
      return yield* firstPage(filename, GUEST_COLUMNS, q, (cursor, size) =>
        customers.list({ ...(q.q ? { q: q.q } : {}), limit: size, ...(cursor ? { after: cursor } : {}) }).pipe(
          Effect.map((page) => ({ rows: page.data.map(cells), next: page.next_after ?? undefined })),
          Effect.provideService(CurrentOrg, org)
        )
      )
    })

    const paymentsExport = fn("Exports.payments")(function* (q: PaymentsExportQuery) {
      const org = yield* CurrentOrg
      if (q.from !== undefined && q.to !== undefined && q.to < q.from)
        return yield* new InvalidTo({ message: "to is before from" })
      const filename = yield* nameOf("payments", q.from, q.to)
      const scope = {
        org: org.id,
        start: q.from === undefined ? undefined : toInstant(q.from, "00:00:00", org.timezone),
        end: q.to === undefined ? undefined : endOfLocalDay(q.to, org.timezone),
        kind: q.kind,
        bookingId: q.booking_id
      }
      const cells = paymentCells(org)
      return yield* firstPage(filename, PAYMENT_COLUMNS, q, (cursor, size) =>
        Effect.gen(function* () {
          const [kind, id] = (cursor?.split(":") ?? []) as ["payment" | "refund", string]
          const after = cursor === undefined ? undefined : yield* ledgerCursor(sql, org.id, kind, id).pipe(Effect.orDie)
          if (cursor !== undefined && after === undefined)
            return yield* new InvalidAfter({ message: "after: no payment or refund of this org is that row" })
          const rows = yield* ledgerPage(sql, scope, after, size + 1).pipe(Effect.orDie)
          const page = rows.slice(0, size)
          const last = page[page.length - 1]
          return { rows: page.map(cells), next: rows.length > size ? `${last.kind}:${last.id}` : undefined }
        })
      )
    })

    return { bookings: bookingsExport, guests: guestsExport, payments: paymentsExport } as const
  })
}) {}
