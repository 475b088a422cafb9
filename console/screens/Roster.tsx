import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { dateTime, money } from "../format.ts"
import { answerText, owes, paidNote, refundCents } from "../money.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking, Offering, TimeSlot } from "../types.ts"
import { Alert, Badge, Done, Field, Loading, statusTone, Title, value } from "../ui.tsx"
import { CancelTime } from "./CancelTime.tsx"

/** A class time: who is coming, check-in, a message to all of them, and cancelling the time. */
export const Roster = ({ id, search }: { id: string; search: string }) => {
  const { zone, currency } = useConsole()
  const q = new URLSearchParams(search)
  const { data, error, reload } = useLoad(async () => {
    const bookings = (await api.get<{ data: Booking[] }>("/bookings", { session_id: id, limit: "500", order: "asc" }))
      .data
    const at = q.get("at") ?? bookings[0]?.starts_at
    const offeringId = q.get("offering") ?? bookings[0]?.offering_id
    const slot =
      at === undefined
        ? undefined
        : (
            await api.get<{ data: TimeSlot[] }>("/sessions", {
              offering_id: offeringId,
              from: at,
              to: new Date(Date.parse(at) + 1000).toISOString()
            })
          ).data.find((s) => s.id === id)
    const offering = offeringId === undefined ? undefined : await api.get<Offering>(`/offerings/${offeringId}`)
    return { bookings, slot, offering }
  }, [id])
  const [note, setNote] = useState("")
  const [sent, setSent] = useState<string | undefined>(undefined)
  // Said here, not in CancelTime: the reload that follows a cancel unmounts the form (the time is no longer scheduled).
  const [cancelled, setCancelled] = useState<string | undefined>(undefined)
  const act = useAction()
  if (data === undefined) return <Loading error={error} />
  const coming = data.bookings.filter((b) => b.status !== "cancelled")
  const attendance = (b: Booking, attendance: "checked_in" | "no_show" | "clear") =>
    act.run(() => api.post(`/bookings/${b.id}/attendance`, { attendance }), reload)
  const messageAll = (e: Event) => {
    e.preventDefault()
    const to = coming.filter((b) => b.status === "confirmed")
    void act.run(
      () => Promise.all(to.map((b) => api.post("/messages", { booking_id: b.id, body: note }))),
      () => (setNote(""), setSent(`Sent to ${to.length} ${to.length === 1 ? "guest" : "guests"}.`))
    )
  }
  const cancelledHere = data.bookings.filter((b) => b.status === "cancelled")
  const arrived = coming.filter((b) => b.checked_in_at !== null).reduce((n, b) => n + b.quantity, 0)
  const expected = coming.filter((b) => b.status === "confirmed").reduce((n, b) => n + b.quantity, 0)
  const questions = data.offering?.questions ?? []
  const places = data.slot === undefined ? undefined : (data.slot.capacity ?? data.offering?.capacity ?? 0)
  return (
    <section>
      <Title>
        {data.offering?.name ?? "Time"}
        {data.slot === undefined ? null : `, ${dateTime(data.slot.starts_at, zone)}`}
      </Title>
      {data.slot?.status === "cancelled" ? <Badge tone="bad">cancelled</Badge> : null}
      {places === undefined ? null : (
        <p>
          {data.slot?.booked ?? 0} of {places} places taken.
        </p>
      )}
      <Alert text={act.error} />
      <Done text={sent} />
      <h2>Roster</h2>
      {expected > 0 ? (
        <p>
          {arrived} of {expected} {expected === 1 ? "person" : "people"} checked in.
        </p>
      ) : null}
      {coming.length === 0 ? (
        <p class="muted">{cancelledHere.length === 0 ? "No one is booked yet." : "No one is booked now."}</p>
      ) : (
        <ul class="roster">
          {coming.map((b) => (
            <li key={b.id}>
              <a href={`${BASE}/guests/${b.customer_id}`}>{b.customer?.name ?? b.customer?.email ?? "Guest"}</a>{" "}
              <a href={`${BASE}/bookings/${b.id}`} class="muted">
                {b.reference}
              </a>
              {b.quantity > 1 ? <span> × {b.quantity}</span> : null}{" "}
              <Badge tone={statusTone(b.status)}>{b.status}</Badge>{" "}
              <Badge tone={owes(b) ? "warn" : "good"}>{paidNote(b, currency)}</Badge>
              <div class="muted">
                {[b.customer?.phone, b.notes === "" ? undefined : `Note: ${b.notes}`]
                  .concat(
                    questions
                      .filter((q) => b.answers[q.id ?? ""] != null)
                      .map((q) => `${q.label} ${answerText(b.answers[q.id ?? ""])}`)
                  )
                  .filter((x) => x !== undefined && x !== null && x !== "")
                  .join(" · ")}
              </div>
              {b.checked_in_at !== null ? <Badge tone="good">checked in</Badge> : null}
              {b.no_show_at !== null ? <Badge tone="bad">no-show</Badge> : null}
              {b.status === "confirmed" ? (
                <span class="row-actions">
                  {b.checked_in_at === null ? (
                    <button type="button" disabled={act.busy} onClick={() => attendance(b, "checked_in")}>
                      {b.quantity > 1 ? `Check in all ${b.quantity}` : "Check in"}{" "}
                      <span class="visually-hidden">{b.customer?.name}</span>
                    </button>
                  ) : (
                    <button type="button" class="secondary" disabled={act.busy} onClick={() => attendance(b, "clear")}>
                      Undo check-in <span class="visually-hidden">{b.customer?.name}</span>
                    </button>
                  )}
                  {b.no_show_at === null && b.checked_in_at === null ? (
                    <button
                      type="button"
                      class="secondary"
                      disabled={act.busy}
                      onClick={() => attendance(b, "no_show")}
                    >
                      No-show <span class="visually-hidden">{b.customer?.name}</span>
                    </button>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {coming.length > 0 ? (
        <form onSubmit={messageAll}>
          <h2>Message everyone booked</h2>
          <Field label="Message">
            <textarea required rows={3} value={note} onInput={(e) => setNote(value(e))} />
          </Field>
          <button type="submit" disabled={act.busy}>
            Send to all
          </button>
        </form>
      ) : null}
      {data.slot?.status === "scheduled" ? (
        <CancelTime
          id={id}
          bookings={coming}
          done={() => {
            setCancelled("The time is cancelled and the guests are told.")
            reload()
          }}
        />
      ) : null}
      <Done text={cancelled} />
      {cancelledHere.length === 0 ? null : (
        <>
          <h2>Cancelled</h2>
          <ul>
            {cancelledHere.map((b) => (
              <li key={b.id}>
                <a href={`${BASE}/guests/${b.customer_id}`}>{b.customer?.name ?? b.customer?.email ?? "Guest"}</a>
                {b.quantity > 1 ? ` × ${b.quantity}` : ""}:{" "}
                {refundCents(b) > 0 ? `refund ${money(refundCents(b), currency)}` : "no refund"}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
