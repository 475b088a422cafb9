import { useState } from "preact/hooks"
import { all, api } from "../api.ts"
import { addDays, dateTime, money, zonedToUtc } from "../format.ts"
import { refundCents, refundState } from "../money.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking } from "../types.ts"
import { Alert, Done, Field, Loading, Title, value } from "../ui.tsx"
import { GiftCards } from "./GiftCards.tsx"
import { PromoCodes } from "./PromoCodes.tsx"

/** Payments and refunds of the latest bookings (failed refunds first, with a retry), promo codes and gift cards. */
export const Money = () => {
  const { zone, currency } = useConsole()
  const [range, setRange] = useState({ from: "", to: "" })
  const { data, error, reload } = useLoad(
    () =>
      all<Booking>(
        "/bookings",
        {
          order: "desc",
          from: range.from === "" ? undefined : zonedToUtc(range.from, "00:00", zone).toISOString(),
          to: range.to === "" ? undefined : zonedToUtc(addDays(range.to, 1), "00:00", zone).toISOString()
        },
        2
      ),
    [range.from, range.to]
  )
  const act = useAction()
  const [done, setDone] = useState<string | undefined>(undefined)
  const moved = data?.filter((b) => b.paid_at !== null || (b.refund_cents ?? 0) > 0 || refundState(b) !== "none")
  const failed = moved?.filter((b) => b.refund_failed_at !== null && b.refunded_at === null) ?? []
  const rest = moved?.filter((b) => !failed.includes(b)) ?? []
  const paidIn = (moved ?? []).reduce(
    (s, b) => s + (b.paid_at === null ? 0 : (b.paid_cents ?? b.charged_cents ?? 0)),
    0
  )
  const refunded = (moved ?? []).reduce((s, b) => s + (refundState(b) === "refunded" ? refundCents(b) : 0), 0)
  const retry = (b: Booking) =>
    act.run(
      () => api.post<Booking>(`/bookings/${b.id}/retry_refund`),
      (after) => (
        setDone(
          refundState(after) === "refunded"
            ? `Refund of ${b.reference} taken again: refunded.`
            : `Refund of ${b.reference} taken again: on its way.`
        ),
        reload()
      )
    )
  return (
    <section>
      <Title>Money</Title>
      <h2>Payments and refunds</h2>
      <form class="filters" aria-label="Bookings between" onSubmit={(e) => e.preventDefault()}>
        <Field label="Bookings from">
          <input type="date" value={range.from} onInput={(e) => setRange({ ...range, from: value(e) })} />
        </Field>
        <Field label="To">
          <input type="date" value={range.to} onInput={(e) => setRange({ ...range, to: value(e) })} />
        </Field>
      </form>
      {moved === undefined ? null : (
        <p>
          <strong>
            Paid {money(paidIn, currency)} · refunded {money(refunded, currency)} · kept{" "}
            {money(paidIn - refunded, currency)}
          </strong>{" "}
          <span class="muted">
            ({range.from === "" && range.to === "" ? "the latest bookings" : "bookings in these days"}, by their time)
          </span>
        </p>
      )}
      <Alert text={act.error} />
      <Done text={done} />
      {moved === undefined ? (
        <Loading error={error} />
      ) : moved.length === 0 ? (
        <p class="muted">No payments yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Payments and refunds, failed refunds first</caption>
          <thead>
            <tr>
              <th scope="col">Booking</th>
              <th scope="col">Paid</th>
              <th scope="col">Refund</th>
            </tr>
          </thead>
          <tbody>
            {[...failed, ...rest].map((b) => (
              <tr key={b.id}>
                <td>
                  <a href={`${BASE}/bookings/${b.id}`}>{b.reference}</a> {b.customer?.name}
                  <div class="muted">{dateTime(b.created_at, zone)}</div>
                </td>
                <td>{b.paid_at === null ? "—" : money(b.paid_cents ?? b.charged_cents ?? 0, currency)}</td>
                <td>
                  <Refund booking={b} currency={currency} busy={act.busy} retry={() => void retry(b)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PromoCodes />
      <GiftCards />
    </section>
  )
}

/** A booking's refund: its amount and where it stands; one that failed for good with its Retry button. */
const Refund = ({
  booking: b,
  currency,
  busy,
  retry
}: {
  booking: Booking
  currency: string
  busy: boolean
  retry: () => void
}) => {
  const cents = money(refundCents(b), currency)
  switch (refundState(b)) {
    case "failed":
      return (
        <>
          <strong class="error">
            Failed: {b.refund_error ?? "the processor refused"} ({cents})
          </strong>{" "}
          <button type="button" class="secondary" disabled={busy} onClick={retry}>
            Retry refund<span class="visually-hidden"> of {b.reference}</span>
          </button>
        </>
      )
    case "retrying":
      return (
        <span class="error">
          Failed, trying again: {b.refund_error ?? "the processor refused"} ({cents})
        </span>
      )
    case "on_its_way":
      return <>{cents} on its way</>
    case "refunded":
      return <>{cents} refunded</>
    case "none":
      return <>{(b.refund_cents ?? 0) > 0 ? cents : "—"}</>
  }
}
