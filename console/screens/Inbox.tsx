import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { BASE } from "../router.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Booking, Customer, EventRow, Message } from "../types.ts"
import { Empty, Loading, Title } from "../ui.tsx"
import { Thread } from "./Thread.tsx"

interface Conversation {
  key: string
  booking_id: string | null
  customer_id: string
  last: Message
  waiting: boolean
}

/** Conversations by booking (or guest), newest first, those whose last word is the guest's (unanswered) on top. */
export const conversations = (messages: ReadonlyArray<Message>): Conversation[] => {
  const by = new Map<string, Message[]>()
  for (const m of messages) {
    const key = m.booking_id ?? `customer:${m.customer_id}`
    by.set(key, [...(by.get(key) ?? []), m])
  }
  return [...by]
    .map(([key, list]) => {
      const last = list.reduce((a, b) => (b.created_at > a.created_at ? b : a))
      return {
        key,
        booking_id: last.booking_id,
        customer_id: last.customer_id,
        last,
        waiting: last.direction === "inbound"
      }
    })
    .sort((a, b) => Number(b.waiting) - Number(a.waiting) || b.last.created_at.localeCompare(a.last.created_at))
}

/** At most this many bookings and guests are read to name the conversations (one request each). */
const NAMED = 40

/** The bookings and guests the conversations are about, to name them: the guest, the offering, the reference. */
const whoAndWhat = async (messages: Message[]) => {
  const list = conversations(messages).slice(0, NAMED)
  const bookingIds = [...new Set(list.flatMap((c) => (c.booking_id === null ? [] : [c.booking_id])))]
  const guestIds = [...new Set(list.filter((c) => c.booking_id === null).map((c) => c.customer_id))]
  const [bookings, guests] = await Promise.all([
    Promise.all(bookingIds.map((id) => api.get<Booking>(`/bookings/${id}`).catch(() => undefined))),
    Promise.all(guestIds.map((id) => api.get<Customer>(`/customers/${id}`).catch(() => undefined)))
  ])
  return {
    messages,
    bookings: new Map(bookings.flatMap((b) => (b === undefined ? [] : [[b.id, b] as const]))),
    guests: new Map(guests.flatMap((g) => (g === undefined ? [] : [[g.id, g] as const])))
  }
}

const guestOf = (c: Conversation, data: Awaited<ReturnType<typeof whoAndWhat>> | undefined) => {
  const g = c.booking_id === null ? data?.guests.get(c.customer_id) : data?.bookings.get(c.booking_id)?.customer
  return g?.name ?? g?.email ?? "A guest"
}

/** The org's latest messages, from their events (messages.list answers one conversation at a time). */
const latestMessages = () =>
  Promise.all(
    ["message.received", "message.sent"].map((type) =>
      api.get<{ data: EventRow[] }>("/events", { type, order: "desc", limit: "200" }).then((r) => r.data)
    )
  ).then((pages) => pages.flat().map((e) => e.data as Message))

/** How many conversations wait for an answer (the guest wrote last): the menu shows it beside Messages. */
export const useUnanswered = (path: string) => {
  const { data } = useLoad(() => latestMessages().then((m) => conversations(m).filter((c) => c.waiting).length), [path])
  return data ?? 0
}

export const Inbox = () => {
  const { zone } = useConsole()
  // The API lists messages per conversation; the inbox gathers them from the org's latest message events.
  const { data, error } = useLoad(() => latestMessages().then(whoAndWhat), [])
  const [open, setOpen] = useState<string | undefined>(undefined)
  const list = data === undefined ? undefined : conversations(data.messages)
  const chosen = list?.find((c) => c.key === open)
  return (
    <section>
      <Title>Messages</Title>
      {list === undefined ? (
        <Loading error={error} />
      ) : list.length === 0 ? (
        <Empty>
          <p>No messages yet. When a guest writes, the conversation shows here.</p>
        </Empty>
      ) : (
        <ul class="cards">
          {list.map((c) => (
            <li key={c.key}>
              <button
                type="button"
                class="link"
                aria-expanded={open === c.key}
                onClick={() => setOpen(open === c.key ? undefined : c.key)}
              >
                {c.waiting ? "Unanswered: " : ""}
                {c.last.body.slice(0, 80)}
              </button>
              <div class="muted">
                {guestOf(c, data)}
                {c.booking_id === null ? null : (
                  <>
                    {" · "}
                    {data?.bookings.get(c.booking_id)?.offering?.name ?? "a booking"}{" "}
                    <a href={`${BASE}/bookings/${c.booking_id}`}>
                      {data?.bookings.get(c.booking_id)?.reference ?? "the booking"}
                    </a>
                  </>
                )}{" "}
                · <a href={`${BASE}/guests/${c.customer_id}`}>guest's page</a> · {dateTime(c.last.created_at, zone)}
              </div>
            </li>
          ))}
        </ul>
      )}
      {chosen === undefined ? null : chosen.booking_id !== null ? (
        <Thread key={chosen.key} bookingId={chosen.booking_id} />
      ) : (
        <Thread key={chosen.key} customerId={chosen.customer_id} />
      )}
    </section>
  )
}
