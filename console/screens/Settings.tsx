import { useEffect, useState } from "preact/hooks"
import { api } from "../api.ts"
import { currencies, languages, zones } from "../choices.ts"
import { BASE } from "../router.ts"
import { useAction, useConsole, useLoad } from "../state.ts"
import type { Org } from "../types.ts"
import { Alert, Done, Field, Title, value } from "../ui.tsx"
import { Embed } from "./Embed.tsx"
import { Templates } from "./Templates.tsx"
import { Waiver } from "./Waiver.tsx"

/** The org's settings, the sites that may embed the widget, the waiver, mail templates and the embed code. */
export const Settings = () => {
  const { refreshSession } = useConsole()
  const { data, reload } = useLoad(() => api.get<Org>("/org"), [])
  const [d, setD] = useState<Record<string, string | boolean>>({})
  const [done, setDone] = useState<string | undefined>(undefined)
  const act = useAction()
  useEffect(() => {
    if (data === undefined) return
    setD({
      name: data.name,
      timezone: data.timezone,
      currency: data.currency,
      locale: data.locale,
      payments: data.payments,
      auto_acknowledge: data.auto_acknowledge,
      guest_cancel_hours: data.guest_cancel_hours === null ? "" : String(data.guest_cancel_hours),
      origins: data.allowed_origins.join("\n")
    })
  }, [data])
  const set = (k: string) => (e: Event) => setD({ ...d, [k]: value(e) })
  const save = (e: Event) => {
    e.preventDefault()
    void act.run(
      () =>
        api.patch("/org", {
          name: String(d.name).trim(),
          timezone: String(d.timezone).trim(),
          currency: String(d.currency).trim().toUpperCase(),
          locale: String(d.locale).trim(),
          payments: d.payments,
          auto_acknowledge: d.auto_acknowledge === true,
          guest_cancel_hours: d.guest_cancel_hours === "" ? null : Number(d.guest_cancel_hours),
          allowed_origins: String(d.origins)
            .split(/\s+/)
            .map((o) => o.trim())
            .filter((o) => o !== "")
        }),
      () => (setDone("Settings saved."), reload(), void refreshSession())
    )
  }
  return (
    <section>
      <Title>Settings</Title>
      <p>
        <a href={`${BASE}/closures`}>Closures and holidays</a>: dates the org or an offering is closed, or open other
        hours.
      </p>
      {data === undefined ? null : (
        <form onSubmit={save} class="stack">
          <div class="grid">
            <Field label="Name">
              <input required value={String(d.name ?? "")} onInput={set("name")} />
            </Field>
            <Field label="Time zone">
              <select required value={String(d.timezone ?? "")} onChange={set("timezone")}>
                {zones(String(d.timezone ?? "")).map((z) => (
                  <option key={z} value={z}>
                    {z.replace(/_/g, " ")}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Currency">
              <select required value={String(d.currency ?? "")} onChange={set("currency")}>
                {currencies(String(d.currency ?? "")).map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Language of guest mail">
              <select required value={String(d.locale ?? "")} onChange={set("locale")}>
                {languages(String(d.locale ?? "")).map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Payments">
              <select value={String(d.payments)} onChange={set("payments")}>
                <option value="online">Guests pay online</option>
                <option value="offline">Guests pay on the day</option>
              </select>
            </Field>
            <Field label="Guests may cancel up to (hours before)">
              <input
                type="number"
                min={0}
                value={String(d.guest_cancel_hours ?? "")}
                onInput={set("guest_cancel_hours")}
              />
            </Field>
          </div>
          <label class="choice">
            <input
              type="checkbox"
              checked={d.auto_acknowledge === true}
              onChange={(e) => setD({ ...d, auto_acknowledge: (e.currentTarget as HTMLInputElement).checked })}
            />{" "}
            Tell guests automatically that their message arrived
          </label>
          <Field label="Sites that may embed the widget" hint="One origin per line, such as https://www.example.com">
            <textarea rows={3} value={String(d.origins ?? "")} onInput={set("origins")} />
          </Field>
          <Alert text={act.error} />
          <Done text={done} />
          <button type="submit" disabled={act.busy}>
            Save settings
          </button>
        </form>
      )}
      <Waiver />
      {data === undefined ? null : <Templates org={data} saved={reload} />}
      <Embed />
    </section>
  )
}
