import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { amount, money, parseMoney } from "../format.ts"
import { checkRefund, refundable, refundTotal } from "../money.ts"
import { useAction, useConsole } from "../state.ts"
import type { Booking } from "../types.ts"
import { Alert, Field, value } from "../ui.tsx"

/**
 * Cancelling a time: first what goes back to whom (each refund can be lowered, to a partial refund), then the
 * cancellation. With refunds chosen here, each booking is cancelled with its refund and then the time; "let guests
 * choose" cancels the time and offers each guest a move or a refund.
 */
export const CancelTime = ({ id, bookings, done }: { id: string; bookings: Booking[]; done: () => void }) => {
  const { currency } = useConsole()
  const [open, setOpen] = useState(false)
  const [mode, setMode] = useState<"refund" | "choose">("refund")
  const [typed, setTyped] = useState<Record<string, string>>({})
  const [note, setNote] = useState("")
  const act = useAction()
  const confirmed = bookings.filter((b) => b.status !== "cancelled")
  const amountOf = (b: Booking) => typed[b.id] ?? amount(refundable(b), currency)
  const checks = confirmed.map((b) => ({ b, check: checkRefund(parseMoney(amountOf(b), currency), b) }))
  const chosen = new Map(checks.flatMap(({ b, check }) => (check.ok ? [[b.id, check.cents] as const] : [])))
  const invalid = mode === "refund" && checks.some((c) => !c.check.ok)
  if (!open)
    return (
      <p>
        <button type="button" class="danger" onClick={() => setOpen(true)}>
          Cancel this time…
        </button>
      </p>
    )
  const cancel = (e: Event) => {
    e.preventDefault()
    void act.run(async () => {
      if (mode === "refund")
        for (const b of confirmed)
          await api.post(`/bookings/${b.id}/cancel`, {
            refund_cents: chosen.get(b.id) ?? 0,
            reason: note || "The time was cancelled"
          })
      await api.post(`/sessions/${id}/cancel`, { guests: mode, ...(note === "" ? {} : { note }) })
    }, done)
  }
  return (
    <form class="panel" onSubmit={cancel} aria-labelledby="cancel-time">
      <h2 id="cancel-time">Cancel this time</h2>
      <fieldset>
        <legend>The guests</legend>
        <label class="choice">
          <input type="radio" name="mode" checked={mode === "refund"} onChange={() => setMode("refund")} /> Cancel their
          bookings with the refunds below
        </label>
        <label class="choice">
          <input type="radio" name="mode" checked={mode === "choose"} onChange={() => setMode("choose")} /> Let each
          guest choose another time or a refund
        </label>
      </fieldset>
      {mode === "refund" && confirmed.length > 0 ? (
        <table>
          <caption>Refunds ({currency})</caption>
          <thead>
            <tr>
              <th scope="col">Guest</th>
              <th scope="col">Paid online</th>
              <th scope="col">Refund</th>
            </tr>
          </thead>
          <tbody>
            {checks.map(({ b, check }) => (
              <tr key={b.id}>
                <td>{b.customer?.name ?? b.reference}</td>
                <td>{money(refundable(b), currency)}</td>
                <td>
                  <input
                    aria-label={`Refund for ${b.customer?.name ?? b.reference}`}
                    inputMode="decimal"
                    value={amountOf(b)}
                    onInput={(e) => setTyped({ ...typed, [b.id]: value(e) })}
                    aria-invalid={!check.ok}
                  />
                  {check.ok ? null : <small class="error">{check.why}</small>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p class="summary" role="status">
        {mode === "refund"
          ? `${confirmed.length} ${confirmed.length === 1 ? "booking" : "bookings"} cancelled, ${money(refundTotal(chosen), currency)} refunded in all.`
          : `${confirmed.length} ${confirmed.length === 1 ? "guest" : "guests"} asked to choose another time or a refund.`}
      </p>
      <Field label="Note to the guests (optional)">
        <textarea rows={2} value={note} onInput={(e) => setNote(value(e))} />
      </Field>
      <Alert text={act.error} />
      <button type="submit" class="danger" disabled={act.busy || invalid}>
        Cancel the time
      </button>{" "}
      <button type="button" class="secondary" onClick={() => setOpen(false)}>
        Keep it
      </button>
    </form>
  )
}
