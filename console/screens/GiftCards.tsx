import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { money, parseMoney } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, value } from "../ui.tsx"

interface Card {
  id: string
  last4: string
  amount_cents: number
  balance_cents: number
  for_email: string | null
  code?: string
}

/** Gift cards: the balance of each; a new card's code is shown once, here, and never again. */
export const GiftCards = () => {
  const { currency } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Card[] }>("/gift_cards").then((r) => r.data), [])
  const [form, setForm] = useState({ amount: "", email: "" })
  const [made, setMade] = useState<string | undefined>(undefined)
  const act = useAction()
  const issue = (e: Event) => {
    e.preventDefault()
    const cents = parseMoney(form.amount, currency)
    if (cents === undefined) return act.setError("Type an amount, such as 25.00.")
    void act.run(
      () =>
        api.post<Card>("/gift_cards", { amount_cents: cents, ...(form.email ? { for_email: form.email.trim() } : {}) }),
      (c) => (setMade(`New gift card code (shown once): ${c.code}`), setForm({ amount: "", email: "" }), reload())
    )
  }
  return (
    <section aria-labelledby="cards">
      <h2 id="cards">Gift cards</h2>
      <ul>
        {data?.map((c) => (
          <li key={c.id}>
            ••••{c.last4}: {money(c.balance_cents, currency)} left of {money(c.amount_cents, currency)}
            {c.for_email ? ` for ${c.for_email}` : ""}
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={issue} aria-label="Issue a gift card">
        <Field label={`Amount (${currency})`}>
          <input
            required
            inputMode="decimal"
            value={form.amount}
            onInput={(e) => setForm({ ...form, amount: value(e) })}
          />
        </Field>
        <Field label="For (email, optional)">
          <input type="email" value={form.email} onInput={(e) => setForm({ ...form, email: value(e) })} />
        </Field>
        <button type="submit" disabled={act.busy}>
          Issue
        </button>
      </form>
      <Alert text={act.error} />
      <Done text={made} />
    </section>
  )
}
