import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useConsole, useLoad } from "../state.ts"
import type { EventRow, Message } from "../types.ts"
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

export const Inbox = () => {
  const { zone } = useConsole()
  // The API lists messages per conversation; the inbox gathers them from the org's latest message events.
  const { data, error } = useLoad(
    () =>
      Promise.all(
        ["message.received", "message.sent"].map((type) =>
          api.get<{ data: EventRow[] }>("/events", { type, order: "desc", limit: "200" }).then((r) => r.data)
        )
      ).then((pages) => pages.flat().map((e) => e.data as Message)),
    []
  )
  const [open, setOpen] = useState<string | undefined>(undefined)
  const list = data === undefined ? undefined : conversations(data)
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
              <div class="muted">{dateTime(c.last.created_at, zone)}</div>
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
