import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { EventRow, Message } from "../types.ts"
import { Alert, Done, Field, value } from "../ui.tsx"

/** The drafted replies (message.drafted events) of a conversation, newest first. */
export const draftsFor = (events: ReadonlyArray<EventRow>, messages: ReadonlyArray<Message>) => {
  const last = messages.at(-1)
  return events
    .map((e) => e.data as Message)
    .filter((m) => messages.some((x) => x.customer_id === m.customer_id && x.booking_id === m.booking_id))
    .filter((m) => last === undefined || (last.direction === "inbound" && m.created_at >= last.created_at))
}

/**
 * A guest's conversation (of one booking, or of the guest): every message as text, a drafted reply to accept or
 * edit, and a reply box.
 */
export const Thread = ({
  bookingId,
  customerId,
  title = "Messages"
}: {
  bookingId?: string
  customerId?: string
  title?: string
}) => {
  const { zone } = useConsole()
  const query = bookingId !== undefined ? { booking_id: bookingId } : { customer_id: customerId }
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Message[] }>("/messages", query).then((r) => r.data),
        api
          .get<{ data: EventRow[] }>("/events", { type: "message.drafted", order: "desc", limit: "50" })
          .then((r) => r.data)
      ]),
    [bookingId, customerId]
  )
  const [body, setBody] = useState("")
  const [sent, setSent] = useState<string | undefined>(undefined)
  const act = useAction()
  const messages = [...(data?.[0] ?? [])].sort((a, b) => a.created_at.localeCompare(b.created_at))
  const draft = data === undefined ? undefined : draftsFor(data[1], messages)[0]
  const send = (text: string) =>
    act.run(
      () => api.post("/messages", { ...query, body: text }),
      () => (setBody(""), setSent("Sent."), reload())
    )
  return (
    <section aria-labelledby="thread">
      <h2 id="thread">{title}</h2>
      {messages.length === 0 ? <p class="muted">No messages yet.</p> : null}
      <ol class="thread">
        {messages.map((m) => (
          <li key={m.id} class={m.direction === "inbound" ? "guest" : "us"}>
            <div class="muted">
              {m.direction === "inbound" ? "Guest" : m.channel === "system" ? "Automatic" : "You"},{" "}
              {dateTime(m.created_at, zone)}
              {m.failed_at !== null ? " — not delivered" : ""}
            </div>
            <p class="body">{m.body}</p>
          </li>
        ))}
      </ol>
      {draft !== undefined ? (
        <div class="draft">
          <h3>Suggested reply</h3>
          <p class="body">{draft.body}</p>
          <button type="button" disabled={act.busy} onClick={() => send(draft.body)}>
            Send as it is
          </button>{" "}
          <button type="button" class="secondary" onClick={() => setBody(draft.body)}>
            Edit
          </button>
        </div>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void send(body)
        }}
      >
        <Field label="Reply">
          <textarea required rows={3} value={body} onInput={(e) => setBody(value(e))} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Send
        </button>
      </form>
      <Alert text={act.error} />
      <Done text={sent} />
    </section>
  )
}
