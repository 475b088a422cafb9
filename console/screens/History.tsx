import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useConsole, useLoad } from "../state.ts"
import type { EventRow } from "../types.ts"

/** Every event about one booking, oldest first: events.list with booking_id, page by page (200 a page). */
const bookingEvents = async (id: string) => {
  const out: EventRow[] = []
  let after = 0
  for (;;) {
    const page = await api.get<{ data: EventRow[]; next_after: number }>("/events", {
      booking_id: id,
      limit: "200",
      after: String(after)
    })
    out.push(...page.data)
    if (page.data.length < 200) return out
    after = page.next_after
  }
}

/** What an event says happened: booking.refund_failed is "refund failed", message.sent "message sent". */
const said = (type: string) => type.replace(/^booking\./, "").replace(/[._]/g, " ")

/** What happened to a booking: its events and those naming it (a message, a signature, a gift card's part back). */
export const History = ({ id }: { id: string }) => {
  const { zone } = useConsole()
  const { data, error } = useLoad(() => bookingEvents(id), [id])
  return (
    <section aria-labelledby="history">
      <h2 id="history">History</h2>
      {data === undefined ? (
        error === undefined ? null : (
          <p class="muted">The history could not be read: {error}</p>
        )
      ) : data.length === 0 ? (
        <p class="muted">No events yet.</p>
      ) : (
        <ol class="history">
          {data.map((e) => (
            <li key={e.id}>
              <span class="muted">{dateTime(e.created_at, zone)}</span> {said(e.type)}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
