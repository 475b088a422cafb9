import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { priceOf } from "../money.ts"
import { BASE, navigate } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking, Offering, Payment } from "../types.ts"
import { Alert, Field, Loading, Title, value } from "../ui.tsx"
import { LINK_MINUTES, PayChoice } from "./PayChoice.tsx"
import { type Slot, Slots } from "./Slots.tsx"

/**
 * A booking taken for a guest (over the phone, at the desk): source dashboard. A priced one asks how the guest pays:
 * paid now, later at the door (both confirmed at once), a payment link (held until paid) or free.
 */
export const NewBooking = () => {
  const { currency } = useConsole()
  const { data, error } = useLoad(() => api.get<{ data: Offering[] }>("/offerings").then((r) => r.data), [])
  const [payment, setPayment] = useState<Payment | undefined>(undefined)
  const [offeringId, setOfferingId] = useState("")
  const [slot, setSlot] = useState<Slot | undefined>(undefined)
  const [guest, setGuest] = useState({ name: "", email: "", phone: "" })
  const [quantity, setQuantity] = useState("1")
  const [notes, setNotes] = useState("")
  const [answers, setAnswers] = useState<Record<string, string | boolean>>({})
  const act = useAction()
  if (data === undefined) return <Loading error={error} />
  const active = data.filter((o) => o.active)
  const offering = active.find((o) => o.id === offeringId)
  const total = offering === undefined ? 0 : priceOf(offering, Math.max(1, Number(quantity) || 1))
  const submit = (e: Event) => {
    e.preventDefault()
    if (offering === undefined || slot === undefined || (total > 0 && payment === undefined)) return
    void act.run(
      () =>
        api.post<Booking>("/bookings", {
          offering_id: offering.id,
          ...(slot.session_id !== undefined
            ? { session_id: slot.session_id }
            : slot.series_id !== undefined
              ? { series_id: slot.series_id }
              : { starts_at: slot.starts_at }),
          quantity: Number(quantity),
          customer: {
            name: guest.name.trim(),
            email: guest.email.trim(),
            ...(guest.phone ? { phone: guest.phone } : {})
          },
          ...(notes === "" ? {} : { notes }),
          ...(Object.keys(answers).length > 0 ? { answers } : {}),
          ...(total > 0 && payment !== undefined ? { payment } : {}),
          ...(total > 0 && payment === "online" ? { hold_minutes: LINK_MINUTES } : {})
        }),
      (b) => navigate(`${BASE}/bookings/${b.id}`)
    )
  }
  const set = (k: keyof typeof guest) => (e: Event) => setGuest({ ...guest, [k]: value(e) })
  return (
    <section>
      <Title>Book for a guest</Title>
      {active.length === 0 ? (
        <p>
          There is nothing to book yet. <a href={`${BASE}/offerings/new`}>Create an offering</a> first.
        </p>
      ) : (
        <form onSubmit={submit} class="stack">
          <Field label="Offering">
            <select value={offeringId} onChange={(e) => (setOfferingId(value(e)), setSlot(undefined))} required>
              <option value="">Choose an offering</option>
              {active.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </Field>
          {offering === undefined ? null : (
            <Slots key={offering.id} offeringId={offering.id} label="Time" chosen={slot} choose={setSlot} />
          )}
          <Field label="Guest's name">
            <input required autoComplete="off" value={guest.name} onInput={set("name")} />
          </Field>
          <Field label="Guest's email">
            <input type="email" required autoComplete="off" value={guest.email} onInput={set("email")} />
          </Field>
          <Field label="Guest's phone (optional)">
            <input type="tel" autoComplete="off" value={guest.phone} onInput={set("phone")} />
          </Field>
          <Field label="Places">
            <input
              type="number"
              min={1}
              max={offering?.max_per_booking ?? 1}
              value={quantity}
              onInput={(e) => setQuantity(value(e))}
            />
          </Field>
          {offering?.questions.map((q) => (
            <Field key={q.id} label={`${q.label}${q.required ? "" : " (optional)"}`}>
              {q.type === "yes_no" ? (
                <input
                  type="checkbox"
                  checked={answers[q.id ?? ""] === true}
                  onChange={(e) =>
                    setAnswers({ ...answers, [q.id ?? ""]: (e.currentTarget as HTMLInputElement).checked })
                  }
                />
              ) : q.type === "choice" ? (
                <select required={q.required} onChange={(e) => setAnswers({ ...answers, [q.id ?? ""]: value(e) })}>
                  <option value="">Choose</option>
                  {q.options?.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              ) : (
                <input required={q.required} onInput={(e) => setAnswers({ ...answers, [q.id ?? ""]: value(e) })} />
              )}
            </Field>
          ))}
          <Field label="Notes (optional)">
            <textarea rows={2} value={notes} onInput={(e) => setNotes(value(e))} />
          </Field>
          {total > 0 ? <PayChoice total={total} currency={currency} chosen={payment} choose={setPayment} /> : null}
          <Alert text={act.error} />
          <button type="submit" disabled={act.busy || slot === undefined}>
            Book
          </button>
        </form>
      )}
    </section>
  )
}
