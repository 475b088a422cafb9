import { money } from "../format.ts"
import type { Payment } from "../types.ts"

/** How long a payment link keeps the places of a desk booking (the most the engine allows). */
export const LINK_MINUTES = 30

const CHOICES: ReadonlyArray<{ value: Payment; label: string; hint: string }> = [
  { value: "paid", label: "Paid now, at the desk", hint: "Confirmed and marked paid." },
  { value: "unpaid", label: "Pays later, at the door", hint: "Confirmed now; mark it paid when the guest pays." },
  {
    value: "online",
    label: "Send a payment link",
    hint: `The guest is emailed a link. The places are held for ${LINK_MINUTES} minutes; unpaid by then, they go back on sale.`
  },
  { value: "free", label: "Free", hint: "Confirmed with nothing to pay." }
]

/** The question a desk booking of a priced offering asks: how the guest pays (required, no default). */
export const PayChoice = ({
  total,
  currency,
  chosen,
  choose
}: {
  total: number
  currency: string
  chosen: Payment | undefined
  choose: (p: Payment) => void
}) => (
  <fieldset>
    <legend>How does the guest pay {money(total, currency)}?</legend>
    {CHOICES.map((c) => (
      <label key={c.value} class="choice pay">
        <input
          type="radio"
          name="payment"
          value={c.value}
          required
          checked={chosen === c.value}
          onChange={() => choose(c.value)}
        />
        <span>
          {c.label} <small class="muted">{c.hint}</small>
        </span>
      </label>
    ))}
  </fieldset>
)
