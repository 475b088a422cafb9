import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Links } from "../../ports/Links.ts"
import type { BookingStore } from "../../store/bookings.ts"
import { newHandle } from "../../store/codes.ts"
import { bookingMail } from "../mail/bookingMails.ts"
import type { Mail } from "../mail/Mail.ts"
import type { bookingCascade } from "./cascade.ts"

type Cascade = Effect.Effect.Success<typeof bookingCascade>

/**
 * An offering's waiver_required changed: its bookings to come (confirmed, or holds keeping their place, not yet
 * started) follow what it asks now. Switched on, each not yet asked needs its signatures (one per seat or guest, one
 * per rental booking) and its guest is emailed the signing link; switched off, each with no signature is no longer
 * asked, and one with signatures keeps them as they are. Past bookings stay as they were. Runs in the update's
 * transaction.
 */
export const waiverChange =
  (sql: SqlClient.SqlClient, store: BookingStore, cascade: Cascade, mail: Mail) =>
  (offeringId: string, required: boolean, now: Date) =>
    Effect.gen(function* () {
      const [o] = yield* sql<{ kind: string }>`select kind from offerings where id = ${offeringId}`.pipe(Effect.orDie)
      const rows = (yield* cascade.upcomingRows(offeringId, now)).filter((r) => r.starts_at > now)
      const { publicUrl } = yield* Links
      for (const row of rows) {
        if (required && row.waiver_token === null) {
          const needed = o?.kind === "rental" ? 1 : row.quantity
          yield* store.setWaiver(row.id, { waiver_token: newHandle(), waiver_needed: needed }, now)
          const b = yield* store.find(row.org_id, row.id).pipe(Effect.orDie)
          if (b.c_email)
            yield* mail.enqueue(b.org_id, bookingMail("resend", b, b.c_email, b.o_name ?? "your booking", publicUrl))
        }
        if (!required && row.waiver_token !== null && row.waiver_signed === 0)
          yield* store.setWaiver(row.id, { waiver_token: null, waiver_needed: null }, now)
      }
    })
