import { useState } from "preact/hooks"
import { api, Said } from "../api.ts"
import { money, parseMoney } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Done, Field, useConfirm, value } from "../ui.tsx"

interface Card {
  id: string
  last4: string
  amount_cents: number
  balance_cents: number
  /** Held by bookings not yet confirmed: the engine never takes it off by an adjustment. */
  reserved_cents: number
  for_email: string | null
  code?: string
}

/** Gift cards: the balance of each; a new card's code is shown once, here, and never again. */
export const GiftCards = () => {
  const { currency } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Card[] }>("/gift_cards").then((r) => r.data), [])
  const [form, setForm] = useState({ amount: "", email: "" })
  const [made, setMade] = useState<string | undefined>(undefined)
  const act = useAction(() => setMade(undefined))
  const { panel, ask } = useConfirm(act.busy)
  const [adjusting, setAdjusting] = useState<{ card: Card; amount: string; note: string } | undefined>(undefined)
  const adjust = (e: Event) => {
    e.preventDefault()
    if (adjusting === undefined) return
    const negative = adjusting.amount.trim().startsWith("-")
    const cents = parseMoney(adjusting.amount.trim().replace(/^[-+]/, ""), currency)
    if (cents === undefined || cents === 0) return act.setError("Type an amount, such as 10.00 or -10.00.")
    void act.run(
      () =>
        api.post(`/gift_cards/${adjusting.card.id}/adjust`, {
          cents: negative ? -cents : cents,
          note: adjusting.note.trim()
        }),
      () => (setMade(`••••${adjusting.card.last4} adjusted.`), setAdjusting(undefined), reload())
    )
  }
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
            {c.for_email ? ` for ${c.for_email}` : ""}{" "}
            <button type="button" class="link" onClick={() => setAdjusting({ card: c, amount: "", note: "" })}>
              Adjust <span class="visually-hidden">••••{c.last4}</span>
            </button>{" "}
            {c.balance_cents - c.reserved_cents > 0 ? (
              <button
                type="button"
                class="link"
                onClick={() =>
                  ask({
                    title: `Void the card ••••${c.last4}?`,
                    text: (
                      <p>
                        Its {money(c.balance_cents - c.reserved_cents, currency)} left to spend goes: it can no longer
                        pay.
                        {c.reserved_cents > 0
                          ? ` ${money(c.reserved_cents, currency)} held by bookings not yet confirmed stays with them.`
                          : ""}
                      </p>
                    ),
                    action: "Void the card",
                    run: () =>
                      act.run(
                        // What is left to spend now, read again: the row shown may be older than the card.
                        async () => {
                          const now = await api.get<Card>(`/gift_cards/${c.id}`)
                          if (now.balance_cents - now.reserved_cents <= 0)
                            throw new Said(`Nothing is left to spend on ••••${c.last4}: there is nothing to void.`)
                          return api.post(`/gift_cards/${c.id}/adjust`, {
                            cents: now.reserved_cents - now.balance_cents,
                            note: "Voided"
                          })
                        },
                        () => (setMade(`••••${c.last4} voided.`), reload())
                      )
                  })
                }
              >
                Void… <span class="visually-hidden">••••{c.last4}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {panel}
      {adjusting === undefined ? null : (
        <form class="panel inline" onSubmit={adjust} aria-label={`Adjust ••••${adjusting.card.last4}`}>
          <Field label={`Add or take off (${currency})`} hint="-10.00 takes ten off">
            <input
              required
              inputMode="decimal"
              value={adjusting.amount}
              onInput={(e) => setAdjusting({ ...adjusting, amount: value(e) })}
            />
          </Field>
          <Field label="Why">
            <input
              required
              maxLength={500}
              value={adjusting.note}
              onInput={(e) => setAdjusting({ ...adjusting, note: value(e) })}
            />
          </Field>
          <button type="submit" disabled={act.busy}>
            Adjust the balance
          </button>{" "}
          <button type="button" class="secondary" onClick={() => setAdjusting(undefined)}>
            Cancel
          </button>
        </form>
      )}
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
