import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { money, parseMoney } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Offering } from "../types.ts"
import { Alert, Done, Field, useConfirm, value } from "../ui.tsx"

interface Promo {
  id: string
  code: string
  percent_off: number | null
  amount_off_cents: number | null
  max_uses: number | null
  uses: number
  ends_on: string | null
  offering_ids: string[] | null
  active: boolean
}

const blank = { code: "", off: "", kind: "percent", limit: "", ends: "", offerings: [] as string[] }

/** Promo codes: each with its uses and limit, last day and offerings; new ones with all of them; deleted after asking. */
export const PromoCodes = () => {
  const { currency } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Promo[] }>("/promo_codes").then((r) => r.data), [])
  const offerings = useLoad(() => api.get<{ data: Offering[] }>("/offerings").then((r) => r.data), []).data ?? []
  const [form, setForm] = useState(blank)
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction(() => setDone(undefined))
  const { panel, ask } = useConfirm(act.busy)
  const named = (ids: string[] | null) =>
    ids === null
      ? "every offering"
      : ids.map((id) => offerings.find((o) => o.id === id)?.name ?? "a removed offering").join(", ")
  const create = (e: Event) => {
    e.preventDefault()
    const off =
      form.kind === "percent" ? { percent_off: Number(form.off) } : { amount_off_cents: parseMoney(form.off, currency) }
    if (form.kind === "amount" && off.amount_off_cents === undefined)
      return act.setError("Type an amount, such as 5.00.")
    const body = {
      code: form.code.trim(),
      ...off,
      ...(form.limit === "" ? {} : { max_uses: Number(form.limit) }),
      ...(form.ends === "" ? {} : { ends_on: form.ends }),
      ...(form.offerings.length === 0 ? {} : { offering_ids: form.offerings })
    }
    void act.run(
      () => api.post<Promo>("/promo_codes", body),
      (p) => (setDone(`Code ${p.code} added.`), setForm(blank), reload())
    )
  }
  const remove = (p: Promo) =>
    ask({
      title: `Delete the code ${p.code}?`,
      text: (
        <p>
          Guests can no longer use {p.code}. Bookings already made with it keep their discount. This cannot be undone.
        </p>
      ),
      action: "Delete the code",
      run: () =>
        act.run(
          () => api.del(`/promo_codes/${p.id}`),
          () => (setDone(`Code ${p.code} deleted.`), reload())
        )
    })
  const toggle = (id: string) =>
    setForm({
      ...form,
      offerings: form.offerings.includes(id) ? form.offerings.filter((x) => x !== id) : [...form.offerings, id]
    })
  return (
    <section aria-labelledby="promos">
      <h2 id="promos">Promo codes</h2>
      {panel}
      <ul>
        {data?.map((p) => (
          <li key={p.id}>
            <code>{p.code}</code>:{" "}
            {p.percent_off !== null ? `${p.percent_off}% off` : `${money(p.amount_off_cents ?? 0, currency)} off`} ·
            used {p.uses}
            {p.max_uses === null ? "" : ` of ${p.max_uses}`} · {p.ends_on === null ? "no end" : `until ${p.ends_on}`} ·{" "}
            {named(p.offering_ids)} {p.active ? "" : "(off)"}{" "}
            <button
              type="button"
              class="link"
              onClick={() => act.run(() => api.patch(`/promo_codes/${p.id}`, { active: !p.active }), reload)}
            >
              {p.active ? "Turn off" : "Turn on"} <span class="visually-hidden">{p.code}</span>
            </button>{" "}
            <button type="button" class="link" onClick={() => remove(p)}>
              Delete… <span class="visually-hidden">{p.code}</span>
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={create} aria-label="New promo code">
        <div class="inline">
          <Field label="Code" hint="3 to 40 letters, digits, - or _">
            <input
              required
              maxLength={40}
              pattern="[A-Za-z0-9_\-]{3,40}"
              value={form.code}
              onInput={(e) => setForm({ ...form, code: value(e) })}
            />
          </Field>
          <Field label="Discount">
            <select value={form.kind} onChange={(e) => setForm({ ...form, kind: value(e) })}>
              <option value="percent">Percent off</option>
              <option value="amount">Amount off ({currency})</option>
            </select>
          </Field>
          <Field label="How much">
            <input required inputMode="decimal" value={form.off} onInput={(e) => setForm({ ...form, off: value(e) })} />
          </Field>
          <Field label="Usage limit (optional)" hint="Bookings that may use it">
            <input
              type="number"
              min={1}
              max={1000000}
              value={form.limit}
              onInput={(e) => setForm({ ...form, limit: value(e) })}
            />
          </Field>
          <Field label="Last day (optional)">
            <input type="date" value={form.ends} onInput={(e) => setForm({ ...form, ends: value(e) })} />
          </Field>
        </div>
        {offerings.length === 0 ? null : (
          <fieldset>
            <legend>Applies to (none ticked: every offering)</legend>
            {offerings.map((o) => (
              <label key={o.id} class="choice">
                <input type="checkbox" checked={form.offerings.includes(o.id)} onChange={() => toggle(o.id)} /> {o.name}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" disabled={act.busy}>
          Add code
        </button>
      </form>
      <Alert text={act.error} />
      <Done text={done} />
    </section>
  )
}
