import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { money, parseMoney } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import { Alert, Field, value } from "../ui.tsx"

interface Promo {
  id: string
  code: string
  percent_off: number | null
  amount_off_cents: number | null
  max_uses: number | null
  uses: number
  active: boolean
}

export const PromoCodes = () => {
  const { currency } = useConsole()
  const { data, reload } = useLoad(() => api.get<{ data: Promo[] }>("/promo_codes").then((r) => r.data), [])
  const [form, setForm] = useState({ code: "", off: "", kind: "percent" })
  const act = useAction()
  const create = (e: Event) => {
    e.preventDefault()
    const off =
      form.kind === "percent" ? { percent_off: Number(form.off) } : { amount_off_cents: parseMoney(form.off, currency) }
    void act.run(
      () => api.post("/promo_codes", { code: form.code.trim(), ...off }),
      () => (setForm({ ...form, code: "", off: "" }), reload())
    )
  }
  return (
    <section aria-labelledby="promos">
      <h2 id="promos">Promo codes</h2>
      <ul>
        {data?.map((p) => (
          <li key={p.id}>
            <code>{p.code}</code>:{" "}
            {p.percent_off !== null ? `${p.percent_off}% off` : money(p.amount_off_cents ?? 0, currency)} · used{" "}
            {p.uses}
            {p.max_uses === null ? "" : ` of ${p.max_uses}`} {p.active ? "" : "(off)"}{" "}
            <button
              type="button"
              class="link"
              onClick={() => act.run(() => api.patch(`/promo_codes/${p.id}`, { active: !p.active }), reload)}
            >
              {p.active ? "Turn off" : "Turn on"} <span class="visually-hidden">{p.code}</span>
            </button>
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={create} aria-label="New promo code">
        <Field label="Code">
          <input required value={form.code} onInput={(e) => setForm({ ...form, code: value(e) })} />
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
        <button type="submit" disabled={act.busy}>
          Add code
        </button>
      </form>
      <Alert text={act.error} />
    </section>
  )
}
