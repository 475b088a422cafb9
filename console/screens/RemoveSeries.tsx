import { all, api } from "../api.ts"
import { dateTime, money } from "../format.ts"
import { refundable } from "../money.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Booking, TimeSlot } from "../types.ts"
import { Alert, Confirm, Loading } from "../ui.tsx"

/**
 * Removing a repeating entry: its future times go (past ones stay on record). What that takes away is shown before
 * anything happens: the times, and the bookings on them with what each gets back of its online payment; with bookings,
 * the choice is to cancel them with their refunds or to keep everything.
 */
export const RemoveSeries = ({
  seriesId,
  offeringId,
  label,
  removed,
  keep
}: {
  seriesId: string
  offeringId: string
  label: string
  removed: (said: string) => void
  keep: () => void
}) => {
  const { zone, currency } = useConsole()
  const now = new Date().toISOString()
  const { data, error } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: TimeSlot[] }>("/sessions", { offering_id: offeringId, from: now, status: "scheduled" }),
        all<Booking>("/bookings", { offering_id: offeringId, from: now })
      ]).then(([times, bookings]) => {
        const mine = times.data.filter((t) => t.series_id === seriesId)
        const ids = new Set(mine.map((t) => t.id))
        const booked = bookings.filter(
          (b) =>
            b.status !== "cancelled" && (b.series_id === seriesId || (b.session_id !== null && ids.has(b.session_id)))
        )
        return { times: mine, booked }
      }),
    [seriesId]
  )
  const act = useAction()
  if (data === undefined) return <Loading error={error} />
  const refunds = data.booked.reduce((s, b) => s + refundable(b), 0)
  const n = data.times.length
  const m = data.booked.length
  const remove = () =>
    act.run(
      () => api.del(`/series/${seriesId}`, m > 0 ? { cancel_bookings: "true" } : undefined),
      () =>
        removed(
          m > 0
            ? `Removed ${n} ${n === 1 ? "time" : "times"}; ${m} ${m === 1 ? "booking" : "bookings"} cancelled and the guests told.`
            : `Removed ${n} ${n === 1 ? "time" : "times"}.`
        )
    )
  return (
    <Confirm
      title={`Remove “${label}”?`}
      action={
        m > 0
          ? `Remove the times and cancel ${m} ${m === 1 ? "booking" : "bookings"} (refund ${money(refunds, currency)})`
          : `Remove ${n} future ${n === 1 ? "time" : "times"}`
      }
      keep="Keep the times"
      busy={act.busy}
      confirm={remove}
      cancel={keep}
    >
      <p>
        Its {n} future {n === 1 ? "time goes" : "times go"}
        {n > 0 ? ` (the first ${dateTime(data.times[0].starts_at, zone)})` : ""}; past times stay on record.
      </p>
      {m === 0 ? (
        <p>No one is booked on them.</p>
      ) : (
        <>
          <p>
            {m} {m === 1 ? "booking is" : "bookings are"} on them. Removing cancels {m === 1 ? "it" : "them"}, emails
            the guests, and refunds what was paid online, {money(refunds, currency)} in all:
          </p>
          <ul>
            {data.booked.map((b) => (
              <li key={b.id}>
                {b.customer?.name ?? b.customer?.email ?? "Guest"}, {dateTime(b.starts_at, zone)}:{" "}
                {refundable(b) > 0 ? `refund ${money(refundable(b), currency)}` : "nothing paid online"}
              </li>
            ))}
          </ul>
          <p class="muted">To refund part of a payment instead, cancel that time from its page first.</p>
        </>
      )}
      <Alert text={act.error} />
    </Confirm>
  )
}
