import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useConsole, useLoad } from "../state.ts"
import type { EventRow } from "../types.ts"

/** What happened to a booking: its events (among the org's latest 500), oldest first. */
export const History = ({ id }: { id: string }) => {
  const { zone } = useConsole()
  const { data } = useLoad(
    () =>
      api
        .get<{ data: EventRow[] }>("/events", { order: "desc", limit: "500" })
        .then((r) =>
          r.data.filter((e) => e.type.startsWith("booking.") && (e.data as { id?: string } | null)?.id === id).reverse()
        ),
    [id]
  )
  return (
    <section aria-labelledby="history">
      <h2 id="history">History</h2>
      {data === undefined ? null : data.length === 0 ? (
        <p class="muted">No events yet.</p>
      ) : (
        <ol class="history">
          {data.map((e) => (
            <li key={e.id}>
              <span class="muted">{dateTime(e.created_at, zone)}</span>{" "}
              {e.type.replace("booking.", "").replace("_", " ")}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
