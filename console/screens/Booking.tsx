import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { amount, dateTime, money, parseMoney } from "../format.ts"
import { answerText, checkRefund, paidNote, type RefundState, refundable, refundCents, refundState } from "../money.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking as B } from "../types.ts"
import { Alert, Badge, Done, Field, Loading, statusTone, Title, value } from "../ui.tsx"
import { History } from "./History.tsx"
import { Move } from "./Move.tsx"
import { PayActions } from "./PayActions.tsx"
import { Thread } from "./Thread.tsx"

/** One booking: its facts and answers, what can be done with it, its history and the guest's messages. */
export const Booking = ({ id }: { id: string }) => {
  const { zone, currency, owner } = useConsole()
  const { data: b, error, reload } = useLoad(() => api.get<B>(`/bookings/${id}`), [id])
  const act = useAction()
  const [done, setDone] = useState<string | undefined>(undefined)
  const [cancelling, setCancelling] = useState(false)
  const [refund, setRefund] = useState<string | undefined>(undefined)
  const [reason, setReason] = useState("")
  if (b === undefined) return <Loading error={error} />
  const post = (path: string, said: string, body: unknown = {}) =>
    act.run(
      () => api.post(`/bookings/${id}/${path}`, body),
      () => (setDone(said), reload())
    )
  const typed = refund ?? amount(refundable(b), currency)
  const check = checkRefund(parseMoney(typed, currency), b)
  const questions = b.offering?.questions ?? []
  return (
    <section>
      <Title>
        {b.customer?.name ?? b.customer?.email ?? "Guest"} · {b.reference}
      </Title>
      <p>
        <Badge tone={statusTone(b.status)}>{b.status}</Badge> <span class="muted">booked via {b.source}</span>
      </p>
      <dl class="facts">
        <dt>Offering</dt>
        <dd>{b.offering?.name}</dd>
        <dt>When</dt>
        <dd>{dateTime(b.starts_at, zone)}</dd>
        <dt>Guest</dt>
        <dd>
          <a href={`${BASE}/guests/${b.customer_id}`}>{b.customer?.name ?? b.customer?.email ?? "Guest"}</a>{" "}
          {b.customer?.email ? `<${b.customer.email}>` : ""} {b.customer?.phone ?? ""}
        </dd>
        <dt>Places</dt>
        <dd>{b.quantity}</dd>
        <dt>Total</dt>
        <dd>
          {paidNote(b, currency)}
          {refundCents(b) > 0 ? ` · refund ${money(refundCents(b), currency)}` : ""}
          {refundNote[refundState(b)](b.refund_error ?? "")}
        </dd>
        {b.checked_in_at !== null ? (
          <>
            <dt>Checked in</dt>
            <dd>{dateTime(b.checked_in_at, zone)}</dd>
          </>
        ) : null}
        {b.notes !== "" ? (
          <>
            <dt>Notes</dt>
            <dd class="body">{b.notes}</dd>
          </>
        ) : null}
        {questions.map((q) => (
          <div key={q.id}>
            <dt>{q.label}</dt>
            <dd class="body">{answerText(b.answers[q.id ?? ""])}</dd>
          </div>
        ))}
        {b.cancel_reason !== null ? (
          <>
            <dt>Why cancelled</dt>
            <dd class="body">{b.cancel_reason}</dd>
          </>
        ) : null}
      </dl>
      <Alert text={act.error} />
      <Done text={done} />
      <PayActions b={b} zone={zone} currency={currency} busy={act.busy} post={post} />
      {b.status !== "cancelled" ? (
        <div class="actions wrap">
          <button
            type="button"
            class="secondary"
            disabled={act.busy}
            onClick={() => post("resend", "Confirmation sent again.")}
          >
            Resend confirmation
          </button>
          <button type="button" class="danger" onClick={() => setCancelling(true)}>
            Cancel booking…
          </button>
        </div>
      ) : null}
      {owner && refundState(b) === "failed" ? (
        <div class="actions">
          <button type="button" disabled={act.busy} onClick={() => post("retry_refund", "Refund taken again.")}>
            Retry refund
          </button>
        </div>
      ) : null}
      {cancelling && b.status !== "cancelled" ? (
        <form
          class="panel"
          onSubmit={(e) => {
            e.preventDefault()
            if (check.ok)
              void post("cancel", "Cancelled.", {
                refund_cents: check.cents,
                ...(reason === "" ? {} : { reason })
              }).then(() => setCancelling(false))
          }}
        >
          <h2>Cancel this booking</h2>
          <p>Paid online: {money(refundable(b), currency)}. The guest gets back what you choose below.</p>
          <Field label={`Refund (${currency})`}>
            <input inputMode="decimal" value={typed} onInput={(e) => setRefund(value(e))} aria-invalid={!check.ok} />
          </Field>
          {check.ok ? null : <small class="error">{check.why}</small>}
          <Field label="Reason (optional)">
            <input value={reason} onInput={(e) => setReason(value(e))} />
          </Field>
          <button type="submit" class="danger" disabled={act.busy || !check.ok}>
            Cancel with a refund of {check.ok ? money(check.cents, currency) : "…"}
          </button>{" "}
          <button type="button" class="secondary" onClick={() => setCancelling(false)}>
            Keep it
          </button>
        </form>
      ) : null}
      {b.status !== "cancelled" ? <Move booking={b} moved={() => (setDone("Moved."), reload())} /> : null}
      <History id={id} guest={b.customer?.name ?? "the guest"} />
      <Thread bookingId={id} />
    </section>
  )
}

/** The refund's progress after its amount on the booking's total line. */
const refundNote: Record<RefundState, (error: string) => string> = {
  none: () => "",
  on_its_way: () => " on its way",
  refunded: () => " refunded",
  retrying: (error) => ` failed, trying again: ${error}`,
  failed: (error) => ` failed: ${error}`
}
