import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Actor, EventRow } from "../types.ts"

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

/** The names of who can act: the team's members by user id, and (for owners, who may read them) the API keys. */
const names = async (owner: boolean) => {
  const [team, keys] = await Promise.all([
    api.get<{ data: Array<{ user_id: string; email: string; name: string | null }> }>("/team").catch(() => undefined),
    owner ? api.get<{ data: Array<{ id: string; name: string }> }>("/api_keys").catch(() => undefined) : undefined
  ])
  return {
    people: new Map((team?.data ?? []).map((m) => [m.user_id, m.name ?? m.email])),
    keys: new Map((keys?.data ?? []).map((k) => [k.id, k.name]))
  }
}

const VIA = {
  widget: "the booking widget",
  guest_page: "their booking page",
  assistant: "the assistant",
  email: "email",
  text: "a text message"
}

/** Who did it, in words: by a person (named), by a key (named), by the guest (and where), or automatically. */
export const actorName = (a: Actor | null | undefined, known: Awaited<ReturnType<typeof names>>, guest: string) => {
  if (a === null || a === undefined) return undefined
  if (a.type === "person") return `by ${known.people.get(a.id ?? "") ?? "a team member"}`
  if (a.type === "key") {
    const key = known.keys.get(a.id ?? "")
    return key === undefined ? "by an API key" : `by the API key ${key}`
  }
  if (a.type === "guest") return `by ${guest}${a.via === undefined ? "" : `, on ${VIA[a.via]}`}`
  return "automatically"
}

/** What happened to a booking: its events and those naming it (a message, a signature, a gift card's part back). */
export const History = ({ id, guest = "the guest" }: { id: string; guest?: string }) => {
  const { zone, owner } = useConsole()
  const { data, error } = useLoad(() => Promise.all([bookingEvents(id), names(owner)]), [id, owner])
  return (
    <section aria-labelledby="history">
      <h2 id="history">History</h2>
      {data === undefined ? (
        error === undefined ? null : (
          <p class="muted">The history could not be read: {error}</p>
        )
      ) : data[0].length === 0 ? (
        <p class="muted">No events yet.</p>
      ) : (
        <ol class="history">
          {data[0].map((e) => {
            const by = actorName(e.actor, data[1], guest)
            return (
              <li key={e.id}>
                <span class="muted">{dateTime(e.created_at, zone)}</span> {said(e.type)}
                {by === undefined ? null : <span class="muted"> · {by}</span>}
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}
