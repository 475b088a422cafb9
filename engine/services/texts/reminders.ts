import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EngineClock } from "../../ports/Clock.ts"
import { guestPage, Links } from "../../ports/Links.ts"
import { toE164 } from "../../schema/phone.ts"
import { textStore } from "../../store/texts.ts"
import { bookingText } from "../mail/bookingTexts.ts"

interface Due {
  readonly id: string
  readonly org_id: string
  readonly reference: string
  readonly handle: string
  readonly starts_at: Date
  readonly offering: string
  readonly name: string
  readonly timezone: string
  readonly locale: string
  readonly phone: string
}

/**
 * Reminder texts: for orgs that turned `reminder` on, each confirmed booking whose start is within the org's
 * reminder_hours gets one text (a unique index keeps it to one, whichever instance gets there first), refused with why
 * for a number that replied STOP. A booking made inside the window is reminded at once.
 */
export const reminderTexts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clock = yield* EngineClock
  const store = yield* textStore
  const links = yield* Links
  return Effect.gen(function* () {
    const now = yield* clock.now
    const due = yield* sql<Due>`
      select b.id, b.org_id, b.reference, b.handle, b.starts_at, o.name as offering, g.name, g.timezone, g.locale, c.phone
      from orgs g
      join bookings b on b.org_id = g.id and b.starts_at > ${now}
        and b.starts_at <= ${now}::timestamptz + make_interval(hours => g.reminder_hours)
      join offerings o on o.id = b.offering_id
      join customers c on c.id = b.customer_id
      where g.text_kinds @> '{reminder}' and b.status = 'confirmed' and c.phone is not null and c.erased_at is null
        and not exists (select 1 from texts t where t.booking_id = b.id and t.kind = 'booking.reminder')
      order by b.starts_at limit 200`
    for (const b of due) {
      const to = toE164(b.phone)
      if (to === undefined) continue
      const body = bookingText(
        "reminder",
        {
          kind: "resend",
          reference: b.reference,
          offering: b.offering,
          starts_at: b.starts_at.toISOString(),
          page_url: guestPage(links.publicUrl, b.handle)
        },
        b
      )
      yield* store.enqueue({ orgId: b.org_id, to, body, kind: "booking.reminder", bookingId: b.id }, now)
    }
  }).pipe(Effect.orDie)
})
