import { useState } from "preact/hooks"
import { api } from "../api.ts"
import { localDate, money, parseMoney } from "../format.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Offering } from "../types.ts"
import { Alert, Field, useConfirm, value } from "../ui.tsx"

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

const EMPTY = { code: "", off: "", kind: "percent", max_uses: "", ends_on: "", offerings: [] as string[] }

/** Promo codes: what each takes off, how often it was used of its limit, until when, for which offerings. */
export const PromoCodes = () => {
  const { currency } = useConsole()
  const { data, reload } = useLoad(
    () =>
      Promise.all([
        api.get<{ data: Promo[] }>("/promo_codes").then((r) => r.data),
        api.get<{ data: Offering[] }>("/offerings").then((r) => r.data)
      ]),
    []
  )
  const [form, setForm] = useState(EMPTY)
  const act = useAction()
  const { panel, ask } = useConfirm(act.busy)
  const names = new Map((data?.[1] ?? []).map((o) => [o.id, o.name]))
  const create = (e: Event) => {
    e.preventDefault()
    const off =
      form.kind === "percent" ? { percent_off: Number(form.off) } : { amount_off_cents: parseMoney(form.off, currency) }
    if ("amount_off_cents" in off && off.amount_off_cents === undefined)
      return act.setError("Type an amount, such as 5.00.")
    void act.run(
      () =>
        api.post("/promo_codes", {
          code: form.code.trim(),
          ...off,
          ...(form.max_uses === "" ? {} : { max_uses: Number(form.max_uses) }),
          ...(form.ends_on === "" ? {} : { ends_on: form.ends_on }),
          ...(form.offerings.length === 0 ? {} : { offering_ids: form.offerings })
        }),
      () => (setForm(EMPTY), reload())
    )
  }
  const toggle = (id: string, on: boolean) =>
    setForm({ ...form, offerings: on ? [...form.offerings, id] : form.offerings.filter((x) => x !== id) })
  return (
    <section aria-labelledby="promos">
      <h2 id="promos">Promo codes</h2>
      <ul>
        {data?.[0].map((p) => (
          <li key={p.id}>
            <code>{p.code}</code>:{" "}
            {p.percent_off !== null ? `${p.percent_off}% off` : `${money(p.amount_off_cents ?? 0, currency)} off`} ·
            used {p.uses}
            {p.max_uses === null ? "" : ` of ${p.max_uses}`}
            {p.ends_on === null ? "" : ` · until ${localDate(p.ends_on)}`}
            {p.offering_ids === null
              ? " · every offering"
              : ` · for ${p.offering_ids.map((id) => names.get(id) ?? "an offering").join(", ")}`}{" "}
            {p.active ? "" : "(off)"}{" "}
            <button
              type="button"
              class="link"
              onClick={() => act.run(() => api.patch(`/promo_codes/${p.id}`, { active: !p.active }), reload)}
            >
              {p.active ? "Turn off" : "Turn on"} <span class="visually-hidden">{p.code}</span>
            </button>{" "}
            <button
              type="button"
              class="link"
              onClick={() =>
                ask({
                  title: `Delete the code ${p.code}?`,
                  text: <p>Guests can no longer use it. Bookings made with it keep their discount.</p>,
                  action: `Delete ${p.code}`,
                  run: () => act.run(() => api.del(`/promo_codes/${p.id}`), reload)
                })
              }
            >
              Delete… <span class="visually-hidden">{p.code}</span>
            </button>
          </li>
        ))}
      </ul>
      {panel}
      <form class="stack" onSubmit={create} aria-label="New promo code">
        <div class="grid">
          <Field label="Code">
            <input
              required
              minLength={3}
              maxLength={40}
              pattern="[A-Za-z0-9_\-]{3,40}"
              title="3 to 40 letters, digits, - or _"
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
          <Field label="Usage limit (optional)" hint="Empty: no limit">
            <input
              type="number"
              min={1}
              value={form.max_uses}
              onInput={(e) => setForm({ ...form, max_uses: value(e) })}
            />
          </Field>
          <Field label="Last day (optional)">
            <input type="date" value={form.ends_on} onInput={(e) => setForm({ ...form, ends_on: value(e) })} />
          </Field>
        </div>
        {data === undefined || data[1].length === 0 ? null : (
          <fieldset>
            <legend>Only for (none ticked: every offering)</legend>
            {data[1].map((o) => (
              <label class="choice" key={o.id}>
                <input
                  type="checkbox"
                  checked={form.offerings.includes(o.id)}
                  onChange={(e) => toggle(o.id, (e.currentTarget as HTMLInputElement).checked)}
                />{" "}
                {o.name}
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" disabled={act.busy}>
          Add code
        </button>
      </form>
      <Alert text={act.error} />
    </section>
  )
}
