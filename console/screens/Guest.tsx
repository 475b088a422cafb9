import { all, api } from "../api.ts"
import { dateTime, money } from "../format.ts"
import { answerText, paidNote, refundCents } from "../money.ts"
import { BASE } from "../router.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Booking, Customer, Message } from "../types.ts"
import { Badge, Loading, statusTone, Title } from "../ui.tsx"
import { Thread } from "./Thread.tsx"

/** The latest bookings whose conversations are read for the guest's page (one request each). */
const THREADS = 20

const load = async (id: string) => {
  const [customer, bookings] = await Promise.all([
    api.get<Customer>(`/customers/${id}`),
    all<Booking>("/bookings", { customer_id: id, order: "desc" }, 4)
  ])
  const threads = await Promise.all(
    bookings
      .slice(0, THREADS)
      .map((b) => api.get<{ data: Message[] }>("/messages", { booking_id: b.id }).then((r) => r.data))
  )
  const messages = threads.flat().sort((a, b) => b.created_at.localeCompare(a.created_at))
  return { customer, bookings, messages }
}

/** One guest: who they are, every booking with what they paid, their answers and notes, and their messages. */
export const Guest = ({ id }: { id: string }) => {
  const { zone, currency } = useConsole()
  const { data, error } = useLoad(() => load(id), [id])
  if (data === undefined) return <Loading error={error} />
  const { customer: c, bookings, messages } = data
  const kept = bookings.filter((b) => b.status !== "cancelled")
  const paid = bookings.reduce((sum, b) => sum + (b.paid_at !== null ? (b.paid_cents ?? b.total_cents) : 0), 0)
  const owed = kept.reduce((sum, b) => sum + (b.paid_at === null ? b.total_cents - (b.paid_cents ?? 0) : 0), 0)
  const refunded = bookings.reduce((sum, b) => sum + refundCents(b), 0)
  const answered = bookings.filter((b) => (b.offering?.questions ?? []).some((q) => b.answers[q.id ?? ""] != null))
  const noted = bookings.filter((b) => b.notes !== "")
  const name = c.erased ? "(erased guest)" : (c.name ?? c.email ?? "Guest")
  return (
    <section>
      <Title>{name}</Title>
      <dl class="facts">
        <dt>Email</dt>
        <dd>{c.email ?? "—"}</dd>
        <dt>Phone</dt>
        <dd>{c.phone ?? "—"}</dd>
        <dt>Bookings</dt>
        <dd>
          {kept.length} kept, {bookings.length - kept.length} cancelled
        </dd>
        <dt>Payments</dt>
        <dd>
          {money(paid, currency)} paid · {money(owed, currency)} not paid yet · {money(refunded, currency)} refunded
        </dd>
      </dl>
      <h2>Bookings</h2>
      {bookings.length === 0 ? (
        <p class="muted">No bookings yet.</p>
      ) : (
        <table class="list">
          <caption class="visually-hidden">Bookings of {name}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Offering</th>
              <th scope="col">Paid</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {bookings.map((b) => (
              <tr key={b.id}>
                <td>
                  <a href={`${BASE}/bookings/${b.id}`}>{dateTime(b.starts_at, zone)}</a>
                  <div class="muted">{b.reference}</div>
                </td>
                <td>
                  {b.offering?.name}
                  {b.quantity > 1 ? ` × ${b.quantity}` : ""}
                </td>
                <td>
                  {paidNote(b, currency)}
                  {refundCents(b) > 0 ? ` · refund ${money(refundCents(b), currency)}` : ""}
                </td>
                <td>
                  <Badge tone={statusTone(b.status)}>{b.status}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Answers</h2>
      {answered.length === 0 ? <p class="muted">No answers given.</p> : null}
      {answered.map((b) => (
        <dl class="facts" key={b.id} aria-label={`Answers for ${b.reference}`}>
          <dt>Booking</dt>
          <dd>
            <a href={`${BASE}/bookings/${b.id}`}>{b.reference}</a> · {b.offering?.name}
          </dd>
          {(b.offering?.questions ?? []).map((q) => (
            <div key={q.id}>
              <dt>{q.label}</dt>
              <dd class="body">{answerText(b.answers[q.id ?? ""])}</dd>
            </div>
          ))}
        </dl>
      ))}
      <h2>Notes</h2>
      {noted.length === 0 ? (
        <p class="muted">No notes.</p>
      ) : (
        <ul>
          {noted.map((b) => (
            <li key={b.id}>
              <a href={`${BASE}/bookings/${b.id}`}>{b.reference}</a>: <span class="body">{b.notes}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>Messages about their bookings</h2>
      {messages.length === 0 ? (
        <p class="muted">No messages about their bookings.</p>
      ) : (
        <ol class="thread">
          {messages.map((m) => (
            <li key={m.id} class={m.direction === "inbound" ? "guest" : "us"}>
              <div class="muted">
                {m.direction === "inbound" ? "From the guest" : "To the guest"}, {dateTime(m.created_at, zone)} ·{" "}
                <a href={`${BASE}/bookings/${m.booking_id}`}>
                  {bookings.find((b) => b.id === m.booking_id)?.reference ?? "booking"}
                </a>
              </div>
              <p class="body">{m.body}</p>
            </li>
          ))}
        </ol>
      )}
      {c.erased ? null : <Thread customerId={id} title="Messages with the guest" />}
    </section>
  )
}
