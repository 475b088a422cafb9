import { dateTime, money } from "../format.ts"
import { lapsed, owes } from "../money.ts"
import type { Booking } from "../types.ts"

/**
 * What the booking's payment asks of the desk. A hold is paid online or confirmed first (the engine marks paid only a
 * confirmed booking), so a hold says until when it keeps its places and offers to confirm it as paid or to pay later.
 */
export const PayActions = ({
  b,
  zone,
  currency,
  busy,
  post
}: {
  b: Booking
  zone: string
  currency: string
  busy: boolean
  post: (path: string, said: string, body?: unknown) => Promise<unknown>
}) => {
  if (b.status === "cancelled") return null
  if (b.status === "held") {
    const gone = lapsed(b)
    const owed = Math.max(0, b.total_cents - b.gift_cents)
    return (
      <div class="panel">
        <h2>Waiting for payment</h2>
        {gone ? (
          <p>
            The hold lapsed at {dateTime(b.expires_at ?? "", zone)}: its places went back on sale.
            {b.nudged_at !== null ? " The guest was emailed a link to finish booking." : ""} Confirming it takes the
            places again if they are still free.
          </p>
        ) : (
          <p>
            Held for online payment until <strong>{dateTime(b.expires_at ?? "", zone)}</strong>. Unpaid by then, it
            lapses and its places go back on sale.
          </p>
        )}
        {!gone && b.checkout_url !== null ? (
          <p>
            Payment link for the guest: <a href={b.checkout_url}>{b.checkout_url}</a>
          </p>
        ) : null}
        <p class="muted">The guest paid you instead, or pays at the door? Confirm it here:</p>
        <div class="actions wrap">
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              post("confirm", "Confirmed.").then((ok) =>
                ok === undefined ? undefined : post("mark_paid", "Confirmed and marked paid.")
              )
            }
          >
            Paid {money(owed, currency)} at the desk: confirm
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => post("confirm", "Confirmed.")}>
            Confirm, pays at the door
          </button>
          {gone && b.nudged_at === null ? (
            <button type="button" class="secondary" disabled={busy} onClick={() => post("nudge", "Guest nudged.")}>
              Email the guest a link to finish
            </button>
          ) : null}
        </div>
      </div>
    )
  }
  if (owes(b))
    return (
      <div class="actions wrap">
        <button type="button" class="secondary" disabled={busy} onClick={() => post("mark_paid", "Marked paid.")}>
          Mark paid
        </button>
      </div>
    )
  // Paid by hand: more was paid than the checkout charged and the gift card covered.
  if (b.paid_at !== null && (b.paid_cents ?? 0) > (b.charged_cents ?? 0) + b.gift_cents)
    return (
      <div class="actions wrap">
        <button type="button" class="secondary" disabled={busy} onClick={() => post("mark_unpaid", "Marked unpaid.")}>
          Mark unpaid
        </button>
      </div>
    )
  return null
}
