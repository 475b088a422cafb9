import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { money, parseMoney } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, useConfirm, value } from "../ui.tsx"

interface Card {
  id: string
  last4: string
  amount_cents: number
  balance_cents: number
  reserved_cents: number
  for_email: string | null
  code?: string
}

/**
 * Gift cards: the balance of each; a new card's code is shown once, here, and never again. A card's balance is adjusted
 * by an amount with a note (gift_cards.adjust); voiding takes what is left to spend off it, after asking.
 */
export const GiftCards = () => {
  const { currency } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Card[] }>("/gift_cards").then((r) => r.data), [])
  const [form, setForm] = useState({ amount: "", email: "" })
  const [change, setChange] = useState({ card: "", way: "add", amount: "", note: "" })
  const [made, setMade] = useState<string | undefined>(undefined)
  const act = useAction(() => setMade(undefined))
  const { panel, ask } = useConfirm(act.busy)
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
  const adjust = (e: Event) => {
    e.preventDefault()
    const cents = parseMoney(change.amount, currency)
    if (cents === undefined || cents === 0) return act.setError("Type an amount, such as 10.00.")
    const card = data?.find((c) => c.id === change.card)
    if (card === undefined) return act.setError("Choose a card.")
    const signed = change.way === "add" ? cents : -cents
    void act.run(
      () => api.post<Card>(`/gift_cards/${card.id}/adjust`, { cents: signed, note: change.note.trim() }),
      (c) => (
        setMade(`Card ••••${c.last4} now has ${money(c.balance_cents, currency)}.`),
        setChange({ ...change, amount: "", note: "" }),
        reload()
      )
    )
  }
  const spendable = (c: Card) => c.balance_cents - c.reserved_cents
  const voidCard = (c: Card) =>
    ask({
      title: `Void the card ••••${c.last4}?`,
      text: (
        <p>
          Its {money(spendable(c), currency)} left to spend goes: the guest can no longer pay with it.
          {c.reserved_cents > 0 ? ` ${money(c.reserved_cents, currency)} held by bookings stays with them.` : ""} This
          cannot be undone.
        </p>
      ),
      action: "Void the card",
      run: () =>
        act.run(
          () => api.post<Card>(`/gift_cards/${c.id}/adjust`, { cents: -spendable(c), note: "Voided" }),
          () => (setMade(`Card ••••${c.last4} voided.`), reload())
        )
    })
  return (
    <section aria-labelledby="cards">
      <h2 id="cards">Gift cards</h2>
      {panel}
      <ul>
        {data?.map((c) => (
          <li key={c.id}>
            ••••{c.last4}: {money(c.balance_cents, currency)} left of {money(c.amount_cents, currency)}
            {c.for_email ? ` for ${c.for_email}` : ""}{" "}
            {spendable(c) > 0 ? (
              <button type="button" class="link" onClick={() => voidCard(c)}>
                Void… <span class="visually-hidden">card ending {c.last4}</span>
              </button>
            ) : (
              "(nothing left)"
            )}
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
      {data === undefined || data.length === 0 ? null : (
        <form class="inline" onSubmit={adjust} aria-label="Adjust a gift card">
          <Field label="Card">
            <select required value={change.card} onChange={(e) => setChange({ ...change, card: value(e) })}>
              <option value="">Choose…</option>
              {data.map((c) => (
                <option key={c.id} value={c.id}>
                  ••••{c.last4} ({money(c.balance_cents, currency)})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Change">
            <select value={change.way} onChange={(e) => setChange({ ...change, way: value(e) })}>
              <option value="add">Add</option>
              <option value="remove">Take off</option>
            </select>
          </Field>
          <Field label={`By (${currency})`}>
            <input
              required
              inputMode="decimal"
              value={change.amount}
              onInput={(e) => setChange({ ...change, amount: value(e) })}
            />
          </Field>
          <Field label="Note">
            <input
              required
              maxLength={500}
              value={change.note}
              onInput={(e) => setChange({ ...change, note: value(e) })}
            />
          </Field>
          <button type="submit" disabled={act.busy}>
            Adjust
          </button>
        </form>
      )}
      <Alert text={act.error} />
      <Done text={made} />
    </section>
  )
}
