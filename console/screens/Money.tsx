import { all } from "../api.ts"
import { dateTime, money } from "../format.ts"
import { BASE } from "../router.ts"
import { useConsole, useLoad } from "../state.ts"
import type { Booking } from "../types.ts"
import { Loading, Title } from "../ui.tsx"
import { GiftCards } from "./GiftCards.tsx"
import { PromoCodes } from "./PromoCodes.tsx"

/** Payments and refunds of the latest bookings (failed refunds first), promo codes and gift cards. */
export const Money = () => {
  const { zone, currency } = useConsole()
  const { data, error } = useLoad(() => all<Booking>("/bookings", { order: "desc" }, 2), [])
  const moved = data?.filter((b) => b.paid_at !== null || (b.refund_cents ?? 0) > 0 || b.refund_failed_at !== null)
  const failed = moved?.filter((b) => b.refund_failed_at !== null) ?? []
  const rest = moved?.filter((b) => b.refund_failed_at === null) ?? []
  return (
    <section>
      <Title>Money</Title>
      <h2>Payments and refunds</h2>
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
                  {b.refund_failed_at !== null ? (
                    <strong class="error">Failed: {b.refund_error ?? "the processor refused"}</strong>
                  ) : (b.refund_cents ?? 0) > 0 ? (
                    money(b.refund_cents ?? 0, currency)
                  ) : (
                    "—"
                  )}
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
